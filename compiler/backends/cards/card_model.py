"""The view of a game that rule-card templates render: plain data, one language.

Everything a card shows is derived here from the resolved model (the reference
cases marked as examples, the generated engine for example hands and payout
arithmetic, and the exact analysis when it is available); templates only lay it
out and translate the fixed prose. Spec text stays plain strings: the HTML
template escapes it, the Markdown template passes it through the `md` filter.
"""

from __future__ import annotations

import importlib
from fractions import Fraction
from types import ModuleType

from croupier.backends.cards.examples import SUIT_SYMBOLS, card_chip, example_hands, worked_examples
from croupier.backends.cards.svg import flow_layout
from croupier.semantics.cases import Case
from croupier.semantics.expr import expr_text
from croupier.semantics.model import Bet, DrawTable, Game, Payout
from croupier.syntax.printer import number_text

EXAMPLE_STAKE = 100


def _returns(p: Payout, stake: int, engine: ModuleType | None) -> str:
    """What a winning stake returns, stake included: by the engine's own arithmetic when it has it."""
    to_one = p.gross_multiple() - 1
    if engine is not None and hasattr(engine, "pays_to"):
        value = engine.pays_to(Fraction(stake), to_one, p.commission, p.unit, p.rounding)
        return number_text(Fraction(value))
    win = stake * to_one
    return number_text(stake + win - win * (p.commission or 0))


def payout_view(p: Payout, engine: ModuleType | None = None) -> dict:
    """A payout in both conventions (per 1 staked, stake included; and odds to one) and as a formula."""
    gross = p.gross_multiple()
    to_one = gross - 1
    net = to_one * (1 - p.commission) if p.commission else to_one
    commission = number_text(p.commission * 100) + "%" if p.commission else ""
    if p.commission:
        cut = f"stake × {number_text(to_one)} × {commission}"
        if p.rounding and p.unit:
            cut = f"round_{p.rounding}({cut}, {number_text(p.unit)})"
        formula = f"returns = stake + stake × {number_text(to_one)} − {cut}"
    elif p.style == "including":
        formula = f"returns = stake × {number_text(gross)}"
    else:
        formula = f"returns = stake + stake × {number_text(to_one)}"
    return {
        "including": number_text(1 + net),
        "to_one": number_text(to_one),
        "style": p.style,
        "commission": commission,
        "rounding": p.rounding or "",
        "unit": number_text(p.unit) if p.unit else "",
        "formula": formula,
        "stake": EXAMPLE_STAKE,
        "returns": _returns(p, EXAMPLE_STAKE, engine),
    }


def value_groups(game: Game) -> list[dict]:
    """Ranks grouped by value, in the order the spec lists them."""
    groups: dict[Fraction, list[str]] = {}
    for rank, value in game.values.items():
        groups.setdefault(value, []).append(rank)
    return [{"ranks": ranks, "value": number_text(v)} for v, ranks in groups.items()]


def draw_view(game: Game, t: DrawTable, lang: str) -> dict:
    """One draw table as a grid: every cell with its key and the action the table gives it."""
    two = bool(t.cols)
    header = list(t.cols) if two else list(t.rows)

    def cell(row: int, col: int | None) -> dict:
        draws = t.cells.get((row, col))
        key = f"{row},{col}" if two else f"{row}"
        return {"key": key, "action": "none" if draws is None else ("draw" if draws else "stand")}

    if two:
        rows = [{"key": r, "cells": [cell(r, c) for c in t.cols]} for r in t.rows]
    else:
        rows = [{"key": "", "cells": [cell(r, None) for r in t.rows]}]
    return {
        "hand": game.hands[t.hand].label(lang) if t.hand in game.hands else t.hand,
        "hand_name": t.hand,
        "when": expr_text(t.when) if t.when is not None else "",
        "row_key": expr_text(t.row_key),
        "col_key": expr_text(t.col_key) if t.col_key is not None else "",
        "header": header,
        "rows": rows,
        "two_keys": two,
        "cite": t.cite or "",
        "ident": t.ident or "",
        "rule": t.describe(),
    }


def math_section(game: Game, lang: str) -> dict | None:
    """The mathematics of the exact analysis, when that module exists and covers the game."""
    try:
        card_math = importlib.import_module("croupier.tools.analysis.card_math")
    except ImportError:
        return None
    try:
        view = card_math.math_view(game, lang)
        if view is None:
            return None
        return {"view": view, "chart": card_math.edge_chart_svg(view, lang)}
    except Exception:  # noqa: BLE001 - the card still builds when the analysis cannot cover a game
        return None


def _label(game: Game, kind: str, name: str, lang: str) -> str:
    group = {"bet": game.bets, "outcome": game.outcomes, "event": game.events,
             "hand": game.hands}.get(kind, {})
    return group[name].label(lang) if name in group else ""


def _bet_terms(game: Game, name: str, engine: ModuleType | None) -> list[dict]:
    """A bet's winning rules in short (condition, stake-included payout), for a variant's comparison."""
    bet = game.bets.get(name)
    if bet is None:
        return []
    return [{"when": r["when"], "including": r["including"]} for r in bet_rows(bet, engine) if r["kind"] == "wins"]


