"""Shoe simulation: exact tallies that do not depend on the number of workers, honest intervals."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from conftest import BACCARAT

from compiler import simulate as sim
from compiler.cli import main
from compiler.cli_simulate import game_engine


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
    assert main(["simulate", str(BACCARAT), "--shoes", "3", "--workers", "1", "--json", "--log", str(log)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["shoes"] == 3 and sum(report["rounds_per_shoe"]["histogram"].values()) == 3
    assert set(report["bets"]) == {"banker", "player", "tie", "banker_pair", "player_pair"}
    lines = log.read_text(encoding="utf-8").splitlines()
    assert len(lines) == report["rounds"]
    assert main(["play", str(BACCARAT), "--replay", str(log)]) == 0
    assert main(["simulate", str(BACCARAT), "--shoes", "0"]) == 2
