"""Draw tables, checked exhaustively over every situation a round can reach.

From the enumerated round space (`rounds.round_space`): a reachable key with no
cell (a gap, E0210) or outside the grid's headers (E0213), two tables of one
hand that both apply to one situation (E0211), a round the engine cannot finish
(E0215), and cells, rows, columns or whole tables no round ever consults
(warnings W0212, W0214). Every diagnostic names the exact cell and shows a
situation that reaches it.
"""

from __future__ import annotations

from croupier.checks.oracles import RoundOracle
from croupier.checks.rounds import RoundSpace, Situation, round_space
from croupier.diagnostics import Diagnostic, Span, error, warning
from croupier.semantics.expr import expr_text
from croupier.semantics.model import DrawTable, Game

MAX_CELLS_NAMED = 12  # per table and kind; beyond this the rest are counted


def check(game: Game, oracle: RoundOracle | None = None) -> list[Diagnostic]:
    """Gaps, overlaps, header coverage and unreachable cells of every draw table (none without an oracle)."""
    space = round_space(game, oracle)
    if space is None:
        return []
    out: list[Diagnostic] = []
    for index, table in enumerate(game.draws):
        out.extend(_gaps(game, index, table, space))
        if space.complete:
            out.extend(_unreached(index, table, space))
    for (first, second), where in sorted(space.overlaps.items()):
        a, b = game.draws[first], game.draws[second]
        d = error("E0211", f"two {a.hand} draw tables apply to one situation: `{a.describe()}` (line {a.span.line}) "
                  f"and `{b.describe()}`", b.span, "make their `when` conditions exclusive")
        out.append(_with_example(d, where))
    for message, cards in sorted(space.failures.items()):
        outcomes = [o.span for o in game.outcomes.values()] if "no outcome" in message else []
        if outcomes:  # a gap between the outcomes: shown at them, not at the `game` line
            first, last = min(s.line for s in outcomes), max(s.line for s in outcomes)
            d = error("E0215", f"a round cannot be finished: {message} (the outcomes, lines {first}–{last}, "
                      "leave a gap)", min(outcomes, key=lambda s: s.line),
                      "add an outcome for these rounds, or widen a condition so that one outcome holds in every "
                      "round")
        else:
            d = error("E0215", f"a round cannot be finished: {message}", game.span,
                      "every rule must be defined for every round the deal and draws can reach")
        out.append(_with_note(d, f"for example, with the cards {cards}") if cards else d)
    return out


def key_text(table: DrawTable, key) -> str:
    """A cell's key in words: `total(banker) 4 × value(third(player)) 9`."""
    if table.col_key is None:
        return f"{expr_text(table.row_key)} {_num(key)}"
    row, col = key
    return f"{expr_text(table.row_key)} {_num(row)} × {expr_text(table.col_key)} {_num(col)}"


def _gaps(game: Game, index: int, table: DrawTable, space: RoundSpace) -> list[Diagnostic]:
    out: list[Diagnostic] = []
    missing_rows: dict = {}
    missing_cols: dict = {}
    cells = []
    for (i, key), where in sorted(space.gaps.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        if i != index:
            continue
        row, col = (key, None) if table.col_key is None else key
        if table.col_key is not None and col not in table.cols:
            missing_cols.setdefault(col, where)
        elif row not in table.rows:
            missing_rows.setdefault(row, where)
        else:
            cells.append((key, where))
    if table.col_key is None:
        for row, where in sorted(missing_rows.items()):
            d = error("E0213", f"the {table.hand} draw table has no column for {key_text(table, row)}", table.span,
                      f"add a column for {_num(row)}: the headers must cover every value the key can take")
            out.append(_with_example(d, where))
    else:
        for row, where in sorted(missing_rows.items()):
            cols = sorted({k[1] for (i, k) in space.gaps if i == index and k[0] == row})
            named = " ".join(_num(c) for c in cols)
            d = error("E0210", f"{table.hand} draw table has no action for {expr_text(table.row_key)} {_num(row)} "
                      f"× {expr_text(table.col_key)} {named}", table.span,
                      f"add the row | {_num(row)} | … | to the grid")
            out.append(_with_example(d, where))
    for col, where in sorted(missing_cols.items()):
        d = error("E0213", f"the {table.hand} draw table has no column for {expr_text(table.col_key)} {_num(col)}",
                  table.span, f"add a column for {_num(col)}: the headers must cover every value the key can take")
        out.append(_with_example(d, where))
    for key, where in cells[:MAX_CELLS_NAMED]:
        d = error("E0210", f"{table.hand} draw table has no action for {key_text(table, key)}", table.span,
                  "write D or S in that cell")
        out.append(_with_example(d, where))
    if len(cells) > MAX_CELLS_NAMED:
        out.append(error("E0210", f"{table.hand} draw table has {len(cells) - MAX_CELLS_NAMED} more cells "
                         "without an action", table.span))
    return out


def _unreached(index: int, table: DrawTable, space: RoundSpace) -> list[Diagnostic]:
    seen = {key for (i, key) in space.consulted if i == index}
    if not seen:
        return [warning("W0214", f"the draw table `{table.describe()}` never applies to any round", table.span,
                        "remove it, or correct its `when` condition")]
    out: list[Diagnostic] = []
    if table.col_key is None:
        dead = [k for k in table.rows if k not in seen]
        for k in dead[:MAX_CELLS_NAMED]:
            out.append(warning("W0212", f"{table.hand} draw table: {key_text(table, k)} can never be reached",
                               table.cell_spans.get((k, None), table.span), "no round gives the key this value"))
        return out
    seen_rows = {r for r, _c in seen}
    seen_cols = {c for _r, c in seen}
    for r in table.rows:
        if r not in seen_rows:
            out.append(warning("W0212", f"{table.hand} draw table: row {expr_text(table.row_key)} {r} can never "
                               "be reached", _first_span(table, [(r, c) for c in table.cols]),
                               "no round gives the row key this value"))
    for c in table.cols:
        if c not in seen_cols:
            out.append(warning("W0212", f"{table.hand} draw table: column {expr_text(table.col_key)} {c} can never "
                               "be reached", _first_span(table, [(r, c) for r in table.rows]),
                               "no round gives the column key this value"))
    dead = [(r, c) for r in table.rows for c in table.cols
            if (r, c) not in seen and r in seen_rows and c in seen_cols]
    for key in dead[:MAX_CELLS_NAMED]:
        out.append(warning("W0212", f"{table.hand} draw table: {key_text(table, key)} can never be reached",
                           table.cell_spans.get(key, table.span), "no round reaches this cell"))
    return out


def _first_span(table: DrawTable, keys: list) -> Span:
    return next((table.cell_spans[k] for k in keys if k in table.cell_spans), table.span)


def _num(x) -> str:
    from fractions import Fraction

    from croupier.runtime.numbers import number_text

    return number_text(Fraction(x)) if isinstance(x, int | Fraction) else str(x)


def _with_example(d: Diagnostic, where: Situation) -> Diagnostic:
    return _with_note(d, f"for example: {where.cards}")


def _with_note(d: Diagnostic, note: str) -> Diagnostic:
    return Diagnostic(d.code, d.severity, d.message, d.span, d.hint, d.notes + (note,))
