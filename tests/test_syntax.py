"""The parser: spec/baccarat.rules parses to the expected statements; syntax errors become diagnostics."""

from __future__ import annotations

from fractions import Fraction

from conftest import BACCARAT

from croupier.syntax import ast
from croupier.syntax.parser import parse_text

GOOD_HEAD = 'game g "G"\nshoe 8 decks of standard52\nhand player "P"\n'


def parse_baccarat():
    text = BACCARAT.read_text(encoding="utf-8")
    spec, diags = parse_text(text, "spec/baccarat.rules")
    return text, spec.statements, diags


def of_type(statements, cls):
    return [s for s in statements if isinstance(s, cls)]


def test_baccarat_parses_without_diagnostics():
    _, statements, diags = parse_baccarat()
    assert diags == []
    head = statements[0]
    assert isinstance(head, ast.GameStmt)
    assert (head.name, head.base) == ("baccarat", None)
    assert {lab.lang: lab.text for lab in head.labels} == {None: "Baccarat", "zh-Hant": "百家樂", "zh-Hans": "百家乐"}


def test_baccarat_statements():
    _, statements, _ = parse_baccarat()
    shoe = of_type(statements, ast.ShoeStmt)
    assert len(shoe) == 1 and (shoe[0].decks, shoe[0].deck) == (8, "standard52")
    assert of_type(statements, ast.TotalStmt)[0].modulus == 10
    assert [h.name for h in of_type(statements, ast.HandStmt)] == ["player", "banker"]
    assert [r.text for r in of_type(statements, ast.DealStmt)[0].order] == ["player", "banker", "player", "banker"]
    assert [e.name for e in of_type(statements, ast.EventStmt)] == ["natural", "player_pair", "banker_pair"]
    assert [o.name for o in of_type(statements, ast.OutcomeStmt)] == ["player", "banker", "tie"]
    bets = {b.name: b for b in of_type(statements, ast.BetStmt)}
    assert list(bets)[:5] == ["banker", "player", "tie", "banker_pair", "player_pair"]
    banker = bets["banker"]
    assert [(w.payout.style, w.payout.ratio) for w in banker.wins] == [("including", Fraction(39, 20))]
    assert [type(c) for c in banker.clauses] == [ast.WinsClause, ast.PushClause]  # in the order written
    assert isinstance(banker.clauses[1].when, ast.IsTest)
    assert banker.cite == "000 §15" and banker.wins[0].cite == "000 §16"


def test_draw_tables_and_their_keys():
    _, statements, _ = parse_baccarat()
    draws = of_type(statements, ast.DrawStmt)
    assert [d.hand for d in draws] == ["player", "banker", "banker"]
    matrix = draws[2]
    assert matrix.col_key is not None and matrix.cite == "003"
    assert isinstance(matrix.col_key, ast.Call) and matrix.col_key.func == "value"
    assert draws[0].col_key is None and draws[0].when is None
    assert isinstance(draws[1].when, ast.Not)


def test_grid_cells_carry_their_columns():
    text, statements, _ = parse_baccarat()
    lines = text.splitlines()
    matrix = of_type(statements, ast.DrawStmt)[2]
    assert len(matrix.grid) == 9, "a header row and eight banker rows"
    header = [c for c, _ in matrix.grid[0].cells if c != "|"]
    assert header == [str(v) for v in range(10)]
    for row_number, line in enumerate(matrix.grid[1:]):
        cells = [(c, span) for c, span in line.cells if c != "|"]
        assert cells[0][0] == str(row_number)
        assert all(c in ("D", "S") for c, _ in cells[1:]) and len(cells) == 11
        for cell, span in line.cells:
            source_line = lines[span.line - 1]
            assert source_line[span.column - 1:span.end_column - 1] == cell, "the span points at the cell"
    # the one S in row 3 sits under the header 8
    row3 = [(c, s) for c, s in matrix.grid[4].cells if c != "|"][1:]
    head = [(c, s) for c, s in matrix.grid[0].cells if c != "|"]
    stand = [i for i, (c, _) in enumerate(row3) if c == "S"]
    assert stand == [8] and row3[8][1].column == head[8][1].column


def test_a_syntax_error_is_a_diagnostic_with_line_and_column():
    text = GOOD_HEAD + "total sum mod\n"
    spec, diags = parse_text(text, "bad.rules")
    assert len(diags) == 1
    d = diags[0]
    assert d.is_error and d.code == "E0001"
    assert (d.span.file, d.span.line) == ("bad.rules", 4)
    assert d.span.column == len("total sum mod") + 1, "the column of the missing number"
    assert [type(s).__name__ for s in spec.statements][:3] == ["GameStmt", "ShoeStmt", "HandStmt"]


def test_an_unexpected_character_is_located():
    spec, diags = parse_text(GOOD_HEAD + "deal player $ banker\n", "bad.rules")
    assert len(diags) == 1
    assert (diags[0].span.line, diags[0].span.column) == (4, 13)
    assert "$" in diags[0].message


def test_every_syntax_error_in_a_file_is_reported():
    text = (GOOD_HEAD
            + "bet x\n    wins when outcome is x, pays 2\n"       # line 4-5: payout form missing
            + 'hand banker "B"\n'
            + "draw player by\n    | 0 1 |\n    | D S |\n")       # line 7: key missing
    _, diags = parse_text(text, "bad.rules")
    assert [d.span.line for d in diags] == [5, 7]
    assert all(d.code == "E0001" for d in diags)


def test_garbage_never_raises():
    for text in ["", "\x00\x01", "game", "    indented\n", "game g\n  bet\n\tx\n", "(" * 500, "|" * 50]:
        spec, diags = parse_text(text, "junk.rules")
        assert isinstance(spec, ast.SpecFile)
        assert all(d.span.line >= 1 and d.span.column >= 1 for d in diags)


def test_a_builder_error_reaches_the_caller_as_lark_visit_error():
    """`BuildAst` is a Lark transformer: what a rule's method raises reaches the caller as Lark's `VisitError`."""
    import pytest

    from croupier.syntax.build_ast import BuildAst
    from croupier.syntax.parser import parser
    from croupier.syntax.standalone_parser import VisitError, v_args

    @v_args(meta=True)
    class Broken(BuildAst):
        def game(self, meta, children):
            return 1 / 0

    with pytest.raises(VisitError) as raised:
        Broken("x.rules").transform(parser().parse('game g "G"\n'))
    assert raised.value.rule == "game" and isinstance(raised.value.orig_exc, ZeroDivisionError)
