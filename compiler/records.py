"""`dataclass`: the standard library's decorator, its methods made with less compiling.

`dataclasses.dataclass` writes the source of every method it adds and compiles it at
once: for the hundred classes of the syntax tree and the game model, three to six
methods each, that was a fifth of a cold `croupier analyze`. This decorator lets
`dataclasses.dataclass` collect the fields (defaults, factories, `kw_only`, the class
attributes it sets, `__dataclass_fields__`, `__match_args__`), then adds the methods:
- `__repr__`, `__eq__`, `__hash__`, and a frozen class's `__setattr__` and `__delattr__`
  read the fields in order, which one shared body per method does as well given the
  class's field names: they are closures over the names, nothing compiled;
- `__init__` needs the class's own signature: its source is written as the standard
  decorator writes it, and compiled the first time the class is instantiated (a
  command that never makes a node of some kind never compiles its `__init__`).

They behave as the standard ones (Python 3.11's, which later versions keep):
- `__init__`: the fields as parameters in order (keyword-only ones after `*`), a default
  factory called for a field not given, `__post_init__` called last; a frozen class's
  fields set through `object.__setattr__`; annotated with the fields' types;
- `__repr__`: `Class(a=1, b='x')` with the fields that have `repr=True`, `...` for an
  instance met again while it is being shown (the standard `recursive_repr` guard);
- `__eq__`: NotImplemented unless both objects are of the same class, else the tuples
  of the fields that have `compare=True` compared;
- `__hash__`: None (unhashable) for a class that is not frozen, else the hash of the
  tuple of the fields that `hash` (by default `compare`) selects;
- frozen `__setattr__`/`__delattr__`: FrozenInstanceError for the class's own instances
  and for its fields' names, the next class's method otherwise.
Methods the class defines itself are kept, and `__dataclass_params__` records what the
standard decorator records. Until the first instance is made, `inspect.signature` of
the class reads `(*args, **kwargs)`. Only `frozen` is taken as an option (the only one
the compiler's models use); a class this module does not handle (no docstring, an
`InitVar` or `ClassVar` field, a frozen base made by the standard decorator) is left to
the standard decorator whole. `tests/test_records.py` holds the methods equal to the
standard ones.
"""

from __future__ import annotations

import dataclasses
import reprlib
import sys
from collections.abc import Callable
from operator import attrgetter
from pathlib import Path
from typing import Any, TypeVar

T = TypeVar("T", bound=type)


class _HasDefaultFactory:
    """The default of a parameter whose field has a default factory (`<factory>` in signatures, as in `dataclasses`)."""

    def __repr__(self) -> str:
        return "<factory>"


_HAS_DEFAULT_FACTORY = _HasDefaultFactory()
_OURS: set = set()  # the `__dataclass_params__` of the frozen classes made here
_MADE: dict[str, tuple] = {}  # module.qualname → (fields, frozen, __post_init__?) of the module-level classes made here
INITS_MODULE = Path(__file__).with_name("dataclass_inits.py")


def _tuple_of(names: tuple[str, ...]) -> Callable[[object], tuple]:
    """A function from an object to the tuple of its attributes `names`, in order."""
    if not names:
        return lambda obj: ()
    if len(names) == 1:
        one = attrgetter(names[0])
        return lambda obj: (one(obj),)
    return attrgetter(*names)


def _named(cls: type, fn: Callable) -> Callable:
    fn.__qualname__ = f"{cls.__qualname__}.{fn.__name__}"
    return fn


def _repr_fn(names: tuple[str, ...]) -> Callable[[object], str]:
    @reprlib.recursive_repr()
    def __repr__(self) -> str:  # noqa: N807 - the method's own name
        return self.__class__.__qualname__ + "(" + ", ".join([f"{n}={getattr(self, n)!r}" for n in names]) + ")"

    return __repr__


def _eq_fn(values: Callable[[object], tuple]) -> Callable[[object, object], Any]:
    def __eq__(self, other):  # noqa: N807 - the method's own name
        if other.__class__ is self.__class__:
            return values(self) == values(other)
        return NotImplemented

    return __eq__


def _hash_fn(values: Callable[[object], tuple]) -> Callable[[object], int]:
    def __hash__(self) -> int:  # noqa: N807 - the method's own name
        return hash(values(self))

    return __hash__


def _frozen_fns(cls: type, names: tuple[str, ...]) -> tuple[Callable, Callable]:
    def __setattr__(self, name, value):  # noqa: N807 - the method's own name
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self, name):  # noqa: N807 - the method's own name
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __setattr__, __delattr__


