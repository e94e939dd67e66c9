"""Stage 1, syntax: the grammar, the parser, the syntax tree and the expression printer."""
