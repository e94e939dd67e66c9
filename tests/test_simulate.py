"""Shoe simulation: exact tallies that do not depend on the number of workers, honest intervals."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from conftest import BACCARAT, SOFT_GAME

from croupier.cli.main import main
from croupier.cli.simulate import game_engine
from croupier.tools import simulate as sim


@pytest.fixture(scope="module")
def source():
    game, src, engine = game_engine(str(BACCARAT))
    return game.name, src, engine


def test_results_do_not_depend_on_the_number_of_workers(source):
    name, src, _ = source
    one, _ = sim.simulate(src, name, 12, seed=5, workers=1)
    two, _ = sim.simulate(src, name, 12, seed=5, workers=2)
    assert one == two
    other, _ = sim.simulate(src, name, 12, seed=6, workers=1)
    assert other.outcomes != one.outcomes


def test_tallies_add_up(source):
    name, src, engine = source
    tally, records = sim.simulate(src, name, 10, seed=1, log=True)
    assert sum(tally.rounds_per_shoe.values()) == 10
    assert sum(k * v for k, v in tally.rounds_per_shoe.items()) == tally.rounds == len(records)
    assert sum(tally.outcomes.values()) == tally.rounds
    for bet in engine.BETS:
        returned = sum(v * k for v, k in tally.returns[bet].items())
        assert returned - tally.rounds == tally.net[bet][0]  # one unit staked each round
        assert isinstance(tally.net[bet][0], (int, Fraction))
    assert [r["round"] for r in records[:3]] == [1, 2, 3] and records[0]["shoe"] == 0


def test_interval_contains_the_published_banker_and_player_frequencies(source):
    # B18 (source 002): 8 decks, banker wins 45.86 %, player 44.62 %
    name, src, _ = source
    tally, _ = sim.simulate(src, name, 300, seed=11, workers=2)
    for outcome, published in (("banker", Fraction(4586, 10000)), ("player", Fraction(4462, 10000))):
        p, h = sim.proportion(tally.outcomes[outcome], tally.rounds)
        assert abs(p - published) <= Fraction(h) + Fraction(1, 10000)
    lo, hi = min(tally.rounds_per_shoe), max(tally.rounds_per_shoe)
    assert 60 <= lo <= hi <= 95


def test_interval_shrinks_with_more_shoes(source):
    name, src, _ = source
    small, _ = sim.simulate(src, name, 20, seed=2)
    large, _ = sim.simulate(src, name, 160, seed=2, workers=2)
    assert sim.estimate(large, "banker")[1] < sim.estimate(small, "banker")[1]


def test_cli_json_report_and_log(tmp_path, capsys):
    log = tmp_path / "rounds.jsonl"
    assert main(["simulate", str(BACCARAT), "--shoes", "3", "--jobs", "1", "--json", "--log", str(log)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["shoes"] == 3 and sum(report["rounds_per_shoe"]["histogram"].values()) == 3
    assert set(report["bets"]) == {"banker", "player", "tie", "banker_pair", "player_pair"}
    lines = log.read_text(encoding="utf-8").splitlines()
    assert len(lines) == report["rounds"]
    assert main(["play", str(BACCARAT), "--replay", str(log)]) == 0
    assert main(["simulate", str(BACCARAT), "--shoes", "0"]) == 2


def test_log_is_the_same_for_any_number_of_workers(source):
    name, src, _ = source
    logs = []
    for workers in (1, 2):
        texts: list[str] = []
        tally = sim.run(src, name, 5, seed=3, workers=workers, sink=texts.append)
        logs.append("".join(texts))
        assert len(logs[-1].splitlines()) == tally.rounds
    assert logs[0] == logs[1]
    shoes = [json.loads(line)["shoe"] for line in logs[0].splitlines()]
    assert shoes == sorted(shoes) and set(shoes) == set(range(5))


@pytest.mark.parametrize("workers", [1, 2])
def test_a_stopped_run_holds_exactly_its_first_shoes(source, workers):
    name, src, _ = source
    seen: list[int] = []
    texts: list[str] = []
    tally = sim.run(src, name, 40, seed=4, workers=workers, sink=texts.append,
                    progress=seen.append, stop=lambda: len(seen) >= 2)
    assert 1 <= tally.shoes < 40
    again, records = sim.simulate(src, name, tally.shoes, seed=4, log=True)
    assert tally == again
    assert [json.loads(line) for text in texts for line in text.splitlines()] == records


def test_one_shoe_has_an_estimate_but_no_interval(source):
    name, src, engine = source
    tally, _ = sim.simulate(src, name, 1, seed=1)
    mean, half = sim.estimate(tally, "banker")
    assert half is None and mean == Fraction(tally.net["banker"][0], tally.rounds)
    report = sim.summary(tally, list(engine.BETS), {"banker": Fraction(-1, 100)})
    assert report["bets"]["banker"]["ci95"] is None and report["bets"]["banker"]["exact_in_ci"] is None
    assert sim.summary(sim.Tally(), ["banker"])["bets"]["banker"] == {"net_per_unit": None, "ci95": None}


def test_a_hand_drawing_while_a_condition_holds_never_runs_a_shoe_out(tmp_path):
    # The dealer draws while under 17 and may take more cards than the cut card leaves (5 or 6 from the end, room
    # kept for three): a round the rest of the shoe cannot finish is dealt from a fresh shoe, never cut short.
    spec = tmp_path / "soft.rules"
    spec.write_text(SOFT_GAME + 'bet pw "P"\n    wins when outcome is pw, pays 1 to 1\n', encoding="utf-8")
    game, src, engine = game_engine(str(spec))
    fast, _ = sim.simulate(src, game.name, 400, seed=3, workers=1)
    logged, records = sim.simulate(src, game.name, 400, seed=3, workers=1, log=True)
    assert fast.rounds == logged.rounds == len(records) and fast.outcomes == logged.outcomes
    ran_out = [r for r in records if r.get("ran_out")]
    assert ran_out and all(r["last"] for r in ran_out)  # the shoes that ended so exist
    for index in range(400):
        shoe = engine.Shoe(sim.shoe_seed(3, index))
        while not shoe.finished:
            r, start = shoe.next_round()
            assert engine.play(shoe.cards[start:]).cards_used == r.cards_used <= len(shoe.cards) - start
    assert main(["simulate", str(spec), "--shoes", "50", "--jobs", "1"]) == 0
