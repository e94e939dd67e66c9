"""Engine runtime for tables: the pieces a spec chooses, each a part (squeeze, pushed stakes, voids).

Each piece is a part, copied into an engine by whether its game has the feature, beside a
stand-in of the same name for a game without it. They live apart from `table_ops` so that
it has no parts: a module without parts is copied whole into every engine, and loading an
engine in process then runs it from the package's bytecode (`runtime_files`) instead of
compiling its copy.
"""
# ruff: noqa: F821, F811 - the engine's generated part and `table_ops` give names; alternatives share one

# ---- engine ----

# ---- part squeeze if squeeze ----
def squeeze_sides(bets):
    """The hand each bettor may squeeze: the squeezing bet with the larger stake, ties as the spec says."""
    sides = {}
    for bettor, stakes in bets.items():
        placed = [(stakes[b], b) for b in SQUEEZE_BETS if b in stakes]
        if not placed:
            continue
        top = max(s for s, _ in placed)
        best = [b for s, b in placed if s == top]
        sides[bettor] = SQUEEZE_TIES_TO if SQUEEZE_TIES_TO in best else best[0]
    return sides


def squeeze_plan(bets):
    """{hand: (bettors…)} for every hand, in the squeeze order."""
    sides = squeeze_sides(bets)
    return {hand: tuple(b for b, side in sides.items() if side == hand) for hand in SCHEDULE_ORDER}
# ---- end squeeze ----


# ---- part no_squeeze if not squeeze ----
def squeeze_plan(bets):
    """{hand: ()} for every hand: this game's spec has no squeeze rule, so nobody squeezes."""
    return {hand: () for hand in SCHEDULE_ORDER}
# ---- end no_squeeze ----


# ---- part pushed_stakes if pushed-stakes ----
def pushed_bets(r):
    """The bets whose stakes come back by their push rule this round (when pushes count no valid bet)."""
    if not VALID_PUSHED_NONE:
        return frozenset()
    return {name for name, test in PUSHED.items() if test(r)}
# ---- end pushed_stakes ----


# ---- part no_pushed_stakes if not pushed-stakes ----
def pushed_bets(r):
    """No bets: in this game's spec a pushed stake still counts as a valid bet."""
    return frozenset()
# ---- end no_pushed_stakes ----


# ---- part void if void ----
def void_round(tr, reason):
    """Void a round (a misdeal): every stake comes back and no valid bet counts."""
    if not VOID_RETURNS_STAKES:
        raise InvalidTable("this game's spec has no void rule (`void returns stakes`)")
    tr.void = str(reason) if reason else "void"
    tr.returns = {bettor: dict(stakes) for bettor, stakes in tr.bets.items()}
    tr.valid = {bettor: 0 for bettor in tr.bets}
    return tr
# ---- end void ----


# ---- part no_void if not void ----
def void_round(tr, reason):
    """Refuse to void a round: this game's spec has no void rule."""
    raise InvalidTable("this game's spec has no void rule (`void returns stakes`)")
# ---- end no_void ----