def _init_source(fields: tuple[dataclasses.Field, ...], frozen: bool, post_init: bool) -> tuple[str, dict]:
    """(source of a function returning `__init__`, its arguments): the `__init__` `dataclasses` writes."""
    missing = dataclasses.MISSING
    self_name = "__dataclass_self__" if any(f.name == "self" for f in fields) else "self"
    args: dict[str, Any] = {f"__dataclass_type_{f.name}__": f.type for f in fields}
    args.update({"_HAS_DEFAULT_FACTORY": _HAS_DEFAULT_FACTORY, "__dataclass_builtins_object__": object,
                 "_return_type": None})
    body = []
    for f in fields:
        default = f"__dataclass_dflt_{f.name}__"
        if f.default_factory is not missing:
            args[default] = f.default_factory
            value = f"{default}() if {f.name} is _HAS_DEFAULT_FACTORY else {f.name}" if f.init else f"{default}()"
        elif f.init:
            if f.default is not missing:
                args[default] = f.default
            value = f.name
        else:
            continue
        body.append(f"__dataclass_builtins_object__.__setattr__({self_name}, {f.name!r}, {value})" if frozen
                    else f"{self_name}.{f.name} = {value}")
    if post_init:
        body.append(f"{self_name}.__post_init__()")

    def param(f: dataclasses.Field) -> str:
        if f.default is not missing:
            default = f" = __dataclass_dflt_{f.name}__"
        elif f.default_factory is not missing:
            default = " = _HAS_DEFAULT_FACTORY"
        else:
            default = ""
        return f"{f.name}: __dataclass_type_{f.name}__{default}"

    params = [self_name] + [param(f) for f in fields if f.init and not f.kw_only]
    keywords = [param(f) for f in fields if f.init and f.kw_only]
    if keywords:
        params += ["*", *keywords]
    lines = "\n".join(f"        {line}" for line in body or ["pass"])
    source = (f"def __create_fn__({', '.join(args)}):\n    def __init__({', '.join(params)}) -> _return_type:\n"
              f"{lines}\n    return __init__\n")
    return source, args


def _lazy_init(cls: type, fields: tuple[dataclasses.Field, ...], frozen: bool, post_init: bool) -> Callable:
    """An `__init__` that compiles the class's own (`_init_source`) at its first call, puts it on the class and
    calls it."""

    def __init__(self, *args, **kwargs):  # noqa: N807 - the method's own name
        own = cls.__dict__.get("__init__")
        if own is __init__:
            source, names = _init_source(fields, frozen, post_init)
            factory = _made_ahead(f"{cls.__module__}.{cls.__qualname__}", source)
            if factory is None:
                module = sys.modules.get(cls.__module__)
                made: dict = {}
                code = compile(source, "<string>", "exec", dont_inherit=True)  # annotations evaluated, as in dataclasses
                exec(code, module.__dict__ if module is not None else {}, made)  # noqa: S102 - as `dataclasses` does
                factory = made["__create_fn__"]
            own = _named(cls, factory(**names))
            cls.__init__ = own
        own(self, *args, **kwargs)

    return _named(cls, __init__)


def _made_ahead(key: str, source: str) -> Callable | None:
    """The factory of a class's `__init__` compiled ahead of time (`dataclass_inits`, a module of the package,
    with bytecode after an install), if it was made from the same source; None otherwise."""
    try:
        from croupier import dataclass_inits as made
    except ImportError:
        return None
    return made.FACTORIES[key] if made.SOURCES.get(key) == source else None


def _check_defaults(cls: type, fields: tuple[dataclasses.Field, ...]) -> None:
    seen_default = False
    for f in fields:
        if f.init and not f.kw_only:
            if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING:
                seen_default = True
            elif seen_default:
                raise TypeError(f"non-default argument {f.name!r} follows default argument")


def _handled(cls: type) -> tuple[bool, bool]:
    """(whether this module makes the class's methods, whether a base made here is frozen)."""
    if not cls.__dict__.get("__doc__"):
        return False, False  # `dataclasses` writes a docstring from the signature
    own = cls.__dict__.get("__annotations__", {})
    if any(isinstance(t, str) and ("ClassVar" in t or "InitVar" in t) or not isinstance(t, str) for t in own.values()):
        return False, False
    frozen_base = False
    for base in cls.__mro__[1:]:
        params = base.__dict__.get("__dataclass_params__")
        if params is not None and params.frozen:
            if params not in _OURS:
                return False, False
            frozen_base = True
    return True, frozen_base


