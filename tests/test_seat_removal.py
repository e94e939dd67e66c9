"""Issue 14: a seat's exact results against another, weighed by inclusion–exclusion over class counts.

`seat_removal` never weighs a pair of hands; these tests weigh them: every pair of
final hands the deck can deal together (hand limits 2..5 of ten-and-a-half with one
wild joker), and every order of a tiny deck's cards dealt one by one, settled by the
engine. The banker's net against two players is checked the same way, a whole table
at a time. Nothing here is computed by the code under test.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import cache
from itertools import accumulate, repeat
from math import factorial, prod
from operator import mul
from pathlib import Path

import pytest

from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.semantics.resolve import Loader
from croupier.tools.analysis import seat_removal
from croupier.tools.analysis.seat import SeatAnalysis, separable, stake_of
from croupier.tools.analysis.seat_deck import SeatDeck
from croupier.tools.analysis.seat_pairs import PairSettler

ROOT = Path(__file__).resolve().parent.parent
ONE_JOKER = ROOT / "tests" / "specs" / "ten_and_a_half_one_joker.rules"
BIG = 10**9

# Seven cards: A, 2, 3 of spades and hearts and a wild joker; ties broken by the top card and its suit.
TINY = """
game tiny_seat "Tiny seat game"
deck tiny "Tiny deck" = ranks A 2 3, suits S H
shoe 1 deck of tiny + jokers BJ
joker BJ "Joker"
value A = 1, 2..3 = pip
wild BJ as A..3, best by type then total
total sum
seats 2..4
hand size 1..LIMIT
card order 3 2 A BJ
suit order S H
policy hit while total < 4
type top "Top"
    when count = LIMIT and total <= 4
    multiplier 2
type plain "Plain"
    when total <= 4 and count < LIMIT
    multiplier 1
type bust "Bust"
    when total > 4
    multiplier 1
order within top by high card, high suit
order within plain by total, high card, high suit
"""
PAIRWISE = """
settle pairwise "Strongest first"
    draw when winner is bust and loser is bust
    draw when tied
    pay stake(winner) * multiplier(winner)
"""
BANKER = """
settle against-banker "Banker"
    banker-wins when player is bust
    player-wins when banker is bust
    banker-wins when tied
    pay stake(player) * multiplier(winner)
