"""The engine's exact analysis of baccarat-family specs, against an independent enumeration.

`independent` below is a separate, straightforward enumerator written for this
test: the third-card rule typed in by hand from the sources, every deal over the
ten value classes with card removal. The pair probability follows from counting
alone. Nothing here calls the engine's analysis to derive an expected value.
"""

from __future__ import annotations

import gc
import io
import json
import re
from contextlib import redirect_stdout
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from conftest import banker_draws

from croupier.backends.engine.analysis_emitter import analysis_plan, emit_analysis_module
from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.cli.main import main
from croupier.semantics.resolve import Loader

ROOT = Path(__file__).resolve().parent.parent
TOL = Fraction(1, 10**9)


@cache
def engine(spec: str):
    game, diags = Loader().load(str(ROOT / "spec" / f"{spec}.rules"))
    assert game is not None and not any(d.is_error for d in diags)
    return game, load_engine(emit_engine(game, f"spec/{spec}.rules"), f"analysis_{spec}")


@cache
def companion(spec: str):
    """The engine's analysis companion (the module holding the exact enumerator)."""
    game, _eng = engine(spec)
    return load_engine(emit_analysis_module(game, f"spec/{spec}.rules"), f"analysis_{spec}_analysis")


@cache
def analysis(spec: str, decks: int):
    return companion(spec).analyse(engine(spec)[1], decks)


@cache
def independent(decks: int) -> dict[tuple[str, int], Fraction]:
    """{(outcome, banker's final total): probability} by a plain enumeration over values.

    A deal of k cards is weighed by the product of the counts it draws from, exactly in integers, over
    the same denominator for every deal: (N)_6 ways to draw six cards, of which a k-card deal stands for
    (N - k)_(6 - k) (N the shoe's cards, (n)_k the falling factorial)."""
    counts = [16 * decks] + [4 * decks] * 9
    cards = sum(counts)
    out: dict[tuple[str, int], int] = {}

    def falling(n: int, k: int) -> int:
        return 1 if k == 0 else n * falling(n - 1, k - 1)

    go_on = [falling(cards - k, 6 - k) for k in range(7)]
    values = range(10)
    # key[p][b]: the outcome of a player's total p against a banker's b, with b
    key = [[("player" if p > b else "banker" if b > p else "tie", b) for b in values] for p in values]
    # draws[b][v]: whether a banker on b (not a natural) draws after the player's third card of value v
    draws = [[banker_draws(b, v) for v in values] for b in range(8)]

    def banker_third(p: int, b: int, weight: int, k: int) -> None:
        """The banker's third card after k cards dealt, in every way: each round scored."""
        row = key[p]
        for b3 in values:
            if counts[b3]:
                got = row[(b + b3) % 10]
                out[got] = out.get(got, 0) + weight * counts[b3] * go_on[k + 1]

    # the cards in the order dealt (player, banker, player, banker, the player's third, the banker's), each
    # value taken while the shoe holds one, a deal weighed by the product of the counts it draws from
    for p1 in values:
        w1 = counts[p1]
        counts[p1] -= 1
        for b1 in values:
            w2 = w1 * counts[b1]
            if not w2:
                continue
            counts[b1] -= 1
            for p2 in values:
                w3 = w2 * counts[p2]
                if not w3:
                    continue
                counts[p2] -= 1
                p = (p1 + p2) % 10
                for b2 in values:
                    w4 = w3 * counts[b2]
                    if not w4:
                        continue
                    b = (b1 + b2) % 10
                    counts[b2] -= 1
                    if p >= 8 or b >= 8 or (p >= 6 and b >= 6):
                        out[key[p][b]] = out.get(key[p][b], 0) + w4 * go_on[4]
                    elif p >= 6:
                        banker_third(p, b, w4, 4)
                    else:
                        for p3 in values:
                            w5 = w4 * counts[p3]
                            if not w5:
                                continue
                            pp = (p + p3) % 10
                            if draws[b][p3]:
                                counts[p3] -= 1
                                banker_third(pp, b, w5, 5)
                                counts[p3] += 1
                            else:
                                out[key[pp][b]] = out.get(key[pp][b], 0) + w5 * go_on[5]
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    whole = falling(cards, 6)
    assert sum(out.values()) == whole
    return {key: Fraction(w, whole) for key, w in out.items()}


def prob(decks: int, outcome: str, banker_total: int | None = None) -> Fraction:
    return sum((p for (o, b), p in independent(decks).items()
                if o == outcome and banker_total in (None, b)), Fraction(0))


def pair_prob(decks: int) -> Fraction:
    """Two cards of one rank: the second matches the first among the rest of the shoe."""
    return Fraction(4 * decks - 1, 52 * decks - 1)


@pytest.mark.parametrize("decks", [1, 8])
def test_outcomes_match_the_independent_enumeration(decks):
    a = analysis("baccarat", decks)
    for outcome in ("banker", "player", "tie"):
        assert a["outcomes"][outcome] == prob(decks, outcome)
    assert sum(a["outcomes"].values()) == 1


def test_published_eight_deck_figures():
    a = analysis("baccarat", 8)
    published = {"banker": "0.458597", "player": "0.446247", "tie": "0.095156"}
    for k, v in published.items():
        assert abs(a["outcomes"][k] - Fraction(v)) < Fraction(1, 2 * 10**6)


