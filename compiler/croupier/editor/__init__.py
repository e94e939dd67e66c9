"""The editor stage: what a designer's editor and browser see while a spec is written.

`server` is a Language Server Protocol server (`croupier lsp`, on pygls) for spec files and the
reference-case files; `live` serves a local page (`croupier serve`) showing a spec's card, house
edges and semantic diff against the last commit, updated on each save; `highlight` writes the
TextMate grammar editors highlight specs with. This stage reads the driver and the stages below
it, and only the command line reads it.
"""
