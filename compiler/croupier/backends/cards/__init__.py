"""Back end: the rule cards (card model, templates, message catalogs, SVG)."""
