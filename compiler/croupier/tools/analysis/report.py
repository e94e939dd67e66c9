"""PAR-sheet reports from an engine's exact analysis: JSON-ready data and plain text.

The engine's `analyse(decks)` returns exact Fractions; this module only derives
(the standard deviation, via Decimal square roots) and formats them. Numbers in
the JSON are decimal strings: exact when the expansion ends, else 20 significant
digits; the exact fractions of the main figures are given alongside as "n/d".
"""

from __future__ import annotations

import textwrap

from croupier.figures import dec, frac, pct, sqrt_dec

DECK_TABLE = (1, 2, 4, 6, 8)
WIDTH = 80  # the text report's lines (a terminal's width)


def bet_report(b: dict) -> dict:
    """One bet's figures: returns distribution, mean, edge, standard deviation, hit frequency."""
    return {
        "house_edge": dec(b["house_edge"]),
        "expected_return": dec(b["expected_return"]),
        "stdev": sqrt_dec(b["variance"]),
        "hit_frequency": dec(b["hit"]),
        "push": dec(b["push"]),
        "returns": {dec(m): dec(p) for m, p in b["returns"].items()},
        "exact": {"house_edge": frac(b["house_edge"]), "expected_return": frac(b["expected_return"]),
                  "variance": frac(b["variance"])},
        "unit_stake_exact": b["scales_linearly"],
    }


def round_report(a: dict) -> dict:
    """The JSON PAR sheet of one exact analysis of a dealt round."""
    return {
        "decks": a["decks"],
        "cards": a["cards"],
        "outcomes": {k: dec(p) for k, p in a["outcomes"].items()},
        "outcomes_exact": {k: frac(p) for k, p in a["outcomes"].items()},
        "events": {k: dec(p) for k, p in a["events"].items()},
        "totals": {h: {str(t): dec(p) for t, p in d.items()} for h, d in a["totals"].items()},
        "two_card_totals": {h: {str(t): dec(p) for t, p in d.items()} for h, d in a["two_card_totals"].items()},
        "bets": {name: bet_report(b) for name, b in a["bets"].items()},
    }


def notes(rounded: list[str], a: dict) -> list[str]:
    """What a reader must know to use the figures: stakes, pushes and the bets (`rounded`)
    whose commission is rounded."""
    out = ["Figures are per unit staked (stake 1); a pushed bet counts as a bet placed (house edge = "
           "1 - expected return, stake included)."]
    if rounded:
        exact = all(a["bets"][name]["scales_linearly"] for name in rounded)
        out.append(f"Commission on {', '.join(rounded)} is rounded per bet in play; the analysis uses the unit "
                   "stake, " + ("where the rounding changes nothing, so these are the unrounded figures. Stakes "
                                "whose commission is not a whole number of units fare differently."
                                if exact else "where the rounding already changes the return."))
    return out


def deck_table(analyses: list[dict]) -> dict:
    """House edge of every bet by deck count: {bet: {decks: edge}}, plus the outcomes."""
    out: dict = {"decks": [a["decks"] for a in analyses], "outcomes": {}, "house_edge": {}}
    for a in analyses:
        for k, p in a["outcomes"].items():
            out["outcomes"].setdefault(k, {})[str(a["decks"])] = dec(p)
        for name, b in a["bets"].items():
            out["house_edge"].setdefault(name, {})[str(a["decks"])] = dec(b["house_edge"])
    return out


def text_report(a: dict, title: str) -> str:
    """A PAR sheet as plain text."""
    lines = [f"{title}: exact analysis, {a['decks']} deck(s), {a['cards']} cards", "", "Outcomes"]
    lines += [f"  {k:<14} {pct(p):>12}   {dec(p)}" for k, p in a["outcomes"].items()]
    if a["events"]:
        lines += ["", "Events"] + [f"  {k:<14} {pct(p):>12}" for k, p in a["events"].items()]
    sections = (("Final totals", "totals"), ("Totals as dealt, before any draw", "two_card_totals"))
    if a["totals"] == a["two_card_totals"]:  # no hand ever draws: one section says it all
        sections = (("Totals (no hand draws: as dealt and final)", "totals"),)
    for label, key in sections:
        lines += ["", label]
        for h, d in a[key].items():
            lines += textwrap.wrap(" ".join(f"{t}:{pct(p, 2)}" for t, p in d.items()), WIDTH,
                                   initial_indent=f"  {h:<10}", subsequent_indent=" " * 12)
    lines += ["", f"  {'bet':<14} {'house edge':>12} {'stdev':>10} {'hit':>12}   returns (stake included)"]
    for name, b in a["bets"].items():
        returns = ", ".join(f"{dec(m)}×:{pct(p, 2)}" for m, p in b["returns"].items())
        lines.append(f"  {name:<14} {pct(b['house_edge']):>12} {sqrt_dec(b['variance'])[:8]:>10} "
                     f"{pct(b['hit'], 2):>12}   {returns}")
    if not all(b["scales_linearly"] for b in a["bets"].values()):
        lines += ["", "Note: some returns are rounded, so a unit stake's return is not exact for every stake."]
    return "\n".join(lines) + "\n"


def text_deck_table(analyses: list[dict]) -> str:
    """House edge by deck count, as plain text."""
    decks = [a["decks"] for a in analyses]
    lines = ["House edge by deck count", "  " + f"{'bet':<14}" + "".join(f"{d:>12}" for d in decks)]
    for name in analyses[0]["bets"]:
        lines.append("  " + f"{name:<14}" + "".join(f"{pct(a['bets'][name]['house_edge']):>12}" for a in analyses))
    return "\n".join(lines) + "\n"
