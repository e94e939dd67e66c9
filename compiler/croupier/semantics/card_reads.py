"""What the rules of a dealt round read of a card, and the classes of cards they cannot tell apart.

A rule that reads only card values (totals, `value(…)`, counts of cards) cannot
tell apart two cards of one value, so an exact enumeration may deal one class per
value; a rule that reads ranks (`same_rank`, `rank(…)`) needs ranks; a rule that
reads suits or names a single card (`same_suit`, `suit(…)`, `first(h) = KD`)
needs every card. A card class (`count(h, face)`), a card valued apart from its rank and a soft
card of the total rule split the classes further. The expressions read are every
expression the model holds (`model_exprs`: draw tables, `draw … while`, the stand
rule, events, lets, outcomes, bets, and any construct added later), found by
walking the model rather than by a list of its parts, so that no rule is missed.
`reads(game)` says which level, and `card_classes(game)` lists the classes:
representative card codes (each listed as often as one deck holds it) and the
copies in the shoe.
"""

from __future__ import annotations

from dataclasses import fields, is_dataclass
from fractions import Fraction

from croupier.semantics import expr as ir
from croupier.semantics.model import Game
from croupier.syntax.visitor import NodeVisitor

LEVELS = ("value", "rank", "card")
# functions that read more of a card than its value, and the level they need
NEEDS = {"same_rank": "rank", "same_suit": "card"}
# besides these, a call that gives or takes a rank (`rank(c)`, `count(h, A)`) needs ranks, and one that gives
# or takes a suit (`suit(c)`, `count(h, H)`) needs every card
TYPE_NEEDS = {ir.RANK: "rank", ir.SUIT: "card"}
# fields of the model that hold no rule of this game's round: its base's rules, and how it differs from them
NOT_RULES = frozenset({"base", "differences"})


