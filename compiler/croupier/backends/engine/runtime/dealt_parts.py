"""Engine runtime for dealt rounds: the alternatives a spec's constructs choose, each a part.

Each piece is a part, copied into an engine by whether its game has the construct, beside a
stand-in of the same name for a game without it: a soft total or a plain one, repeated draws
or not, rooms or not. They live apart from `dealt_round` so that it has no parts: a module
without parts is copied whole into every engine, and loading an engine in process then runs
it from the package's bytecode (`runtime_files`) instead of compiling its copy. The helpers a
spec's rules call live in `hand_reads`, `draw_grids` and `arith`: a module whose parts depend
on at most three conditions has its scan made ahead of time (`scans_ahead`).
"""
# ruff: noqa: F821, F811 - the engine's generated part and `dealt_round` give names; alternatives share one

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