"""


def load_text(tmp_path: Path, text: str, name: str = "spec"):
    path = tmp_path / f"{name}.rules"
    path.write_text(text, encoding="utf-8")
    game, diags = Loader().load(str(path))
    assert game is not None and not any(d.is_error for d in diags), [str(d) for d in diags]
    return game, load_engine(emit_engine(game, str(path)), f"t_{game.name}_{name}")


@cache
def falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def pair_by_pair(deck: SeatDeck, settler: PairSettler, t_first: Fraction, ts: list[Fraction]) -> dict:
    """The second seat's result at each threshold of `ts`, weighing every (first hand, second hand) pair
    the deck can deal together: P(F, H) = V(F) V(H) prod_c (N_c)_(F_c + H_c) / (N)_(|F| + |H|).

    Each pair is weighed once for all thresholds: over the common denominator (N)_most (`most` the
    largest two hands any threshold deals), a second hand H gathers sum_F V(F) P(F, H) / V(H) by outcome,
    and a threshold adds up V_t(H) times that over its own final hands. A second hand's weights against
    every first hand are one list (products and sums in C), summed by the first hand's settlement key."""
    firsts, seconds = deck.finals(t_first), {t: deck.finals(t) for t in ts}
    hands = {h for finals in seconds.values() for h in finals}
    most = max(map(sum, firsts)) + max(map(sum, hands))
    lows = [falling(deck.cards - size, most - size) for size in range(most + 1)]
    # (N_c)_(F_c + H_c) = (N_c)_(H_c) (N_c - H_c)_(F_c): a pair's product is H's weight times, over the classes F
    # holds, (N_c - H_c)_(F_c), read from a table of H's own at the place of F's count (`places` of F below)
    width = max(deck.counts) + 1
    # the first hands in runs of one settlement key (PairSettler.key: a pair settles by its two hands' keys)
    runs: dict[int, list[tuple[int, ...]]] = {}
    for f in firsts:
        runs.setdefault(id(settler.key(f)), []).append(f)
    fs = [f for run in runs.values() for f in run]
    places = [tuple(c * width + n for c, n in enumerate(f) if n) for f in fs]
    bounds, at = [], 0  # (id of the key, where its run starts, where it ends) in `fs`
    for kf, run in runs.items():
        bounds.append((kf, at, at + len(run)))
        at += len(run)
    # scaled[size of H][i] = V(F_i) (N - |F_i| - |H|)_(most - |F_i| - |H|), for every size a second hand has
    scaled = {size: [firsts[f] * lows[size + sum(f)] for f in fs] for size in set(map(sum, hands))}
    by_keys: dict[int, dict[int, tuple]] = {}  # id of H's key -> {id of F's key -> the outcome}
    interned: dict[tuple, tuple] = {}  # one object per distinct outcome, so that equal outcomes share their id
    same: dict[int, tuple] = {}  # id of a result the settler gave -> its interned outcome
    per_hand: dict[tuple, dict[int, list]] = {}  # H -> {id of an outcome -> [the outcome, weight]}
    for h in hands:
        seen: dict[int, list] = {}
        weight = prod(falling(n, m) for n, m in zip(deck.counts, h))  # prod_c (N_c)_(H_c)
        outcomes = by_keys.setdefault(id(settler.key(h)), {})
        # table[c * width + k] = (N_c - H_c)_k, and 0 for every k past N_c - H_c (that pair weighs 0)
        table = [falling(n - m, k) for n, m in zip(deck.counts, h) for k in range(width)]
        ways = list(map(mul, scaled[sum(h)], map(prod, map(map, repeat(table.__getitem__), places))))
        ends = [0, *accumulate(ways)]
        for kf, start, stop in bounds:
            w = (ends[stop] - ends[start]) * weight
            if w:
                outcome = outcomes.get(kf)
                if outcome is None:  # settled with the key's first hand (in `firsts`' order) H can meet
                    f = next(fs[i] for i in range(start, stop) if ways[i])
                    net = settler.net(f, h)
                    outcome = same.get(id(net))
                    if outcome is None:  # a result object not met before (the settler keeps every one it gives)
                        outcome = same[id(net)] = interned.setdefault(net, net)
                    outcomes[kf] = outcome
                slot = seen.get(id(outcome))
                if slot is None:
                    seen[id(outcome)] = [outcome, w]
                else:
                    slot[1] += w
        per_hand[h] = seen
    whole = falling(deck.cards, most)
    results = {}
    for t, finals in seconds.items():
        by_id: dict[int, list] = {}  # id of an outcome -> [the outcome, its weight over (N)_most]
        for h, vh in finals.items():
            for outcome, ways in per_hand[h].values():
                slot = by_id.get(id(outcome))
                if slot is None:
                    by_id[id(outcome)] = [outcome, vh * ways]
                else:
                    slot[1] += vh * ways
        sums: dict[tuple, int] = {}  # each outcome's weight over (N)_most
        for outcome, ways in by_id.values():
            sums[outcome] = sums.get(outcome, 0) + ways
        assert sum(sums.values()) == whole
        net, wins, losses = (sum(Fraction(w, whole) * o[i] for o, w in sums.items()) for i in range(3))
        results[t] = {"net": net, "wins": wins, "losses": losses, "draws": 1 - wins - losses}
    return results


@pytest.mark.parametrize("limit", [2, 3, 4, 5])
def test_the_weighing_by_class_counts_equals_the_pair_by_pair_weighing(tmp_path, limit):
    text = ONE_JOKER.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^hand size 1\.\.\d+", f"hand size 1..{limit}", text)
    text = re.sub(r"(?m)^    when count < 5 and", "    when count != 5 and", text)
    _game, engine = load_text(tmp_path, text, f"limit{limit}")
    deck = SeatDeck(engine)
    # a few thresholds (the reference is slow): never drawing, the policy's own, and some around it
    thresholds = {2: [Fraction(1, 2), Fraction(5), Fraction(8), Fraction(21, 2), Fraction(11)],
                  3: [Fraction(1, 2), Fraction(5), Fraction(8), Fraction(21, 2), Fraction(11)],
                  4: [Fraction(5), Fraction(8), Fraction(21, 2)], 5: [Fraction(8)]}[limit]
    settler = PairSettler(deck, False, None)
    got = seat_removal.second_seat_results(deck, settler, Fraction(8), thresholds)
    expected = pair_by_pair(deck, settler, Fraction(8), thresholds)
    for t in thresholds:
        assert got[t] == expected[t], t


