"""Engine runtime for seat games: how a table settles, the part a spec chooses.

Each piece is a part: every pair of seats settles between them, or every seat against the
banker. They live apart from `seat_table` so that it has no parts: a module without parts
is copied whole into every engine, and loading an engine in process then runs it from the
package's bytecode (`runtime_files`) instead of compiling its copy.
"""
# ruff: noqa: F821, F811 - the engine's generated part and `seat_table` give names; alternatives share one

# ---- engine ----

# ---- part pairwise if pairwise ----
def settle_seats(t, out, transfers):
    """Pairwise: every seat settles with every weaker seat, strongest first; `out["order"]` the order."""
    order = sorted(t.seats, key=lambda s: t.values[s].strength, reverse=True)
    out["order"] = order
    for i, winner in enumerate(order):
        for loser in order[i + 1:]:
            tied = t.values[winner].strength == t.values[loser].strength
            if verdict(t, winner, loser, tied) == "draw":
                continue
            _transfer(t, loser, winner, payment(t, winner, loser), transfers)
# ---- end pairwise ----


# ---- part against_banker if against-banker ----
def settle_seats(t, out, transfers):
    """Against the banker: every player settles with the banker; `out["results"]` who won each."""
    banker = t.banker
    results = {}
    for player in t.seats:
        if player == banker:
            continue
        tied = t.values[player].strength == t.values[banker].strength
        who = verdict(t, banker, player, tied)
        if who == "draw":
            results[player] = "draw"
            continue
        if who is None:
            who = "player" if t.values[player].strength > t.values[banker].strength else "banker"
        results[player] = who
        winner, loser = (player, banker) if who == "player" else (banker, player)
        _transfer(t, loser, winner, payment(t, banker, player, winner, loser), transfers)
    out["results"] = results
# ---- end against_banker ----
