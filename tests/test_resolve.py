"""The resolver: variants (extends/override), unknown names, and the model of baccarat."""

from __future__ import annotations

from fractions import Fraction

import pytest
from conftest import BACCARAT, SPEC

from croupier.semantics.resolve import Loader


@pytest.fixture
def variant_dir(tmp_path):
    """A folder holding a copy of spec/baccarat.rules, for variants to extend."""
    (tmp_path / "baccarat.rules").write_text(BACCARAT.read_text(encoding="utf-8"), encoding="utf-8")
    return tmp_path


def load(path, text=None):
    return Loader().load(str(path), text)


def errors(diags):
    return [d for d in diags if d.is_error]


def test_override_of_a_bet_replaces_it(variant_dir):
    text = ('game v extends baccarat "V"\n'
            "override bet tie \"Tie\"\n    wins when outcome is tie, pays 8 to 1\n")
    game, diags = load(variant_dir / "v.rules", text)
    assert errors(diags) == []
    tie = game.bets["tie"]
    assert [(w.payout.style, w.payout.ratio) for w in tie.wins] == [("to", Fraction(8))]
    assert tie.origin == "v"
    assert game.bets["banker"].origin == "baccarat", "what is not overridden comes from the base"
    assert list(game.bets) == list(game.base.bets), "an override keeps the bet's place"
    assert game.base.bets["tie"].wins[0].payout.ratio == 9, "the base is left as it was"
    assert [(d.what, d.kind, d.name) for d in game.differences] == [("override", "bet", "tie")]


def test_the_shipped_variants_override_the_banker_bet():
    game, diags = load(SPEC / "baccarat_no_commission.rules")
    assert errors(diags) == []
    banker = game.bets["banker"]
    assert [w.payout.ratio for w in banker.wins] == [Fraction(1, 2), Fraction(1)]
    assert "super6" in game.bets and game.base is not None and game.base.name == "baccarat"
    game, _ = load(SPEC / "baccarat_commission.rules")
    win = game.bets["banker"].wins[0].payout
    assert (win.ratio, win.commission, win.rounding, win.unit) == (1, Fraction(5, 100), "half-up", Fraction(1, 100))


def test_override_of_something_the_base_lacks_is_E0111(variant_dir):
    text = ('game v extends baccarat "V"\n'
            "override bet dragon \"Dragon\"\n    wins when outcome is banker, pays 1 to 1\n")
    game, diags = load(variant_dir / "v.rules", text)
    errs = errors(diags)
    assert [d.code for d in errs] == ["E0111"]
    assert errs[0].span.line == 2 and "dragon" in errs[0].message


def test_redefining_without_override_is_E0112(variant_dir):
    text = ('game v extends baccarat "V"\n'
            "bet tie \"Tie\"\n    wins when outcome is tie, pays 8 to 1\n")
    game, diags = load(variant_dir / "v.rules", text)
    errs = errors(diags)
    assert [d.code for d in errs] == ["E0112"]
    assert errs[0].span.line == 2 and "override" in errs[0].hint


def test_a_missing_base_is_reported(tmp_path):
    game, diags = load(tmp_path / "v.rules", 'game v extends nowhere "V"\n')
    assert game is None
    assert [d.code for d in errors(diags)] == ["E0113"]


def test_an_unknown_name_in_an_expression_is_E0101_with_its_span():
    text = BACCARAT.read_text(encoding="utf-8").replace(
        "when total(first2(player)) >= 8", "when total(first2(playr)) >= 8", 1)
    game, diags = load("spec/typo.rules", text)
    errs = errors(diags)
    assert [d.code for d in errs] == ["E0101"]
    line_no = next(i for i, line in enumerate(text.splitlines(), 1) if "first2(playr)" in line)
    span = errs[0].span
    line = text.splitlines()[line_no - 1]
    assert span.line == line_no
    assert line[span.column - 1:span.end_column - 1] == "playr"
    assert "playr" in errs[0].message and "player" in errs[0].hint


def test_an_unknown_outcome_in_a_bet_is_E0101():
    text = BACCARAT.read_text(encoding="utf-8").replace("wins when outcome is tie,", "wins when outcome is draw,", 1)
    _, diags = load("spec/typo.rules", text)
    errs = errors(diags)
    assert [d.code for d in errs] == ["E0101"] and "draw" in errs[0].message


def test_the_model_of_baccarat():
    game, diags = load(BACCARAT)
    assert errors(diags) == []
    assert (game.shoe.decks, game.modulus) == (8, 10)
    assert game.values["A"] == 1 and game.values["9"] == 9 and all(game.values[r] == 0 for r in "JQK")
    assert game.deal_order == ("player", "banker", "player", "banker")
    banker_tables = [t for t in game.draws if t.hand == "banker"]
    grid = next(t for t in banker_tables if t.cols)
    assert grid.rows == tuple(range(8)) and grid.cols == tuple(range(10))
    assert len(grid.cells) == 80
    assert grid.cells[(3, 8)] is False and grid.cells[(3, 9)] is True
    assert [v for v in range(10) if grid.cells[(6, v)]] == [6, 7]
    assert not any(grid.cells[(7, v)] for v in range(10))
    stood = next(t for t in banker_tables if not t.cols)
    assert [k for k in range(8) if stood.cells[(k, None)]] == [0, 1, 2, 3, 4, 5]
