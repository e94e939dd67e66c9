"""The whole diff of two versions of a spec: rule changes, rounds affected, money, what to retest.

`diff_versions` gathers the parts (`rules`, `rounds` or `seats`, `money`,
`retest`, `examples`) into one report of exact numbers (Fractions); `as_json`
turns it into the `--json` form (each probability and edge as an exact `"n/d"`
and a decimal string), `text` into the terminal's. The two versions are
equivalent in play when no rule of play changed and no round, edge or
reference case differs; `croupier diff` then exits 0.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

from croupier.figures import dec
from croupier.tools.diff import examples, money, retest, rules
from croupier.tools.diff.rounds import NotComparable, rounds_compared
from croupier.tools.diff.seats import compare_hands
from croupier.tools.diff.versions import Version

ROUND_SECTIONS = frozenset({"cards", "round", "draw tables", "outcomes"})


def round_part(old: Version, new: Version, changes: list[dict]) -> dict:
    """Rounds affected by the change (dealt-round games), with an example per changed rule."""
    if not any(c["play"] and c["section"] in ROUND_SECTIONS for c in changes):
        return {"compared": False, "reason": "no rule of the deal, the draws or the outcome changed",
                "played_differently": Fraction(0), "outcome_changes": Fraction(0)}
    decks = new.game.shoe.decks
    try:
        r = rounds_compared((old.game, old.engine), (new.game, new.engine), decks)
    except NotComparable as exc:
        return {"compared": False, "reason": str(exc)}
    cells = []
    for c in changes:
        for cell in c.get("cells", ()):
            where = (c["name"], (cell["row"], cell["col"]) if cell["col"] is not None else cell["row"])
            part = r["partings"].get((where, where), {})
            cells.append({"table": c["name"], **cell, "reach_old": r["reach"][0].get(where, Fraction(0)),
                          "reach_new": r["reach"][1].get(where, Fraction(0)),
                          "played_differently": part.get("played", Fraction(0)),
                          "outcome_changes": part.get("outcome", Fraction(0)),
                          "example": examples.example(old, new, part["example"]) if part else None})
    seen = {((c["table"], (c["row"], c["col"]) if c["col"] is not None else c["row"]),) * 2 for c in cells}
    others = [{"where": [" ".join(str(x) for x in w if x is not None) if w else "no decision" for w in key],
               "played_differently": v["played"], "outcome_changes": v["outcome"],
               "example": examples.example(old, new, v["example"])}
              for key, v in r["partings"].items() if key not in seen]
    return {"compared": True, "decks": r["decks"], "cards": r["cards"],
            "played_differently": r["played_differently"], "outcome_changes": r["outcome_changes"],
            "outcome_moves": [{"old": a, "new": b, "p": p} for (a, b), p in r["outcome_moves"].items()],
            "cells": cells, "other_partings": others}


def diff_versions(old: Version, new: Version, cases_dir: Path | None) -> dict:
    """The report of one pair of versions (see the module's docstring)."""
    changes = rules.rule_changes(old.game, new.game)
    out: dict = {"old": old.label, "new": new.label, "game": {"old": old.game.name, "new": new.game.name},
                 "changes": changes}
    if old.game.is_dealt_round and new.game.is_dealt_round:
        out["rounds"] = round_part(old, new, changes)
        out["money"] = money.bet_money((old.game, old.engine, old.shown), (new.game, new.engine, new.shown))
        changed_bets = [c["name"] for c in changes if c["play"] and c["kind"] == "bet" and c["change"] == "changed"]
        out["bet_examples"] = examples.bet_examples(old, new, changed_bets) if changed_bets else {}
    elif old.game.is_seat_game and new.game.is_seat_game:
        out["hands"] = compare_hands(old.engine, new.engine)
        out["money"] = money.seat_money((old.game, old.engine, old.shown), (new.game, new.engine, new.shown))
    out["retest"] = retest.cases_to_retest(old.game.name, cases_dir, old.engine, new.engine)
    out["equivalent"] = is_equivalent(out)
    return out


def is_equivalent(report: dict) -> bool:
    """Whether two versions play alike: no rule of play changed, and no round, edge or case differs."""
    if any(c["play"] for c in report["changes"]):
        return False
    rounds = report.get("rounds") or {}
    if rounds.get("played_differently") or rounds.get("outcome_changes"):
        return False
    if (report.get("hands") or {}).get("changed"):
        return False
    m = report.get("money") or {}
    rows = [r for t in (m.get("table") or {}).values() for r in t.values()] + list((m.get("figures") or {}).values())
    if any(r["change"] != 0 for r in rows):
        return False
    return not report["retest"]["retest"]


# ---- JSON -----------------------------------------------------------------------------------------------------
def as_json(value):
    """The report with exact numbers as {"exact": "n/d", "decimal": "…"} and tuple keys as text."""
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, Fraction):
        return {"exact": f"{value.numerator}/{value.denominator}", "decimal": dec(value)}
    if isinstance(value, int):
        return value
    if isinstance(value, dict):
        return {(k if isinstance(k, str) else " ".join(map(str, k)) if isinstance(k, tuple) else str(k)): as_json(v)
                for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_json(v) for v in value]
    return str(value)
