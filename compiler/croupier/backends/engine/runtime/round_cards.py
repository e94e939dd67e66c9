"""Engine runtime for dealt rounds: what the rules read of single cards, soft totals, losses of part of a stake.

Each piece is a part, copied only into an engine whose rules use it (the module is
left out whole when none is): a hand's cards by position, a card's rank and suit,
counts of a class, suit or rank, a remainder, the best of two totals when some
cards count one of two values, and a loss of part of a stake.
"""
# ruff: noqa: F821, F811 - names such as SUIT_OF come from the engine's generated part; alternative parts share a name

from fractions import Fraction

# ---- engine ----

# ---- part card_at if uses card_at ----
def card_at(cards, position):
    """The card at a position of a hand, counted from 1; None when the hand holds no such card."""
    if position != int(position):
        raise EngineError(f"a card's position is a whole number, not {position}")
    position = int(position)
    return cards[position - 1] if 1 <= position <= len(cards) else None
# ---- end card_at ----


# ---- part first_card if uses first_card ----
def first_card(cards):
    """The first card of a hand, or None when it holds none."""
    return cards[0] if cards else None
# ---- end first_card ----


# ---- part last_card if uses last_card ----
def last_card(cards):
    """The last card of a hand, or None when it holds none."""
    return cards[-1] if cards else None
# ---- end last_card ----


# ---- part card_rank if uses card_rank ----
def card_rank(card):
    """The rank of one card; asking for a card that was not dealt is an error."""
    if card is None:
        raise EngineError("a rule asked for the rank of a card that was not dealt")
    return RANK_OF[card]
# ---- end card_rank ----


# ---- part card_suit if uses card_suit ----
def card_suit(card):
    """The suit of one card (None for a joker); asking for a card that was not dealt is an error."""
    if card is None:
        raise EngineError("a rule asked for the suit of a card that was not dealt")
    return SUIT_OF[card]
# ---- end card_suit ----


# ---- part same_suit if uses same_suit ----
def same_suit(cards):
    """Whether all the cards are of one suit (two cards or more; a joker has no suit)."""
    if len(cards) < 2 or SUIT_OF[cards[0]] is None:
        return False
    return all(SUIT_OF[c] == SUIT_OF[cards[0]] for c in cards)
# ---- end same_suit ----


# ---- part count_class if uses count_class ----
def count_class(cards, name):
    """How many of the cards belong to a card class of the spec."""
    members = CARD_CLASSES[name]
    return sum(1 for c in cards if c in members)
# ---- end count_class ----


# ---- part count_suit if uses count_suit ----
def count_suit(cards, suit):
    """How many of the cards are of a suit."""
    return sum(1 for c in cards if SUIT_OF[c] == suit)
# ---- end count_suit ----


# ---- part count_rank if uses count_rank ----
def count_rank(cards, rank):
    """How many of the cards are of a rank."""
    return sum(1 for c in cards if RANK_OF[c] == rank)
# ---- end count_rank ----


# ---- part exact_mod if uses exact_mod ----
def exact_mod(a, b):
    """The remainder of an exact division for spec formulas (its sign is the divisor's)."""
    if b == 0:
        raise EngineError("a formula took a remainder modulo zero")
    if type(a) is int and type(b) is int:
        return a % b  # Python's own remainder of whole numbers has the divisor's sign too
    value = Fraction(a) % b
    return value.numerator if value.denominator == 1 else value
# ---- end exact_mod ----


# ---- part is_soft if uses is_soft ----
def is_soft(cards):
    """Whether the best total counts a card at its other value (a soft total)."""
    return best_total(cards)[1] > 0
# ---- end is_soft ----


# ---- part soft_total if soft ----
def best_total(cards):
    """(total, cards counted at their other value): the highest total not over SOFT_LIMIT, counting each
    card of SOFT_RANKS at its value or at its value plus SOFT_EXTRA; the lowest when every total is over."""
    base = 0
    soft = 0
    for c in cards:
        base += CARD_VALUE[c]
        if RANK_OF[c] in SOFT_RANKS:
            soft += 1
    best = 0
    for k in range(1, soft + 1):
        if base + k * SOFT_EXTRA > SOFT_LIMIT:
            break
        best = k
    return base + best * SOFT_EXTRA, best
# ---- end soft_total ----


# ---- part loses if uses loses ----
def loses(stake, part):
    """What a stake returns when the bet loses `part` of it (1: all)."""
    value = stake * (1 - part)
    return value.numerator if isinstance(value, Fraction) and value.denominator == 1 else value
# ---- end loses ----
