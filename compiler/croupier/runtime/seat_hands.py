"""Seat games: a hand's type, points, wild substitution and strength.

`SeatHands` (a mixin of `SeatGame`) evaluates hands by the game's data: card values and
classes, hand types tested in order (the generated `type_<name>(h)` functions), wild cards
and what they may stand for, the card and suit orders and each type's tie-breaks.
"""

import itertools
import math
from fractions import Fraction

from croupier.runtime.errors import EngineError, InvalidCards
from croupier.runtime.numbers import num_json

MAX_KINDS = 100_000  # kinds kept at most (each a few hundred bytes); beyond, all are forgotten and found again
NO_KIND = (None, None, None)
# The most wild substitutions one hand may need tried. Wild cards are interchangeable (a hand's facts
# depend only on its ranks, not on which wild card took which), so k wild cards need the
# combinations with repetition of the choices, not their product; and choices that no hand type can
# tell apart (same value, same classes: J Q K worth 1/2 each) are tried once, by the first of them.
# 11 distinct choices give 8,008 tries for 6 wild cards, 19,448 for 7. A hand needing more is refused
# rather than left to run for minutes.
MAX_WILD_TRIES = 20_000


class HandFacts:
    """What a hand-type predicate may ask of a (substituted) hand: count, total, wild, classes."""

    __slots__ = ("count", "total", "wild", "classes")

    def __init__(self, game, ranks, wild):
        self.count = len(ranks)
        units = 0
        value_units = game.VALUE_UNITS
        for r in ranks:
            units += value_units[r]
        if game.FRACTION_VALUED.isdisjoint(ranks):
            self.total = units // game.VALUE_UNIT
        else:  # a Fraction, made once for each number of units (Fractions never change)
            totals = game.FRACTION_TOTALS
            total = totals.get(units)
            if total is None:
                total = totals[units] = Fraction(units, game.VALUE_UNIT)
            self.total = total
        self.wild = wild
        self.classes = {name: sum(r in members for r in ranks) for name, members in game.CLASSES.items()}


class HandValue:
    """An evaluated hand: its cards, type, points, wild substitution and ranking strength.

    `substitution` is ((position, card, rank), …): what the wild card at each position stands for.
    """

    __slots__ = ("cards", "type", "points", "wild", "substitution", "strength")

    def as_json(self, with_substitution=False):
        out = {"type": self.type, "points": num_json(self.points), "wild": self.wild}
        if with_substitution:
            out["substitution"] = substitution_json(self.substitution)
        return out


def substitution_json(substitution):
    """{card: rank} for each wild card; a code the hand holds twice is keyed "BJ@3" by its position (from 1)."""
    codes = [code for _pos, code, _rank in substitution]
    return {(code if codes.count(code) == 1 else f"{code}@{pos + 1}"): rank for pos, code, rank in substitution}


