"""The language of dealt-round games: ordered bet clauses, losses of part of a stake, payout tables,
`remove`, round formulas, events after the outcome, card-level expressions, repeated draws and soft
totals, each resolved, typed, printed in words and run by the engine."""

from __future__ import annotations

from fractions import Fraction

import pytest
from conftest import SOFT_GAME

from croupier.backends.cards.card_model import card_view
from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.semantics import expr as ir
from croupier.semantics.resolve import resolve_file

HEAD = """game g "G"
shoe 1 deck of standard52
value A = 1, 2..9 = pip, 10 J Q K = 0
total sum mod 10
class face "Face" = J Q K
hand p "P"
hand b "B"
deal p, b, p, b
outcome pw "P wins" when total(p) > total(b)
outcome bw "B wins" when total(b) > total(p)
outcome tie "Tie" when total(p) = total(b)
"""


def game(text: str, head: str = HEAD):
    g, diags, _ = resolve_file("t.rules", head + text)
    return g, [d for d in diags if d.is_error]


def engine_of(text: str, head: str = HEAD):
    g, errors = game(text, head)
    assert errors == [], errors
    return g, load_engine(emit_engine(g, "t.rules"), "t_family")


def test_clauses_are_tried_in_the_order_written() -> None:
    _g, e = engine_of("""bet x "X"
    push when total(b) = 7
    wins when outcome is bw, pays 1 to 1
    push when outcome is tie
""")
    r = e.play(["2S", "3H", "3D", "4C"])  # P 5, B 7: the push comes first
    assert r.outcome == "bw" and e.settle(r, {"x": 100}) == {"x": 100}
    r = e.play(["2S", "3H", "3D", "5C"])  # P 5, B 8
    assert e.settle(r, {"x": 100}) == {"x": 200}


def test_loses_half_and_loses_all() -> None:
    g, e = engine_of("""bet x "X"
    wins when outcome is pw, pays 1 to 1
    loses half when outcome is tie
bet y "Y"
    loses when total(p) = 9
    wins when outcome is pw, pays 1 to 1
""")
    tie = e.play(["4S", "4H", "3D", "3C"])
    assert e.settle(tie, {"x": 25, "y": 10}) == {"x": Fraction(25, 2), "y": 0}
    nine = e.play(["4S", "3H", "5D", "3C"])  # P 9 beats B 6, but y loses first
    assert e.settle(nine, {"y": 10}) == {"y": 0}
    assert [c.describe() for c in g.bets["x"].clauses] == ["wins when outcome is pw, pays 1 to 1",
                                                          "loses half when outcome is tie"]


def test_a_payout_table_takes_the_first_row_that_applies_and_falls_through_without_one() -> None:
    g, e = engine_of("""event big "Big" when total(p) = 9
let margin = total(p) - total(b)
bet x "X"
    wins when outcome is pw, pays by margin
        | big  | 1 to 1  |
        | 5..8 | 5 to 1  |
        | 4    | 2 to 1  |
    push when outcome is pw
""")
    assert isinstance(g.bets["x"].clauses[0].table.key, ir.RoundFormulaRef)
    cases = {("9S", "KH", "KD", "QC"): 200,  # 9 against 0: the condition row first
             ("6S", "KH", "KD", "QC"): 600,  # margin 6
             ("4S", "KH", "KD", "QC"): 300,  # margin 4
             ("2S", "KH", "KD", "QC"): 100}  # margin 2: no row, the push decides
    for cards, back in cases.items():
        r = e.play(list(cards) + ["KS", "KC"])
        assert e.settle(r, {"x": 100}) == {"x": back}, cards
    assert e.PUSHED["x"](e.play(["2S", "KH", "KD", "QC", "KS", "KC"]))
    assert not e.PUSHED["x"](e.play(["6S", "KH", "KD", "QC", "KS", "KC"]))


def test_a_variant_removes_a_bet_and_its_room_limits(tmp_path) -> None:
    (tmp_path / "base.rules").write_text(HEAD + """bet x "X"
    wins when outcome is pw, pays 1 to 1
bet y "Y"
    wins when outcome is bw, pays 1 to 1
room r "R"
    x y: 1..10
""", encoding="utf-8")
    (tmp_path / "v.rules").write_text('game v extends base "V"\nremove bet y\n', encoding="utf-8")
    g, diags, _ = resolve_file(str(tmp_path / "v.rules"))
    assert not [d for d in diags if d.is_error]
    assert list(g.bets) == ["x"] and g.rooms["r"].limits == {"x": (1, 10)}
    # not silently: the room changes with the bet, and the variant's differences say so
    assert [(d.what, d.kind, d.name) for d in g.differences] == [("remove", "bet", "y"), ("override", "room", "r")]


@pytest.mark.parametrize("text, code, needle", [
    ('stand all when won\nevent won "W" when outcome is pw\nbet x "X"\n    wins when won, pays 1 to 1\n',
     "E0304", "event `won` reads the finished round"),
    ('draw p when outcome is pw by total(p)\n    | 0 1 2 3 4 5 6 7 8 9 |\n    | D D D D D D S S S S |\n'
     'bet x "X"\n    wins when outcome is pw, pays 1 to 1\n', "E0101", "`outcome is …` cannot be tested"),
    ('bet x "X"\n    wins when outcome is pw, pays by total(p)\n        | 9 | 1 to 1 |\n        | 9 | 2 to 1 |\n',
     "E0408", "gives the key 9 two rows"),
    ('bet x "X"\n    wins when count(p, Z) = 1, pays 1 to 1\n', "E0101", "unknown name `Z`"),
    ('draw b while total(b) < 5\ndraw b by total(b)\n    | 0 1 2 3 4 5 6 7 8 9 |\n    | D D D D D D S S S S |\n'
     'bet x "X"\n    wins when outcome is pw, pays 1 to 1\n', "E0137", "draws while a condition holds"),
])
def test_misuses_are_diagnosed(text: str, code: str, needle: str) -> None:
    _g, errors = game(text)
    assert any(d.code == code and needle in d.message for d in errors), errors


