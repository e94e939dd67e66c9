"""`dataclass`: the standard library's decorator, with `__repr__`, `__eq__` and `__hash__` made without compiling.

`dataclasses.dataclass` writes the source of every method it adds and compiles it: for
the hundred classes of the syntax tree and the game model, three to six methods each,
that is a fifth of a cold `croupier analyze`. Compiling is needed for `__init__` (its
signature is the class's) and for a frozen class's `__setattr__` and `__delattr__`
(which the standard decorator adds itself); `__repr__`, `__eq__` and `__hash__` read
the fields in order, which one shared body per method does as well, given the class's
field names. So this decorator lets `dataclasses.dataclass` make the class without
those three, then adds them as closures over the field names: the same methods, made
without compiling anything.

They behave as the standard ones (Python 3.11's, which later versions keep):
- `__repr__`: `Class(a=1, b='x')` with the fields that have `repr=True`, `...` for an
  instance met again while it is being shown (the standard `recursive_repr` guard);
- `__eq__`: NotImplemented unless both objects are of the same class, else the tuples
  of the fields that have `compare=True` compared;
- `__hash__`: None (unhashable) for a class that is not frozen, else the hash of the
  tuple of the fields that `hash` (by default `compare`) selects; a `__hash__` or
  `__eq__` the class defines itself is kept, as the standard decorator keeps it.
`__dataclass_params__` records `repr` and `eq` as true, as for the standard decorator.
Only `frozen` is taken as an option (the only one the compiler's models use);
`tests/test_records.py` holds the methods equal to the standard ones.
"""

from __future__ import annotations

import dataclasses
import reprlib
from collections.abc import Callable
from operator import attrgetter
from typing import Any, TypeVar

T = TypeVar("T", bound=type)


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


def _process(cls: T, frozen: bool) -> T:
    own = cls.__dict__
    has_repr, has_eq = "__repr__" in own, "__eq__" in own
    class_hash = own.get("__hash__", dataclasses.MISSING)
    explicit_hash = not (class_hash is dataclasses.MISSING or (class_hash is None and has_eq))
    cls = dataclasses.dataclass(cls, repr=False, eq=False, frozen=frozen)
    fields = dataclasses.fields(cls)
    if not has_repr:
        cls.__repr__ = _named(cls, _repr_fn(tuple(f.name for f in fields if f.repr)))
    values = _tuple_of(tuple(f.name for f in fields if f.compare))
    if not has_eq:
        cls.__eq__ = _named(cls, _eq_fn(values))
    if not explicit_hash:  # the standard table for eq=True, unsafe_hash=False
        if frozen:
            hashed = _tuple_of(tuple(f.name for f in fields if (f.compare if f.hash is None else f.hash)))
            cls.__hash__ = _named(cls, _hash_fn(hashed))
        else:
            cls.__hash__ = None
    params = cls.__dataclass_params__
    params.repr = params.eq = True
    return cls


def dataclass(cls: T | None = None, /, *, frozen: bool = False):
    """`dataclasses.dataclass` (with its defaults, or `frozen=True`), the methods that need no compiling shared."""
    if cls is None:
        return lambda c: _process(c, frozen)
    return _process(cls, frozen)
