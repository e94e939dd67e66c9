"""Optional modules that a library imports at start-up, imported at their first use instead.

Lark imports the third-party `regex` module whenever it is installed, so that a grammar may ask
for it (`Lark(regex=True)`); Croupier's grammar never does, yet the import is about a tenth of a
cold command's start-up. `defer(name)` puts a stand-in module under that name: importing it gives
the stand-in, and the first read of any of its attributes imports the real module and copies the
real module's names into the stand-in, which from then on answers as the real module does. A
module that is not installed gets no stand-in, so that importing it fails as before; one already
imported is left alone. Only the `croupier` command defers (`croupier.cli.main.main` run as the
program), never a process that imports Croupier as a library.

`defer_init(name)` does the same for a package's `__init__` alone. Lark's `__init__` imports
`lark.lark`, the grammar compiler (with `pickle`, `tempfile`, `getpass` and the Earley parsers),
whenever any of its modules is imported; a parser loaded from tables computed ahead of time
(`croupier.syntax.grammar_tables`) needs only the lexer, tree and LALR modules, and importing the
grammar compiler was about 8 ms and 300 page faults of a cold `analyze`. The stand-in is the package
itself, made from its spec with its `__init__` not yet run: its modules import as usual (they find its
`__path__`), and the first read of a name only the `__init__` defines (`lark.Lark`, `from lark import
Tree`) runs the `__init__` in place, once, after which the package is the one an ordinary import makes.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import types
from _thread import RLock

__all__ = ["defer", "defer_init"]


def _not_imported(name: str):
    """The spec of the top-level module `name` when it is installed and not imported yet, else None."""
    if name in sys.modules:
        return None
    try:
        return importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None


def defer(name: str) -> None:
    """Import the top-level module `name` at the first read of one of its attributes, not when it is imported."""
    spec = _not_imported(name)
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


def defer_init(name: str) -> None:
    """Run the `__init__` of the package `name` at the first read of a name it defines, not when the
    package or one of its modules is imported (see the module's docstring)."""
    spec = _not_imported(name)
    if spec is None or spec.loader is None or spec.submodule_search_locations is None:
        return  # not installed, or a plain module (`defer` serves those)
    package = importlib.util.module_from_spec(spec)  # `__path__`, `__spec__`, `__file__`: nothing run
    package.__getattr__ = _initialiser(spec, package)
    sys.modules[name] = package


def _initialiser(spec, package: types.ModuleType):
    """The package's `__getattr__` until its `__init__` has run: run it in place (once), answer `attr`."""
    lock = RLock()

    def initialise(attr: str):
        with lock:
            if package.__dict__.get("__getattr__") is initialise:
                del package.__getattr__  # the `__init__` may define its own
                try:
                    spec.loader.exec_module(package)
                except BaseException:
                    if "__getattr__" not in package.__dict__:
                        package.__getattr__ = initialise  # a later read tries again, and fails as this one did
                    raise
        try:
            return package.__dict__[attr]
        except KeyError:
            getter = package.__dict__.get("__getattr__")
            if getter is not None and getter is not initialise:
                return getter(attr)
            raise AttributeError(f"module {spec.name!r} has no attribute {attr!r}") from None

    return initialise
