"""Engine runtime for dealt rounds: the pieces a spec chooses, each a part.

Each piece is a part, copied only into an engine whose game has the feature or whose rules
use the name (alternatives share a name: a soft total or a plain one, repeated draws or
not, rooms or not). They live apart from `dealt_round` so that it has no parts: a module
without parts is copied whole into every engine, and loading an engine in process then
runs it from the package's bytecode (`runtime_files`) instead of compiling its copy.
"""
# ruff: noqa: F821, F811 - the engine's generated part and `dealt_round` give names; alternatives share one

from fractions import Fraction

# ---- engine ----

# ---- part plain_total if not soft ----
def total(cards):
    """The total of some cards, by the spec's values."""
    s = 0
    for c in cards:
        s += CARD_VALUE[c]
    return s % MODULUS if MODULUS else s
# ---- end plain_total ----


# ---- part soft_sum if soft ----
def total(cards):
    """The total of some cards, by the spec's values: the best of their totals (see best_total)."""
    return best_total(cards)[0]
# ---- end soft_sum ----


# ---- part third if uses third ----
def third(cards):
    """The third card of a hand, or None when it has only two."""
    return cards[2] if len(cards) > 2 else None
# ---- end third ----


# ---- part card_value if uses card_value ----
def card_value(card):
    """The value of one card; asking for a card that was not dealt is an error."""
    if card is None:
        raise EngineError("a rule asked for a card that was not dealt")
    return CARD_VALUE[card]
# ---- end card_value ----


# ---- part same_rank if uses same_rank ----
def same_rank(cards):
    """Whether all the cards are of one rank (a pair, for two cards)."""
    if len(cards) < 2:
        return False
    rank = RANK_OF[cards[0]]
    for c in cards:
        if RANK_OF[c] != rank:
            return False
    return True
# ---- end same_rank ----


# ---- part grid_table if uses grid_table ----
def grid_table(columns, rows):
    """A draw table from its grid: {row key: "D S …"} (or {(keys…): "D S …"} for one key).

    Cells are D (draw) or S (stand); the result maps a key, or a (row, column)
    pair, to True for draw and False for stand.
    """
    table = {}
    for row, cells in rows.items():
        marks = cells.split()
        if columns is None:
            table.update({key: mark == "D" for key, mark in zip(row, marks) if mark in "DS"})
        else:
            table.update({(row, col): mark == "D" for col, mark in zip(columns, marks) if mark in "DS"})
    return table
# ---- end grid_table ----


# ---- part repeats if repeats ----
def drawing_steps(r):
    """(hand, decide) for each draw decision of a round, in order; a hand that draws while a condition
    holds (REPEATS) is asked again after every card it draws, until it stands."""
    for hand, decide in DRAWERS:
        if hand not in REPEATS:
            yield hand, decide
            continue
        while True:
            held = len(getattr(r, hand))
            yield hand, decide
            if len(getattr(r, hand)) == held:
                break
# ---- end repeats ----


# ---- part no_repeats if not repeats ----
def drawing_steps(r):
    """(hand, decide) for each draw decision of a round, in order: each hand decides once."""
    return DRAWERS
# ---- end no_repeats ----


# ---- part pays_to if uses pays_to ----
def pays_to(stake, ratio, commission, unit, rounding):
    """Stake back plus winnings at `ratio` to one, less a rounded commission on the win."""
    win = stake * ratio
    if commission:
        win -= round_to(win * commission, unit, rounding)
    value = stake + win
    return value.numerator if isinstance(value, Fraction) and value.denominator == 1 else value
# ---- end pays_to ----


# ---- part rooms if rooms ----
def check_limits(room, bets):
    """Reject a stake outside the room's limits, naming the room and the limit."""
    limits = ROOMS.get(check_name(room, "the room", InvalidBet))
    if limits is None:
        known = ", ".join(ROOMS) or "none"
        raise InvalidBet(f"unknown room {json_text(room)!r}; rooms: {known}")
    for name, stake in bets.items():
        if name not in limits:
            continue
        low, high = limits[name]
        amount = parse_money(stake, f"the stake on {name}")
        if not low <= amount <= high:
            raise InvalidBet(f"the stake {num_json(amount)} on {name} is outside the limit of room "
                             f"{room}: {num_json(low)} to {num_json(high)}")
# ---- end rooms ----


# ---- part no_rooms if not rooms ----
def check_limits(room, bets):
    """Reject any room: this game's spec has no rooms (so no table limits)."""
    check_name(room, "the room", InvalidBet)
    raise InvalidBet(f"unknown room {json_text(room)!r}; rooms: none")
# ---- end no_rooms ----
