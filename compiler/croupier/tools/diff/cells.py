"""Draw-table changes: the tables added or removed, and every cell that flipped, in the card's words.

Two versions' tables are matched by what they say (`draw banker when drew(player)
by total(banker) × value(third(player))`); a cell is named by its keys as the
card shows them (`total(banker) = 3, value(third(player)) = 8: stand → draw`).
The order in which hands draw (the order of their first tables) is play too.
"""

from __future__ import annotations

from croupier.semantics.model import DrawTable
from croupier.tools.diff.canon import text


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
