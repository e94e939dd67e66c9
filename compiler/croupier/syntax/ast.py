"""Syntax tree of a spec file: one dataclass per statement and expression form.

Nodes carry the span they were parsed from. They say what the text says and
nothing more: names are not resolved here (see `resolve`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields, is_dataclass
from fractions import Fraction

from croupier.diagnostics import Span
from croupier.syntax.bet_ast import LosesClause, Payout, PayoutRow, PushClause, WinsClause  # noqa: F401 - re-exported
from croupier.syntax.expr_ast import (  # noqa: F401 - re-exported: the expression nodes are part of the tree
    Binary,
    BoolOp,
    Call,
    Compare,
    Expr,
    IfElse,
    InRange,
    IsTest,
    Name,
    Negate,
    Not,
    Num,
)

# A subclass that adds no field is not decorated with `@dataclass` again: it inherits its base's generated
# `__init__`, `__repr__`, `__eq__` (and `__hash__`, frozen `__setattr__`), which read the instance's own class;
# decorating it would only compile the same methods once more at every start-up.

# ---- statements --------------------------------------------------------------


@dataclass
class Label:
    """A display string in one language (`lang` None means English)."""

    lang: str | None
    text: str
    span: Span


@dataclass
class Stmt:
    """Base of all statements; `cite` is the source citation, if any."""

    span: Span
    cite: str | None = field(default=None, kw_only=True)
    override: bool = field(default=False, kw_only=True)

    kind = "statement"


@dataclass
class Named(Stmt):
    """A statement that declares something with a name."""

    name: str = ""
    name_span: Span | None = None
    labels: list[Label] = field(default_factory=list)


@dataclass
class GameStmt(Named):
    """`game NAME [extends BASE] labels`."""

    base: str | None = None
    base_span: Span | None = None
    kind = "game"


@dataclass
class SourceStmt(Stmt):
    """`source "000" "description" zh-Hant "…"`: a source's id and its title, by language."""

    ident: str = ""
    description: str = ""
    labels: list[Label] = field(default_factory=list)
    lang: str | None = None  # the language the source is written in (`written in zh-Hant`)
    kind = "source"


@dataclass
class VersionStmt(Stmt):
    """`version "2025.1"`: the version of these rules, as their operator numbers it."""

    text: str = ""
    kind = "version"


@dataclass
class EffectiveStmt(Stmt):
    """`effective 2025-01-31`: the day these rules take effect (ISO 8601, as written)."""

    date: str = ""
    kind = "effective date"


class AssumeStmt(Named):
    """`assume NAME "text" zh-Hant "…"`: a stated choice where the sources are silent."""

    kind = "assumption"


@dataclass
class RankRef:
    """A rank as written, with its span."""

    text: str
    span: Span


@dataclass
class RankSet:
    """A set of ranks written as single ranks and ranges (`2..9 J Q K`)."""

    parts: list[tuple[RankRef, RankRef | None]]
    span: Span


@dataclass
class ShoeStmt(Stmt):
    """`shoe N decks of standard52 [+ jokers BJ SJ]`."""

    decks: int = 0
    decks_span: Span | None = None
    deck: str = ""
    deck_span: Span | None = None
    jokers: list[RankRef] = field(default_factory=list)
    kind = "shoe"


@dataclass
class DeckStmt(Named):
    """`deck NAME labels = BASE [without RANKS] [+ jokers J…]`: a deck a shoe may be made of.

    The base is a known deck (`base`), ranks by suits (`ranks`, `suits`), or a list of cards (`cards`).
    """

    base: str | None = None
    base_span: Span | None = None
    ranks: RankSet | None = None
    suits: list[RankRef] = field(default_factory=list)
    cards: list[RankRef] = field(default_factory=list)
    without: list[RankSet] = field(default_factory=list)
    jokers: list[RankRef] = field(default_factory=list)
    kind = "deck"


class SuitStmt(Named):
    """`suit C "Cups" zh-Hans "杯"`: display names of a suit."""

    kind = "suit"


class JokerStmt(Named):
    """`joker BJ "Big joker" zh "大王"`: display names of a joker."""

    kind = "joker"


@dataclass
class ValueItem:
    """One `ranks = points` part of a value statement; points None means pip value."""

    ranks: RankSet
    points: Fraction | None
    span: Span


