"""Every exact figure proven against the engine itself: the exact analysis and `croupier diff`'s shares of rounds,
each equal, fraction for fraction, to every ordered deal of a small shoe played through the engine's `play`.

The property tests draw specs from the language's own constructs (`differential_specs`); they run a few examples
here, with a fixed seed, and many in benchmarks/differential.py. The regression tests below are the defects such
a test finds: an analysis that grouped cards by value where a `draw … while` reads ranks, and a diff that played
a hand drawing while a condition holds as if it drew one card.
"""

from __future__ import annotations

from fractions import Fraction

import differential_specs as ds
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from croupier.backends.engine.oracle import engine_oracle
from croupier.checks import run_checks
from croupier.tools.diff.rounds import compare_rounds

QUICK = settings(max_examples=10, deadline=None, derandomize=True, database=None,
                 suppress_health_check=list(HealthCheck))


def loaded(text: str, name: str = "g"):
    got, diags = ds.load(text, name)
    assert got is not None, [str(d) for d in diags if d.is_error]
    return got


def analysed(text: str) -> tuple[dict, ds.Truth]:
    """(the exact analysis, the brute force) of a spec."""
    game, engine, companion = loaded(text)
    return companion.analyse(engine, game.shoe.decks), ds.brute_force(engine, ds.shoe_of(game))


# ---- defect: a `draw … while` that reads ranks, in a game that gives several ranks one value ----------------

PAIR_DRAWS = """game g "G"
deck short = ranks A 9 10 J, suits S H
shoe 1 deck of short
value A = 1, 9 = pip, 10 J = 0
total sum mod 10
hand p "P"
hand b "B"
deal p, p, b, b
draw p while count(p) = 2 and same_rank(p)
event third "Third card" when count(p) = 3
outcome pw "P" when total(p) > total(b)
outcome bw "B" when total(b) > total(p)
outcome tie "T" when total(p) = total(b)
bet pb "P"
    wins when outcome is pw, pays 1 to 1
    push when outcome is tie
"""


def test_a_pair_that_draws_a_third_card_is_told_by_rank():
    a, truth = analysed(PAIR_DRAWS)
    assert a["events"]["third"] == Fraction(1, 7)  # the second card of p matches the first's rank: 1 of 7
    assert ds.compare_analysis(a, truth) == []


KING_DRAWS = """game g "G"
deck short = ranks A 9 10 K, suits S H
shoe 1 deck of short
value A = 1, 9 = pip, 10 K = 0
total sum mod 10
hand p "P"
hand b "B"
deal p, b, p, b
draw p while count(p) < 3 and rank(last(p)) = K
outcome pw "P" when total(p) > total(b)
outcome bw "B" when total(b) >= total(p)
bet kings "Kings"
    wins when drew(p), pays 10 to 1
"""


def test_a_bet_won_by_a_rank_read_while_drawing_can_win():
    game, engine, companion = loaded(KING_DRAWS)
    codes = [d.code for d in run_checks(game, engine_oracle) if d.is_error]
    assert "E0405" not in codes  # "can never win": false, since a king as p's second card draws
    a = companion.analyse(engine, 1)
    assert a["bets"]["kings"]["returns"][11] == Fraction(2, 8)  # p's second card is one of the 2 kings of 8
    assert ds.compare_analysis(a, ds.brute_force(engine, ds.shoe_of(game))) == []


ZERO_VALUES = """game g "G"
deck short = ranks A K Q, suits S H
shoe 1 deck of short
value A K Q = 0
total sum
hand p "P"
hand b "B"
deal p, b, p
draw p while count(p) < 3 and not same_rank(p)
outcome pw "P" when count(p) = 3
outcome bw "B" when count(p) < 3
bet pb "P"
    wins when outcome is pw, pays 1 to 1
"""


def test_cards_all_worth_nothing_still_differ_by_rank():
    a, truth = analysed(ZERO_VALUES)
    assert a["outcomes"] == {"pw": Fraction(4, 5), "bw": Fraction(1, 5)}  # p's two cards pair 1 time in 5
    assert ds.compare_analysis(a, truth) == []


# ---- defect: diff of a hand that draws while a condition holds (S17 against H17) -----------------------------

DEALER = """game s "S"
deck short = ranks A 6 10, suits S H
shoe 2 decks of short
value A = 1, 6 = pip, 10 = pip
total sum, A counts 1 or 11, best not over 21
hand p "P"
hand d "D"
deal p, d
draw d while total(d) < 17
outcome pw "P" when total(d) > 21 or total(p) > total(d)
outcome dw "D" when total(d) <= 21 and total(d) >= total(p)
"""


def test_diff_of_a_dealer_hitting_soft_17_counts_every_round_it_changes():
    old = loaded(DEALER, "s17")
    new = loaded(DEALER.replace("while total(d) < 17", "while total(d) < 17 or total(d) = 17 and soft(d)"), "h17")
    r = compare_rounds(old[:2], new[:2], old[0].shoe.decks)
    wrong, _deals = ds.compare_diff(r, old[1], new[1], ds.shoe_of(old[0]))
    assert wrong == []
    assert r["played_differently"] > 0 and r["outcome_changes"] > 0


# ---- the properties ------------------------------------------------------------------------------------------


@QUICK
@given(ds.specs())
def test_the_exact_analysis_equals_every_deal_played(spec):
    game, engine, companion = loaded(spec.text)
    a = companion.analyse(engine, game.shoe.decks)
    truth = ds.brute_force(engine, ds.shoe_of(game))
    assert ds.compare_analysis(a, truth) == [], spec.text


@settings(QUICK, max_examples=6)
@given(ds.specs())
def test_what_check_says_of_bets_holds_in_every_deal(spec):
    """A clause `check` says can never win, never push or never decide (E0405, E0404, E0407) is so in every deal."""
    game, engine, _companion = loaded(spec.text)
    truth = ds.brute_force(engine, ds.shoe_of(game))
    for d in run_checks(game, engine_oracle):
        if d.code in ("E0404", "E0405", "E0407"):
            bet, clause = spec.lines[d.span.line]
            if d.code == "E0407":
                assert truth.covered.get((bet, clause)), (d.message, spec.text)
            else:
                assert not truth.clauses[(bet, clause)], (d.message, spec.text)


@settings(QUICK, max_examples=6)
@given(st.data())
def test_diff_shares_equal_both_engines_played_on_every_deal(data):
    spec = data.draw(ds.specs())
    old = loaded(spec.text, "old")
    new = loaded(data.draw(ds.mutated(spec)), "new")
    r = compare_rounds(old[:2], new[:2], old[0].shoe.decks)
    wrong, _deals = ds.compare_diff(r, old[1], new[1], ds.shoe_of(old[0]))
    assert wrong == [], spec.text
