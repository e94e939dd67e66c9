"""Stage 2, semantics: the typed model and the resolver that builds it from the syntax tree."""
