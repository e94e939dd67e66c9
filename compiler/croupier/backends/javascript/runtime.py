"""JavaScript back end, the runtime: `croupier_runtime.js` and its declarations, written once beside the engines.

The runtime is hand-written package data (`runtime/`), a port of the Python runtime; the build writes it
with croupier's version in place of its `__VERSION__`.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from croupier import __version__

FOLDER = Path(__file__).resolve().parent / "runtime"
FILES = ("croupier_runtime.js", "croupier_runtime.d.ts", "package.json")


@cache
def runtime_files() -> dict[str, str]:
    """{file name: text} of the runtime the engines import."""
    return {name: (FOLDER / name).read_text(encoding="utf-8").replace("__VERSION__", __version__) for name in FILES}
