"""Simulation at scale: exact tallies whatever the partition, `--rounds`, seat tables, the JSON form."""

from __future__ import annotations

import json
import random
from fractions import Fraction

import pytest
from conftest import BACCARAT, SPEC
from hypothesis import given, settings
from hypothesis import strategies as st

from croupier.cli.main import main
from croupier.cli.simulate import compiled
from croupier.tools import campaign, seat_simulate
from croupier.tools import simulate as sim
from croupier.tools.tally import SeatTally, Tally, tally_from_json

BANKER_SPEC = SPEC / "ten_and_a_half_banker.rules"


@pytest.fixture(scope="module")
def baccarat():
    game, source, engine, _ = compiled(str(BACCARAT))
    return game.name, source, engine


@pytest.fixture(scope="module")
def banker_game():
    game, source, engine, _ = compiled(str(BANKER_SPEC))
    return game, source, engine


class Shuffled:
    """An executor that keeps `window` pieces outstanding and hands them back in a random order."""

    def __init__(self, engine, job, window: int, rng: random.Random) -> None:
        self.engine, self.job, self.window, self.rng = engine, job, window, rng
        self.held: list = []

    def submit(self, first, count, limit):
        self.held.append((first, campaign.play_piece(self.engine, self.job, first, count, limit, False)))

    def collect(self, timeout):
        if not self.held:
            return []
        self.rng.shuffle(self.held)
        k = self.rng.randint(1, len(self.held))
        out, self.held = self.held[:k], self.held[k:]
        return out

    def pending(self):
        return len(self.held)

    def halt(self):
        pass

    def close(self):
        pass


def drive_shuffled(engine, state, size, window, seed):
    def replay(first, count, limit):
        return campaign.play_piece(engine, state.job, first, count, limit, False)

    return campaign.drive(state, Shuffled(engine, state.job, window, random.Random(seed)), size, replay=replay)


@settings(max_examples=12, deadline=None)
@given(size=st.integers(1, 5), window=st.integers(1, 4), order=st.integers(0, 10**6),
       rounds=st.integers(1, 700))
def test_any_partition_and_order_of_pieces_gives_the_same_tally(baccarat, size, window, order, rounds):
    name, source, engine = baccarat
    shoes = drive_shuffled(engine, campaign.State(campaign.Job("shoes", 1), "shoes", 7), size, window, order)
    assert shoes.tally == sim.simulate(source, name, 7, seed=1)[0] and shoes.done == 7
    cut = drive_shuffled(engine, campaign.State(campaign.Job("shoes", 1), "rounds", rounds), size, window, order)
    assert cut.tally == sim.simulate(source, name, 0, seed=1, rounds=rounds)[0]
    assert cut.tally.rounds == rounds


def test_rounds_stop_right_after_round_n(baccarat):
    name, source, _ = baccarat
    four, _ = sim.simulate(source, name, 4, seed=2)
    three, _ = sim.simulate(source, name, 3, seed=2)
    exact, _ = sim.simulate(source, name, 0, seed=2, rounds=four.rounds, workers=2)
    assert exact == four and exact.shoes_cut == 0  # round N closes a shoe: nothing is cut
    short, records = sim.simulate(source, name, 0, seed=2, rounds=four.rounds - 5, workers=2, log=True)
    assert short.rounds == four.rounds - 5 == len(records) and short.shoes == 4 and short.shoes_cut == 1
    assert short.rounds_per_shoe == three.rounds_per_shoe  # the cut shoe is not in the histogram
    whole_shoe_4 = [r for r in sim.simulate(source, name, 4, seed=2, log=True)[1] if r["shoe"] == 3]
    assert [r for r in records if r["shoe"] == 3] == whole_shoe_4[:-5]


def test_a_tally_survives_its_json_form(baccarat, banker_game):
    name, source, _ = baccarat
    tally, _ = sim.simulate(source, name, 3, seed=4, rounds=200)
    text = json.dumps(tally.to_json())
    back = tally_from_json(json.loads(text))
    assert back == tally and isinstance(back, Tally)
    assert any("/" in str(v) for sums in tally.to_json()["net"].values() for v in sums)  # 1.95 pays in Fractions
    game, source, engine = banker_game
    job = campaign.Job("tables", 3, 3, Fraction(8), 1, 10**9, "base_bet")
    seats, _ = seat_simulate.play_tables(engine, job, 0, 20)
    assert tally_from_json(json.loads(json.dumps(seats.to_json()))) == seats
    merged = Tally().merge(tally).merge(Tally())
    assert merged == tally


# ---- seat tables ---------------------------------------------------------------------------------
# Source 004, rule set 2 (T2, T4, T7, T8, T9), written out by hand: values, types, the banker's
# comparison and the base bet; the deck is shuffled by `random.Random("<seed>/<table>")` in the
# engine's card order (ranks A..K, each in suits S H C D, then the jokers), as a shoe is.
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
POINTS = {r: Fraction(i + 1) for i, r in enumerate(RANKS[:10])} | {r: Fraction(1, 2) for r in ("J", "Q", "K", "BJ", "SJ")}
MULTIPLIER = {"five_faces": 4, "five_small": 3, "ten_and_a_half": 2, "plain": 1, "bust": 1}
TYPE_RANK = ["bust", "plain", "ten_and_a_half", "five_small", "five_faces"]  # low to high


