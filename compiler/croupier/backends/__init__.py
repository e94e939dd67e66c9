"""Back ends: each walks the resolved model and writes one kind of artefact."""
