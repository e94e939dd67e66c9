"""Engine runtime for seat games: wild cards or none, the part a spec chooses.

Each piece is a part: a game with wild cards gets their substitutions, a game without them
a stand-in of the same names. They live apart from `seat_hands` so that it has no parts: a
module without parts is copied whole into every engine, and loading an engine in process
then runs it from the package's bytecode (`runtime_files`) instead of compiling its copy.
"""
# ruff: noqa: F821, F811 - the engine's generated part and `seat_hands` give names; alternatives share one

import itertools

# ---- engine ----

# ---- part wild if wild ----
# The most wild substitutions one hand may need tried. Wild cards are interchangeable (a hand's facts
# depend only on its ranks, not on which wild card took which), so k wild cards need the
# combinations with repetition of the choices, not their product; and choices that no hand type can
# tell apart (same value, same classes: J Q K worth 1/2 each) are tried once, by the first of them.
# 11 distinct choices give 8,008 tries for 6 wild cards, 19,448 for 7. A hand needing more is refused
# rather than left to run for minutes.
MAX_WILD_TRIES = 20_000


def _distinct_choices():
    seen = {}
    for r in WILD_CHOICES:
        seen.setdefault((VALUE.get(r), tuple(r in members for members in CLASSES.values())), r)
    return tuple(seen.values())


WILD_TRIES = _distinct_choices()  # the first of WILD_CHOICES of each kind a hand type can tell apart


def is_wild(code):
    """Whether a card is wild: its rank is wild, or the card itself is."""
    return code in WILD_CARDS or RANK_OF[code] in WILD_RANKS


def wild_substitutions(codes):
    """(positions of the wild cards, the ranks they may stand for, one tuple per substitution to try)."""
    wild_at = [i for i, c in enumerate(codes) if is_wild(c)]
    tries = math.comb(len(WILD_TRIES) + len(wild_at) - 1, len(wild_at)) if wild_at else 1
    if tries > MAX_WILD_TRIES:
        raise InvalidCards(f"a hand with {len(wild_at)} wild cards has {tries} substitutions to try; "
                           f"this engine tries at most {MAX_WILD_TRIES}")
    # Sorted choices (with repetition) in the order of WILD_CHOICES: the first best is the one the
    # product over every choice would find first, since the facts depend neither on which wild card
    # took which rank nor on which of two choices alike it took (the earlier one is always tried).
    choices = itertools.combinations_with_replacement(WILD_TRIES, len(wild_at)) if wild_at else [()]
    return wild_at, choices
# ---- end wild ----


# ---- part no_wild if not wild ----
def is_wild(code):
    """No wild cards in this game's spec."""
    return False


def wild_substitutions(codes):
    """No wild cards in this game's spec: the hand is tried as it is, once."""
    return [], [()]
# ---- end no_wild ----
