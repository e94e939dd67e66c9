"""`croupier.records.dataclass` makes the same methods as the standard `dataclasses.dataclass`.

Each case declares the same class twice, once under each decorator, and holds what the
two make equal: repr (recursion included), equality and its NotImplemented, hashing or
its absence, frozen assignment, fields the methods leave out, inheritance, methods the
class defines itself, and the recorded parameters.
"""

from __future__ import annotations

import dataclasses
import inspect
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

    @decorate
    class Later:
        """Defaults, a factory, a field out of `__init__`, keyword-only fields and `__post_init__`."""

        a: int
        b: list = field(default_factory=list)
        c: str = "c"
        d: int = field(default=0, init=False)
        e: tuple = field(default_factory=tuple, init=False)
        k: int = field(default=1, kw_only=True)
        m: list = field(default_factory=lambda: [1], kw_only=True)

        def __post_init__(self) -> None:
            self.d = self.a + self.k

    @decorate(frozen=True)
    class FrozenPost:
        """A frozen class whose `__post_init__` sets a field the way the model's `Span` does."""

        line: int
        end: int = 0
        tags: frozenset = field(default_factory=frozenset)

        def __post_init__(self) -> None:
            if not self.end:
                object.__setattr__(self, "end", self.line)

    @decorate(frozen=True)
    class FrozenChild(FrozenPost):
        """A frozen subclass of a frozen class."""

        extra: str = "x"

    class Plain(FrozenPost):
        """A subclass made by no decorator: it may set its own attributes but not the fields."""

    @decorate
    class Selfish:
        """A field named `self`."""

        self: int
        other: int = 2

    return {c.__name__: c for c in (Point, Point3, Alias, Key, Empty, One, Box, Custom, OwnHash, Later, FrozenPost,
                                    FrozenChild, Plain, Selfish)}


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
        outcome(lambda: c["Point"]()),
        outcome(lambda: c["Point"](1, zz=2)),
        outcome(lambda: c["Point"](1, x=2)),
        outcome(lambda: repr(c["Later"](5))),
        outcome(lambda: repr(c["Later"](5, [2], "z", k=7, m=[])),),
        outcome(lambda: c["Later"](5).b is not c["Later"](5).b),
        outcome(lambda: c["Later"](5, None).b),
        outcome(lambda: c["Later"](5, 6, 7, 8)),
        outcome(lambda: c["Later"](5, d=1)),
        outcome(lambda: repr(c["FrozenPost"](3))),
        outcome(lambda: repr(c["FrozenChild"](3, 4, frozenset({1}), "y"))),
        outcome(lambda: assign(c["FrozenChild"](3), "extra", "z")),
        outcome(lambda: assign(c["FrozenChild"](3), "line", 1)),
        outcome(lambda: c["FrozenChild"](3) == c["FrozenPost"](3)),
        outcome(lambda: hash(c["FrozenChild"](3, 4)) == hash((3, 4, frozenset(), "x"))),
        outcome(lambda: assign(c["Plain"](3), "other", 1)),
        outcome(lambda: assign(c["Plain"](3), "line", 1)),
        outcome(lambda: delete(c["Plain"](3), "line")),
        outcome(lambda: repr(c["Plain"](3))),
        outcome(lambda: repr(c["Selfish"](1))),
        outcome(lambda: repr(c["Selfish"](self=4, other=5))),
        outcome(lambda: str(inspect.signature(c["Later"]))),
        outcome(lambda: str(inspect.signature(c["FrozenChild"]))),
        outcome(lambda: c["Later"].__init__.__annotations__),
        outcome(lambda: [f.name for f in dataclasses.fields(c["FrozenChild"])]),
        outcome(lambda: c["Later"].__match_args__),
    ]


def test_same_behaviour_as_the_standard_decorator(both) -> None:
    assert probes(both["shared"]) == probes(both["standard"])


def test_the_probes_tell_the_decorators_apart_from_defaults() -> None:
    """The probes see the methods: classes with object's own repr, eq and hash answer otherwise."""
    plain = declare(lambda cls=None, /, **kw: (lambda c: dataclasses.dataclass(
        c, repr=False, eq=False, **kw)) if cls is None else dataclasses.dataclass(cls, repr=False, eq=False))
    assert probes(plain) != probes(declare(records.dataclass))


def test_recorded_parameters(both) -> None:
    for name in ("Point", "Key", "Later", "FrozenPost", "FrozenChild"):
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


def test_the_same_errors_for_classes_that_cannot_be() -> None:
    """A field without a default after one with, a non-frozen class under a frozen one and the reverse, a frozen
    class defining `__setattr__`: the same TypeError from both decorators."""

    def make(decorate, case: str):
        def run():
            if case == "order":
                @decorate
                class Bad:
                    """A default, then none."""

                    a: int = 0
                    b: int
            elif case in ("thaw", "freeze"):
                @decorate(frozen=case == "thaw")
                class Base:
                    """A base."""

                    a: int

                if case == "thaw":
                    @decorate
                    class Thawed(Base):
                        """Not frozen under a frozen base."""
                else:
                    @decorate(frozen=True)
                    class Frozen(Base):
                        """Frozen under a base that is not."""
            else:
                @decorate(frozen=True)
                class Own:
                    """A frozen class with its own `__setattr__`."""

                    a: int

                    def __setattr__(self, name, value):
                        pass
        return outcome(run)

    for case in ("order", "thaw", "freeze", "own setattr"):
        shared, standard = make(records.dataclass, case), make(dataclasses.dataclass, case)
        assert shared == standard and shared[0] == "error", case


