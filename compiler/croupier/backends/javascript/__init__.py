"""JavaScript back end: each spec's engine as an ES module on the hand-written JavaScript runtime, its TypeScript
declarations, and its reference cases as Node tests (a build writes them when the project's `targets` name
"javascript")."""
