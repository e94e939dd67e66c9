"""The cards of a seat game grouped by what its rules can read: value classes.

A hand type reads a (wild-substituted) hand's `count`, `total`, `wild` and
`count(class)` only (`game_scopes.type_scope`), and a tie-break adds the hand's
top card (`high card`, `high suit`). So cards of one value, in the same card
classes, and both wild or both not, are interchangeable for everything but the
top card: they form one *value class*. The hand-type survey of `check` and the
exact analysis of `analyze` grow hands one class at a time, with multiplicities,
instead of one card or one rank at a time.

A wild card is its own kind: a wild rank (`wild BJ SJ as …`) or a single wild
card (`wild KD as …`, whose rank's other cards stay plain). Representative card
codes for a multiset of ranks give each copy of a rank the next suit it has,
skipping the suits of single wild cards of that rank.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from croupier.semantics.model import Game


@dataclass(frozen=True)
class ValueClass:
    """Cards the rules cannot tell apart: their ranks (a single wild card by its code) with copies."""

    ranks: tuple[tuple[str, int], ...]  # (rank or wild card code, copies in the shoe)
    wild: bool
    value: Fraction | None  # None for a wild class: its value is what it stands for
    member: tuple[bool, ...]  # in each card class of the game, in declaration order
    strength: int = 0  # place in the card order (higher is stronger) when the top card matters, else 0

    @property
    def copies(self) -> int:
        return sum(n for _r, n in self.ranks)


def card_strength(game: Game) -> dict[str, int]:
    """Each rank's place in the card order, highest first in the spec: a larger number is stronger."""
    order = game.card_order
    return {r: len(order) - i for i, r in enumerate(order)}


def copies_of(game: Game) -> dict[str, int]:
    """Each rank (and each single wild card, by its code) with the copies of it that are dealt as such."""
    shoe = game.shoe
    wild_cards = game.wild.cards if game.wild else ()
    out = {}
    for r in shoe.ranks + shoe.jokers:
        out[r] = shoe.rank_copies(r) - sum(shoe.copies(c) for c in wild_cards if shoe.rank_of(c) == r)
    for c in wild_cards:
        out[c] = shoe.copies(c)
    return {r: n for r, n in out.items() if n > 0}


def is_wild(game: Game, rank: str) -> bool:
    """Whether a rank (or a single wild card's code, as `copies_of` lists it) is wild."""
    return game.wild is not None and (rank in game.wild.ranks or rank in game.wild.cards)


def membership(game: Game, rank: str) -> tuple[bool, ...]:
    return tuple(rank in c.ranks for c in game.classes.values())


def value_classes(game: Game, by_top_card: bool = False) -> list[ValueClass]:
    """The deck's value classes, in the order of the shoe's ranks then jokers then wild cards.
    `by_top_card` keeps ranks of different places in the card order apart (for `high card`)."""
    strength = card_strength(game) if by_top_card else {}
    groups: dict[tuple, list[tuple[str, int]]] = {}
    for rank, n in copies_of(game).items():
        wild = is_wild(game, rank)
        place = strength.get(rank if rank in strength else rank[:-1], 0)
        key = (wild, None if wild else game.values.get(rank), () if wild else membership(game, rank), place)
        groups.setdefault(key, []).append((rank, n))
    return [ValueClass(tuple(ranks), wild, value, member, place)
            for (wild, value, member, place), ranks in groups.items()]


def distinct_choices(game: Game) -> tuple[str, ...]:
    """What a wild card may stand for, one rank per kind a hand type can tell apart (the first listed)."""
    if game.wild is None:
        return ()
    seen: dict[tuple, str] = {}
    for r in game.wild.stands_for:
        seen.setdefault((game.values.get(r), membership(game, r)), r)
    return tuple(seen.values())


class HandReader:
    """What the survey asks of hands, with the deck's lookups made once: facts keys and card codes."""

    def __init__(self, game: Game) -> None:
        shoe = game.shoe
        self.wild_cards = set(game.wild.cards) if game.wild else set()
        ranks = shoe.ranks + shoe.jokers
        self.member = {r: membership(game, r) for r in ranks}
        self.value = {r: game.values.get(r, Fraction(0)) for r in ranks}
        # the values as whole numbers over one common denominator: a hand's total is one exact sum of ints
        self.scale = math.lcm(*(Fraction(v).denominator for v in self.value.values()))
        self.scaled = {r: int(v * self.scale) for r, v in self.value.items()}
        self.codes_of = {r: [c for c in shoe.codes_of(r) if c not in self.wild_cards] for r in ranks}
        self.n = len(game.classes)

    def facts_key(self, ranks: list[str] | tuple[str, ...], wild: bool) -> tuple:
        """What a hand type may read of a substituted hand: (count, total, count of each class, wild); the
        total is a whole number of 1/`scale` (keys of one reader compare alike, with no Fraction built)."""
        member = [self.member[r] for r in ranks]
        scaled = self.scaled
        return (len(ranks), sum(scaled[r] for r in ranks),
                tuple(map(sum, zip(*member))) if member else (0,) * self.n, wild)

    def card_codes(self, ranks: list[str] | tuple[str, ...]) -> list[str]:
        """Card codes for a multiset of ranks (single wild cards by their code): each repeat of a rank
        takes the next card of that rank in the deck's order, skipping its single wild cards."""
        seen: dict[str, int] = {}
        out = []
        for r in ranks:
            if r in self.wild_cards:
                out.append(r)
                continue
            codes = self.codes_of[r]
            n = seen.get(r, 0)
            seen[r] = n + 1
            out.append(codes[n % len(codes)])
        return out


def facts_key(game: Game, ranks: list[str] | tuple[str, ...], wild: bool) -> tuple:
    """What a hand type may read of a substituted hand: (count, total, count of each class, wild)."""
    return HandReader(game).facts_key(ranks, wild)
