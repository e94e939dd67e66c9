"""The forms of a diff report (see `report`): text for the terminal, and the page of `--html FILE`.

`text(report)` writes the rule changes, rounds, money and what to retest for the terminal.
`render_html(reports, project)` writes the reports as one standalone page in the rule cards' style:
the page reuses the cards' style sheet (`card.css`) and their message catalogs; its fixed text is
in every language of the project, one part per language, each rendered with that language's
catalog; the rule text of the spec is shown as written. Every value reaches the page through
Jinja2's autoescaping (Jinja2 is loaded only for the page).
"""

from __future__ import annotations

from fractions import Fraction

from croupier.figures import frac, pct
from croupier.project import DEFAULT_LANGUAGES, Project
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
        if all(row["change"] == 0 for rows in m["table"].values() for row in rows.values()):
            counts = ", ".join(str(d) for d in m["table"])
            return out + [f"  unchanged: every bet's house edge is the same at every deck count ({counts})"]
        for d, rows in m["table"].items():
            mark = "  (the spec's shoe)" if d == decks else ""
            out.append(f"  {d} {'deck' if d == 1 else 'decks'}{mark}")
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
        out += ["Other changes, not in play"] + doc + [""]
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
    elif rt["cases"]:
        out.append(f"Retest: none of {rt['cases']} reference case(s) gets another answer")
    else:
        out.append("Retest: no reference case to compare (none in the cases folder for this spec)")
    out += ["", "No change in play." if report["equivalent"] else "Changes in play."]
    return "\n".join(out) + "\n"


def share_view(p: Fraction) -> dict:
    return {"pct": pct(p), "exact": frac(p)}


def example_view(ex: dict | None) -> dict | None:
    if not ex:
        return None
    return {"cards": ex["cards"], "old": played_line(ex["old"]), "new": played_line(ex["new"])}


def change_view(c: dict) -> dict:
    return {"title": f"{c['kind']} {c['name']}" if c["name"] else c["kind"], "change": c["change"],
            "details": c["details"]}


def money_view(m: dict, lang: str = "en") -> list[dict]:
    """The money tables of a report; each bet by its label in `lang` (its id where it has none)."""
    if "table" in m:
        out = []
        labels = m.get("labels") or {}
        for d, rows in m["table"].items():
            out.append({"decks": d, "spec": d == m["decks"]["new"], "rows": [
                {"name": labels.get(n, {}).get(lang) or labels.get(n, {}).get("en") or n, "id": n, "old": pct(r["old"]) if r["old"] is not None else "—",
                 "new": pct(r["new"]) if r["new"] is not None else "—",
                 "change": signed_pp(r["change"]) if r["change"] is not None else "—"} for n, r in rows.items()]})
        return out
    rows = [{"name": k, "old": number_text(r["old"]) if r["old"] is not None else "—",
             "new": number_text(r["new"]) if r["new"] is not None else "—",
             "change": number_text(r["change"]) if r["change"] is not None else "—"} for k, r in m["figures"].items()]
    return [{"decks": None, "spec": True, "rows": rows}]


def report_view(r: dict, lang: str = "en") -> dict:
    if "only" in r:
        return {"old": r["old"], "new": r["new"], "equivalent": False, "only": r["only"]}
    view = {"old": r["old"], "new": r["new"], "equivalent": r["equivalent"], "only": None,
            "play": [change_view(c) for c in r["changes"] if c["play"]],
            "doc": [change_view(c) for c in r["changes"] if not c["play"]],
            "rounds": None, "hands": None, "money": money_view(r["money"], lang) if "money" in r else None,
            "retest": r["retest"]["retest"]}
    rounds = r.get("rounds")
    if rounds is not None:
        view["rounds"] = {
            "compared": rounds["compared"], "decks": rounds.get("decks"), "cards": rounds.get("cards"),
            "played": share_view(rounds.get("played_differently", Fraction(0))),
            "outcome": share_view(rounds.get("outcome_changes", Fraction(0))),
            "cells": [{"table": c["table"], "cell": c["cell"], "old": c["old"], "new": c["new"],
                       "reach": share_view(c["reach_old"]), "outcome": share_view(c["outcome_changes"]),
                       "example": example_view(c["example"])} for c in rounds.get("cells", ())],
            "others": [{"where": " / ".join(o["where"]), "played": share_view(o["played_differently"]),
                        "outcome": share_view(o["outcome_changes"]), "example": example_view(o["example"])}
                       for o in rounds.get("other_partings", ())]}
    hands = r.get("hands")
    if hands is not None and hands.get("comparable"):
        view["hands"] = {"changed": share_view(hands["changed"])}
    return view


def render_html(reports: list[dict], project: Project | None) -> str:
    """The page of one or more diff reports, in every language of the project."""
    from markupsafe import Markup

    from croupier.backends.cards.render import environment

    langs = list(project.languages if project is not None else DEFAULT_LANGUAGES)
    bodies = []
    for lang in langs:
        env = environment(True, lang)
        views = [report_view(r, lang) for r in reports]
        bodies.append(Markup(env.get_template("diff_body.html.j2").render(reports=views, lang=lang)))
    title = " · ".join(f"{r['old']} → {r['new']}" for r in reports[:3]) + (" …" if len(reports) > 3 else "")
    page = environment(True, langs[0]).get_template("diff.html.j2").render(title=title, langs=langs, bodies=bodies)
    return page.rstrip("\n") + "\n"
