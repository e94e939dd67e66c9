"""Syntax tree of a bet's clauses: payouts, payout-table rows, and the win, push and loss clauses.

`ast` re-exports these classes (the bet statement itself is `ast.BetStmt`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from croupier.diagnostics import Span
from croupier.syntax.expr_ast import Expr, Name


@dataclass
class Payout:
    """How a winning bet pays: `including` stake (odds-for) or `to` (odds-to-one)."""

    style: str  # "including" or "to"
    ratio: Fraction
    commission: Fraction | None
    rounding: str | None
    unit: Fraction | None
    span: Span
    text: str


@dataclass
class PayoutRow:
    """One `| KEY | PAYOUT |` row of a payout table: a key value (`9`), a range of them (`4..6`) or the name
    of a condition (`natural`), and what the row pays."""

    low: int | None
    high: int | None
    condition: Name | None
    payout: Payout | None  # None when the cell is not a payout (reported)
    span: Span


@dataclass
class WinsClause:
    """`wins when EXPR, pays …`, or `wins when EXPR, pays by KEY` with a payout table (`rows`)."""

    when: Expr
    payout: Payout | None
    span: Span
    cite: str | None = None
    key: Expr | None = None
    rows: list[PayoutRow] = field(default_factory=list)


@dataclass
class PushClause:
    """`push when EXPR`: the stake comes back."""

    when: Expr
    span: Span
    cite: str | None = None


@dataclass
class LosesClause:
    """`loses when EXPR` (the whole stake), or `loses half when EXPR`: that part of the stake is lost,
    the rest comes back."""

    when: Expr
    part: Fraction
    span: Span
    cite: str | None = None
