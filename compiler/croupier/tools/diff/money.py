"""Money: every bet's exact house edge before and after a change, for the spec's deck count and the deck table.

A dealt-round game's edges come from each version's own exact analysis (the
engine's analysis companion, `analysis_emitter`); a seat game's from the
threshold-policy analysis (`tools.analysis.seat`): the expected multiplier of one
hand under the spec's policy, and the banker's edge where a banker plays.
"""

from __future__ import annotations

from fractions import Fraction

from croupier.backends.engine.analysis_emitter import emit_analysis_module
from croupier.backends.engine.loader import exact_analysis, shared_engine
from croupier.semantics.model import Game
from croupier.tools.analysis.report import DECK_TABLE


def companion(game: Game, shown: str):
    """A dealt-round game's analysis companion, loaded from source (once per process for the same source)."""
    return shared_engine(emit_analysis_module(game, shown), game.name + "_analysis")


def edges(game: Game, engine, shown: str, decks: list[int]) -> dict[int, dict[str, Fraction]]:
    """{decks: {bet: house edge}} of one version (exact; each analysis kept in the cache per engine and
    companion source and deck count, as a build keeps the rule card's, so a version built before is not
    enumerated again)."""
    exact = companion(game, shown)
    return {d: {name: b["house_edge"] for name, b in exact_analysis(engine, exact, d)["bets"].items()}
            for d in decks}


def bet_money(old: tuple, new: tuple) -> dict:
    """Each bet's house edge before and after, and the change, for every deck count compared.
    `old` and `new` are (game, engine, shown path)."""
    decks = sorted({old[0].shoe.decks, new[0].shoe.decks, *DECK_TABLE})
    before, after = edges(*old, decks), edges(*new, decks)
    names = list(before[decks[0]]) + [n for n in after[decks[0]] if n not in before[decks[0]]]
    table = {}
    for d in decks:
        rows = {}
        for name in names:
            a, b = before[d].get(name), after[d].get(name)
            rows[name] = {"old": a, "new": b, "change": (b - a) if a is not None and b is not None else None}
        table[d] = rows
    return {"decks": {"old": old[0].shoe.decks, "new": new[0].shoe.decks}, "table": table}


def seat_money(old: tuple, new: tuple) -> dict:
    """One hand's expected multiplier and the banker's edge (where a banker plays), before and after,
    each version under its own policy threshold."""
    from croupier.tools.analysis.seat import SeatAnalysis, stake_of

    out = {}
    for side, (game, engine, _shown) in (("old", old), ("new", new)):
        t = game.policy_threshold
        if t is None:
            out[side] = None
            continue
        sa = SeatAnalysis(engine, t, stake_of(game))
        edge = sa.banker_edge(t, t)
        out[side] = {"threshold": t, "expected_multiplier": sa.one_hand(t)["expected_multiplier"],
                     "banker_edge": edge["banker_edge"] if edge is not None else None}
    rows = {}
    for key in ("expected_multiplier", "banker_edge"):
        a = out["old"][key] if out["old"] else None
        b = out["new"][key] if out["new"] else None
        if a is None and b is None:
            continue
        rows[key] = {"old": a, "new": b, "change": (b - a) if a is not None and b is not None else None}
    return {"thresholds": {k: (v["threshold"] if v else None) for k, v in out.items()}, "figures": rows}
