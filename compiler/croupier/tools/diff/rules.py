"""Rule changes between two versions of a game, in the language's terms: the model compared field by field.

Every field of the model's `Game` has an entry in `FIELDS`: the section of the
report it belongs to, what it is called, and how two versions of it compare
(`single` value, named `items`, an ordered list of named items, the draw tables'
cells, or `ignored` for what only says where the spec lies). A field the table
does not know (a new statement family) stops the diff with an error naming it,
so that no rule change is ever skipped in silence. Items are described by
`LINES`, one entry per model class, falling back to their fields.

A change is in play unless only labels, citations, sources or assumptions
differ; a reordering of statements whose order does not matter is no change
(a bet's clauses are tried in order: their order matters).

`play(value)` is a model value (a bet, an expression, a shoe, …) reduced to what
decides play: spans, labels, citations, the file a rule came from and the
derived texts are left out, a number is its exact value whatever its spelling,
and a mapping is compared without its order. Two values with equal `play`
forms play alike. `whole(value)` keeps labels and citations too: where `play`
forms agree and `whole` forms do not, only the documentation changed.

`text(value)` writes a value back in the spec's notation (`pays 8 to 1`,
`total(banker) = 6`, `8 decks of standard52`), for the report.

Draw-table changes are the tables added or removed, and every cell that flipped, in the card's words. Two
versions' tables are matched by what they say (`draw banker when drew(player)
by total(banker) × value(third(player))`); a cell is named by its keys as the
card shows them (`total(banker) = 3, value(third(player)) = 8: stand → draw`).
The order in which hands draw (the order of their first tables) is play too.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from fractions import Fraction

from croupier.diagnostics import Span
from croupier.semantics import model
from croupier.semantics.expr import Expr, Num, expr_text
from croupier.semantics.model import DrawTable
from croupier.syntax.printer import number_text


class UnknownField(Exception):
    """A field of the model that the diff has no rule for (add it to `FIELDS`)."""


# ---- items in the spec's words ------------------------------------------------------------------------------
def _clause(c: model.BetRule) -> list[str]:
    """One clause of a bet as the spec writes it; a payout table's rows follow it, one a line."""
    when = text(c.when)
    if c.kind == "push":
        return [f"push when {when}"]
    if c.kind == "loses":
        part = "" if c.part == 1 else ("half " if c.part == Fraction(1, 2) else f"{text(c.part)} ")
        return [f"loses {part}when {when}"]
    if c.table is not None:
        rows = [f"| {row.label()} | {payout_text(row.payout).removeprefix('pays ')} |" for row in c.table.rows]
        return [f"wins when {when}, pays by {text(c.table.key)}"] + rows
    return [f"wins when {when}, {payout_text(c.payout)}"]


def _bet(b: model.Bet) -> list[str]:
    """A bet's clauses in the order they are tried (the order decides which one settles a round)."""
    return [line for c in b.clauses for line in _clause(c)]


def _type(t: model.HandType) -> list[str]:
    out = [f"when {text(t.when)}", f"multiplier {text(t.multiplier)}"]
    return out + ([f"order within by {', '.join(t.tiebreak)}"] if t.tiebreak else [])


def _settlement(s: model.Settlement) -> list[str]:
    out = [f"settle {s.scheme}"] + [f"each player stakes {x.name}" for x in s.stake_lines]
    for c in s.clauses:
        if c.kind == "let":
            out.append(f"let {c.name} = {text(c.expr)}")
        elif c.kind == "pay":
            out.append(f"pay {text(c.expr)}" + (f" unless {text(c.unless)}" if c.unless is not None else ""))
        else:
            out.append(f"{c.kind} when {text(c.expr)}")
    return out