@dataclass
class ValueStmt(Stmt):
    """`value A = 1, 2..9 = pip, 10 J Q K = 0`."""

    items: list[ValueItem] = field(default_factory=list)
    kind = "value"


@dataclass
class ClassStmt(Named):
    """`class face = J Q K`: a named class of cards."""

    ranks: RankSet | None = None
    kind = "class"


@dataclass
class WildStmt(Stmt):
    """`wild BJ SJ as A..10 J Q K, best by type then total`."""

    wilds: RankSet | None = None
    stands_for: RankSet | None = None
    best_by: list[str] = field(default_factory=list)
    kind = "wild"


@dataclass
class TotalStmt(Stmt):
    """`total sum [mod N] [, A counts 1 or 11, best not over 21]`: the total, and the cards that count one
    of two values (the hand takes the best total not over the limit)."""

    modulus: int | None = None
    soft_ranks: RankSet | None = None
    soft_values: tuple[Fraction, Fraction] | None = None
    soft_limit: Fraction | None = None
    soft_span: Span | None = None
    kind = "total"


@dataclass
class OrderStmt(Stmt):
    """`card order K Q … SJ` or `suit order S H C D`, highest first."""

    what: str = ""
    items: list[RankRef] = field(default_factory=list)
    kind = "order"


class HandStmt(Named):
    """`hand player "Player"`: a hand dealt in a round."""

    kind = "hand"


@dataclass
class DealStmt(Stmt):
    """`deal player, banker, player, banker`: the initial dealing order."""

    order: list[RankRef] = field(default_factory=list)
    kind = "deal"


@dataclass
class EventStmt(Named):
    """`event natural "Natural" when …`: a named condition reported for each round."""

    when: Expr | None = None
    kind = "event"


@dataclass
class StandStmt(Stmt):
    """`stand all when EXPR`: after the deal, nobody draws when it holds."""

    when: Expr | None = None
    kind = "stand"


@dataclass
class GridLine:
    """One `| … |` row of a draw table, split into cells with their columns."""

    cells: list[tuple[str, Span]]
    span: Span


@dataclass
class DrawStmt(Stmt):
    """`draw HAND [when EXPR] by KEY [× KEY]` with a grid of D/S cells."""

    hand: str = ""
    hand_span: Span | None = None
    when: Expr | None = None
    row_key: Expr | None = None
    col_key: Expr | None = None
    grid: list[GridLine] = field(default_factory=list)
    kind = "draw table"


@dataclass
class DrawWhileStmt(Stmt):
    """`draw HAND while EXPR`: the hand draws one card after another while the condition holds."""

    hand: str = ""
    hand_span: Span | None = None
    when: Expr | None = None
    kind = "repeated draw"


@dataclass
class OutcomeStmt(Named):
    """`outcome banker "Banker wins" when …`."""

    when: Expr | None = None
    kind = "outcome"


@dataclass
class BetStmt(Named):
    """`bet NAME labels` with its clauses, tried in the order written (`clauses`)."""

    clauses: list[WinsClause | PushClause | LosesClause] = field(default_factory=list)
    kind = "bet"

    @property
    def wins(self) -> list[WinsClause]:
        return [c for c in self.clauses if isinstance(c, WinsClause)]


@dataclass
class RemoveStmt(Stmt):
    """`remove bet super6`: a variant drops something its base declares."""

    what: str = ""
    name: str = ""
    name_span: Span | None = None
    kind = "remove"


@dataclass
class SeatsStmt(Stmt):
    """`seats 2..5` (what=seats) or `hand size 1..5` (what=hand size)."""

    what: str = ""
    low: int = 0
    high: int = 0
    kind = "seats"


@dataclass
class TypeStmt(Named):
    """`type NAME labels` with `when` predicate and `multiplier`."""

    when: Expr | None = None
    multiplier: Fraction | None = None
    multiplier_span: Span | None = None
    kind = "hand type"


@dataclass
class TiebreakStmt(Stmt):
    """`order within TYPE, … by KEY, …`."""

    types: list[RankRef] = field(default_factory=list)
    keys: list[RankRef] = field(default_factory=list)
    kind = "tie-break"


