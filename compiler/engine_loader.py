"""Compile generated engine source once, and load it as a module (for `play`, checks and tests)."""

from __future__ import annotations

import hashlib
import sys
import types

_CODE: dict[str, types.CodeType] = {}


def compile_engine(source: str, name: str) -> types.CodeType:
    """The code object of an engine's source, compiled once per process per source text.

    The emitter calls this to prove the source compiles before it is written; the
    loader then reuses the same code object.
    """
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    code = _CODE.get(digest)
    if code is None:
        if len(_CODE) > 64:
            _CODE.clear()
        code = _CODE[digest] = compile(source, f"<engine {name}>", "exec")
    return code


def load_engine(source: str, name: str) -> types.ModuleType:
    """Execute engine source in a fresh module named `croupier_engine_<name>`."""
    module = types.ModuleType(f"croupier_engine_{name}")
    module.__file__ = f"<engine {name}>"
    module.SOURCE_DIGEST = hashlib.sha256(source.encode("utf-8")).hexdigest()
    sys.modules[module.__name__] = module
    exec(compile_engine(source, name), module.__dict__)  # noqa: S102 - our own generated code
    return module