@cache
def points(engine, hand: tuple[str, ...]):
    """The engine's points of a hand (each hand the deals below reach evaluated once)."""
    return engine.evaluate(list(hand)).points


def deal(engine, cards: list[str], hands: int, thresholds: list[Fraction]):
    """Every way to deal `hands` hands one card at a time from `cards` (each order of what is drawn
    equally likely), hand i hitting while its total is below thresholds[i]: yields (ways, hands), the deal's
    probability ways / len(cards)! (k cards dealt in one order: 1 / (n)_k = (n - k)! / n!)."""
    low, high = engine.HAND_SIZE

    def go(left: list[str], done: list[list[str]], current: list[str]):
        if current and len(current) >= low and (len(current) >= high
                                                or points(engine, tuple(current)) >= thresholds[len(done)]):
            done, current = done + [current], []
            if len(done) == hands:
                yield factorial(len(left)), done
                return
        for i, card in enumerate(left):
            yield from go(left[:i] + left[i + 1:], done, current + [card])

    yield from go(cards, [], [])


def the_cards(engine) -> list[str]:
    return [code for code, n in engine.PER_DECK.items() for _ in range(n * engine.DECKS)]


@pytest.mark.parametrize("limit", [2, 3])
def test_pairwise_results_equal_every_dealt_order_of_a_tiny_deck(tmp_path, limit):
    game, engine = load_text(tmp_path, TINY.replace("LIMIT", str(limit)) + PAIRWISE, f"tiny{limit}")
    sa = SeatAnalysis(engine, game.policy_threshold, stake_of(game), separable(game))
    got = sa.against(Fraction(4))
    assert len(got) >= 4 and Fraction(1) in got and Fraction(4) in got
    settled: dict[tuple, object] = {}  # the engine's net for the second seat, by the two hands as dealt
    whole = factorial(len(the_cards(engine)))
    for t in got:
        net = wins = losses = 0  # weights out of `whole`
        for w, (first, second) in deal(engine, the_cards(engine), 2, [Fraction(4), t]):
            out = settled.get(hands := (tuple(first), tuple(second)))
            if out is None:  # the same two hands dealt in the same order under another threshold: settled once
                out = settled[hands] = engine.settle_table({"hands": {"f": first, "s": second},
                                                            "stakes": {"f": 1, "s": 1},
                                                            "coins": {"f": BIG, "s": BIG}})["net"]["s"]
                out = settled[hands] = Fraction(out)
            net, wins, losses = net + w * out, wins + w * (out > 0), losses + w * (out < 0)
        assert (got[t]["net"], got[t]["wins"], got[t]["losses"]) == tuple(Fraction(x, whole) for x in
                                                                            (net, wins, losses)), t


def test_the_banker_against_two_players_is_twice_the_edge_against_one(tmp_path):
    """A table of a banker and two players from seven cards (hands of at most two: six cards, so the deck
    never runs out), dealt player, player, banker, one card at a time, settled a whole table at a time."""
    game, engine = load_text(tmp_path, TINY.replace("LIMIT", "2") + BANKER, "banker")
    sa = SeatAnalysis(engine, game.policy_threshold, stake_of(game), separable(game))
    t = Fraction(3)
    edge = sa.banker_edge(t, t)["banker_edge"]
    assert 2 in sa.table_sizes(t)
    whole = factorial(len(the_cards(engine)))
    one = two = 0  # weights out of `whole`
    for w, (player, banker) in deal(engine, the_cards(engine), 2, [t, t]):
        one += w * Fraction(engine.settle_table({"hands": {"p": player, "b": banker}, "stakes": {"p": 1},
                                                 "coins": {"p": BIG, "b": BIG}, "banker": "b"})["net"]["b"])
    for w, (p1, p2, banker) in deal(engine, the_cards(engine), 3, [t, t, t]):
        two += w * Fraction(engine.settle_table({"hands": {"p": p1, "q": p2, "b": banker}, "stakes": {"p": 1, "q": 1},
                                                 "coins": {"p": BIG, "q": BIG, "b": BIG}, "banker": "b"})["net"]["b"])
    one, two = Fraction(one, whole), Fraction(two, whole)
    assert edge == one != 0
    assert two == 2 * edge