LINES: dict[type, Callable] = {
    model.Bet: _bet,
    model.HandType: _type,
    model.Settlement: _settlement,
    model.Event: lambda e: [f"when {text(e.when)}"],
    model.Outcome: lambda o: [f"when {text(o.when)}"],
    model.Formula: lambda f: [f"= {text(f.expr)}"],
    model.Room: lambda r: [f"{bet}: no limit" if lim is None else f"{bet}: {text(lim[0])}..{text(lim[1])}"
                           for bet, lim in r.limits.items()],
    model.CardClass: lambda c: ["= " + " ".join(c.ranks)],
    model.Assumption: lambda a: [text(a.labels)],
    model.DrawRepeat: lambda r: [f"draw {r.hand} while {text(r.when)}"],
    model.Item: lambda i: [],
}


def lines_of(value) -> list[str]:
    """A value as lines of the spec (one for a plain value)."""
    for cls in type(value).__mro__:
        if cls in LINES:
            return LINES[cls](value)
    return [text(value)]


def line_changes(old: list[str], new: list[str]) -> list[str]:
    """What turned the old lines into the new: `old → new`, `added: …`, `removed: …`; the same lines in another
    order (a bet's clauses, tried in order) are `reordered: a; b → b; a`."""
    if old != new and sorted(old) == sorted(new):
        return [f"reordered: {'; '.join(old)} → {'; '.join(new)}"]
    out = []
    for op, a1, a2, b1, b2 in difflib.SequenceMatcher(a=old, b=new, autojunk=False).get_opcodes():
        if op == "replace":
            pairs = list(zip(old[a1:a2], new[b1:b2]))
            out += [f"{a} → {b}" for a, b in pairs]
            out += [f"removed: {a}" for a in old[a1 + len(pairs):a2]] + [f"added: {b}" for b in new[b1 + len(pairs):b2]]
        elif op == "delete":
            out += [f"removed: {a}" for a in old[a1:a2]]
        elif op == "insert":
            out += [f"added: {b}" for b in new[b1:b2]]
    return out


def doc_changes(old, new) -> list[str]:
    """Label and citation changes of one thing."""
    out = []
    for name in ("labels", "cite"):
        a, b = getattr(old, name, None), getattr(new, name, None)
        if whole(a) != whole(b):
            out.append(f"{'labels' if name == 'labels' else 'citation'}: {text(a)} → {text(b)}")
    return out


def change(section: str, kind: str, name: str | None, what: str, in_play: bool, details: list[str]) -> dict:
    return {"section": section, "kind": kind, "name": name, "change": what, "play": in_play, "details": details}


# ---- how fields compare ----------------------------------------------------------------------------------------
def single(section: str, kind: str, in_play: bool = True):
    def compare(old, new) -> list[dict]:
        if whole(old) == whole(new):
            return []
        if play(old) == play(new) or not in_play:
            return [change(section, kind, None, "changed", False, doc_changes(old, new) or
                           [f"{text(old)} → {text(new)}"])]
        return [change(section, kind, None, "changed", True, line_changes(lines_of(old), lines_of(new))
                       if old is not None and new is not None else [f"{text(old)} → {text(new)}"])]
    return compare


def items(section: str, kind: str, in_play: bool = True, ordered: bool = False):
    def compare(old, new) -> list[dict]:
        a = old if isinstance(old, dict) else {i.name: i for i in old}
        b = new if isinstance(new, dict) else {i.name: i for i in new}
        out = []
        for name in [n for n in a if n not in b]:
            out.append(change(section, kind, name, "removed", in_play, lines_of(a[name])))
        for name in [n for n in b if n not in a]:
            out.append(change(section, kind, name, "added", in_play, lines_of(b[name])))
        for name in [n for n in a if n in b]:
            x, y = a[name], b[name]
            if whole(x) == whole(y):
                continue
            if play(x) != play(y) and in_play:
                out.append(change(section, kind, name, "changed", True, line_changes(lines_of(x), lines_of(y))))
            else:
                out.append(change(section, kind, name, "changed", False,
                                  doc_changes(x, y) or line_changes(lines_of(x), lines_of(y))))
        common_a, common_b = [n for n in a if n in b], [n for n in b if n in a]
        if ordered and common_a != common_b:
            out.append(change(section, kind, None, "reordered", True, [f"{' '.join(common_a)} → {' '.join(common_b)}"]))
        return out
    return compare


