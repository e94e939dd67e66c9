"""A disk cache of compiled engines: a command run again on an unchanged spec skips the compile.

Parsing, resolving and emitting a spec costs more than a whole exact analysis, so
`croupier analyze` keeps each spec's engine SOURCE TEXT (never bytecode) and the
few facts of the game the command prints in Croupier's data-only cache
(`croupier.cache`: JSON, authenticated, private to the user). An entry is used
only while all of these still hold, else the spec is compiled afresh and the
entry rewritten:

- every spec file the compile read (the spec and the bases it extends) has exactly
  the text it had, compared in full;
- the compiler's own files are unchanged, judged as Python judges its `.pyc`
  files: by each file's size and modification time;
- the Python version is the same, and so is the path the engine names in its header;
- the source's SHA-256 is the digest recorded with it; only then is it compiled again.

The entry only replaces work whose result it stores; no output depends on whether
it was used. A damaged, foreign or unreadable entry is a miss, never an error.
This module stays light (no parser) because it runs before anything else.
"""

from __future__ import annotations

import hashlib
import os
import sys
import types
from functools import lru_cache

from croupier import cache

FORMAT = 2
KIND = "engines"
SUFFIXES = (".py", ".lark")


@lru_cache(maxsize=1)
def compiler_stamp() -> tuple:
    """(relative path, size, modification time) of every compiler file an engine depends on
    (once per process: a lookup that misses is followed by a store)."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    out = []
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(SUFFIXES):
                path = os.path.join(folder, name)
                st = os.stat(path)
                out.append((os.path.relpath(path, root), st.st_size, st.st_mtime_ns))
    return tuple(out)


def _read(path: str) -> str | None:
    if not isinstance(path, str):
        return None
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return None


def _header(spec: str, shown: str) -> list:
    return [FORMAT, sys.version, os.path.abspath(spec), shown, [list(s) for s in compiler_stamp()]]


def lookup(spec: str, shown: str) -> tuple[dict, types.CodeType] | None:
    """(facts of the game, engine code compiled from the cached source) of a spec compiled before and
    unchanged since, else None."""
    entry = cache.load(KIND, os.path.abspath(spec))
    try:
        if entry["header"] != _header(spec, shown):
            return None
        if any(_read(dep) != text for dep, text in entry["deps"]):
            return None
        facts, source = entry["facts"], entry["source"]
        if hashlib.sha256(source.encode("utf-8")).hexdigest() != facts["digest"]:
            return None
        from croupier.backends.engine.loader import compile_engine

        return facts, compile_engine(source, facts["name"])
    except (KeyError, TypeError, ValueError, AttributeError, SyntaxError):
        return None  # no entry (None), or one of another shape: a miss


def store(spec: str, shown: str, sources: dict[str, str], facts: dict, source: str) -> None:
    """Keep a spec's engine source; `sources` is every spec file the compile read, with its text."""
    deps = [[os.path.abspath(p), text] for p, text in sources.items()]
    cache.store(KIND, os.path.abspath(spec),
                {"header": _header(spec, shown), "deps": deps, "facts": facts, "source": source})
