"""The view of a game that rule-card templates render: plain data, one language.

Everything a card shows is derived here from the resolved model (and the
reference cases marked as examples); templates only lay it out.
"""

from __future__ import annotations

from collections import OrderedDict
from fractions import Fraction

from ..cases import Case
from ..model import Game, Payout
from ..printer import expr_text, number_text


def payout_texts(p: Payout) -> dict:
    """A payout in both conventions: total returned per 1 staked, and odds to one."""
    gross = p.gross_multiple()
    to_one = gross - 1
    out = {
        "including": f"1:{number_text(gross)}",
        "to_one": f"{number_text(to_one)}:1",
        "commission": number_text(p.commission * 100) + "%" if p.commission else "",
        "rounding": f"{p.rounding} to {number_text(p.unit)}" if p.rounding and p.unit else "",
    }
    if p.commission:
        net = to_one * (1 - p.commission)
        out["including"] = f"1:{number_text(1 + net)}"
        out["to_one"] = f"{number_text(to_one)}:1 less {out['commission']}"
    return out


def value_groups(game: Game) -> list[dict]:
    groups: OrderedDict[Fraction, list[str]] = OrderedDict()
    for rank, value in game.values.items():
        groups.setdefault(value, []).append(rank)
    return [{"ranks": " ".join(ranks), "value": number_text(v)} for v, ranks in groups.items()]


def card_view(game: Game, lang: str, examples: list[Case]) -> dict:
    """Everything a rule card shows, for one language."""
    g = game
    view: dict = {
        "lang": lang,
        "name": g.name,
        "title": g.labels.get(lang, g.name),
        "spec_path": g.path,
        "base": None,
        "differences": [],
        "sources": [{"ident": s.ident, "description": s.description} for s in g.sources],
        "assumptions": [{"name": a.name, "text": a.label(lang), "cite": a.cite or ""} for a in g.assumptions.values()],
        "shoe": {
            "decks": g.shoe.decks,
            "kind": g.shoe.kind,
            "cards": g.shoe.decks * (len(g.shoe.ranks) * len(g.shoe.suits) + len(g.shoe.jokers)),
            "jokers": " ".join(g.shoe.jokers),
            "cite": g.shoe.cite or "",
        },
        "values": value_groups(g),
        "value_cite": g.value_cite or "",
        "total": f"sum mod {g.modulus}" if g.modulus else "sum",
        "wild": None,
        "hands": [{"name": h.name, "label": h.label(lang)} for h in g.hands.values()],
        "deal": [g.hands[h].label(lang) if h in g.hands else h for h in g.deal_order],
        "deal_cite": g.deal_cite or "",
        "events": [{"name": e.name, "label": e.label(lang), "when": expr_text(e.when), "cite": e.cite or ""}
                   for e in g.events.values()],
        "stand": expr_text(g.stand_when) if g.stand_when is not None else "",
        "draws": [],
        "outcomes": [{"name": o.name, "label": o.label(lang), "when": expr_text(o.when), "cite": o.cite or ""}
                     for o in g.outcomes.values()],
        "bets": [],
        "types": [],
        "formulas": [{"name": f.name, "expr": expr_text(f.expr), "cite": f.cite or ""} for f in g.formulas.values()],
        "settlement": None,
        "examples": [],
        "seats": list(g.seats) if g.seats else None,
        "hand_size": list(g.hand_size) if g.hand_size else None,
        "card_order": " > ".join(g.card_order),
        "suit_order": " > ".join(g.suit_order),
    }
    if g.base is not None:
        view["base"] = {"name": g.base.name, "title": g.base.labels.get(lang, g.base.name)}
        view["differences"] = [{"what": d.what, "kind": d.kind, "name": d.name} for d in g.differences]
    if g.wild:
        view["wild"] = {"ranks": " ".join(g.wild.ranks), "stands_for": " ".join(g.wild.stands_for),
                        "best_by": " then ".join(g.wild.best_by), "cite": g.wild.cite or ""}
    for t in g.draws:
        rows = []
        for r in t.rows:
            if t.cols:
                rows.append({"key": r, "cells": ["D" if t.cells.get((r, c)) else "S" for c in t.cols]})
        if not t.cols:
            rows = [{"key": "", "cells": ["D" if t.cells.get((r, None)) else "S" for r in t.rows]}]
        view["draws"].append({
            "hand": g.hands[t.hand].label(lang) if t.hand in g.hands else t.hand,
            "hand_name": t.hand,
            "when": expr_text(t.when) if t.when is not None else "",
            "row_key": expr_text(t.row_key),
            "col_key": expr_text(t.col_key) if t.col_key is not None else "",
            "header": list(t.cols) if t.cols else list(t.rows),
            "rows": rows,
            "two_keys": bool(t.cols),
            "cite": t.cite or "",
            "ident": t.ident or f"{t.hand}",
        })
    for b in g.bets.values():
        view["bets"].append({
            "name": b.name,
            "label": b.label(lang),
            "cite": b.cite or "",
            "wins": [{"when": expr_text(w.when), **payout_texts(w.payout), "cite": w.cite or ""} for w in b.wins],
            "pushes": [expr_text(p) for p in b.pushes],
        })
    for t in g.types:
        view["types"].append({
            "name": t.name, "label": t.label(lang), "when": expr_text(t.when) if t.when else "",
            "multiplier": number_text(t.multiplier), "tiebreak": ", ".join(t.tiebreak), "cite": t.cite or "",
        })
    if g.settlement is not None:
        s = g.settlement
        view["settlement"] = {
            "scheme": s.scheme,
            "cite": s.cite or "",
            "clauses": [
                {"kind": c.kind, "name": c.name or "", "expr": expr_text(c.expr),
                 "unless": expr_text(c.unless) if c.unless is not None else "", "cite": c.cite or ""}
                for c in s.clauses
            ],
        }
    for c in examples:
        view["examples"].append({"id": c.id, "source": c.source, "title": c.title,
                                 "input": c.input, "expect": c.expect})
    return view
