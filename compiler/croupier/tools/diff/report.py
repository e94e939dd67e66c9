"""The whole diff of two versions of a spec: rule changes, rounds affected, money, what to retest.

`diff_versions` gathers the parts (`rules`, `rounds`, and here the money and
what to retest) into one report of exact numbers (Fractions); `as_json`
turns it into the `--json` form (each probability and edge as an exact `"n/d"`
and a decimal string), `render` into the terminal's and the page's. The two versions are
equivalent in play when no rule of play changed and no round, edge or
reference case differs; `croupier diff` then exits 0.

Money: every bet's exact house edge before and after a change, for the spec's deck count and the deck
table. A dealt-round game's edges come from each version's own exact analysis (the
engine's analysis companion, `analysis_emitter`); a seat game's from the
threshold-policy analysis (`tools.analysis.seat`): the expected multiplier of one
hand under the spec's policy, and the banker's edge where a banker plays.

What to retest: the reference cases whose expected answer changes under the new version. Each
hand-written case of the old version (`tests/cases`, see `semantics.cases`) is answered by both engines, as the conformance tests answer it (`answer(line)`);
a case is listed when the two answers differ in a field the case pins down (its
`expect`), or when the new engine answers with an error where the old did not.
Such a case must be worked again by hand.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from croupier.backends.engine.loader import exact_analysis
from croupier.figures import dec
from croupier.semantics.cases import cases_for
from croupier.semantics.model import Game
from croupier.tools.analysis.report import DECK_TABLE
from croupier.tools.diff import rules
from croupier.tools.diff.rounds import NotComparable, bet_examples, companion, compare_hands, example, rounds_compared
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
                          "example": example(old, new, part["example"]) if part else None})
    seen = {((c["table"], (c["row"], c["col"]) if c["col"] is not None else c["row"]),) * 2 for c in cells}
    others = [{"where": [" ".join(str(x) for x in w if x is not None) if w else "no decision" for w in key],
               "played_differently": v["played"], "outcome_changes": v["outcome"],
               "example": example(old, new, v["example"])}
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
        out["money"] = bet_money((old.game, old.engine, old.shown), (new.game, new.engine, new.shown))
        changed_bets = [c["name"] for c in changes if c["play"] and c["kind"] == "bet" and c["change"] == "changed"]
        out["bet_examples"] = bet_examples(old, new, changed_bets) if changed_bets else {}
        for c in changes:  # clauses only reordered, and no round settles differently: not a change in play
            if (c["play"] and c["kind"] == "bet" and c["change"] == "changed" and c["details"]
                    and all(d.startswith("reordered:") for d in c["details"]) and c["name"] not in out["bet_examples"]):
                c["play"], c["change"] = False, "clauses reordered; every round settles the same"
    elif old.game.is_seat_game and new.game.is_seat_game:
        out["hands"] = compare_hands(old.engine, new.engine)
        out["money"] = seat_money((old.game, old.engine, old.shown), (new.game, new.engine, new.shown))
    out["retest"] = cases_to_retest(old.game.name, cases_dir, old.engine, new.engine)
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
    labels = {name: dict((new[0].bets.get(name) or old[0].bets[name]).labels.texts) for name in names}
    return {"decks": {"old": old[0].shoe.decks, "new": new[0].shoe.decks}, "table": table, "labels": labels}


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


def pinned(answer, expect):
    """The part of an answer that a case's expectation names."""
    if isinstance(expect, dict):
        if not isinstance(answer, dict):
            return answer
        return {k: pinned(answer.get(k), v) for k, v in expect.items()}
    return answer


def pinned_error(answer: dict, expect: dict):
    """What a case pins of an error: that the error names its expected text (as the conformance test checks),
    else the error itself."""
    if "error" not in answer:
        return None
    wanted = str(expect.get("error", "")).lower()
    return wanted in answer["error"].lower() if wanted else answer["error"]


def cases_to_retest(game_name: str, cases_dir: Path | None, old_engine, new_engine) -> dict:
    """{"cases": number of cases checked, "retest": [{"id", "source", "fields": [...]}]}."""
    if cases_dir is None:
        return {"cases": 0, "retest": []}
    cases, _diags = cases_for(game_name, cases_dir)
    out = []
    for case in cases:
        line = json.dumps(case.input, ensure_ascii=False)
        a, b = json.loads(old_engine.answer(line)), json.loads(new_engine.answer(line))
        keys = list(case.expect) if "error" not in case.expect else ["error"]
        if "error" in b and "error" not in a:
            keys = ["error"]
        fields = [k for k in keys if (pinned_error(a, case.expect) != pinned_error(b, case.expect) if k == "error"
                                      else pinned(a.get(k), case.expect.get(k)) != pinned(b.get(k), case.expect.get(k)))]
        if fields:
            out.append({"id": case.id, "source": case.source, "fields": fields,
                        "old": {k: pinned(a.get(k), case.expect.get(k)) for k in fields},
                        "new": {k: pinned(b.get(k), case.expect.get(k)) for k in fields}})
    return {"cases": len(cases), "retest": out}