def by_hand_table(seed: int, table: int, players: int, coins: int):
    deck = [r + s for r in RANKS for s in "SHCD"] + ["BJ", "SJ"]
    random.Random(f"{seed}/{table}").shuffle(deck)
    hands = []
    for p in range(players):
        packet = deck[5 * p:5 * p + 5]
        n = 1
        while n < 5 and sum(POINTS[c[:-1] if c not in ("BJ", "SJ") else c] for c in packet[:n]) < 8:
            n += 1
        hands.append(packet[:n])

    def kind(hand):
        ranks = [c[:-1] if c not in ("BJ", "SJ") else c for c in hand]
        total = sum(POINTS[r] for r in ranks)
        faces = sum(1 for r in ranks if r in ("J", "Q", "K", "BJ", "SJ"))
        if len(hand) == 5 and faces == 5:
            return "five_faces", total
        if len(hand) == 5 and total < Fraction(21, 2):
            return "five_small", total
        if total == Fraction(21, 2):
            return "ten_and_a_half", total
        return ("plain" if total < Fraction(21, 2) else "bust"), total

    poorest = banker_coins = coins  # every seat holds the same coins
    base = min(poorest // (15 if players == 2 else 5 if banker_coins >= 3 * poorest else 15), 800000)
    banker = kind(hands[0])
    net = 0
    for hand in hands[1:]:
        player = kind(hand)
        if player[0] == "bust":
            banker_wins = True
        elif banker[0] == "bust":
            banker_wins = False
        else:
            b_key = (TYPE_RANK.index(banker[0]), banker[1], len(hands[0]))
            p_key = (TYPE_RANK.index(player[0]), player[1], len(hand))
            banker_wins = b_key >= p_key  # equal points and cards: the banker wins
        net += base * MULTIPLIER[banker[0]] if banker_wins else -base * MULTIPLIER[player[0]]
    return hands, [kind(h)[0] for h in hands], net, base


def test_seat_tables_are_dealt_and_settled_as_the_rules_say(banker_game):
    game, source, engine = banker_game
    players, coins = 4, 10**9
    job = campaign.Job("tables", 11, players, Fraction(8), 1, coins, "base_bet")
    tally, log = seat_simulate.play_tables(engine, job, 0, 60, log=True)
    records = [json.loads(line) for line in log.splitlines()]
    nets = []
    for i, rec in enumerate(records):
        hands, kinds, net, base = by_hand_table(11, i, players, coins)
        assert list(rec["request"]["hands"].values()) == hands and rec["request"]["banker"] == "p1"
        assert [h["type"] for h in rec["answer"]["hands"].values()] == kinds
        assert Fraction(str(rec["answer"]["net"]["p1"])) == net
        assert engine.adjudicate(rec["request"]) == rec["answer"]  # a logged table settles again the same
        nets.append(net)
    assert tally.tables == 60 and tally.net["p1"][0] == sum(nets) and tally.net["p1"][1] == sum(n * n for n in nets)
    assert tally.unit == [60 * base, 60 * base * base]
    assert sum(c for c, _ in tally.types.values()) == 60 * players
    assert sum(tally.results.values()) == 60 * (players - 1)
    assert sum(s[0] for s in tally.net.values()) == 0  # every coin a seat wins another seat pays


def test_seat_runs_do_not_depend_on_the_number_of_workers(banker_game):
    game, source, engine = banker_game
    job = campaign.Job("tables", 5, 3, Fraction(8), 1, 10**9, "base_bet")
    one = campaign.run_local(campaign.State(job, "tables", 90), source, game.name, 1).tally
    two = campaign.run_local(campaign.State(job, "tables", 90), source, game.name, 2).tally
    assert one == two and isinstance(one, SeatTally) and one.tables == 90


def test_seat_report_puts_the_exact_figures_beside_the_simulated_ones(capsys):
    assert main(["simulate", str(BANKER_SPEC), "--tables", "400", "--players", "3", "--jobs", "1", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["tables"] == 400 and r["players"] == 3 and set(r["seats"]) == {"p1", "p2", "p3"}
    assert sum(t["hands"] for t in r["types"].values()) == 1200
    assert all("exact" in t and t["ci95"] is not None for t in r["types"].values())
    assert "exact" in r["banker_edge"] and r["banker_edge"]["ci95"] is not None
    assert main(["simulate", str(SPEC / "ten_and_a_half.rules"), "--tables", "30", "--jobs", "1"]) == 0
    out = capsys.readouterr().out
    assert "30 tables of 2 players hitting below 8.00" in out and "p2" in out


@pytest.mark.parametrize("args, message", [
    ([str(BANKER_SPEC), "--shoes", "3"], "a seat game plays --tables"),
    ([str(BACCARAT), "--tables", "3"], "simulate plays shoes of dealt-round games"),
    ([str(BANKER_SPEC), "--tables", "3", "--players", "9"], "seats 2 to 5 players, not 9"),
    ([str(BACCARAT), "--shoes", "3", "--players", "2"], "are options of seat games"),
    ([str(BANKER_SPEC), "--tables", "3", "--threshold", "x"], "--threshold must be a number"),
    ([str(BACCARAT)], "give --shoes N or --rounds N"),
    ([str(BACCARAT), "--rounds", "0"], "--rounds must be at least 1"),
    ([str(BACCARAT), "--shoes", "2", "--every", "0"], "--every must be a positive"),
])
def test_options_that_do_not_fit_the_game_are_refused(capsys, args, message):
    assert main(["simulate", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


def test_cli_rounds_report(capsys):
    assert main(["simulate", str(BACCARAT), "--rounds", "150", "--jobs", "2", "--json"]) == 0
    r = json.loads(capsys.readouterr().out)
    assert r["rounds"] == 150 and r["shoes"] == 2 and r["shoes_cut_short"] == 1
    assert sum(r["rounds_per_shoe"]["histogram"].values()) == 1
    assert main(["simulate", str(BACCARAT), "--rounds", "150", "--jobs", "1"]) == 0
    assert "150 rounds (the last shoe cut short)" in capsys.readouterr().out
