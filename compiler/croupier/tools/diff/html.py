"""`croupier diff --html FILE`: the diff reports as one standalone page in the rule cards' style.

The page reuses the cards' style sheet (`card.css`) and their message catalogs:
its fixed text is in every language of the project, one part per language, each
rendered with that language's catalog; the rule text of the spec is shown as
written. Every value reaches the page through Jinja2's autoescaping.
"""

from __future__ import annotations

from fractions import Fraction

from markupsafe import Markup

from croupier.backends.cards.render import environment
from croupier.figures import frac, pct
from croupier.project import DEFAULT_LANGUAGES, Project
from croupier.syntax.printer import number_text
from croupier.tools.diff.text import played_line, signed_pp


def share(p: Fraction) -> dict:
    return {"pct": pct(p), "exact": frac(p)}


def example_view(ex: dict | None) -> dict | None:
    if not ex:
        return None
    return {"cards": ex["cards"], "old": played_line(ex["old"]), "new": played_line(ex["new"])}


def change_view(c: dict) -> dict:
    return {"title": f"{c['kind']} {c['name']}" if c["name"] else c["kind"], "change": c["change"],
            "details": c["details"]}


def money_view(m: dict) -> list[dict]:
    if "table" in m:
        out = []
        for d, rows in m["table"].items():
            out.append({"decks": d, "spec": d == m["decks"]["new"], "rows": [
                {"name": n, "old": pct(r["old"]) if r["old"] is not None else "—",
                 "new": pct(r["new"]) if r["new"] is not None else "—",
                 "change": signed_pp(r["change"]) if r["change"] is not None else "—"} for n, r in rows.items()]})
        return out
    rows = [{"name": k, "old": number_text(r["old"]) if r["old"] is not None else "—",
             "new": number_text(r["new"]) if r["new"] is not None else "—",
             "change": number_text(r["change"]) if r["change"] is not None else "—"} for k, r in m["figures"].items()]
    return [{"decks": None, "spec": True, "rows": rows}]


def report_view(r: dict) -> dict:
    if "only" in r:
        return {"old": r["old"], "new": r["new"], "equivalent": False, "only": r["only"]}
    view = {"old": r["old"], "new": r["new"], "equivalent": r["equivalent"], "only": None,
            "play": [change_view(c) for c in r["changes"] if c["play"]],
            "doc": [change_view(c) for c in r["changes"] if not c["play"]],
            "rounds": None, "hands": None, "money": money_view(r["money"]) if "money" in r else None,
            "retest": r["retest"]["retest"]}
    rounds = r.get("rounds")
    if rounds is not None:
        view["rounds"] = {
            "compared": rounds["compared"], "decks": rounds.get("decks"), "cards": rounds.get("cards"),
            "played": share(rounds.get("played_differently", Fraction(0))),
            "outcome": share(rounds.get("outcome_changes", Fraction(0))),
            "cells": [{"table": c["table"], "cell": c["cell"], "old": c["old"], "new": c["new"],
                       "reach": share(c["reach_old"]), "outcome": share(c["outcome_changes"]),
                       "example": example_view(c["example"])} for c in rounds.get("cells", ())],
            "others": [{"where": " / ".join(o["where"]), "played": share(o["played_differently"]),
                        "outcome": share(o["outcome_changes"]), "example": example_view(o["example"])}
                       for o in rounds.get("other_partings", ())]}
    hands = r.get("hands")
    if hands is not None and hands.get("comparable"):
        view["hands"] = {"changed": share(hands["changed"])}
    return view


def render_html(reports: list[dict], project: Project | None) -> str:
    """The page of one or more diff reports, in every language of the project."""
    langs = list(project.languages if project is not None else DEFAULT_LANGUAGES)
    bodies = []
    for lang in langs:
        env = environment(True, lang)
        views = [report_view(r) for r in reports]
        bodies.append(Markup(env.get_template("diff_body.html.j2").render(reports=views, lang=lang)))
    title = " · ".join(f"{r['old']} → {r['new']}" for r in reports[:3]) + (" …" if len(reports) > 3 else "")
    page = environment(True, langs[0]).get_template("diff.html.j2").render(title=title, langs=langs, bodies=bodies)
    return page.rstrip("\n") + "\n"