def test_init_is_compiled_at_the_first_instance() -> None:
    @records.dataclass
    class Node:
        """A node."""

        a: int
        b: int = 2

    class Sub(Node):
        """Made first."""

    stub = Node.__init__
    assert str(inspect.signature(Node)) == "(*args, **kwargs)"
    assert repr(Sub(1)).endswith(".Sub(a=1, b=2)")  # the subclass's first instance compiles its base's __init__
    assert Node.__init__ is not stub and str(inspect.signature(Node)) == "(a: 'int', b: 'int' = 2) -> None"
    assert Node.__init__.__qualname__.endswith("Node.__init__")
    assert repr(Node(3, 4)).endswith(".Node(a=3, b=4)")


def test_the_committed_inits_are_fresh() -> None:
    """`dataclass_inits.py`, regenerated from the package's classes, is the same text as the committed one."""
    assert records.inits_module_text() == records.INITS_MODULE.read_text(encoding="utf-8"), \
        "run python -m croupier.records and commit compiler/croupier/dataclass_inits.py"


def test_an_init_made_ahead_is_used_only_for_its_own_source(monkeypatch) -> None:
    """A class of the package gets the `__init__` compiled ahead of time when its source is the one the module
    holds; with another source, its own is compiled as before, and both make the same instances."""
    from croupier import dataclass_inits
    from croupier.diagnostics import Span

    key = "croupier.syntax.ast.Label"
    source, names = records._init_source(*records._MADE[key])
    assert dataclass_inits.SOURCES[key] == source
    assert records._made_ahead(key, source) is dataclass_inits.FACTORIES[key]
    assert records._made_ahead(key, source + " ") is None
    ahead = dataclass_inits.FACTORIES[key](**names)
    made: dict = {}
    exec(compile(source, "<string>", "exec", dont_inherit=True), {}, made)
    compiled = made["__create_fn__"](**names)
    assert ahead.__code__.co_code == compiled.__code__.co_code
    assert ahead.__annotations__ == compiled.__annotations__ and ahead.__defaults__ == compiled.__defaults__
    span = Span("f", 1, 1)
    first, second = ast.Label.__new__(ast.Label), ast.Label.__new__(ast.Label)
    ahead(first, "en", "x", span)
    compiled(second, "en", "x", span)
    assert first == second and vars(first) == vars(second)


def test_a_stale_generated_module_is_reported_then_written(tmp_path, capsys) -> None:
    """The generators of the package's own modules (`python -m croupier.records`, `... grammar_tables`) share
    `refresh_module`: `--check` fails on a missing or different module and writes nothing; a run writes it."""
    from croupier.outputs import refresh_module

    module = tmp_path / "made.py"
    assert refresh_module(module, "X = 1\n", "pkg.gen", ["--check"]) == 1
    assert not module.exists()
    assert "made.py is stale: run python -m pkg.gen" in capsys.readouterr().err
    assert refresh_module(module, "X = 1\n", "pkg.gen", []) == 0
    assert module.read_text(encoding="utf-8") == "X = 1\n"
    assert refresh_module(module, "X = 1\n", "pkg.gen", ["--check"]) == 0
    assert refresh_module(module, "X = 2\n", "pkg.gen", ["--check"]) == 1
    assert module.read_text(encoding="utf-8") == "X = 1\n"


FIELD_ATTRIBUTES = ("name", "type", "default", "default_factory", "init", "repr", "hash", "compare", "metadata",
                    "kw_only", "_field_type")


def _fields_shape(cls: type) -> list:
    """Each field of a class with every attribute the standard decorator sets, the class attribute of its name
    (or its absence), and `__match_args__`."""
    def shown(value) -> str:  # (a factory by its name: each declaration makes its own)
        return value.__qualname__ if callable(value) and hasattr(value, "__qualname__") else repr(value)

    return [(name, [shown(getattr(f, a)) for a in FIELD_ATTRIBUTES], name in cls.__dict__,
             shown(cls.__dict__.get(name))) for name, f in cls.__dict__["__dataclass_fields__"].items()] + [
        cls.__dict__.get("__match_args__")]


def test_the_fields_are_the_standard_decorators(both) -> None:
    """The fields a class's dataclass records (collected by `records` itself on Python 3.11): every attribute of
    every field, the class attributes left for defaults, `__match_args__`, in order, for every probe class."""
    names = [n for n, c in both["standard"].items() if isinstance(c, type) and "__dataclass_fields__" in c.__dict__]
    assert len(names) > 8
    for name in names:
        assert _fields_shape(both["shared"][name]) == _fields_shape(both["standard"][name]), name


def test_a_class_the_fast_collection_refuses_goes_to_the_standard_decorator() -> None:
    """A mutable default: the standard decorator's own error, as from it."""
    for decorate in DECORATORS.values():
        with pytest.raises(ValueError, match="mutable default <class 'list'> for field items is not allowed"):
            @decorate
            class Bad:  # noqa: B903 - the class is the test
                """A mutable default."""

                items: list = []  # noqa: RUF012 - the mistake under test