def test_the_outcome_hint_says_why_not_here() -> None:
    _g, errors = game('stand all when outcome is pw\nbet x "X"\n    wins when outcome is pw, pays 1 to 1\n')
    [d] = [d for d in errors if d.code == "E0101"]
    assert "decided once the draws are over" in d.hint


def test_card_level_expressions_are_typed_and_run() -> None:
    g, e = engine_of("""bet suit "S"
    wins when suit(first(p)) = H and same_suit(first2(b)), pays 1 to 1
bet rank "R"
    wins when rank(card(p, 2)) = 10 and rank(last(b)) = K, pays 1 to 1
bet count "C"
    wins when count(p, face) + count(b, H) + count(b, K) = 3, pays 1 to 1
bet card "K"
    wins when first(b) = KH and cards_used mod 2 = 0 and abs(total(b) - total(p)) = 1, pays 1 to 1
""")
    suit = g.bets["suit"].clauses[0].when
    assert [o.type for o in suit.operands] == [ir.BOOL, ir.BOOL]
    assert isinstance(suit.operands[0].right, ir.SuitName)
    assert isinstance(g.bets["card"].clauses[0].when.operands[0].right, ir.CardName)
    r = e.play(["AH", "KH", "10S", "QH"])  # P A 10 = 1, B K Q = 0 (no draw tables: four cards)
    back = e.settle(r, {"suit": 1, "rank": 1, "count": 1, "card": 1})
    assert back == {"suit": 2, "rank": 0, "count": 2, "card": 2}, (r.p, r.b)
    r = e.play(["AH", "QH", "10S", "KH"])
    assert e.settle(r, {"rank": 1, "card": 1}) == {"rank": 2, "card": 0}
    assert ir.expr_text(g.bets["card"].clauses[0].when) == (
        "first(b) = KH and cards_used mod 2 = 0 and abs(total(b) - total(p)) = 1")


def test_a_card_the_hand_lacks_is_an_engine_error_not_a_crash() -> None:
    _g, e = engine_of('bet x "X"\n    wins when value(card(p, 5)) = 1, pays 1 to 1\n')
    r = e.play(["2S", "3H", "4D", "5C", "KS", "KC"])
    with pytest.raises(e.EngineError, match="not dealt"):
        e.settle(r, {"x": 1})




def test_soft_totals_and_repeated_draws_run_in_the_engine_and_the_shoe() -> None:
    g, e = engine_of('bet x "X"\n    wins when outcome is pw, pays 1 to 1\n    push when soft(d)\n', head=SOFT_GAME)
    r = e.play(["7S", "AH", "AD", "AC", "7C"])  # dealer A A (12, soft) A (13, soft) 7 (20, soft)
    assert r.d == ["AH", "AD", "AC", "7C"] and e.total(r.d) == 20 and e.is_soft(r.d)
    r = e.play(["7S", "AH", "9D", "10C"])  # dealer A 9 = soft 20
    assert r.d == ["AH", "9D"] and e.total(r.d) == 20
    r = e.play(["7S", "AH", "7D", "KC"])  # dealer A 7 = soft 18 stands
    assert e.total(r.d) == 18 and r.cards_used == 3
    with pytest.raises(e.InvalidCards, match="not enough cards"):
        e.play(["7S", "7H"])
    shoe = e.Shoe(seed=3)
    rounds = 0
    while not shoe.finished:
        shoe.next_round()
        rounds += 1
    assert rounds > 3 and g.soft.limit == 21


def test_the_card_lists_a_bets_rules_in_order_with_a_payout_tables_rows() -> None:
    g, e = engine_of("""let margin = total(p) - total(b)
bet x "X"
    push when total(b) = 7
    wins when outcome is pw, pays by margin
        | 9 | 30 to 1 |
        | 8 | 10 to 1 |
    loses half when outcome is tie
""")
    view = next(b for b in card_view(g, "en", [], e)["bets"] if b["name"] == "x")
    rules = view["rules"]
    assert [r["kind"] for r in rules] == ["push", "table", "loses"]
    table = rules[1]
    assert [(r["key"], r["odds"], r["returns"]) for r in table["rows"]] == [("9", "30 to 1", "3100"),
                                                                          ("8", "10 to 1", "1100")]
    assert [r["odds"] for r in view["wins"]] == ["30 to 1", "10 to 1"]  # each row a winning rule too
    assert rules[2]["text"].startswith("The bet loses half the stake when")
    assert view["order"] == "The first of these rules that applies decides."
    assert [r["spec"]["code"].split(",")[0] for r in rules] == [
        "push when total(b) = 7", "wins when outcome is pw", "loses half when outcome is tie"]


def test_the_card_says_why_the_exact_analysis_is_missing() -> None:
    from pathlib import Path

    from croupier.driver.compile import card_mathematics

    path = Path(__file__).parent / "errors" / "N0701_analysis_missing.rules"
    g, diags, _ = resolve_file(str(path))
    assert not [d for d in diags if d.is_error]
    view = card_mathematics(g, "en")["view"]
    assert list(view) == ["Analysis"] and "missing" in view["Analysis"] and "2,000,000" in view["Analysis"]
    assert "缺少" in card_mathematics(g, "zh-Hans")["view"]["分析"]
