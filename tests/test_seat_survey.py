"""Issue 14: wild single cards, stakes by role, the survey by signature, exact pair analysis.

Every expectation is independent of the code under test: brute force over all
substitutions, hands listed one by one, or arithmetic done by hand in a comment.
"""

from __future__ import annotations

import io
import itertools
import json
from contextlib import redirect_stdout
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.backends.engine.oracle import engine_oracle
from croupier.checks import hand_types
from croupier.cli.main import main
from croupier.semantics import hand_classes as hc
from croupier.semantics.resolve import Loader
from croupier.tools.analysis.seat import SeatAnalysis, separable, stake_of

ROOT = Path(__file__).resolve().parent.parent
ONE_JOKER = ROOT / "tests" / "specs" / "ten_and_a_half_one_joker.rules"


def load(path: Path):
    game, diags = Loader().load(str(path))
    assert game is not None and not any(d.is_error for d in diags), diags
    return game, load_engine(emit_engine(game, str(path)), f"t_{game.name}")


def brute_best(engine, cards: list[str]) -> tuple:
    """The best (type, total) over the product of every wild card's every choice."""
    ranks = [engine.RANK_OF[c] for c in cards]
    wild_at = [i for i, c in enumerate(cards) if c in engine.WILD_CARDS or engine.RANK_OF[c] in engine.WILD_RANKS]
    best = None
    for choice in itertools.product(engine.WILD_CHOICES, repeat=len(wild_at)):
        subbed = list(ranks)
        for i, r in zip(wild_at, choice):
            subbed[i] = r
        facts = engine.HandFacts(subbed, bool(wild_at))
        kinds = [name for name, test in engine.TYPE_TESTS if test(facts)]
        if kinds:
            score = (-engine.TYPE_INDEX[kinds[0]], facts.total)
            best = score if best is None or score > best else best
    return best


@pytest.mark.parametrize("spec", ["spec/sette_e_mezzo.rules", "spec/ten_and_a_half.rules"])
def test_the_best_substitution_is_the_best_of_every_substitution(spec):
    _game, engine = load(ROOT / spec)
    wilds = [c for c in engine.CARD_CODES if c in engine.WILD_CARDS or engine.RANK_OF[c] in engine.WILD_RANKS]
    plain = [c for c in engine.CARD_CODES if c not in wilds][::3]
    for n in (0, 1, 2):
        for others in itertools.combinations(plain, 3 - min(n, len(wilds))):
            hand = list(others) + wilds[:n]
            v = engine.evaluate(hand)
            assert (-engine.TYPE_INDEX[v.type], v.points) == brute_best(engine, hand), hand


def test_only_the_single_wild_card_is_wild():
    _game, engine = load(ROOT / "spec/sette_e_mezzo.rules")
    assert engine.evaluate(["KD"]).wild and not engine.evaluate(["KC"]).wild
    # K C alone is a face card (1/2); the matta alone is best as a 7
    assert engine.evaluate(["KC"]).points == Fraction(1, 2) and engine.evaluate(["KD"]).points == 7


def test_a_banker_brings_no_stake_and_a_missing_player_stake_is_named():
    _game, engine = load(ROOT / "spec/sette_e_mezzo.rules")
    out = engine.adjudicate({"banker": "b", "hands": {"b": ["5C", "2S"], "p": ["4C", "JS"]}, "stakes": {"p": 3}})
    assert out["net"] == {"b": "3", "p": "-3"}  # 7 beats 4.5: the player pays its stake once
    with pytest.raises(engine.InvalidTable, match="missing stake for p: .*every player"):
        engine.adjudicate({"banker": "b", "hands": {"b": ["5C", "2S"], "p": ["4C", "JS"]}, "stakes": {"b": 3}})


def test_a_pairwise_game_still_asks_every_seat_for_a_stake():
    _game, engine = load(ROOT / "spec/ten_and_a_half.rules")
    with pytest.raises(engine.InvalidTable, match="missing stake for a: .*every seat"):
        engine.adjudicate({"hands": {"a": ["9S"], "b": ["8S"]}, "stakes": {"b": 1}, "coins": {"a": 9, "b": 9}})


def test_signatures_count_every_rank_multiset_once():
    game, _engine = load(ONE_JOKER)
    sigs = hand_types.signatures(game, by_top_card=False)
    ranks = list(game.shoe.ranks) + list(game.shoe.jokers)
    copies = {r: game.shoe.rank_copies(r) for r in ranks}  # each rank's count read once, not once a hand
    listed = sum(1 for size in range(1, 6) for combo in itertools.combinations_with_replacement(ranks, size)
                 if all(combo.count(r) <= copies[r] for r in set(combo)))
    assert sum(mult for mult, _reps in sigs.values()) == listed


