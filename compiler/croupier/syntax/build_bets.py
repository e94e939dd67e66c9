"""The bets' part of building the syntax tree: payouts, payout tables, the clauses of a bet, `remove`.

`BetsBuilder` is a base of `build_ast.BuildAst`, a Lark transformer whose
methods take the rule's `meta` and children; it reports what is odd as a
diagnostic, never an exception.
"""

from __future__ import annotations

from fractions import Fraction

from croupier.diagnostics import Span, error
from croupier.syntax import ast
from croupier.syntax.standalone_parser import Token, Transformer, v_args


def _num(text: str) -> Fraction:
    return Fraction(text)


@v_args(meta=True)
class BetsBuilder(Transformer):
    """Builds `ast.BetStmt` and `ast.RemoveStmt` with their parts (used by `BuildAst`)."""

    # ---- bets ---------------------------------------------------------------------------
    def commission(self, meta, children):
        nums = self._tokens(children, "NUMBER")
        rounding = self._tokens(children, "ROUNDING")
        return ("commission", _num(str(nums[0])) / 100, str(rounding[0]) if rounding else None,
                _num(str(nums[1])) if len(nums) > 1 else None)

    def pays_including(self, meta, children):
        n = children[0]
        return ast.Payout("including", _num(str(n)), None, None, None, self.span(meta), f"{n} including stake")

    def pays_to(self, meta, children):
        a, b = children[0], children[1]
        den = _num(str(b))
        ratio = _num(str(a)) / den if den else Fraction(0)
        if not den:
            self.diagnostics.append(error("E0003", "a payout `X to 0` divides by zero", self.span(meta)))
        com = next((c for c in children if isinstance(c, tuple) and c[0] == "commission"), None)
        text = f"{a} to {b}"
        if com:
            text += f" less {com[1] * 100}% commission"
        return ast.Payout("to", ratio, com[1] if com else None, com[2] if com else None, com[3] if com else None,
                          self.span(meta), text)

    def wins(self, meta, children):
        expr = self._exprs(children)[0]
        payout = next(c for c in children if isinstance(c, ast.Payout))
        return ast.WinsClause(expr, payout, self.span(meta), self._cite(children))

    def wins_table(self, meta, children):
        when, key = self._exprs(children)[:2]
        grid = next(c[1] for c in children if isinstance(c, tuple) and c[0] == "grid")
        return ast.WinsClause(when, None, self.span(meta), self._cite(children), key=key,
                              rows=[self.payout_row(line) for line in grid])

    def payout_row(self, line: ast.GridLine) -> ast.PayoutRow:
        """A `| KEY | PAYOUT |` row: the cells between the bars, each as written."""
        text = " ".join(t for t, _s in line.cells)
        parts = [p.strip() for p in text.split("|")]
        cells = [p for p in parts[1:-1]] if len(parts) >= 3 else []
        spans = [s for t, s in line.cells if t != "|"]
        row = ast.PayoutRow(None, None, None, None, line.span)
        if len(cells) != 2 or not cells[0] or not cells[1]:
            self.diagnostics.append(error("E0408", "a payout table row is `| KEY | PAYOUT |`", line.span,
                                          "for example: | 9 | 30 to 1 |, | 4..6 | 1 to 1 |, or | natural | 1 to 1 |"))
            return row
        label, payout = cells
        span = spans[0] if spans else line.span
        low, dots, high = label.partition("..")
        if (low.lstrip("-").isdigit() and low.isascii()) and (not dots or (high.lstrip("-").isdigit() and high.isascii())):
            row.low, row.high = int(low), int(high) if dots else int(low)
        elif label.replace("_", "a").isalnum() and label.isascii() and not label[0].isdigit():
            row.condition = ast.Name(span, label)
        else:
            self.diagnostics.append(error("E0408", f"payout table key `{label}` is neither a whole number, a range "
                                          "like 4..6, nor the name of a condition", span,
                                          "name a condition with `event` or `let` and give its name"))
        row.payout = self.payout_cell(payout, line.span)
        return row

    def payout_cell(self, text: str, span: Span) -> ast.Payout | None:
        words = text.split()
        try:
            if len(words) == 3 and words[1] == "to":
                ratio = _num(words[0]) / _num(words[2])
                return ast.Payout("to", ratio, None, None, None, span, text)
            if len(words) == 3 and words[1:] == ["including", "stake"]:
                return ast.Payout("including", _num(words[0]), None, None, None, span, text)
        except (ValueError, ZeroDivisionError):
            pass
        self.diagnostics.append(error("E0408", f"payout table cell `{text}` is not a payout", span,
                                      "write `30 to 1` or `31 including stake`"))
        return None

    def push(self, meta, children):
        return ast.PushClause(self._exprs(children)[0], self.span(meta), self._cite(children))

    def loses(self, meta, children):
        part = Fraction(1)
        for c in children:
            if isinstance(c, Token) and c.type == "LOSS_HALF":
                part = Fraction(1, 2)
            elif isinstance(c, tuple) and c[0] == "points":
                part = c[1]
        if not 0 < part <= 1:
            self.diagnostics.append(error("E0409", f"a bet loses a part of its stake from above 0 to 1, not {part}",
                                          self.span(meta), "write `loses half when …`, or `loses when …` for all"))
            part = Fraction(1)
        return ast.LosesClause(self._exprs(children)[0], part, self.span(meta), self._cite(children))

    def bet(self, meta, children):
        name = self._tokens(children, "NAME")[0]
        stmt = ast.BetStmt(self.span(meta), name=str(name), name_span=self.tspan(name),
                           labels=self._labels(children), cite=self._cite(children))
        stmt.clauses = [c for c in children if isinstance(c, (ast.WinsClause, ast.PushClause, ast.LosesClause))]
        return stmt

    def removable(self, meta, children):
        return ("removable", str(children[0]))

    def remove(self, meta, children):
        what = next(c[1] for c in children if isinstance(c, tuple) and c[0] == "removable")
        name = self._tokens(children, "NAME")[0]
        return ast.RemoveStmt(self.span(meta), what=what, name=str(name), name_span=self.tspan(name),
                              cite=self._cite(children))