@dataclass
class LetStmt(Named):
    """`let NAME = EXPR`: a named formula."""

    expr: Expr | None = None
    kind = "formula"


@dataclass
class SettleClause:
    """One line of a settle block: let, draw when, verdict when, pay."""

    kind: str  # "let", "draw", "banker-wins", "player-wins", "pay"
    name: str | None
    expr: Expr
    unless: Expr | None
    span: Span
    cite: str | None = None


@dataclass
class SettleStake:
    """`each player stakes NAME` in a settle block: the table formula every player bets against the banker."""

    name: str
    span: Span
    name_span: Span
    cite: str | None = None


@dataclass
class SettleStmt(Named):
    """`settle pairwise` or `settle against-banker` with its formulas."""

    scheme: str = ""
    clauses: list[SettleClause] = field(default_factory=list)
    stakes: list[SettleStake] = field(default_factory=list)
    kind = "settlement"


@dataclass
class PolicyStmt(Stmt):
    """`policy hit while total < T`: the default threshold policy for analysis."""

    threshold: Fraction = Fraction(0)
    kind = "policy"


@dataclass
class TurnStmt(Stmt):
    """`turn deal 5 cards, 1 face up, hit reveals, at most 4 hits, timer 30 seconds, seat-order`: how a seat
    game's round is played (each part optional but the statement says at least one)."""

    parts: dict[str, object] = field(default_factory=dict)  # deal, up, hit, limit, timer (seconds or 0), order
    kind = "turn"


@dataclass
class Limit:
    """`banker player: 40..2500` inside a room, or `super6: no limit` (low and high None)."""

    bets: list[RankRef]
    low: Fraction | None
    high: Fraction | None
    span: Span


@dataclass
class RoomStmt(Named):
    """`room junior "Junior room"` with per-bet limits."""

    limits: list[Limit] = field(default_factory=list)
    kind = "room"


@dataclass
class SqueezeStmt(Stmt):
    """`squeeze banker player by larger stake ties to banker order player banker`."""

    bets: list[RankRef] = field(default_factory=list)
    ties_to: str = ""
    order: list[RankRef] = field(default_factory=list)
    kind = "squeeze"


@dataclass
class ValidBetStmt(Stmt):
    """`valid bets none when EXPR` (rounds whose stakes do not count as valid bets), or
    `valid bets none for pushed stakes` (a stake returned by a push counts none)."""

    when: Expr | None = None
    pushed: bool = False
    kind = "valid bets"


@dataclass
class CutCardStmt(Stmt):
    """`cut card 14..16 from end`."""

    low: int = 0
    high: int = 0
    kind = "cut card"


@dataclass
class BurnStmt(Stmt):
    """`burn reveal 1, 10 J Q K = 10`: burn by the value of the revealed card."""

    reveal: int = 0
    items: list[ValueItem] = field(default_factory=list)
    kind = "burn"


@dataclass
class LastRoundStmt(Stmt):
    """`last round one-more-after` (one more round after the cut card comes out) or
    `last round at-cut` (the round in which the cut card comes out is the last)."""

    rule: str = ""
    kind = "last round"


class VoidStmt(Stmt):
    """`void returns stakes`: a voided round returns every stake."""

    kind = "void"


class ShuffleStmt(Stmt):
    """`shuffle before each round`: every round is dealt from a full shoe, shuffled afresh."""

    kind = "shuffle"


@dataclass
class SpecFile:
    """A parsed spec file: its statements in order."""

    path: str
    text: str
    statements: list[Stmt]
    # the names the statements with a syntax error would have declared (`outcom tie …`: tie), whose
    # uses are not reported again as unknown names
    lost_names: frozenset[str] = frozenset()
    citations: tuple[tuple[str, Span], ...] = ()  # every `[…]` citation (its text) and where it stands


def meaning(value):
    """A syntax tree as plain data, spans left out: what two layouts of one spec share (the formatter keeps it;
    the rules fingerprint is its digest)."""
    if isinstance(value, Span):
        return None
    if is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__,) + tuple((f.name, meaning(getattr(value, f.name))) for f in fields(value)
                                               if not isinstance(getattr(value, f.name), Span))
    if isinstance(value, (list, tuple)):
        return tuple(meaning(v) for v in value)
    return value