def sources(old: list[model.Source], new: list[model.Source]) -> list[dict]:
    a, b = {s.ident: s.description for s in old}, {s.ident: s.description for s in new}
    details = [f"removed: {k} {v}" for k, v in a.items() if k not in b]
    details += [f"added: {k} {v}" for k, v in b.items() if k not in a]
    details += [f"{k}: {a[k]} → {b[k]}" for k in a if k in b and a[k] != b[k]]
    return [change("documentation", "sources", None, "changed", False, details)] if details else []


def values(old: dict, new: dict) -> list[dict]:
    details = [f"{rank}: {text(old.get(rank))} → {text(new.get(rank))}"
               for rank in list(old) + [r for r in new if r not in old] if old.get(rank) != new.get(rank)]
    return [change("cards", "value", None, "changed", True, details)] if details else []


def removals(old: list[model.Difference], new: list[model.Difference]) -> list[dict]:
    """The `remove` statements of a variant. What they remove is compared in its own section (a removed bet
    under the bets), so a change here is documentation: the same game may be written with or without them."""
    a = sorted(f"remove {d.kind} {d.name}" for d in old if d.what == "remove")
    b = sorted(f"remove {d.kind} {d.name}" for d in new if d.what == "remove")
    details = line_changes(a, b)
    return [change("documentation", "removals", None, "changed", False, details)] if details else []


def ignored(old, new) -> list[dict]:
    return []


def draws(old: list[model.DrawTable], new: list[model.DrawTable]) -> list[dict]:
    return table_changes(old, new)


# every field of model.Game and how it compares
FIELDS: dict[str, Callable[[object, object], list[dict]]] = {
    "name": single("documentation", "game name", in_play=False),
    "labels": single("documentation", "game labels", in_play=False),
    "path": ignored, "span": ignored, "base": ignored, "source_text": ignored, "rules_text": ignored,
    "differences": removals,  # overrides and additions show in the sections of what they override or add
    "hand_size_span": ignored, "deal_span": ignored, "stand_span": ignored,
    "sources": sources,
    "version": single("documentation", "version", in_play=False),
    "effective": single("documentation", "effective date", in_play=False),
    "version_cite": single("documentation", "version citation", in_play=False),
    "assumptions": items("documentation", "assumption", in_play=False),
    "joker_labels": single("documentation", "joker labels", in_play=False),
    "decks": single("documentation", "declared decks", in_play=False),  # in play through the shoe they make
    "shoe": single("cards", "shoe"),
    "suit_labels": single("documentation", "suit labels", in_play=False),
    "card_values": single("cards", "values of single cards"),
    "values": values,
    "value_cite": single("documentation", "value citation", in_play=False),
    "classes": items("cards", "card class"),
    "wild": single("cards", "wild cards"),
    "modulus": single("cards", "total modulus"),
    "soft": single("cards", "soft total"),
    "total_cite": single("documentation", "total citation", in_play=False),
    "card_order": single("cards", "card order"),
    "suit_order": single("cards", "suit order"),
    "hands": items("round", "hand"),
    "deal_order": single("round", "deal order"),
    "deal_cite": single("documentation", "deal citation", in_play=False),
    "events": items("round", "event"),
    "stand_when": single("round", "stand all when"),
    "stand_cite": single("documentation", "stand citation", in_play=False),
    "draws": draws,
    "repeats": items("round", "repeated draw"),
    "draw_order": single("round", "draw order"),
    "outcomes": items("outcomes", "outcome"),
    "bets": items("bets", "bet"),
    "seats": single("seats", "seats"),
    "hand_size": single("seats", "hand size"),
    "types": items("hand types", "hand type", ordered=True),
    "formulas": items("settlement", "formula"),
    "settlement": single("settlement", "settlement"),
    "policy_threshold": single("seats", "policy: hit while total <"),
    "turn": single("seats", "turn"),
    "rooms": items("table", "room"),
    "squeeze": single("table", "squeeze"),
    "valid_bets_none_when": single("table", "valid bets none when"),
    "valid_bets_cite": single("documentation", "valid bets citation", in_play=False),
    "valid_bets_pushed_none": single("table", "valid bets none for pushed stakes"),
    "valid_bets_pushed_cite": single("documentation", "pushed stakes citation", in_play=False),
    "procedure": single("table", "shoe procedure"),
    "void_returns_stakes": single("table", "void returns stakes"),
    "void_cite": single("documentation", "void citation", in_play=False),
}


