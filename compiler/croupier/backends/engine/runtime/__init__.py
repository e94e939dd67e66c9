"""Runtime pieces that the engine emitter copies into generated engines and their companions.

Each module here is ordinary Python (linted and tested like the rest), written
against the constants and functions the emitter generates from a spec. The part
of a module below its `# ---- engine ----` line (`# ---- companion ----` for
the `analysis_*` modules, which go into the analysis companion beside the engine) is
copied verbatim, less the parts marked `# ---- part NAME if CONDITION ----` …
`# ---- end NAME ----` whose condition the game does not meet (see `parts`); the
imports above the line are for linters only.
"""
