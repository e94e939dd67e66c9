"""The banker's third-card rule, tested exhaustively against the rule written out independently here.

Every banker two-card total 0–7 × every value 0–9 of the player's third card,
each built from real card sequences in several ways, plus the branch where the
player stood. The expected behaviour is the standard punto banco rule, written
out in `conftest.banker_draws` without reference to the spec or the compiler.

A test goes through its cases in a loop (one matrix row a test where the player drew) and fails with every
case that failed, each named by its values in the loop's order (`[way-player total-third]` in a row): a case
is a few microseconds of `play`, a collected test a few milliseconds of pytest and xdist.
"""

from __future__ import annotations

import itertools

import pytest
from conftest import banker_draws, card, two_cards


def failures(cases, check) -> list[str]:
    """Each case's failure, `check(*case)` having raised it, named by the case's values."""
    failed = []
    for case in cases:
        try:
            check(*case)
        except AssertionError as error:
            failed.append(f"[{'-'.join(map(str, case))}] {error}")
    return failed


@pytest.mark.parametrize("banker_total", range(8), ids=[f"banker{b}" for b in range(8)])
def test_banker_after_player_drew(baccarat, banker_total):
    def check(way, player_total, third):
        p1, p2 = two_cards(player_total, way)
        b1, b2 = two_cards(banker_total, way + 1)
        cards = [p1, b1, p2, b2, card(third, 2), card(4, 3)]
        r = baccarat.play(cards)
        assert r.player == [p1, p2, cards[4]], "a player on 0–5 draws"
        expected = banker_draws(banker_total, third)
        assert (len(r.banker) == 3) is expected
        assert r.banker == [b1, b2] + ([cards[5]] if expected else [])
        assert r.cards_used == (6 if expected else 5)

    cases = list(itertools.product([0, 1, 2], [0, 3, 5], range(10)))  # way, player total, third card's value
    assert len(cases) == 90
    assert not (failed := failures(cases, check)), "\n".join(failed)


def test_banker_after_player_stood(baccarat):
    def check(way, player_total, banker_total):
        p1, p2 = two_cards(player_total, way)
        b1, b2 = two_cards(banker_total, way + 2)
        cards = [p1, b1, p2, b2, card(3, 1), card(4, 2)]
        r = baccarat.play(cards)
        assert r.player == [p1, p2], "a player on 6–7 stands"
        expected = banker_draws(banker_total, None)
        assert r.banker == [b1, b2] + ([cards[4]] if expected else [])
        assert r.cards_used == (5 if expected else 4)

    cases = list(itertools.product([0, 1, 2], [6, 7], range(8)))  # way, player total, banker total
    assert len(cases) == 48
    assert not (failed := failures(cases, check)), "\n".join(failed)


def test_banker_natural_stops_everyone(baccarat):
    def check(banker_total, player_total):
        p1, p2 = two_cards(player_total)
        b1, b2 = two_cards(banker_total, 1)
        r = baccarat.play([p1, b1, p2, b2, card(1, 2), card(2, 3)])
        assert (len(r.player), len(r.banker), r.cards_used) == (2, 2, 4)

    cases = list(itertools.product([8, 9], range(10)))  # banker total, player total
    assert not (failed := failures(cases, check)), "\n".join(failed)


def test_explained_banker_step_names_the_grid_cell(baccarat):
    """The explanation of a banker draw names the matrix rule and the (total, value) cell it used."""
    p1, p2 = two_cards(2)
    b1, b2 = two_cards(3, 1)
    r = baccarat.play([p1, b1, p2, b2, card(8), card(1)], explain=True)
    banker_step = next(s for s in r.steps if s.get("hand") == "banker" and s["step"] in ("draw", "stand"))
    assert banker_step["step"] == "stand"
    assert tuple(banker_step["key"]) == (3, 8)
    assert "value(third(player))" in banker_step["rule"]
