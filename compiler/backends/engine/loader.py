"""Compile generated engine source once, and load it as a module (for `play`, checks and tests)."""

from __future__ import annotations

import sys
import types

_CODE: dict[str, types.CodeType] = {}


def source_digest(source: str) -> str:
    """The SHA-256 of an engine's source: the key of every cached result computed from it."""
    import hashlib

    return hashlib.sha256(source.encode("utf-8")).hexdigest()


def compile_engine(source: str, name: str) -> types.CodeType:
    """The code object of an engine's source, compiled once per process per source text.

    The emitter calls this to prove the source compiles before it is written; the
    loader then reuses the same code object.
    """
    code = _CODE.get(source)
    if code is None:
        if len(_CODE) > 64:
            _CODE.clear()
        code = _CODE[source] = compile(source, f"<engine {name}>", "exec")
    return code


def module_from_code(code: types.CodeType, name: str, digest: str) -> types.ModuleType:
    """Execute an engine's code in a fresh module named `croupier_engine_<name>`."""
    module = types.ModuleType(f"croupier_engine_{name}")
    module.__file__ = f"<engine {name}>"
    module.SOURCE_DIGEST = digest
    sys.modules[module.__name__] = module
    exec(code, module.__dict__)  # noqa: S102 - our own generated code
    return module


def load_engine(source: str, name: str) -> types.ModuleType:
    """Execute engine source in a fresh module named `croupier_engine_<name>`."""
    return module_from_code(compile_engine(source, name), name, source_digest(source))


def exact_analysis(engine: types.ModuleType, companion: types.ModuleType, decks: int) -> dict:
    """`companion.analyse(engine, decks)` of two modules `load_engine` loaded, computed once per (decks,
    engine source, companion source) and kept in the cache: the checks and the rule card share it."""
    from croupier.cache import cached

    return cached("analysis", f"{decks}\0{engine.SOURCE_DIGEST}\0{companion.SOURCE_DIGEST}",
                  lambda: companion.analyse(engine, decks))
