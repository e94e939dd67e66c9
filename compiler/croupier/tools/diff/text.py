"""The terminal form of a diff report (see `report`): rule changes, rounds, money, what to retest."""

from __future__ import annotations

from fractions import Fraction

from croupier.figures import frac, pct
from croupier.syntax.printer import number_text


def signed_pp(x: Fraction) -> str:
    """A change of percentage points, signed: `+0.4002 pp`."""
    text = pct(abs(x)).replace(" %", " pp")
    return ("−" if x < 0 else "+") + text


def share(p: Fraction) -> str:
    return f"{pct(p)} ({frac(p)})"


def played_line(side: dict) -> str:
    hands = ", ".join(f"{h} {' '.join(c)} ({side['totals'][h]})" for h, c in side["hands"].items())
    returns = "".join(f", {b} returns {number_text(Fraction(ret))}" for b, ret in side.get("returns", {}).items())
    return f"{hands}: {side['outcome']}{returns}"


def example_lines(ex: dict | None, pad: str) -> list[str]:
    if not ex:
        return []
    return [f"{pad}example: {' '.join(ex['cards'])}",
            f"{pad}  old: {played_line(ex['old'])}", f"{pad}  new: {played_line(ex['new'])}"]


def change_lines(changes: list[dict], in_play: bool) -> list[str]:
    out = []
    section = None
    for c in changes:
        if c["play"] != in_play:
            continue
        if c["section"] != section:
            section = c["section"]
            out.append(f"  {section}")
        name = f"{c['kind']} {c['name']}" if c["name"] else c["kind"]
        out.append(f"    {name}: {c['change']}")
        out += [f"      {d}" for d in c["details"]]
    return out


def rounds_lines(r: dict) -> list[str]:
    if not r["compared"]:
        return ["Rounds affected", f"  none: {r['reason']}"] if "played_differently" in r else \
               ["Rounds affected", f"  not compared: {r['reason']}"]
    out = [f"Rounds affected ({r['decks']} decks, {r['cards']} cards: every deal enumerated exactly, "
           "with card removal)",
           f"  played differently (another card drawn): {share(r['played_differently'])}",
           f"  outcome changes:                         {share(r['outcome_changes'])}"]
    out += [f"    {m['old']} → {m['new']}: {share(m['p'])}" for m in r["outcome_moves"]]
    for c in r["cells"]:
        out += [f"  cell {c['cell']} of `{c['table']}`: {c['old']} → {c['new']}",
                f"    rounds reaching it: {share(c['reach_old'])}"
                + ("" if c["reach_old"] == c["reach_new"] else f" (new version: {share(c['reach_new'])})"),
                f"    played differently there: {share(c['played_differently'])}",
                f"    outcome changes there:    {share(c['outcome_changes'])}"]
        out += example_lines(c["example"], "    ")
    for o in r["other_partings"]:
        out += [f"  first parting at {o['where'][0]} / {o['where'][1]}",
                f"    played differently: {share(o['played_differently'])}",
                f"    outcome changes:    {share(o['outcome_changes'])}"]
        out += example_lines(o["example"], "    ")
    return out


def money_lines(m: dict) -> list[str]:
    if "table" in m:
        out = ["Money (house edge per unit staked; exact fractions in --json)"]
        decks = m["decks"]["new"]
        for d, rows in m["table"].items():
            mark = "  (the spec's shoe)" if d == decks else ""
            out.append(f"  {d} deck(s){mark}")
            for name, row in rows.items():
                a = pct(row["old"]) if row["old"] is not None else "—"
                b = pct(row["new"]) if row["new"] is not None else "—"
                ch = ("unchanged" if row["change"] == 0 else signed_pp(row["change"])) if row["change"] is not None else ("removed" if row["new"] is None
                                                                                  else "added")
                out.append(f"    {name:<16} {a:>12} → {b:>12}   {ch}")
        return out
    out = ["Money (one hand under the spec's policy; exact fractions in --json)"]
    names = {"expected_multiplier": "expected multiplier", "banker_edge": "banker's edge per base bet"}
    for key, row in m["figures"].items():
        shown = pct if key == "banker_edge" else (lambda x: str(round(float(x), 6)) if x is not None else "—")
        a = shown(row["old"]) if row["old"] is not None else "—"
        b = shown(row["new"]) if row["new"] is not None else "—"
        out.append(f"  {names[key]}: {a} → {b}" + (f"   ({frac(row['change'])})" if row["change"] is not None else ""))
    return out


def hands_lines(h: dict) -> list[str]:
    if not h["comparable"]:
        return ["Hands affected", f"  not compared: {h['reason']}"]
    out = ["Hands affected (every hand the deck makes, each size the spec allows)",
           f"  type or rank changes: {share(h['changed'])} of {h['hands']:,} hands"]
    out += [f"    {a} → {b}: {share(p)}" for (a, b), p in h["moves"].items()]
    if h["example"]:
        ex = h["example"]
        out.append(f"  example: {' '.join(ex['cards'])}: {ex['old']} → {ex['new']}")
    return out


def text(report: dict) -> str:
    """The report as plain text."""
    out = [f"croupier diff: {report['old']} → {report['new']}", ""]
    play = change_lines(report["changes"], True)
    doc = change_lines(report["changes"], False)
    out += (["Rule changes in play"] + play if play else ["Rule changes in play: none"]) + [""]
    if doc:
        out += ["Other changes (labels, citations, sources, assumptions: not in play)"] + doc + [""]
    if "rounds" in report:
        out += rounds_lines(report["rounds"]) + [""]
        for bet, ex in report.get("bet_examples", {}).items():
            out += [f"Bet {bet}, an example round:"] + example_lines(ex, "  ") + [""]
    if "hands" in report:
        out += hands_lines(report["hands"]) + [""]
    if "money" in report:
        out += money_lines(report["money"]) + [""]
    rt = report["retest"]
    if rt["retest"]:
        out.append(f"Retest: {len(rt['retest'])} of {rt['cases']} reference case(s) get another answer under the new "
                   "version; work them again by hand")
        out += [f"  {c['id']} ({c['source']}): {', '.join(c['fields'])}" for c in rt["retest"]]
    else:
        out.append(f"Retest: none of {rt['cases']} reference case(s) gets another answer")
    out += ["", "No change in play." if report["equivalent"] else "Changes in play."]
    return "\n".join(out) + "\n"
