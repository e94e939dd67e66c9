"""Expression nodes of the syntax tree: numbers, names, calls, arithmetic, comparisons, logic.

Each node carries the span it was parsed from. `ast` re-exports these classes,
so the rest of the compiler writes `ast.Num`, `ast.Call`, and so on. They say
what the text says; the resolver turns them into the model's expressions
(`croupier.semantics.expr`), whose operator nodes share these class and field
names so that one printer (`printer`) serves both.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from croupier.diagnostics import Span
from croupier.syntax.visitor import Node


@dataclass
class Expr(Node):
    """Base of all expression nodes."""

    span: Span


@dataclass
class Num(Expr):
    """An exact number literal, with its text; `5%` is stored as 1/20."""

    value: Fraction
    text: str


@dataclass
class Name(Expr):
    """A bare name: a hand, an event, a variable, or a built-in quantity."""

    name: str


@dataclass
class Call(Expr):
    """A built-in function applied to arguments: `total(player)`."""

    func: str
    args: list[Expr]


@dataclass
class Binary(Expr):
    """Arithmetic: + - * /."""

    op: str
    left: Expr
    right: Expr


@dataclass
class Negate(Expr):
    """Unary minus."""

    operand: Expr


@dataclass
class Compare(Expr):
    """A comparison: < <= > >= = !=."""

    op: str
    left: Expr
    right: Expr


@dataclass
class InRange(Expr):
    """`x in lo..hi`, both ends included."""

    value: Expr
    low: Expr
    high: Expr


@dataclass
class IsTest(Expr):
    """`outcome is banker`, `winner is bust`: a subject tested against a named class."""

    subject: str
    what: str
    subject_span: Span
    what_span: Span


@dataclass
class BoolOp(Expr):
    """`and` / `or` over two or more operands."""

    op: str
    operands: list[Expr]


@dataclass
class Not(Expr):
    """Logical negation."""

    operand: Expr


@dataclass
class IfElse(Expr):
    """`if c then a else b`."""

    cond: Expr
    then: Expr
    other: Expr