def _process(cls: T, frozen: bool) -> T:
    handled, frozen_base = _handled(cls)
    if not handled:
        return dataclasses.dataclass(cls, frozen=frozen)
    if frozen_base and not frozen:
        raise TypeError("cannot inherit non-frozen dataclass from a frozen one")
    if frozen and not frozen_base and any(hasattr(b, "__dataclass_fields__") for b in cls.__mro__[1:]):
        raise TypeError("cannot inherit frozen dataclass from a non-frozen one")
    own = cls.__dict__
    has_eq = "__eq__" in own
    class_hash = own.get("__hash__", dataclasses.MISSING)
    explicit_hash = not (class_hash is dataclasses.MISSING or (class_hash is None and has_eq))
    bases = [b.__dict__["__dataclass_params__"] for b in cls.__mro__[1:] if b.__dict__.get("__dataclass_params__")
             in _OURS]
    for params in bases:  # the standard decorator, not told of frozen, is shown frozen bases as not frozen
        params.frozen = False
    try:
        cls = dataclasses.dataclass(cls, init=False, repr=False, eq=False)
    finally:
        for params in bases:
            params.frozen = True
    fields = dataclasses.fields(cls)
    _check_defaults(cls, fields)
    if "__init__" not in own:
        post_init = hasattr(cls, "__post_init__")
        cls.__init__ = _lazy_init(cls, fields, frozen, post_init)
        if "<locals>" not in cls.__qualname__:
            _MADE[f"{cls.__module__}.{cls.__qualname__}"] = (fields, frozen, post_init)
    if "__repr__" not in own:
        cls.__repr__ = _named(cls, _repr_fn(tuple(f.name for f in fields if f.repr)))
    values = _tuple_of(tuple(f.name for f in fields if f.compare))
    if not has_eq:
        cls.__eq__ = _named(cls, _eq_fn(values))
    if frozen:
        for fn in _frozen_fns(cls, tuple(f.name for f in fields)):
            if fn.__name__ in own:
                raise TypeError(f"Cannot overwrite attribute {fn.__name__} in class {cls.__name__}")
            setattr(cls, fn.__name__, _named(cls, fn))
    if not explicit_hash:  # the standard table for eq=True, unsafe_hash=False
        if frozen:
            hashed = _tuple_of(tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash)))
            cls.__hash__ = _named(cls, _hash_fn(hashed))
        else:
            cls.__hash__ = None
    params = cls.__dataclass_params__
    params.init = params.repr = params.eq = True
    params.frozen = frozen
    if frozen:
        _OURS.add(params)
    return cls


def dataclass(cls: T | None = None, /, *, frozen: bool = False):
    """`dataclasses.dataclass` (with its defaults, or `frozen=True`), its methods made with less compiling."""
    if cls is None:
        return lambda c: _process(c, frozen)
    return _process(cls, frozen)


def _users() -> list[str]:
    """The modules of the package that make classes with this decorator (found by their import line)."""
    root = Path(__file__).parent
    return sorted(".".join(("croupier", *p.relative_to(root).with_suffix("").parts)) for p in root.rglob("*.py")
                  if "from croupier.records import dataclass" in p.read_text(encoding="utf-8"))


def inits_module_text() -> str:
    """The source of `dataclass_inits`: the `__init__` factory of every module-level class of the package made
    with this decorator, compiled with the package, each with the source it was made from."""
    import importlib

    for name in _users():
        importlib.import_module(name)
    keys = sorted(_MADE)
    sources = {key: _init_source(*_MADE[key])[0] for key in keys}
    parts = [
        "# @generated by `python -m croupier.records` from the package's dataclasses: do not edit.",
        '"""The `__init__` of each dataclass of the package, compiled ahead of time: see `croupier.records`."""',
        "",
        "SOURCES = {",
        *(f"    {key!r}: {sources[key]!r}," for key in keys),
        "}",
    ]
    for number, key in enumerate(keys):
        parts += ["", "", sources[key].replace("def __create_fn__(", f"def _init_{number}(", 1).rstrip("\n")]
    parts += ["", "", "FACTORIES = {", *(f"    {key!r}: _init_{number}," for number, key in enumerate(keys)), "}", ""]
    return "\n".join(parts)


def main(argv: list[str] | None = None) -> int:
    """Write `dataclass_inits.py`; with `--check`, only say whether the committed one is fresh."""
    args = sys.argv[1:] if argv is None else argv
    text = inits_module_text()
    current = INITS_MODULE.read_text(encoding="utf-8") if INITS_MODULE.exists() else None
    if "--check" in args:
        if current != text:
            print(f"{INITS_MODULE.name} is stale: run python -m croupier.records", file=sys.stderr)
            return 1
        return 0
    if current != text:
        from croupier.outputs import write_atomic

        write_atomic(INITS_MODULE, text.encode("utf-8"))
        print(f"wrote {INITS_MODULE}")
    return 0


if __name__ == "__main__":  # the package's own module, whose registry the package's classes fill
    from croupier.records import main as package_main

    raise SystemExit(package_main())
