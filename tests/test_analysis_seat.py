"""Threshold-policy analysis of ten-and-a-half, against an independent enumeration and simulation.

The independent route types hands with rules typed in by hand from source 004
(rule set 2: jokers are face cards worth half a point, no wild), over value
classes of the 54-card deck, with exact Fractions; the banker's edge is checked
against a seeded simulation written here.
"""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.semantics.resolve import Loader
from croupier.tools.analysis.seat import SeatAnalysis, stake_of

ROOT = Path(__file__).resolve().parent.parent
HALF = Fraction(1, 2)
# rule set 2's deck by value: 14 face cards (J Q K and two jokers) at 1/2, four of each 1..10
DECK = {HALF: 14, **{Fraction(v): 4 for v in range(1, 11)}}


@cache
def analysis(spec: str) -> SeatAnalysis:
    game, diags = Loader().load(str(ROOT / "spec" / f"{spec}.rules"))
    assert game is not None and not any(d.is_error for d in diags)
    engine = load_engine(emit_engine(game, f"spec/{spec}.rules"), f"seat_{spec}")
    return SeatAnalysis(engine, game.policy_threshold, stake_of(game))


def hand_type(values: list, half=HALF) -> str:
    """The type of a hand of card values counted in units where a face card is `half` (1/2 a point; or 1 when
    the values are counted in half points, 21 then being ten and a half)."""
    total, n, faces, ten_and_a_half = sum(values), len(values), sum(1 for v in values if v == half), 21 * half
    if n == 5 and faces == 5:
        return "five_faces"
    if n == 5 and total < ten_and_a_half:
        return "five_small"
    if total == ten_and_a_half:
        return "ten_and_a_half"
    return "plain" if total < ten_and_a_half else "bust"


@cache
def typed(halves: tuple[int, ...]) -> str:
    """`hand_type` of a hand given by its cards' values in half points (sorted): asked once per hand."""
    return hand_type([Fraction(h, 2) for h in halves])


def one_hand(t: Fraction) -> dict[str, Fraction]:
    """Every sequence of values a hand hitting below t draws, one card at a time, weighed by the ways to draw
    it: the product of the cards of each value left, over (54)_(its length) for the orderings of any cards.
    Values are counted in half points (every value is a multiple of 1/2), so totals are ints."""
    ways_of: dict[tuple[str, int], int] = {}  # (type, length) -> ways
    counts = {int(2 * v): n for v, n in DECK.items()}
    limit = 2 * t

    def walk(values: list[int], ways: int) -> None:
        if values and (sum(values) >= limit or len(values) == 5):
            key = (typed(tuple(sorted(values))), len(values))
            ways_of[key] = ways_of.get(key, 0) + ways
            return
        for v, n in list(counts.items()):
            if n:
                counts[v] = n - 1
                walk(values + [v], ways * n)
                counts[v] = n

    walk([], 1)
    cards = sum(DECK.values())
    out: dict[str, Fraction] = {}
    for (kind, length), ways in ways_of.items():
        orderings = 1
        for i in range(length):
            orderings *= cards - i
        out[kind] = out.get(kind, 0) + Fraction(ways, orderings)
    return out


def test_one_hand_types_match_the_independent_enumeration():
    sa = analysis("ten_and_a_half_banker")
    for t in (Fraction(1), Fraction(8), Fraction(21, 2)):
        got = sa.one_hand(t)["types"]
        want = one_hand(t)
        assert {k: p for k, p in got.items() if p} == want
        assert sum(got.values()) == 1


def test_standing_on_the_first_card_gives_the_card_values_with_wild_tens():
    sa = analysis("ten_and_a_half")
    one = sa.one_hand(HALF)
    assert one["types"]["plain"] == 1
    # a wild joker alone is best as a 10: the four tens and two jokers
    assert one["totals"][Fraction(10)] == Fraction(6, 54)
    assert one["totals"][HALF] == Fraction(12, 54)
    assert one["expected_multiplier"] == 1


def test_thresholds_and_the_best_one():
    sa = analysis("ten_and_a_half")
    ts = sa.thresholds()
    assert ts[0] == HALF and ts[-1] == 11 and Fraction(8) in ts
    best = max(ts, key=lambda t: sa.one_hand(t)["expected_multiplier"])
    assert all(sa.one_hand(best)["expected_multiplier"] >= sa.one_hand(t)["expected_multiplier"] for t in ts)


def simulated_banker_net(t: Fraction, rounds: int, seed: int) -> tuple[Fraction, float]:
    """The banker's mean net over `rounds` seeded rounds. Values are counted in half points (every value is
    a multiple of 1/2), so totals are ints compared as the Fractions they stand for; the mean is exact. A round
    deals from ten cards drawn at random in order without replacement (`Random.sample`, each ordered ten equally
    likely, as the last ten of a whole shuffle are): the most two hands of at most five cards can take."""
    rng = random.Random(seed)
    cards = [int(2 * v) for v, n in DECK.items() for _ in range(n)]
    limit = 2 * t
    mult = {"five_faces": 4, "five_small": 3, "ten_and_a_half": 2, "plain": 1, "bust": 1}
    rank = ["bust", "plain", "ten_and_a_half", "five_small", "five_faces"]
    total = 0
    squares = 0.0
    for _ in range(rounds):
        deck = rng.sample(cards, 10)
        hands = []
        for _seat in range(2):  # the banker first, then the player
            h = [deck.pop()]
            while sum(h) < limit and len(h) < 5:
                h.append(deck.pop())
            hands.append(h)
        b, p = hands
        bt, pt = typed(tuple(sorted(b))), typed(tuple(sorted(p)))
        if pt == "bust":
            net = mult[bt]
        elif bt == "bust":
            net = -mult[pt]
        else:
            kb = (rank.index(bt), sum(b), len(b))
            kp = (rank.index(pt), sum(p), len(p))
            net = -mult[pt] if kp > kb else mult[bt]
        total += net
        squares += net * net
    mean = Fraction(total, rounds)
    sd = (squares / rounds - float(mean) ** 2) ** 0.5
    return mean, sd / rounds**0.5


def test_banker_edge_agrees_with_a_simulation():
    sa = analysis("ten_and_a_half_banker")
    edge = sa.banker_edge(Fraction(8), Fraction(8))
    assert sum(edge["outcomes"].values()) == 1
    mean, se = simulated_banker_net(Fraction(8), 20000, seed=5)
    assert abs(float(edge["banker_edge"] - mean)) < 4 * se


def test_pairwise_game_has_no_banker_edge():
    assert analysis("ten_and_a_half").banker_edge(Fraction(8), Fraction(8)) is None


@pytest.mark.parametrize("threshold", ["0", "-1", "25", "100", "1e9", "x"])
def test_a_threshold_that_cannot_matter_is_refused_at_once(threshold, capsys):
    """A threshold of 0 or less is no policy, and one beyond every total a hand can stop at is the same policy as
    the highest that matters: both are refused with the range (a threshold of 100 once ran for minutes)."""
    from croupier.cli.main import main

    assert main(["analyze", str(ROOT / "spec" / "ten_and_a_half.rules"), f"--threshold={threshold}"]) == 2
    err = capsys.readouterr().err
    assert "--threshold" in err and ("more than 0" in err or "up to 11" in err or "must be a number" in err)