def rule_changes(old: model.Game, new: model.Game) -> list[dict]:
    """Every rule change from `old` to `new`, field by field of the model, in the model's order."""
    out: list[dict] = []
    for f in fields(model.Game):
        compare = FIELDS.get(f.name)
        if compare is None:
            raise UnknownField(f"croupier diff has no rule for the model field Game.{f.name}: "
                               "add it to croupier.tools.diff.rules.FIELDS")
        out.extend(compare(getattr(old, f.name), getattr(new, f.name)))
    return out


# fields that never decide play: where a thing is written, what it is called, where it comes from
DOC_FIELDS = frozenset({"labels", "cite", "cites", "value_cite"})
SKIPPED = frozenset({"span", "name_span", "cell_spans", "origin", "ident", "text", "type"})


def _reduce(value, keep_doc: bool):
    if isinstance(value, (Span, model.Game)):
        return None
    if isinstance(value, Num):
        return ("num", value.value)
    if isinstance(value, model.Labels):
        return tuple(sorted(value.texts.items())) if keep_doc else None
    if isinstance(value, model.Payout) and not keep_doc:  # `pays 1 to 1` is `pays 2 including stake`
        cut = (value.commission, value.rounding, value.unit) if value.commission else (None, None, None)
        return ("payout", value.gross_multiple()) + cut
    if is_dataclass(value) and not isinstance(value, type):
        out = [type(value).__name__]
        for f in fields(value):
            if f.name in SKIPPED or (f.name in DOC_FIELDS and not keep_doc):
                continue
            out.append((f.name, _reduce(getattr(value, f.name), keep_doc)))
        return tuple(out)
    if isinstance(value, dict):
        return ("map",) + tuple(sorted(((repr(k), _reduce(v, keep_doc)) for k, v in value.items())))
    if isinstance(value, (list, tuple)):
        return tuple(_reduce(v, keep_doc) for v in value)
    return value


def play(value):
    """The value as it decides play (see the module's docstring)."""
    return _reduce(value, False)


def whole(value):
    """The value with its labels and citations."""
    return _reduce(value, True)


def payout_text(p: model.Payout) -> str:
    """A payout as the spec writes it: `pays 1.95 including stake`, `pays 1 to 1 less 5% commission …`."""
    if p.style == "including":
        text = f"pays {number_text(p.ratio)} including stake"
    else:
        text = f"pays {number_text(p.ratio)} to 1"
    if p.commission:
        text += f" less {number_text(p.commission * 100)}% commission"
        if p.rounding:
            text += f" rounded {p.rounding} to {number_text(p.unit or Fraction(0))}"
    return text


