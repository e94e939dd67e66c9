"""Back end: the standalone Python engine (emitter, runtime parts, loader)."""