@pytest.mark.parametrize("spec, bet, expected, published", [
    ("baccarat_commission", "banker", lambda d: 1 - (prob(d, "banker") * Fraction(39, 20) + prob(d, "tie")), "1.0579"),
    ("baccarat_commission", "player", lambda d: 1 - (prob(d, "player") * 2 + prob(d, "tie")), "1.2351"),
    ("baccarat_commission", "tie", lambda d: 1 - prob(d, "tie") * 9, "14.3596"),
    ("baccarat_commission", "player_pair", lambda d: 1 - pair_prob(d) * 12, "10.3614"),
    ("baccarat_commission", "banker_pair", lambda d: 1 - pair_prob(d) * 12, "10.3614"),
    ("baccarat_no_commission", "banker",
     lambda d: 1 - ((prob(d, "banker") - prob(d, "banker", 6)) * 2 + prob(d, "banker", 6) * Fraction(3, 2)
                    + prob(d, "tie")), "1.4581"),
    ("baccarat_no_commission", "super6", lambda d: 1 - prob(d, "banker", 6) * 13, None),
])
def test_house_edges(spec, bet, expected, published):
    b = analysis(spec, 8)["bets"][bet]
    assert abs(b["house_edge"] - expected(8)) < TOL
    if published:
        assert abs(b["house_edge"] * 100 - Fraction(published)) < Fraction(1, 2 * 10**4)


def test_house_edge_depends_on_decks_as_the_independent_route_says():
    b = analysis("baccarat_commission", 1)["bets"]["banker"]
    assert abs(b["house_edge"] - (1 - (prob(1, "banker") * Fraction(39, 20) + prob(1, "tie")))) < TOL
    assert b["house_edge"] != analysis("baccarat_commission", 8)["bets"]["banker"]["house_edge"]


def test_bet_statistics_are_consistent():
    b = analysis("baccarat", 8)["bets"]["banker"]
    assert sum(b["returns"].values()) == 1
    assert b["returns"][Fraction(39, 20)] == b["hit"] == prob(8, "banker")
    assert b["push"] == prob(8, "tie")
    mean = prob(8, "banker") * Fraction(39, 20) + prob(8, "tie")
    assert b["variance"] == prob(8, "banker") * Fraction(39, 20) ** 2 + prob(8, "tie") - mean**2


def test_totals_and_naturals():
    a = analysis("baccarat", 8)
    banker = {t: sum(p for (_o, b), p in independent(8).items() if b == t) for t in range(10)}
    assert a["totals"]["banker"] == banker
    two = a["two_card_totals"]["player"]
    natural = 1 - (1 - two[8] - two[9]) ** 2  # not exact: the sides share a shoe
    assert abs(a["events"]["natural"] - natural) < Fraction(1, 1000)
    assert a["events"]["player_pair"] == pair_prob(8)


def test_the_plan_reads_the_facts_the_rules_use():
    game, _eng = engine("baccarat_no_commission")
    plan = analysis_plan(game)
    assert plan["supported"] and plan["deal_by_rank"] and not plan["draw_by_rank"]
    assert plan["draw"]["player"] == ("count", "total", "third")
    assert "total" in plan["final"]["banker"]
    assert set(plan["deal_events"]) == {"natural", "player_pair", "banker_pair"}


@pytest.mark.parametrize("spec", ["baccarat", "dragon_tiger"])  # the dealt-round enumerator, and the general one
def test_an_analysis_leaves_no_cyclic_garbage(spec):
    """What an analysis builds is freed by reference counting as soon as it is dropped: the garbage collector
    finds none of it. (A recursive helper that calls itself through its closure is a cycle, and keeps every
    table it reads, tens of thousands of objects, for the collector to walk and free.)"""
    eng, comp = engine(spec)[1], companion(spec)
    gc.collect()
    gc.disable()
    try:
        assert comp.analyse(eng, 1)["outcomes"]
        found = gc.collect()
    finally:
        gc.enable()
    assert found == 0


def test_bad_deck_count_is_an_engine_error():
    _game, eng = engine("baccarat")
    with pytest.raises(eng.EngineError):
        companion("baccarat").analyse(eng, 0)


def test_json_contract():
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["analyze", str(ROOT / "spec" / "baccarat.rules"), "--json"]) == 0
    data = json.loads(out.getvalue())
    assert set(data["outcomes"]) == {"banker", "player", "tie"}
    exact_or_long = re.compile(r"^-?\d+/\d+$|^-?\d+(\.\d+)?$")
    for name, b in data["bets"].items():
        for key in ("house_edge", "expected_return", "stdev"):
            text = b[key]
            assert exact_or_long.match(text), (name, key, text)
            digits = text.lstrip("-0.").replace(".", "")
            assert len(digits) >= 12 or Fraction(text) == Fraction(b["exact"].get(key, text)), (name, key, text)
    assert abs(Fraction(data["outcomes"]["tie"]) - prob(8, "tie")) < TOL


def test_commission_note_and_deck_table_in_json():
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["analyze", str(ROOT / "spec" / "baccarat_commission.rules"), "--json", "--deck-table"]) == 0
    data = json.loads(out.getvalue())
    assert any("unrounded" in n for n in data["notes"])
    assert data["bets"]["banker"]["unit_stake_exact"] is True
    table = data["deck_table"]["house_edge"]["banker"]
    assert list(table) == ["1", "2", "4", "6", "8"]
    one = 1 - (prob(1, "banker") * Fraction(39, 20) + prob(1, "tie"))
    assert abs(Fraction(table["1"]) - one) < TOL
