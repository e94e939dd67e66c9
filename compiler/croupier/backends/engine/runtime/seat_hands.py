"""Engine runtime for seat games: a hand's type, points, wild substitution and strength."""
# ruff: noqa: F821 - names such as TYPES come from the engine's generated part and `seat_hand_parts`

import math

# ---- engine ----

CARD_STRENGTH = {rank: len(CARD_ORDER) - i for i, rank in enumerate(CARD_ORDER)}
SUIT_STRENGTH = {suit: len(SUIT_ORDER) - i for i, suit in enumerate(SUIT_ORDER)}
TYPE_INDEX = {name: i for i, name in enumerate(TYPES)}
# A hand's total is summed in whole units of VALUE_UNIT (the values' least common denominator) and made a
# Fraction once: the same number as the sum of VALUE, and, like that sum, an int unless a card's value is a Fraction.
VALUE_UNIT = math.lcm(*(Fraction(v).denominator for v in VALUE.values()))
VALUE_UNITS = {rank: int(v * VALUE_UNIT) for rank, v in VALUE.items()}
FRACTION_VALUED = frozenset(rank for rank, v in VALUE.items() if isinstance(v, Fraction))
# A hand type's test reads only a hand's facts, and they depend only on its count, whether it holds a wild card,
# its total in units, whether a Fraction-valued card is among its ranks, and its count of each class. So each
# rank is also two numbers that a hand's cards add up: its units, and its marks (one digit of MARK_BASE for each
# class it belongs to, and a last digit if its value is a Fraction; no digit can carry, a hand holding at most
# HAND_SIZE[1] cards). A hand's kind is worked out once for each (count, wild, units, marks) and kept in KINDS.
MARK_BASE = HAND_SIZE[1] + 1
RANK_SUMS = {rank: (VALUE_UNITS[rank], sum(MARK_BASE ** i for i, members in enumerate(CLASSES.values()) if rank in members)
                    + (MARK_BASE ** len(CLASSES) if rank in FRACTION_VALUED else 0)) for rank in VALUE}
KINDS = {}  # (count, wild, units, marks) -> (score among substitutions, kind, total), or NO_KIND
NO_KIND = (None, None, None)
MAX_KINDS = 100_000  # kinds kept at most (each a few hundred bytes); beyond, all are forgotten and found again
FRACTION_TOTALS = {}  # units -> Fraction(units, VALUE_UNIT): the totals of hands holding a Fraction-valued card


class HandFacts:
    """What a hand-type predicate may ask of a (substituted) hand."""

    __slots__ = ("count", "total", "wild", "classes")

    def __init__(self, ranks, wild):
        self.count = len(ranks)
        units = 0
        for r in ranks:
            units += VALUE_UNITS[r]
        if FRACTION_VALUED.isdisjoint(ranks):
            self.total = units // VALUE_UNIT
        else:  # a Fraction, made once for each number of units (Fractions never change)
            total = FRACTION_TOTALS.get(units)
            if total is None:
                total = FRACTION_TOTALS[units] = Fraction(units, VALUE_UNIT)
            self.total = total
        self.wild = wild
        self.classes = {name: sum(r in members for r in ranks) for name, members in CLASSES.items()}


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


def classify(facts):
    """The first hand type (highest first) whose predicate holds, or None."""
    for name, test in TYPE_TESTS:
        if test(facts):
            return name
    return None


# each card's place for `top_card`: its rank's in the card order, then its suit's (a joker has no suit)
TOP_PLACE = {c: (CARD_STRENGTH.get(RANK_OF[c], 0), SUIT_STRENGTH.get(c[-1], 0) if c not in JOKERS else 0)
             for c in RANK_OF}


def top_card(codes):
    """The highest card of a hand by the card order, ties broken by suit."""
    return max(codes, key=TOP_PLACE.__getitem__)


def strength(value):
    """A sortable key: higher is stronger (type first, then the type's tie-break keys)."""
    key = [-TYPE_INDEX[value.type]]
    top = None
    for k in TIEBREAK[value.type]:
        if k == "total":
            key.append(value.points)
        elif k == "no wild":
            key.append(0 if value.wild else 1)
        elif k == "count":
            key.append(len(value.cards))
        else:
            top = top or top_card(value.cards)
            if k == "high card":
                key.append(CARD_STRENGTH.get(RANK_OF[top], 0))
            else:
                key.append(SUIT_STRENGTH.get(top[-1], 0) if top not in JOKERS else 0)
    return tuple(key)


def _substituted_kind(ranks, wild_at, choice, units):
    """(score among substitutions, kind, total) of the hand `ranks` with its wild cards standing for `choice`
    (NO_KIND when no hand type matches): its facts classified. The score is WILD_BEST_BY's keys, the total
    counted in units (`units` / VALUE_UNIT is the total, so it orders hands as the total does)."""
    subbed = list(ranks)
    for i, r in zip(wild_at, choice):
        subbed[i] = r
    facts = HandFacts(subbed, bool(wild_at))
    kind = classify(facts)
    if kind is None:
        return NO_KIND
    return tuple(-TYPE_INDEX[kind] if k == "type" else units for k in WILD_BEST_BY), kind, facts.total


def evaluate(cards):
    """Evaluate one hand; a wild card takes the substitution that makes the best hand."""
    codes = parse_cards(cards)
    low, high = HAND_SIZE
    if len(codes) > high:
        raise InvalidCards(f"a hand of more than {high} cards ({len(codes)})")
    if len(codes) < low:
        raise InvalidCards(f"a hand needs at least {low} card(s)")
    check_copies(codes)
    ranks = [RANK_OF[c] for c in codes]
    wild_at, choices = wild_substitutions(codes)
    wild = bool(wild_at)
    units = marks = 0  # the cards that are not wild, added up once; each substitution adds its choices
    for i, r in enumerate(ranks):
        if i not in wild_at:
            u, m = RANK_SUMS[r]
            units += u
            marks += m
    best = None
    for choice in choices:
        u, m = units, marks
        for r in choice:
            du, dm = RANK_SUMS[r]
            u += du
            m += dm
        key = (len(ranks), wild, u, m)
        got = KINDS.get(key)
        if got is None:
            if len(KINDS) >= MAX_KINDS:
                KINDS.clear()
            got = KINDS[key] = _substituted_kind(ranks, wild_at, choice, u)
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
    value.strength = strength(value)
    return value