class SeatHands:
    """Hand evaluation of a seat game (a mixin of `SeatGame`, which sets the data read here)."""

    HandValue = HandValue
    substitution_json = staticmethod(substitution_json)

    def hand_tables(self):
        """Work out the tables `evaluate` reads, once the game's data is set."""
        card_order, suit_order = self.CARD_ORDER, self.SUIT_ORDER
        self.CARD_STRENGTH = {rank: len(card_order) - i for i, rank in enumerate(card_order)}
        self.SUIT_STRENGTH = {suit: len(suit_order) - i for i, suit in enumerate(suit_order)}
        self.TYPE_INDEX = {name: i for i, name in enumerate(self.TYPES)}
        # A hand's total is summed in whole units of VALUE_UNIT (the values' least common denominator) and made a
        # Fraction once: the same number as the sum of VALUE, and, like that sum, an int unless a card's value is a
        # Fraction.
        values = self.VALUE
        self.VALUE_UNIT = math.lcm(*(Fraction(v).denominator for v in values.values()))
        self.VALUE_UNITS = {rank: int(v * self.VALUE_UNIT) for rank, v in values.items()}
        self.FRACTION_VALUED = frozenset(rank for rank, v in values.items() if isinstance(v, Fraction))
        # A hand type's test reads only a hand's facts, and they depend only on its count, whether it holds a wild
        # card, its total in units, whether a Fraction-valued card is among its ranks, and its count of each class.
        # So each rank is also two numbers that a hand's cards add up: its units, and its marks (one digit of
        # MARK_BASE for each class it belongs to, and a last digit if its value is a Fraction; no digit can carry,
        # a hand holding at most HAND_SIZE[1] cards). A hand's kind is worked out once for each (count, wild,
        # units, marks) and kept in KINDS.
        base = self.MARK_BASE = self.HAND_SIZE[1] + 1
        classes = self.CLASSES
        self.RANK_SUMS = {rank: (self.VALUE_UNITS[rank],
                                 sum(base ** i for i, members in enumerate(classes.values()) if rank in members)
                                 + (base ** len(classes) if rank in self.FRACTION_VALUED else 0)) for rank in values}
        self.KINDS = {}  # (count, wild, units, marks) -> (score among substitutions, kind, total), or NO_KIND
        self.MAX_KINDS = MAX_KINDS
        self.FRACTION_TOTALS = {}  # units -> Fraction(units, VALUE_UNIT): totals of hands with a Fraction value
        # each card's place for `top_card`: its rank's in the card order, then its suit's (a joker has no suit)
        self.TOP_PLACE = {c: (self.CARD_STRENGTH.get(self.RANK_OF[c], 0),
                              self.SUIT_STRENGTH.get(c[-1], 0) if c not in self.JOKERS else 0) for c in self.RANK_OF}
        seen = {}
        for r in self.WILD_CHOICES:
            seen.setdefault((values.get(r), tuple(r in members for members in classes.values())), r)
        self.WILD_TRIES = tuple(seen.values())  # the first of WILD_CHOICES of each kind a hand type can tell apart

    def HandFacts(self, ranks, wild):
        """The facts of a hand of these ranks (`HandFacts`)."""
        return HandFacts(self, ranks, wild)

    def classify(self, facts):
        """The first hand type (highest first) whose predicate holds, or None."""
        for name, test in self.TYPE_TESTS:
            if test(facts):
                return name
        return None

    def top_card(self, codes):
        """The highest card of a hand by the card order, ties broken by suit."""
        return max(codes, key=self.TOP_PLACE.__getitem__)

    def strength(self, value):
        """A sortable key: higher is stronger (type first, then the type's tie-breaks)."""
        key = [-self.TYPE_INDEX[value.type]]
        top = None
        for k in self.TIEBREAK[value.type]:
            if k == "total":
                key.append(value.points)
            elif k == "no wild":
                key.append(0 if value.wild else 1)
            elif k == "count":
                key.append(len(value.cards))
            else:
                top = top or self.top_card(value.cards)
                if k == "high card":
                    key.append(self.CARD_STRENGTH.get(self.RANK_OF[top], 0))
                else:
                    key.append(self.SUIT_STRENGTH.get(top[-1], 0) if top not in self.JOKERS else 0)
        return tuple(key)

    def is_wild(self, code):
        """Whether a card is wild: its rank is wild, or the card itself is (never, without wild cards)."""
        return code in self.WILD_CARDS or self.RANK_OF[code] in self.WILD_RANKS

    def wild_substitutions(self, codes):
        """(positions of the wild cards, the ranks they may stand for, one tuple per substitution to try)."""
        wild_at = [i for i, c in enumerate(codes) if self.is_wild(c)]
        if not wild_at:
            return [], [()]
        tries = math.comb(len(self.WILD_TRIES) + len(wild_at) - 1, len(wild_at))
        if tries > MAX_WILD_TRIES:
            raise InvalidCards(f"a hand with {len(wild_at)} wild cards has {tries} substitutions to try; "
                               f"this engine tries at most {MAX_WILD_TRIES}")
        # Sorted choices (with repetition) in the order of WILD_CHOICES: the first best is the one the
        # product over every choice would find first, since the facts depend neither on which wild card
        # took which rank nor on which of two choices alike it took (the earlier one is always tried).
        return wild_at, itertools.combinations_with_replacement(self.WILD_TRIES, len(wild_at))

    def _substituted_kind(self, ranks, wild_at, choice, units):
        """(score among substitutions, kind, total) of the hand `ranks` with its wild cards standing for `choice`
        (NO_KIND when no hand type matches): its facts classified. The score is WILD_BEST_BY's keys, the total
        counted in units (`units` / VALUE_UNIT is the total, so it orders hands as the total does)."""
        subbed = list(ranks)
        for i, r in zip(wild_at, choice):
            subbed[i] = r
        facts = HandFacts(self, subbed, bool(wild_at))
        kind = self.classify(facts)
        if kind is None:
            return NO_KIND
        return tuple(-self.TYPE_INDEX[kind] if k == "type" else units for k in self.WILD_BEST_BY), kind, facts.total

    def evaluate(self, cards):
        """Evaluate one hand; a wild card takes the substitution that makes the best hand."""
        codes = self.parse_cards(cards)
        low, high = self.HAND_SIZE
        if len(codes) > high:
            raise InvalidCards(f"a hand of more than {high} cards ({len(codes)})")
        if len(codes) < low:
            raise InvalidCards(f"a hand needs at least {low} card(s)")
        self.check_copies(codes)
        rank_of, rank_sums, kinds = self.RANK_OF, self.RANK_SUMS, self.KINDS
        ranks = [rank_of[c] for c in codes]
        wild_at, choices = self.wild_substitutions(codes)
        wild = bool(wild_at)
        units = marks = 0  # the cards that are not wild, added up once; each substitution adds its choices
        for i, r in enumerate(ranks):
            if i not in wild_at:
                u, m = rank_sums[r]
                units += u
                marks += m
        best = None
        for choice in choices:
            u, m = units, marks
            for r in choice:
                du, dm = rank_sums[r]
                u += du
                m += dm
            key = (len(ranks), wild, u, m)
            got = kinds.get(key)
            if got is None:
                if len(kinds) >= self.MAX_KINDS:
                    kinds.clear()
                got = kinds[key] = self._substituted_kind(ranks, wild_at, choice, u)
            if got[1] is not None and (best is None or got[0] > best[0]):
                best = got + (choice,)
        if best is None:
            raise EngineError(f"no hand type of the spec matches the hand {' '.join(codes)}")
        _score, kind, total, choice = best
        value = HandValue()
        value.cards = codes
        value.type = kind
        value.points = total
        value.wild = wild
        value.substitution = tuple((i, codes[i], r) for i, r in zip(wild_at, choice))
        value.strength = self.strength(value)
        return value