def test_the_one_joker_game_at_hand_limit_13_has_its_pair_results(tmp_path):
    text = ONE_JOKER.read_text(encoding="utf-8")
    text = re.sub(r"(?m)^hand size 1\.\.\d+", "hand size 1..13", text)
    text = re.sub(r"(?m)^    when count < 5 and", "    when count != 5 and", text)
    game, engine = load_text(tmp_path, text, "limit13")
    sa = SeatAnalysis(engine, game.policy_threshold, stake_of(game), separable(game))
    got = sa.against(Fraction(8))
    assert sa.missing is None and len(got) == len(sa.thresholds())
    assert got[Fraction(8)]["net"] == 0  # the same policy on both sides: a fair game, exactly
    assert sa.best_threshold(Fraction(8)) is not None


def test_too_much_work_is_named_not_a_traceback(tmp_path, monkeypatch):
    monkeypatch.setattr(seat_removal, "MAX_TERMS", 10)
    game, engine = load_text(tmp_path, TINY.replace("LIMIT", "3") + PAIRWISE, "bounded")
    sa = SeatAnalysis(engine, game.policy_threshold, stake_of(game), separable(game))
    assert sa.against(Fraction(4)) == {} and "more than 10 terms" in sa.missing


def test_the_seat_card_shows_the_best_threshold_table_in_every_language():
    from croupier.driver.compile import card_mathematics

    game, diags = Loader().load(str(ROOT / "spec" / "ten_and_a_half_banker.rules"))
    assert game is not None and not any(d.is_error for d in diags)
    views = {lang: card_mathematics(game, lang)["view"] for lang in ("en", "zh-Hans", "zh-Hant")}
    titles = {"en": "Threshold policies", "zh-Hans": "各门槛策略", "zh-Hant": "各門檻策略"}  # one table, its best row marked
    best = {"en": "(best)", "zh-Hans": "（最佳）", "zh-Hant": "（最佳）"}
    for lang, view in views.items():
        rows = view[titles[lang]]
        marked = [r for r in rows if any(best[lang] in str(v) for v in r.values())]
        assert len(marked) == 1 and marked[0][next(iter(marked[0]))] == "5"
    rows = {r["hit while total below"]: r for r in views["en"][titles["en"]]}
    # hitting below 8 against a banker who does the same is the banker's edge, negated (issue 14's figure)
    assert rows["8"]["exact"] == "-2213696206811/12563624414250"
    exact = {k: Fraction(r["exact"]) for k, r in rows.items()}
    assert max(exact.values()) == exact["5"]


def test_key_pairs_left_unsettled_are_weighed_again_exhaustively(tmp_path, monkeypatch):
    """A key pair the short search leaves pending weighs more than 0 here (every pair is left pending on
    the first pass), so the weighing is redone with every pair searched, and gives the same figures."""
    game, engine = load_text(tmp_path, TINY.replace("LIMIT", "3") + PAIRWISE, "pending")
    deck = SeatDeck(engine)
    ts = deck.thresholds()
    expected = seat_removal.second_seat_results(deck, PairSettler(deck, False, None), Fraction(4), ts)
    resolve = seat_removal.RemovalWeigher._resolve
    passes = []

    def lazy(self, kf, kh):
        passes.append(self.exhaustive)
        return resolve(self, kf, kh) if self.exhaustive else self._pending()

    monkeypatch.setattr(seat_removal.RemovalWeigher, "_resolve", lazy)
    again = seat_removal.second_seat_results(deck, PairSettler(deck, False, None), Fraction(4), ts)
    assert again == expected and False in passes and True in passes