def text(value) -> str:
    """A value in the spec's notation, on one line."""
    if value is None:
        return "none"
    if isinstance(value, Expr):
        return expr_text(value)
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, (Fraction, int)):
        return number_text(Fraction(value))
    if isinstance(value, str):
        return value
    if isinstance(value, model.Payout):
        return payout_text(value)
    if isinstance(value, model.Soft):
        return f"{' '.join(value.ranks)} counts {number_text(value.low)} or {number_text(value.high)}, " \
               f"best not over {number_text(value.limit)}"
    if isinstance(value, model.Shoe):
        jokers = f" + jokers {' '.join(value.jokers)}" if value.jokers else ""
        return f"{value.decks} deck{'s' if value.decks != 1 else ''} of {value.kind}{jokers}"
    if isinstance(value, model.Labels):
        return " ".join(f'{lang} "{t}"' if lang != "en" else f'"{t}"' for lang, t in value.texts.items())
    if isinstance(value, dict):
        return ", ".join(f"{text(k)} = {text(v)}" for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return " ".join(text(v) for v in value)
    if is_dataclass(value) and not isinstance(value, type):
        parts = [f"{f.name} {text(getattr(value, f.name))}" for f in fields(value)
                 if f.name not in SKIPPED and f.name not in DOC_FIELDS]
        return ", ".join(parts)
    return str(value)


def word(draws: bool | None) -> str:
    return "no cell" if draws is None else ("draw" if draws else "stand")


def grid_lines(t: DrawTable) -> list[str]:
    """A table's cells as lines: `ROW: D D S …` (or the one row of a one-key table)."""
    if not t.cols:
        return [" ".join(f"{r}:{'D' if t.cells.get((r, None)) else 'S'}" for r in t.rows)]
    return [f"{r}: " + " ".join("D" if t.cells.get((r, c)) else "S" for c in t.cols) for r in t.rows]


def cell_name(t: DrawTable, key: tuple) -> str:
    row, col = key
    name = f"{text(t.row_key)} = {row}"
    return name if col is None else f"{name}, {text(t.col_key)} = {col}"


def flipped(old: DrawTable, new: DrawTable) -> list[dict]:
    """The cells whose action differs, in row and column order."""
    keys = sorted(set(old.cells) | set(new.cells), key=lambda k: (k[0], -1 if k[1] is None else k[1]))
    return [{"row": k[0], "col": k[1], "old": word(old.cells.get(k)), "new": word(new.cells.get(k)),
             "cell": cell_name(new, k)} for k in keys if old.cells.get(k) != new.cells.get(k)]


def table_changes(old: list[DrawTable], new: list[DrawTable]) -> list[dict]:
    """The report entries of the draw tables (see the module's docstring)."""
    a = {t.describe(): t for t in old}
    b = {t.describe(): t for t in new}
    out = []
    for name, t in a.items():
        if name not in b:
            out.append({"section": "draw tables", "kind": "draw table", "name": name, "change": "removed",
                        "play": True, "details": grid_lines(t)})
    for name, t in b.items():
        if name not in a:
            out.append({"section": "draw tables", "kind": "draw table", "name": name, "change": "added",
                        "play": True, "details": grid_lines(t)})
    for name, t in a.items():
        u = b.get(name)
        if u is None:
            continue
        cells = flipped(t, u)
        if cells:
            out.append({"section": "draw tables", "kind": "draw table", "name": name, "change": "changed",
                        "play": True, "details": [f"{c['cell']}: {c['old']} → {c['new']}" for c in cells],
                        "cells": cells, "hand": u.hand})
        elif (t.cite or "") != (u.cite or ""):
            out.append({"section": "documentation", "kind": "draw table", "name": name, "change": "changed",
                        "play": False, "details": [f"citation: {t.cite or 'none'} → {u.cite or 'none'}"]})
    order = [lambda ts: list(dict.fromkeys(t.hand for t in ts))]
    hands_old, hands_new = order[0](old), order[0](new)
    if hands_old != hands_new and set(hands_old) == set(hands_new):
        out.append({"section": "draw tables", "kind": "drawing order", "name": None, "change": "reordered",
                    "play": True, "details": [f"{' '.join(hands_old)} → {' '.join(hands_new)}"]})
    return out
