"""A disk cache of compiled engines: a command run again on an unchanged spec skips the compile.

Parsing, resolving and emitting a spec costs more than a whole exact analysis, so
`croupier analyze` keeps each spec's compiled engine (its code object, stored with
`marshal`, and the few facts of the game the command prints) in Croupier's cache
folder. An entry is used only while all of these still hold, else the spec is
compiled afresh and the entry rewritten:

- every spec file the compile read (the spec and the bases it extends) has exactly
  the text it had, compared in full;
- the compiler's own files are unchanged, judged as Python judges its `.pyc`
  files: by each file's size and modification time;
- the Python version is the same, and so is the path the engine names in its header.

The entry only replaces work whose result it stores; no output depends on whether
it was used. A damaged or unreadable entry is a miss, never an error. This module
stays light (no hashing, no parser) because it runs before anything else.
"""

from __future__ import annotations

import marshal
import os
import sys
import types
import zlib
from functools import lru_cache

from .paths import cache_dir

FORMAT = 1
SUFFIXES = (".py", ".lark")


@lru_cache(maxsize=1)
def compiler_stamp() -> tuple:
    """(relative path, size, modification time) of every compiler file an engine depends on
    (once per process: a lookup that misses is followed by a store)."""
    root = os.path.dirname(os.path.abspath(__file__))
    out = []
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = sorted(d for d in subfolders if d != "__pycache__")
        for name in sorted(files):
            if name.endswith(SUFFIXES):
                path = os.path.join(folder, name)
                st = os.stat(path)
                out.append((os.path.relpath(path, root), st.st_size, st.st_mtime_ns))
    return tuple(out)


def _entry(spec: str) -> str | None:
    folder = cache_dir()
    if folder is None:
        return None
    name = f"{zlib.crc32(os.path.abspath(spec).encode('utf-8')):08x}.marshal"
    return os.path.join(folder, "engines", name)


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except (OSError, UnicodeDecodeError):
        return None


def lookup(spec: str, shown: str) -> tuple[dict, types.CodeType] | None:
    """(facts of the game, engine code) of a spec compiled before and unchanged since, else None."""
    path = _entry(spec)
    if path is None:
        return None
    try:
        with open(path, "rb") as f:
            fmt, version, where, header, stamp, deps, facts, code = marshal.load(f)
    except Exception:  # noqa: BLE001 - a missing or damaged entry is a miss
        return None
    if (fmt, version, where, header) != (FORMAT, sys.version, os.path.abspath(spec), shown):
        return None
    if any(_read(dep) != text for dep, text in deps) or stamp != compiler_stamp():
        return None
    return facts, code


def store(spec: str, shown: str, sources: dict[str, str], facts: dict, code: types.CodeType) -> None:
    """Keep a spec's compiled engine; `sources` is every spec file the compile read, with its text."""
    path = _entry(spec)
    if path is None:
        return
    deps = tuple((os.path.abspath(p), text) for p, text in sources.items())
    data = (FORMAT, sys.version, os.path.abspath(spec), shown, compiler_stamp(), deps, facts, code)
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            marshal.dump(data, f)
        os.replace(tmp, path)
    except (OSError, ValueError):
        pass
