"""`croupier.records.dataclass` makes the same methods as the standard `dataclasses.dataclass`.

Each case declares the same class twice, once under each decorator, and holds what the
two make equal: repr (recursion included), equality and its NotImplemented, hashing or
its absence, frozen assignment, fields the methods leave out, inheritance, methods the
class defines itself, and the recorded parameters.
"""

from __future__ import annotations

import dataclasses
from dataclasses import FrozenInstanceError, field

import pytest

from croupier import records
from croupier.semantics import model
from croupier.syntax import ast

DECORATORS = {"standard": dataclasses.dataclass, "shared": records.dataclass}


def declare(decorate):
    """A family of classes declared with `decorate`, as the models declare theirs."""

    @decorate
    class Point:
        """Two fields, one left out of repr, one out of comparisons."""

        x: int
        y: int = 0
        secret: str = field(default="s", repr=False)
        note: str = field(default="", compare=False)

    @decorate
    class Point3(Point):
        """A subclass with a field of its own."""

        z: int = 0

    class Alias(Point):
        """A subclass that adds no field and is not decorated again."""

    @decorate(frozen=True)
    class Key:
        """Frozen, hashed on its compared fields; `weight` hashed though not compared."""

        a: int
        b: tuple = ()
        weight: int = field(default=0, compare=False, hash=True)
        label: str = field(default="", compare=False)

    @decorate(frozen=True)
    class Empty:
        """No field."""

    @decorate(frozen=True)
    class One:
        """One field: a 1-tuple is hashed, not the value."""

        v: object

    @decorate
    class Box:
        """A mutable box, to be put inside itself."""

        items: list = field(default_factory=list)

    @decorate
    class Custom:
        """Methods of its own, which the decorator keeps."""

        v: int

        def __repr__(self) -> str:
            return "custom"

        def __eq__(self, other) -> bool:
            return True

    @decorate(frozen=True)
    class OwnHash:
        """A hash of its own, kept."""

        v: int

        def __hash__(self) -> int:
            return 7

    return {c.__name__: c for c in (Point, Point3, Alias, Key, Empty, One, Box, Custom, OwnHash)}


@pytest.fixture(scope="module")
def both():
    return {name: declare(decorate) for name, decorate in DECORATORS.items()}


def outcome(fn):
    """What calling `fn` gives: its value, or the type and message of the error it raises."""
    try:
        return ("value", fn())
    except Exception as exc:  # noqa: BLE001 - the error is the outcome compared
        return ("error", type(exc).__name__, str(exc))


def probes(c: dict) -> list:
    """The behaviours compared, for one family of classes."""
    p, q = c["Point"](1, 2, "hidden", "n"), c["Point"](1, 2, "other", "m")
    box = c["Box"]()
    box.items.append(box)
    key = c["Key"](1, (2, 3), 4, "k")

    def assign(obj, name, value):
        setattr(obj, name, value)
        return getattr(obj, name)

    def delete(obj, name):
        delattr(obj, name)

    return [
        outcome(lambda: repr(p)),
        outcome(lambda: repr(c["Point3"](1, z=5))),
        outcome(lambda: repr(c["Alias"](9))),
        outcome(lambda: repr(key)),
        outcome(lambda: repr(c["Empty"]())),
        outcome(lambda: repr(box)),
        outcome(lambda: p == q),  # `secret` is compared, `note` is not
        outcome(lambda: c["Point"](1, 2, "s", "a") == c["Point"](1, 2, "s", "b")),
        outcome(lambda: p != c["Point"](1, 3, "hidden", "n")),
        outcome(lambda: c["Point"](1) == c["Point3"](1)),  # another class: NotImplemented both ways
        outcome(lambda: c["Point"].__eq__(p, (1, 2))),
        outcome(lambda: c["Point3"](1, z=1) == c["Point3"](1, z=2)),
        outcome(lambda: c["Alias"](1) == c["Alias"](1)),
        outcome(lambda: c["Alias"](1) == c["Point"](1)),
        outcome(lambda: hash(p)),
        outcome(lambda: c["Point"].__hash__),
        outcome(lambda: c["Point3"].__hash__),
        outcome(lambda: hash(key)),
        outcome(lambda: hash(key) == hash((1, (2, 3), 4))),
        outcome(lambda: key == c["Key"](1, (2, 3), 5, "other")),
        outcome(lambda: hash(c["Empty"]()) == hash(())),
        outcome(lambda: hash(c["One"](5)) == hash((5,))),
        outcome(lambda: assign(key, "a", 2)),
        outcome(lambda: assign(key, "other", 2)),
        outcome(lambda: delete(key, "a")),
        outcome(lambda: assign(p, "x", 5)),
        outcome(lambda: repr(c["Custom"](1))),
        outcome(lambda: c["Custom"](1) == c["Custom"](2)),
        outcome(lambda: hash(c["OwnHash"](1))),
        outcome(lambda: c["One"](float("nan")) == c["One"](float("nan"))),
        outcome(lambda: [f.name for f in dataclasses.fields(c["Point3"])]),
        outcome(lambda: repr(dataclasses.replace(p, x=7))),
        outcome(lambda: dataclasses.asdict(c["Point3"](1, z=2))),
        outcome(lambda: c["Point"].__match_args__),
        outcome(lambda: c["Point"].__doc__),
        outcome(lambda: c["Point"](1, 2, 3, 4, 5)),
    ]


def test_same_behaviour_as_the_standard_decorator(both) -> None:
    assert probes(both["shared"]) == probes(both["standard"])


def test_the_probes_tell_the_decorators_apart_from_defaults() -> None:
    """The probes see the methods: classes with object's own repr, eq and hash answer otherwise."""
    plain = declare(lambda cls=None, /, **kw: (lambda c: dataclasses.dataclass(
        c, repr=False, eq=False, **kw)) if cls is None else dataclasses.dataclass(cls, repr=False, eq=False))
    assert probes(plain) != probes(declare(records.dataclass))


def test_recorded_parameters(both) -> None:
    for name in ("Point", "Key"):
        shared, standard = both["shared"][name].__dataclass_params__, both["standard"][name].__dataclass_params__
        assert repr(shared) == repr(standard)


def test_method_names_and_frozen_errors(both) -> None:
    key = both["shared"]["Key"]
    assert key.__eq__.__qualname__.endswith("Key.__eq__")
    assert key.__hash__.__qualname__.endswith("Key.__hash__")
    assert key.__repr__.__qualname__.endswith("Key.__repr__")
    with pytest.raises(FrozenInstanceError, match="cannot assign to field 'a'"):
        key(1).a = 2


def test_the_models_use_it() -> None:
    """The syntax tree's and the model's classes: equal by fields, unhashable unless frozen."""
    from croupier.diagnostics import Span

    span = Span("f", 1, 1)
    assert ast.Label("en", "x", span) == ast.Label("en", "x", span)
    assert ast.Label("en", "x", span) != ast.Label("en", "y", span)
    assert repr(ast.Label(None, "x", span)).startswith("Label(lang=None, text='x', span=Span(")
    assert ast.Label.__hash__ is None
    assert hash(span) == hash(Span("f", 1, 1))
    assert all(dataclasses.is_dataclass(c) for c in (model.Game, ast.Stmt, Span))
