"""The engine's tracing calls and the oracle the checks ask: a round with a grid gap, worked by hand.

tests/errors/E0210_draw_gap.rules has no row for b's total 4. Dealt p 2S, b 4H,
p 3S, b KH: p has 5 and draws 7C (total 2); b has 4 and p's third card is worth
7, so b's table (the spec's second) is consulted at (4, 7), a cell it lacks.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.backends.engine.oracle import engine_oracle
from croupier.checks.oracles import RoundFailure
from croupier.semantics.resolve import Loader

ROOT = Path(__file__).resolve().parent.parent
GAP = ROOT / "tests" / "errors" / "E0210_draw_gap.rules"
CARDS = ["2S", "4H", "3S", "KH", "7C", "9D"]


@pytest.fixture(scope="module")
def game():
    game, _diags = Loader().load(str(GAP))
    return game


def test_play_stops_at_a_gap_and_an_observed_play_goes_on(game) -> None:
    engine = load_engine(emit_engine(game, game.path), "oracle_gap")
    with pytest.raises(engine.EngineError, match=r"has no cell for \(4, 7\)"):
        engine.play(CARDS)
    seen = []
    r = engine.play(CARDS, observe=lambda hand, r: seen.append((hand, list(r.p), list(r.b))))
    assert seen == [("p", ["2S", "3S"], ["4H", "KH"]), ("b", ["2S", "3S", "7C"], ["4H", "KH"])]
    assert (r.p, r.b, r.outcome, r.cards_used) == (["2S", "3S", "7C"], ["4H", "KH"], "bw", 5)


def test_the_engine_lists_its_tables_and_bet_clauses(game) -> None:
    engine = load_engine(emit_engine(game, game.path), "oracle_lists")
    assert [(hand, applies is None) for hand, _grid, _rule, applies, _key in engine.DECISION_TABLES] == \
        [("p", True), ("b", False)]
    r = engine.play(["KS", "9H", "8S", "KH"])  # p 8 stands; b's table applies only after p drew; b 9 wins
    assert [(bet, kind, i, test(r)) for bet, kind, i, test in engine.BET_CLAUSES] == \
        [("p", "win", 0, False), ("p", "push", 0, False)]


def test_the_oracle_reports_each_decision_and_the_gap(game) -> None:
    oracle = engine_oracle(game)
    decisions = []
    r = oracle.play(CARDS, decisions.append)
    assert [(d.hand, d.tables, d.key, d.cell, d.dealt) for d in decisions] == \
        [("p", (0,), 5, True, 4), ("b", (1,), (4, 7), None, 5)]
    assert oracle.hands(r) == {"p": ["2S", "3S", "7C"], "b": ["4H", "KH"]} and oracle.cards_used(r) == 5
    assert oracle.fact_keys == (("win", "p", 0), ("push", "p", 0), ("outcome", "pw"), ("outcome", "bw"),
                                ("outcome", "tie"))
    assert oracle.facts(r) == ((False, False, False, True, False), [])
    assert oracle.bet_return(r, "p", 100) == 0
    kept = oracle.snapshot(r)
    won = oracle.with_last_card(r, "p", "2C")  # p 2S 3S 2C is 7 against b's 4: p wins, paying 1.5 with the stake
    assert oracle.hands(won)["p"][-1] == "2C" and oracle.bet_return(won, "p", 100) == Fraction(150)
    assert oracle.hands(kept)["p"][-1] == "7C"


def test_a_round_the_rules_cannot_finish_is_a_failure(game) -> None:
    with pytest.raises(RoundFailure, match="not enough cards"):
        engine_oracle(game).play(["2S", "4H", "3S", "KH"], lambda d: None)


def test_the_identity_leaves_out_where_the_spec_lies_and_nothing_else(tmp_path):
    """The key of the cached round space and hand survey: a copy of the spec in another folder has the same
    identity (the path is in the engine's header only); a changed payout, or a changed header, does not."""
    text = GAP.read_text(encoding="utf-8")
    (tmp_path / "copy.rules").write_text(text, encoding="utf-8")
    changed = text.replace("pays 1.5 including stake", "pays 2 including stake", 1)
    assert changed != text
    (tmp_path / "changed.rules").write_text(changed, encoding="utf-8")
    here, copy, edit = (engine_oracle(Loader().load(str(p))[0])
                        for p in (GAP, tmp_path / "copy.rules", tmp_path / "changed.rules"))
    assert here.source != copy.source and str(tmp_path) in copy.source.split("\n", 2)[0]
    assert here.identity == copy.identity
    assert edit.identity != here.identity
    from croupier.backends.engine.loader import engine_identity

    assert engine_identity(here.source.replace("Do not edit.", "Do edit.", 1)) != here.identity
    from croupier.backends.engine.loader import load_engine

    # the key of the exact analyses and example-hand searches: the loaded engine's SOURCE_DIGEST
    assert load_engine(here.source, "g").SOURCE_DIGEST == load_engine(copy.source, "g").SOURCE_DIGEST
    assert load_engine(edit.source, "g").SOURCE_DIGEST != load_engine(here.source, "g").SOURCE_DIGEST
