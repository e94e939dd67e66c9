"""Runtime pieces that the engine emitter copies into every generated engine.

Each module here is ordinary Python (linted and tested like the rest), written
against the constants and functions the emitter generates from a spec. The part
of a module below the `# ---- engine ----` line is copied verbatim; the imports
above it are for linters only.
"""
