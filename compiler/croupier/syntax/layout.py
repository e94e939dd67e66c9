"""The canonical layout of a spec's lines, for `croupier fmt`: wrapping, grid columns, citation columns.

The formatter (`formatter`) turns each statement into `Line`s: the words of one
logical line in chunks (a chunk is the unit a long line may be broken before), its
citation, a grid row's cells, and the comments around it. This module lays them
out:

- a logical line longer than `WIDTH` columns (its citation included) is broken
  between chunks with the language's continuation form, a backslash at the end of
  the line, the following lines indented one step more;
- the rows of one grid are aligned in columns: every cell of a column as wide as
  its widest cell, `|` bars kept where they stand (a payout table's cell is the
  whole phrase between two bars, `30 to 1`);
- the citations of a block (lines not parted by a blank line) start on one column,
  two spaces after the block's longest line that carries one;
- a comment of its own keeps its place, indented as the line it stands before; a
  comment at the end of a line follows it (and its citation) after two spaces;
- blank lines are kept where the spec has them, at most one in a row.

Widths are display widths: a CJK character takes two columns.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

WIDTH = 100  # columns of a line, citation included, before it is wrapped
INDENT = "    "  # one level of a block, and of a continuation


def width(text: str) -> int:
    """Columns `text` takes in a monospaced font (wide and full-width characters take two)."""
    return sum(2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1 for ch in text)


@dataclass
class Line:
    """One logical line of a spec: a statement's head, a clause, a label or a grid row."""

    indent: int
    chunks: list[str] = field(default_factory=list)
    cite: str | None = None
    grid: list[list[str]] | None = None  # a grid row: its cells in segments between `|` bars
    trailing_bar: bool = False  # the grid row ends with a bar
    first: int = 0  # the source lines it was read from
    last: int = 0
    comments: list[str] = field(default_factory=list)  # at the end of the line
    group: int = 0  # rows of one grid share a group number


def grid_row(text: str, phrases: bool = False) -> tuple[list[list[str]], bool]:
    """(cells in segments between bars, whether the row ends with a bar) of a `| … |` row. The cells of a
    draw grid are its words; with `phrases` (a payout table's row: `| 9 | 30 to 1 |`) each segment is one
    cell, its words kept together with one space between them."""
    parts = text.split("|")[1:]  # the row starts with a bar
    segments = [part.split() for part in parts]
    if phrases:
        segments = [[" ".join(seg)] if seg else [] for seg in segments]
    trailing = len(segments) > 1 and not segments[-1]
    return (segments[:-1] if trailing else segments), trailing


def grid_texts(rows: list[Line]) -> list[str]:
    """The rows of one grid, aligned in columns."""
    widths: dict[tuple[int, int], int] = {}
    counts: dict[int, int] = {}
    for row in rows:
        for k, seg in enumerate(row.grid or []):
            counts[k] = max(counts.get(k, 0), len(seg))
            for j, cell in enumerate(seg):
                widths[(k, j)] = max(widths.get((k, j), 0), width(cell))
    out = []
    for row in rows:
        segs = row.grid or []
        texts = []
        for k, seg in enumerate(segs):
            cells = [(seg[j] if j < len(seg) else "") for j in range(counts[k])]
            padded = " ".join(c + " " * (widths.get((k, j), 0) - width(c)) for j, c in enumerate(cells))
            texts.append(padded)
        if row.trailing_bar:
            out.append("|" + "".join(f" {t} |" for t in texts))
        else:
            out.append(("|" + "".join(f" {t} |" for t in texts[:-1]) + f" {texts[-1]}").rstrip())
    return out


def wrapped(line: Line) -> list[str]:
    """The physical lines of a logical line (without citation and comments), indented."""
    pad = INDENT * line.indent
    flat = pad + " ".join(line.chunks)
    extra = 2 + width(line.cite) if line.cite else 0
    if width(flat) + extra <= WIDTH or len(line.chunks) < 2:
        return [flat]
    out: list[str] = []
    current = pad + line.chunks[0]
    for chunk in line.chunks[1:]:
        if width(current) + 1 + width(chunk) + 2 > WIDTH:
            out.append(current + " \\")
            current = pad + INDENT + chunk
        else:
            current += " " + chunk
    out.append(current)
    return out


def render(lines: list[Line]) -> str:
    """The text of a spec laid out from its lines (comment lines included), in order."""
    grids: dict[int, list[str]] = {}
    for line in lines:
        if line.grid is not None and line.group not in grids:
            grids[line.group] = grid_texts([x for x in lines if x.grid is not None and x.group == line.group])
    out: list[str] = []
    block: list[tuple[Line, list[str]]] = []

    def flush() -> None:
        cited = [body[-1] for line, body in block if line.cite]
        column = max((width(b) for b in cited), default=0) + 2
        for line, body in block:
            text = list(body)
            if line.cite:
                text[-1] += " " * (column - width(text[-1])) + line.cite
            if line.comments:  # one comment ends the line; each further one (a comment ends at the end of its
                # line, so two cannot share one) gets a line of its own below, indented as the line
                text[-1] += "  " + line.comments[0]
                text.extend(INDENT * line.indent + c for c in line.comments[1:])
            out.extend(text)
        block.clear()

    previous: Line | None = None
    for line in lines:
        if line.grid is not None:
            body = [INDENT * line.indent + grids[line.group].pop(0)]
        else:
            body = wrapped(line)
        if previous is not None and line.first - previous.last > 1:
            flush()
            out.append("")
        block.append((line, body))
        previous = line
    flush()
    return "\n".join(out) + "\n" if out else ""
