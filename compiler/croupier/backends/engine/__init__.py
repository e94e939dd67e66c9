"""Back end: the Python engine on the runtime library (emitter, the runtime as one file, loader)."""
