"""Read a draw table's grid rows into cells: header values, row labels, D/S actions.

A one-key table has two rows (the key's values, then D/S); a two-key table has a
header of column values and one row per row-key value. Every problem (a header
that is not a number, a repeated value, a cell that is neither D nor S, a row of
the wrong length) is reported through `err` with the cell's exact span.
"""

from __future__ import annotations

from collections.abc import Callable

from croupier.diagnostics import Span
from croupier.semantics import model
from croupier.syntax import ast
from croupier.syntax.printer import expr_text


def is_number(text: str) -> bool:
    """A whole number in ASCII digits (`str.isdigit` also takes `７` and `٧`, which a grid must not read as 7)."""
    return text.isascii() and text.isdigit()


def read_grid(stmt: ast.DrawStmt, table: model.DrawTable, err: Callable[..., None]) -> None:
    """Fill `table.rows`, `table.cols`, `table.cells` and `table.cell_spans` from the statement's grid."""
    rows_def = [line for line in stmt.grid]
    header = [c for c in rows_def[0].cells if c[0] != "|"]
    two_keys = stmt.col_key is not None

    def ints(cells) -> list[int]:
        out = []
        for text, span in cells:
            if not is_number(text):
                err("E0201", f"grid header `{text}` is not a whole number", span,
                    "headers list the key's values in digits 0-9: | 0 1 2 … |")
                continue
            out.append(int(text))
        if len(set(out)) != len(out):
            err("E0202", "a grid header repeats a value", cells[0][1] if cells else stmt.span,
                "each value of the key gets one column")
        return out

    def action(text: str, span: Span) -> bool | None:
        if text.upper() in ("D", "DRAW"):
            return True
        if text.upper() in ("S", "STAND"):
            return False
        err("E0203", f"grid cell `{text}` is neither D (draw) nor S (stand)", span,
            "write D to draw or S to stand")
        return None

    if not two_keys:
        if len(rows_def) != 2:
            err("E0204", "a one-key draw table has two rows: the key's values, then D/S", stmt.span,
                "| 0 1 2 3 4 5 6 7 |\n    | D D D D D D S S |")
        keys = ints(header)
        actions = [c for c in rows_def[-1].cells if c[0] != "|"] if len(rows_def) > 1 else []
        if len(actions) != len(keys):
            err("E0205", f"the grid has {len(keys)} headers but {len(actions)} cells",
                     rows_def[-1].span, "give every header one cell")
        for k, (text, span) in zip(keys, actions):
            a = action(text, span)
            if a is not None:
                table.cells[(k, None)] = a
                table.cell_spans[(k, None)] = span
        table.rows = tuple(keys)
    else:
        cols = ints(header)
        rows: list[int] = []
        for line in rows_def[1:]:
            cells = [c for c in line.cells if c[0] != "|"]
            if not cells:
                continue
            label, rest = cells[0], cells[1:]
            if not is_number(label[0]):
                err("E0201", f"row label `{label[0]}` is not a whole number", label[1],
                    "start each row with the row key's value")
                continue
            r = int(label[0])
            if r in rows:
                err("E0206", f"two grid rows for {expr_text(stmt.row_key)} = {r}", label[1],
                    "each row key value gets one row")
                continue
            rows.append(r)
            if len(rest) != len(cols):
                err("E0205", f"row {r} has {len(rest)} cells for {len(cols)} columns", line.span,
                    "give every column one cell")
            for c, (text, span) in zip(cols, rest):
                a = action(text, span)
                if a is not None:
                    table.cells[(r, c)] = a
                    table.cell_spans[(r, c)] = span
        table.rows, table.cols = tuple(rows), tuple(cols)