def bet_rows(bet: Bet, engine: ModuleType | None) -> list[dict]:
    """A bet's rules in the order they are tried, a payout table's rows each as a row: kind ("wins", "push",
    "loses"), the condition as the spec writes it (a table row's with its key), what a unit returns."""
    rows = []
    for rule in bet.clauses:
        when = expr_text(rule.when)
        base = {"kind": rule.kind, "when": when, "cite": rule.cite or "", "key": "", "part": ""}
        if rule.kind == "push":
            rows.append({**base, "including": "1", "to_one": "0", "commission": ""})
        elif rule.kind == "loses":
            rows.append({**base, "part": number_text(rule.part), "including": number_text(1 - rule.part),
                         "to_one": "", "commission": ""})
        elif rule.table is not None:
            key = expr_text(rule.table.key)
            for row in rule.table.rows:
                label = row.label() if row.condition is not None else f"{key} = {row.label()}"
                rows.append({**base, "key": label, "when": f"{when}, {label}", **payout_view(row.payout, engine)})
        else:
            rows.append({**base, **payout_view(rule.payout, engine)})
    return rows


def _items(things, lang: str, **fields) -> list[dict]:
    out = []
    for x in things:
        item = {"name": x.name, "label": x.label(lang), "cite": x.cite or ""}
        for key, attr in fields.items():
            value = getattr(x, attr)
            item[key] = expr_text(value) if value is not None else ""
        out.append(item)
    return out


def card_view(game: Game, lang: str, examples: list[Case], engine: ModuleType | None = None,
              langs: tuple[str, ...] = ()) -> dict:
    """Everything a rule card shows, for one language."""
    g = game
    shoe = g.shoe
    view: dict = {
        "lang": lang,
        "langs": list(langs or (lang,)),
        "name": g.name,
        "title": g.labels.get(lang, g.name),
        "spec_path": g.path,
        "base": None,
        "differences": [],
        "sources": [{"ident": s.ident, "description": s.description} for s in g.sources],
        "assumptions": [{"name": a.name, "text": a.label(lang), "cite": a.cite or ""} for a in g.assumptions.values()],
        "shoe": None,
        "values": value_groups(g),
        "value_cite": g.value_cite or "",
        "modulus": g.modulus or 0,
        "wild": None,
        "hands": _items(g.hands.values(), lang),
        "deal": [g.hands[h].label(lang) if h in g.hands else h for h in g.deal_order],
        "deal_cite": g.deal_cite or "",
        "events": _items(g.events.values(), lang, when="when"),
        "stand": expr_text(g.stand_when) if g.stand_when is not None else "",
        "stand_cite": g.stand_cite or "",
        "draws": [draw_view(g, t, lang) for t in g.draws],
        "outcomes": _items(g.outcomes.values(), lang, when="when"),
        "bets": [],
        "types": [],
        "formulas": [{"name": f.name, "expr": expr_text(f.expr), "cite": f.cite or ""} for f in g.formulas.values()],
        "settlement": None,
        "examples": worked_examples(g, lang, examples),
        "seats": list(g.seats) if g.seats else None,
        "hand_size": list(g.hand_size) if g.hand_size else None,
        "card_order": [g.joker_labels[r].get(lang, r) if r in g.joker_labels else r for r in g.card_order],
        "suit_order": [SUIT_SYMBOLS.get(s, s) for s in g.suit_order],
        "math": math_section(g, lang),
    }
    if shoe is not None:
        view["shoe"] = {
            "decks": shoe.decks, "kind": shoe.kind,
            "cards": shoe.size,
            "jokers": [{"code": j, "label": g.joker_labels[j].get(lang, j) if j in g.joker_labels else j}
                       for j in shoe.jokers],
            "cite": shoe.cite or "",
        }
    if g.base is not None:
        view["base"] = {"name": g.base.name, "title": g.base.labels.get(lang, g.base.name)}
        view["differences"] = [{"what": d.what, "kind": d.kind, "name": d.name, "label": _label(g, d.kind, d.name, lang),
                                "before": _bet_terms(g.base, d.name, engine) if d.kind == "bet" else [],
                                "after": _bet_terms(g, d.name, engine) if d.kind == "bet" else []}
                               for d in g.differences]
    if g.wild:
        view["wild"] = {"ranks": list(g.wild.ranks), "stands_for": list(g.wild.stands_for),
                        "best_by": list(g.wild.best_by), "cite": g.wild.cite or ""}
    for b in g.bets.values():
        rows = bet_rows(b, engine)
        view["bets"].append({
            "name": b.name, "label": b.label(lang), "cite": b.cite or "",
            "rules": rows,
            "wins": [r for r in rows if r["kind"] == "wins"],
            "pushes": [r["when"] for r in rows if r["kind"] == "push"],
        })
    samples = example_hands(g, engine)
    for t in g.types:
        view["types"].append({
            "name": t.name, "label": t.label(lang), "when": expr_text(t.when) if t.when else "",
            "multiplier": number_text(t.multiplier), "tiebreak": list(t.tiebreak), "cite": t.cite or "",
            "example": [card_chip(g, c, lang) for c in samples.get(t.name, [])],
        })
    if g.settlement is not None:
        s = g.settlement
        view["settlement"] = {
            "scheme": s.scheme, "cite": s.cite or "", "label": s.labels.get(lang, ""),
            "stake": s.stake or "", "stake_cite": (s.stake_lines[0].cite or "") if s.stake_lines else "",
            "clauses": [{"kind": c.kind, "name": c.name or "", "expr": expr_text(c.expr),
                         "unless": expr_text(c.unless) if c.unless is not None else "", "cite": c.cite or ""}
                        for c in s.clauses],
        }
    view["flow"] = flow_layout(view)
    return view
