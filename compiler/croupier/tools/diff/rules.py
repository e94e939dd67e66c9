"""Rule changes between two versions of a game, in the language's terms.

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
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from dataclasses import fields
from fractions import Fraction

from croupier.semantics import model
from croupier.tools.diff.canon import payout_text, play, text, whole


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
    model.Room: lambda r: [f"{bet}: {text(lo)}..{text(hi)}" for bet, (lo, hi) in r.limits.items()],
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
    from croupier.tools.diff.cells import table_changes

    return table_changes(old, new)


# every field of model.Game and how it compares
FIELDS: dict[str, Callable[[object, object], list[dict]]] = {
    "name": single("documentation", "game name", in_play=False),
    "labels": single("documentation", "game labels", in_play=False),
    "path": ignored, "span": ignored, "base": ignored, "source_text": ignored,
    "differences": removals,  # overrides and additions show in the sections of what they override or add
    "hand_size_span": ignored,
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
