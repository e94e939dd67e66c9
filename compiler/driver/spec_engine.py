"""One spec compiled in memory to a loaded engine, for the commands that run it (play, analyze).

Only parsing, resolving and emitting the engine run here: the rule card, the
conformance tests and the exhaustive static checks are `build`'s and `check`'s
work, and would cost these commands seconds of start-up on every call. A table
with a missing cell still stops a round, with the engine's own error.
"""

from __future__ import annotations

import sys
import types
from pathlib import Path


class CompiledSpec:
    """A resolved spec: its game, the loaded engine, the engine's source and code, every spec file read."""

    def __init__(self, game, engine: types.ModuleType, code: types.CodeType, sources: dict[str, str],
                 shown: str, source: str = "") -> None:
        self.game = game
        self.engine = engine
        self.code = code
        self.source = source
        self.sources = sources
        self.shown = shown


def compile_spec(spec: str) -> CompiledSpec:
    """Compile one spec; print its diagnostics and exit with status 1 when it does not resolve."""
    from croupier.backends.engine.emitter import emit_engine
    from croupier.backends.engine.loader import compile_engine, module_from_code, source_digest
    from croupier.diagnostics import render_all
    from croupier.paths import display_path
    from croupier.semantics.resolve import Loader

    loader = Loader()
    shown = display_path(Path(spec))
    game, diags = loader.load(shown, opened=spec)
    if game is None or any(d.is_error for d in diags):
        print(render_all(diags, loader.sources), file=sys.stderr)
        raise SystemExit(1)
    source = emit_engine(game, shown)
    code = compile_engine(source, game.name)
    engine = module_from_code(code, game.name, source_digest(source))
    return CompiledSpec(game, engine, code, loader.sources, shown, source)
