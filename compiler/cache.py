"""A disk cache for expensive results that depend only on an engine and the compiler.

Exhaustive checks, exact analyses and example-hand searches are pure functions
of the engine source they run on and of the compiler's own code. Their results
are stored under a key made of both digests, so editing a spec or the compiler
computes them afresh and nothing stale is ever reused. The cache lives in
$CROUPIER_CACHE (default: ~/.cache/croupier); CROUPIER_CACHE=off disables it.
A damaged or unreadable entry is recomputed, never an error.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from collections.abc import Callable
from functools import lru_cache
from pathlib import Path
from typing import TypeVar

from .paths import cache_dir

T = TypeVar("T")
COMPILER = Path(__file__).resolve().parent
CODE_SUFFIXES = {".py", ".lark", ".j2", ".css", ".po", ".pot"}
_MEMORY: dict[str, object] = {}


@lru_cache(maxsize=1)
def compiler_digest() -> str:
    """A digest of the compiler's own code, templates and catalogs."""
    h = hashlib.sha256()
    for path in sorted(COMPILER.rglob("*")):
        if path.suffix in CODE_SUFFIXES and "__pycache__" not in path.parts:
            h.update(str(path.relative_to(COMPILER)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def cached(kind: str, key: str, compute: Callable[[], T]) -> T:
    """The result of `compute()` for (kind, key), from memory, then disk, else computed and stored."""
    digest = hashlib.sha256(f"{kind}\0{compiler_digest()}\0{key}".encode()).hexdigest()
    if digest in _MEMORY:
        return _MEMORY[digest]  # type: ignore[return-value]
    folder = cache_dir()
    path = folder / kind / f"{digest}.pickle" if folder else None
    if path is not None and path.is_file():
        try:
            value = pickle.loads(path.read_bytes())  # noqa: S301 - our own cache, written below
            _MEMORY[digest] = value
            return value
        except Exception:  # noqa: BLE001 - a damaged entry is recomputed
            pass
    value = compute()
    _MEMORY[digest] = value
    if path is not None:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as tmp:
                tmp.write(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
            os.replace(tmp.name, path)
        except (OSError, pickle.PicklingError, TypeError, AttributeError):
            pass
    return value