class _Reads(NodeVisitor):
    """The finest level an expression reads, and the card classes it counts."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.level = 0
        self.where: ir.Expr | None = None  # the first expression that needs the level found
        self.classes: set[str] = set()
        self.seen: set[str] = set()

    def need(self, level: str, e: ir.Expr) -> None:
        if LEVELS.index(level) > self.level:
            self.level, self.where = LEVELS.index(level), e

    def visit_Node(self, e) -> None:
        self.generic_visit(e)

    def visit_Call(self, e: ir.Call) -> None:
        if e.function.key in NEEDS:
            self.need(NEEDS[e.function.key], e)
        for t in (e.type, *(a.type for a in e.args)):
            if t in TYPE_NEEDS:
                self.need(TYPE_NEEDS[t], e)
        self.generic_visit(e)

    def visit_Compare(self, e: ir.Compare) -> None:
        if e.left.type == ir.CARD:  # two cards compared: which card each is
            self.need("card", e)
        self.generic_visit(e)

    def visit_CardName(self, e: ir.CardName) -> None:
        self.need("card", e)

    def visit_RankName(self, e: ir.RankName) -> None:
        self.need("rank", e)

    def visit_SuitName(self, e: ir.SuitName) -> None:
        self.need("card", e)

    def visit_ClassRef(self, e: ir.ClassRef) -> None:
        self.classes.add(e.name)

    def visit_EventRef(self, e: ir.EventRef) -> None:
        ev = self.game.events.get(e.name)
        if ev is not None and e.name not in self.seen:
            self.seen.add(e.name)
            self.visit(ev.when)

    def visit_FormulaRef(self, e: ir.FormulaRef) -> None:
        f = self.game.formulas.get(e.name)
        if f is not None and f.expr is not None and e.name not in self.seen:
            self.seen.add(e.name)
            self.visit(f.expr)


def round_exprs(game: Game) -> list[ir.Expr]:
    """Every expression of a dealt round: draws, stand rule, events, formulas, outcomes, bets."""
    out: list[ir.Expr | None] = [game.stand_when]
    for t in game.draws:
        out += [t.when, t.row_key, t.col_key]
    out += [e.when for e in game.events.values()]
    out += [f.expr for f in game.formulas.values()]
    out += [o.when for o in game.outcomes.values()]
    for b in game.bets.values():
        out += b.expressions()
    return [e for e in out if e is not None]


def model_exprs(game: Game) -> list[ir.Expr]:
    """Every expression the model of `game` holds (not its base's), wherever it sits: `round_exprs` first, then
    whatever else a field of the model holds (a `draw … while` condition, and any construct added later)."""
    out = round_exprs(game)
    seen = {id(e) for e in out}
    visited: set[int] = set()
    stack: list[object] = [game]  # a stack, not a recursive closure: no reference cycle left for the collector
    while stack:
        x = stack.pop()
        if isinstance(x, ir.Expr):
            if id(x) not in seen:
                seen.add(id(x))
                out.append(x)
        elif isinstance(x, dict):
            stack.extend(reversed(list(x.values())))
        elif isinstance(x, (list, tuple)):
            stack.extend(reversed(x))
        elif isinstance(x, (set, frozenset)):
            stack.extend(x)
        elif is_dataclass(x) and not isinstance(x, type) and id(x) not in visited:
            visited.add(id(x))
            stack.extend(reversed([getattr(x, f.name) for f in fields(x) if f.name not in NOT_RULES]))
    return out


def reader(game: Game) -> _Reads:
    r = _Reads(game)
    for e in model_exprs(game):
        r.visit(e)
    return r


def reads(game: Game) -> tuple[str, frozenset[str]]:
    """(the level of distinction the rules need, the card classes they count)."""
    r = reader(game)
    return LEVELS[r.level], frozenset(r.classes)


def finest_rule(game: Game) -> ir.Expr | None:
    """The first expression that makes the rules tell ranks or cards apart (None when values suffice)."""
    return reader(game).where


def card_classes(game: Game) -> list[tuple[list[str], int]]:
    """The shoe's classes of cards no rule tells apart: (codes of one deck's cards of the class, each as
    often as the deck holds it; copies of the class in the shoe), in the order of the deck."""
    shoe = game.shoe
    level, counted = reads(game)
    soft = set(game.soft.ranks) if game.soft is not None else set()
    groups: dict[tuple, list[str]] = {}
    for code in shoe.cards:
        rank = shoe.rank_of(code)
        value = card_value(game, code)
        if value is None:
            continue
        # the classes a rule counts that hold the card (a class may name single cards)
        member = tuple(c for c in sorted(counted) if c in game.classes and (
            rank in game.classes[c].ranks or code in game.classes[c].cards))
        if level == "card":
            key: tuple = (code,)
        elif level == "rank":  # a card valued apart from its rank, or counted apart, is told apart
            key = (rank, value, member)
        else:
            key = (value, rank in soft, member)
        groups.setdefault(key, []).append(code)
    out = []
    for key in sorted(groups, key=lambda k: tuple(str(x) for x in k)) if level != "value" else sorted(groups):
        codes = groups[key]
        # distinct cards first, suit by suit: repeated uses of a class prefer distinct ranks, then suits
        seen: dict[str, int] = {}
        order = []
        for c in codes:
            seen[c] = seen.get(c, 0) + 1
            suit = shoe.suit_of(c)
            order.append((seen[c], shoe.suits.index(suit) if suit in shoe.suits else len(shoe.suits),
                          shoe.ranks.index(shoe.rank_of(c)) if shoe.rank_of(c) in shoe.ranks else 0, c))
        out.append(([c for *_k, c in sorted(order)], len(codes) * shoe.decks))
    return out


def card_value(game: Game, code: str) -> Fraction | None:
    """A card's value: its own, or its rank's (None when it has neither, as a wild card)."""
    if code in game.card_values:
        return game.card_values[code]
    return game.values.get(game.shoe.rank_of(code))
