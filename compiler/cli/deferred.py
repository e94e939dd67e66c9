"""Optional modules that a library imports at start-up, imported at their first use instead.

Lark imports the third-party `regex` module whenever it is installed, so that a grammar may ask
for it (`Lark(regex=True)`); Croupier's grammar never does, yet the import is about a tenth of a
cold command's start-up. `defer(name)` puts a stand-in module under that name: importing it gives
the stand-in, and the first read of any of its attributes imports the real module and copies the
real module's names into the stand-in, which from then on answers as the real module does. A
module that is not installed gets no stand-in, so that importing it fails as before; one already
imported is left alone. Only the `croupier` command defers (`croupier.cli.main.main` run as the
program), never a process that imports Croupier as a library.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types

__all__ = ["defer"]


def defer(name: str) -> None:
    """Import the top-level module `name` at the first read of one of its attributes, not when it is imported."""
    if name in sys.modules:
        return
    try:
        spec = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return
    if spec is None:
        return
    stand_in = types.ModuleType(name)
    stand_in.__spec__ = spec
    stand_in.__getattr__ = _loader(name, stand_in)  # a module's `__getattr__` answers what it lacks (PEP 562)
    sys.modules[name] = stand_in


def _loader(name: str, stand_in: types.ModuleType):
    """The stand-in's `__getattr__`: import the real module (once), take its names, answer `attr`."""

    def load(attr: str):
        if sys.modules.get(name) is stand_in:
            del sys.modules[name]
            try:
                real = importlib.import_module(name)
            except BaseException:
                sys.modules[name] = stand_in
                raise
        else:
            real = sys.modules.get(name) or importlib.import_module(name)
        if stand_in.__dict__.get("__getattr__") is load:
            del stand_in.__getattr__
        stand_in.__dict__.update(real.__dict__)
        return getattr(real, attr)

    return load
