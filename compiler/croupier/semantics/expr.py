"""The model's expressions: checked, typed, with every name resolved to what it means.

The resolver's type checker (`scopes.Checker`) builds them from the syntax tree's
expressions, against the scope of the place each one stands. A reference says
what it refers to (a hand of the round, an event, a table formula, a seat's
role, …), a call holds the function it resolved to, a number is an exact
Fraction. Every node keeps the span it was written at (for diagnostics) and its
resolved type. Back ends read these, never the syntax tree: the engine back end
translates them to Python (`backends/engine/python_expr.py`), the cards print
them (`expr_text`).

The operator nodes share their class and field names with the syntax tree's
(`Binary`, `Compare`, `BoolOp`, …), so the syntax printer prints both; a pass is
a `NodeVisitor` (`croupier.syntax.visitor`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from croupier.diagnostics import Span
from croupier.syntax.printer import ExprPrinter
from croupier.syntax.visitor import Node, NodeVisitor

# A subclass that adds no field is not decorated with `@dataclass` again: it inherits its base's generated
# `__init__`, `__repr__`, `__eq__` (and `__hash__`, frozen `__setattr__`), which read the instance's own class;
# decorating it would only compile the same methods once more at every start-up.

# the types of expressions
NUM, BOOL, HAND, CARDS, CARD, ROLE, CLASS, BET, RANK, SUIT = (
    "number", "condition", "hand", "cards", "card", "seat", "card class", "bet", "rank", "suit")


@dataclass(frozen=True)
class Expr(Node):
    """Base of the model's expressions: where it was written, and its type (None where it did not resolve)."""

    span: Span
    type: str | None


@dataclass(frozen=True)
class Num(Expr):
    """An exact number, with the text it was written as (`1.95`, `5%`)."""

    value: Fraction
    text: str


# ---- references ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Name(Expr):
    """Base of the references: a name the resolver bound to one thing of the game."""

    name: str


class HandRef(Name):
    """A hand of a dealt round (`player`)."""


class EventRef(Name):
    """A named event of a dealt round (`natural`): whether it holds."""


class BetRef(Name):
    """A bet, in the valid-bet rule (`placed(banker)`)."""


class ClassRef(Name):
    """A card class, in a hand-type predicate (`count(face)`)."""


class HandFact(Name):
    """A fact of the hand a hand-type predicate tests: `count`, `total`, `wild`."""


class TableFact(Name):
    """A fact of the seated table, in a table formula: `poorest`, `players`, `banker`."""


class FormulaRef(Name):
    """A table formula (a top-level `let`), in a settlement formula."""


class LetRef(Name):
    """An earlier `let` of the settle block."""


class RoleRef(Name):
    """A seat's role in the pair being settled: `winner`, `loser`, `banker`, `player`."""


class PairFact(Name):
    """A fact of the pair being settled: `tied`."""


class RoundFormulaRef(FormulaRef):
    """A named formula of a dealt round (a top-level `let`), read of the round."""


class RoundFact(Name):
    """A fact of a finished dealt round: `cards_used` (how many cards the round used)."""


class RankName(Name):
    """A rank of the shoe, compared with a card's rank: `rank(first(player)) = K`."""


class SuitName(Name):
    """A suit of the shoe, by its letter: `suit(first(player)) = H`."""


class CardName(Name):
    """A single card of the shoe, by its code: `first(player) = KD`."""


# ---- calls and tests ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Function:
    """A built-in function: its name, its identity (`key`: two functions of one name in different
    places differ by it), argument types (`("*",)` for any number of numbers), result type, what it means."""

    name: str
    key: str
    args: tuple[str, ...]
    result: str
    doc: str = ""


@dataclass(frozen=True)
class Call(Expr):
    """A built-in function applied to arguments: `total(player)`."""

    function: Function
    args: tuple[Expr, ...]

    @property
    def func(self) -> str:
        return self.function.name


@dataclass(frozen=True)
class IsTest(Expr):
    """Base of the `SUBJECT is WHAT` tests."""

    subject: str
    what: str


class OutcomeIs(IsTest):
    """`outcome is banker`: the round's outcome is the one named."""


class TypeIs(IsTest):
    """`winner is bust`: the hand of the seat in that role (`subject`) is of the hand type named."""


# ---- operators (the syntax tree's names) --------------------------------------------------------------------


@dataclass(frozen=True)
class Binary(Expr):
    """Arithmetic: + - * / (exact)."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Negate(Expr):
    """Unary minus."""

    operand: Expr


@dataclass(frozen=True)
class Compare(Expr):
    """A comparison: < <= > >= = !=."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class InRange(Expr):
    """`x in lo..hi`, both ends included."""

    value: Expr
    low: Expr
    high: Expr


@dataclass(frozen=True)
class BoolOp(Expr):
    """`and` / `or` over two or more operands."""

    op: str
    operands: tuple[Expr, ...]


@dataclass(frozen=True)
class Not(Expr):
    """Logical negation."""

    operand: Expr


@dataclass(frozen=True)
class IfElse(Expr):
    """`if c then a else b`."""

    cond: Expr
    then: Expr
    other: Expr


@dataclass(frozen=True)
class Invalid(Expr):
    """A part that did not resolve (its diagnostic is reported): its text, and the names it mentions."""

    text: str
    names: frozenset[str]


# ---- passes every stage shares ------------------------------------------------------------------------------


# the references that name something read only once the round is finished (its outcome, the cards it used)
AFTER_THE_ROUND = (OutcomeIs, RoundFact)


class _Printer(ExprPrinter):
    """The syntax printer, plus the one node kind the syntax tree lacks."""

    def visit_Invalid(self, e: Invalid) -> tuple[str, int]:
        return e.text, 0


_PRINTER = _Printer()


def expr_text(e: Expr) -> str:
    """An expression in the spec's own notation, with only the parentheses it needs."""
    return _PRINTER.text(e)


class NameCollector(NodeVisitor):
    """Every bare name, `is` subject and function name (as `name()`) an expression mentions.

    Works on the syntax tree's expressions as on the model's (they share these class names).
    """

    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Num(self, e: Node) -> None:
        pass

    def visit_Name(self, e: Name) -> None:
        self.names.add(e.name)

    def visit_Call(self, e: Call) -> None:
        self.names.add(e.func + "()")
        self.generic_visit(e)

    def visit_IsTest(self, e: IsTest) -> None:
        self.names.add(e.subject)

    def visit_Invalid(self, e: Invalid) -> None:
        self.names |= e.names

    def visit_operator(self, e: Node) -> None:
        self.generic_visit(e)

    visit_Binary = visit_Negate = visit_Compare = visit_InRange = visit_BoolOp = visit_Not = visit_IfElse = visit_operator


def names_used(e: Node | None) -> set[str]:
    """Every bare name and function name (`stake()`) an expression mentions (none for None)."""
    collector = NameCollector()
    if e is not None:
        collector.visit(e)
    return collector.names


class _RoleArguments(NameCollector):
    """The names passed to calls of one function (`stake(player)` gives `player`)."""

    def __init__(self, func: str) -> None:
        super().__init__()
        self.func = func
        self.args: set[str] = set()

    def visit_Call(self, e: Call) -> None:
        if e.func == self.func:
            self.args |= {a.name for a in e.args if isinstance(a, Name)}
        self.generic_visit(e)


def role_arguments(e: Node | None, func: str) -> set[str]:
    """The seat names an expression passes to `func`: {"player"} for `stake(player) * 2`."""
    collector = _RoleArguments(func)
    if e is not None:
        collector.visit(e)
    return collector.args