def test_the_survey_agrees_with_a_hand_by_hand_survey():
    game, engine = load(ONE_JOKER)
    reached, unmatched = set(), 0
    ranks = list(game.shoe.ranks) + list(game.shoe.jokers)
    copies = {r: game.shoe.rank_copies(r) for r in ranks}  # each rank's count read once, not once a hand
    reader = hc.HandReader(game)
    for size in range(1, 6):
        for combo in itertools.combinations_with_replacement(ranks, size):
            if any(combo.count(r) > copies[r] for r in set(combo)):
                continue
            try:
                reached.add(engine.evaluate(reader.card_codes(combo)).type)
            except engine.EngineError:
                unmatched += 1
    result = hand_types._survey(game, engine_oracle(game))
    assert result[0] == "ok" and result[2] == unmatched == 0 and result[4] == reached


@pytest.mark.parametrize(("spec", "skips"), [(ROOT / "spec/sette_e_mezzo.rules", True), (ONE_JOKER, False)])
def test_hands_left_unevaluated_once_every_type_is_reached_change_no_finding(spec, skips, monkeypatch):
    """Ties settled and every type reached, the survey stops asking the engine to evaluate hands that a
    substitution gives a type: what it finds (hands with no type, overlaps, types reached) is what
    evaluating every hand finds, with far fewer evaluations where every type is reached early (in the
    one-joker game the last type is reached late: few are saved there)."""
    game, _engine = load(spec)
    oracle = engine_oracle(game)
    calls = []
    classify = oracle.classify
    monkeypatch.setattr(oracle, "classify", lambda codes: calls.append(codes) or classify(codes))
    quick = hand_types._survey(game, oracle)
    asked_quick = len(calls)
    monkeypatch.setattr(hand_types, "FEW_TRIES", -1)  # no hand has fewer than one substitution: all evaluated
    every = hand_types._survey(game, oracle)
    assert quick[:5] == every[:5] and quick[0] == "ok"
    assert len(calls) - asked_quick == len(hand_types.signatures(game, by_top_card=False))
    assert asked_quick < (len(calls) - asked_quick) / 4 if skips else asked_quick <= len(calls) - asked_quick


def test_one_wild_joker_analyses_without_error(own_memory, monkeypatch):
    """`croupier analyze` of the one-joker game, run through `main` in this process with no cache at all (nothing
    kept in memory, CROUPIER_CACHE=off): it analyses afresh, returns 0 and prints the JSON report."""
    monkeypatch.setenv("CROUPIER_CACHE", "off")
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["analyze", str(ONE_JOKER), "--json"]) == 0
    data = json.loads(out.getvalue())
    assert abs(sum(Fraction(p) for p in data["types"].values()) - 1) < Fraction(1, 10**18)  # decimals of 20 digits
    # against an opponent with the same policy the game is fair: exactly 0
    assert Fraction(data["expected_result"]["8"]) == 0


def test_the_banker_edge_is_unchanged_and_scales_with_the_players():
    game, engine = load(ROOT / "spec/ten_and_a_half_banker.rules")
    sa = SeatAnalysis(engine, game.policy_threshold, stake_of(game), separable(game))
    edge = sa.banker_edge(Fraction(8), Fraction(8))["banker_edge"]
    assert edge == Fraction(2213696206811, 12563624414250)
    assert sa.table_sizes(Fraction(8)) == [1, 2, 3]
    # the best threshold maximises the player's exact result against the banker
    results = sa.against(Fraction(8))
    best = sa.best_threshold(Fraction(8))
    assert all(results[best]["net"] >= r["net"] for r in results.values())
    assert results[Fraction(8)]["net"] == -edge


def test_pairwise_results_with_a_top_card_ranking_match_a_rank_by_rank_computation():
    """Ten-and-a-half ranks ties by the high card and its suit: the class-level law of the top cards must
    give what keeping every rank apart gives."""
    from croupier.tools.analysis.seat_deck import SeatDeck
    from croupier.tools.analysis.seat_pairs import PairSettler
    from croupier.tools.analysis.seat_removal import second_seat_results

    game, engine = load(ROOT / "spec/ten_and_a_half.rules")
    ts = [Fraction(8)]
    coarse = SeatDeck(engine)
    fine = SeatDeck(engine, by_top=True)
    assert coarse.k < fine.k
    a = second_seat_results(coarse, PairSettler(coarse, False, None), Fraction(8), ts)
    b = second_seat_results(fine, PairSettler(fine, False, None), Fraction(8), ts)
    assert a == b and a[Fraction(8)]["net"] == 0
