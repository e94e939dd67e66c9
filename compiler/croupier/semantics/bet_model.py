"""The model of a dealt round's bets: payouts, payout tables, and each bet's clauses in the order written.

A bet's clauses are tried in order and the first that applies decides: a win
pays (a fixed payout, or the row of a payout table keyed by an expression or
labelled by a condition), a push returns the stake, a loss keeps all or part of
it; a bet that no clause decides loses. Re-exported by `model`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from croupier.diagnostics import Span
from croupier.semantics.expr import Expr, expr_text
from croupier.semantics.items import Item


@dataclass
class Payout:
    """How a winning bet pays; `returns(stake)` is the total back, stake included."""

    style: str  # "including" | "to"
    ratio: Fraction
    commission: Fraction | None = None
    rounding: str | None = None
    unit: Fraction | None = None
    text: str = ""

    def gross_multiple(self) -> Fraction:
        """Total returned per unit staked, before commission."""
        return self.ratio if self.style == "including" else 1 + self.ratio


@dataclass
class PayoutRow:
    """One row of a payout table: key values `low..high`, or a condition (`natural`); what it pays."""

    low: int | None
    high: int | None
    condition: Expr | None
    payout: Payout
    span: Span

    def label(self) -> str:
        if self.condition is not None:
            return expr_text(self.condition)
        return str(self.low) if self.low == self.high else f"{self.low}..{self.high}"


@dataclass
class PayoutTable:
    """`pays by KEY` with its rows, tried in order: the first row whose condition holds, or whose key
    values hold the key, pays; when none does, the clause does not apply."""

    key: Expr | None  # None only while the resolver reads the file
    rows: list[PayoutRow]


@dataclass
class BetRule:
    """One clause of a bet: `wins when … , pays …` (or `pays by` a table), `push when …`, or
    `loses [PART] when …` (the part of the stake lost; 1 is all of it)."""

    when: Expr | None  # None only while the resolver reads the file
    payout: Payout | None  # a win's payout (None for a table, a push or a loss)
    span: Span
    cite: str | None = None
    kind: str = "wins"  # "wins" | "push" | "loses"
    part: Fraction = Fraction(1)  # of `loses`: the part of the stake lost
    table: PayoutTable | None = None

    def payouts(self) -> list[Payout]:
        """Every payout the clause may pay."""
        if self.table is not None:
            return [row.payout for row in self.table.rows]
        return [self.payout] if self.payout is not None else []

    def describe(self) -> str:
        """The clause as the spec writes it."""
        when = expr_text(self.when) if self.when is not None else "…"
        if self.kind == "push":
            return f"push when {when}"
        if self.kind == "loses":
            part = "" if self.part == 1 else ("half " if self.part == Fraction(1, 2) else f"{self.part} ")
            return f"loses {part}when {when}"
        if self.table is not None:
            return f"wins when {when}, pays by {expr_text(self.table.key) if self.table.key is not None else '…'}"
        return f"wins when {when}, pays {self.payout.text if self.payout else '…'}"


@dataclass
class Bet(Item):
    """A bet: its clauses, tried in the order written; the first whose condition holds decides (a payout
    table's clause applies only when one of its rows does). A bet no clause decides loses."""

    clauses: list[BetRule] = field(default_factory=list)

    @property
    def wins(self) -> list[BetRule]:
        """The winning clauses, in order."""
        return [c for c in self.clauses if c.kind == "wins"]

    @property
    def pushes(self) -> list[Expr]:
        """The conditions of the push clauses, in order."""
        return [c.when for c in self.clauses if c.kind == "push" and c.when is not None]

    def expressions(self) -> list[Expr]:
        """Every expression the bet reads: conditions, table keys and row conditions."""
        out: list[Expr] = []
        for c in self.clauses:
            out += [c.when] if c.when is not None else []
            if c.table is not None:
                out += [c.table.key] if c.table.key is not None else []
                out += [row.condition for row in c.table.rows if row.condition is not None]
        return out
