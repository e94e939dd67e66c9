"""The engine's fast path (`deal_at` with every rule inlined) against its traced path (`play(…, explain=True)`,
which asks the rule functions one by one), and the simulation's fast tally against the logged one."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from conftest import SOFT_GAME

from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.semantics.resolve import resolve_file
from croupier.tools import simulate as sim

ROOT = Path(__file__).resolve().parent.parent
SPECS = ["baccarat", "dragon_bonus", "dragon_tiger", "ez_baccarat"]

CARD_LEVEL = """game g "G"
shoe 1 deck of standard52
value A = 1, 2..9 = pip, 10 J Q K = 0
total sum mod 10
class face "Face" = J Q K
hand p "P"
hand b "B"
deal p, b, p, b
event big "Big" when total(first2(p)) >= 8 or same_rank(first2(b))
let margin = total(p) - total(b)
stand all when big
draw p by total(p)
    | 0 1 2 3 4 5 6 7 8 9 |
    | D D D D D D S S S S |
draw b when drew(p) by total(b) × value(third(p))
    |   | 0 1 2 3 4 5 6 7 8 9 |
    | 0 | D D D D D D D D D D |
    | 1 | D D D D D D D D D D |
    | 2 | D D D D D D D D D D |
    | 3 | D D D D D D D D S D |
    | 4 | S S D D D D D D S S |
    | 5 | S S S S D D D D S S |
    | 6 | S S S S S S D D S S |
    | 7 | S S S S S S S S S S |
    | 8 | S S S S S S S S S S |
    | 9 | S S S S S S S S S S |
draw b when not drew(p) by total(b)
    | 0 1 2 3 4 5 6 7 8 9 |
    | D D D D D D S S S S |
outcome pw "P wins" when total(p) > total(b)
outcome bw "B wins" when total(b) > total(p)
outcome tie "Tie" when total(p) = total(b)
bet suit "S"
    wins when suit(first(p)) = H and same_suit(first2(b)), pays 1 to 1
bet rank "R"
    wins when rank(card(p, 2)) = 10 and rank(last(b)) = K, pays 1 to 1
bet count "C"
    push when cards_used = 6
    wins when count(p, face) + count(b, H) + count(b, K) = 3, pays 1 to 1
bet half "H"
    wins when outcome is pw, pays 1 to 1
    loses half when outcome is tie
bet margin "M"
    push when big and outcome is tie
    wins when outcome is pw, pays by margin
        | big | 1 to 1 |
        | 7..9 | 5 to 1 |
        | 4 | 2 to 1 |
"""

SOFT = SOFT_GAME + """bet x "X"
    wins when outcome is pw, pays 1 to 1
    push when soft(d)
"""


@cache
def inline_source(text: str) -> str:
    g, diags, _ = resolve_file("t.rules", text)
    assert not [d for d in diags if d.is_error], diags
    return emit_engine(g, "t.rules")


def inline_engine(text: str):
    return load_engine(inline_source(text), "t_fast")


@cache
def spec_source(name: str) -> str:
    path = ROOT / "spec" / f"{name}.rules"
    g, diags, _ = resolve_file(str(path), path.read_text(encoding="utf-8"))
    assert not [d for d in diags if d.is_error], diags
    return emit_engine(g, str(path))


def spec_engine(name: str):
    """A fresh module of the spec's engine: each test loads its own (the module keeps what a table settled),
    from the source emitted once for the file (the emitter is a function of the spec's text)."""
    return load_engine(spec_source(name), f"fast_{name}")


ENGINES = {"card_level": lambda: inline_engine(CARD_LEVEL), "soft": lambda: inline_engine(SOFT),
           **{name: (lambda n=name: spec_engine(n)) for name in SPECS}}


def outcome_or_error(call):
    try:
        r = call()
    except Exception as exc:  # noqa: BLE001 - the two paths must fail alike
        return type(exc).__name__, str(exc)
    return [list(getattr(r, h)) for h in r.__slots__[:-3]], r.outcome, r.cards_used


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_the_inlined_round_is_the_traced_round(name: str) -> None:
    engine = ENGINES[name]()
    rng = random.Random(name)
    codes = engine.shoe_cards(engine.DECKS)
    bets = {bet: 1 for bet in engine.BETS}
    by_key: dict = {}
    kinds = set()
    for _ in range(3000):
        cards = rng.sample(codes, rng.randint(1, 9))
        fast = outcome_or_error(lambda c=cards: engine.play(c))
        traced = outcome_or_error(lambda c=cards: engine.play(c, explain=True))
        assert fast == traced, cards
        kinds.add(type(fast[0]).__name__)
        if isinstance(fast[0], str):
            continue
        r = engine.play(cards)
        try:
            returns = engine.settle(r, bets)
        except engine.EngineError:
            continue  # a rule read a card the round lacks: the key path raises it too
        used, key = engine.deal_at(cards, 0, True)
        assert used == r.cards_used and key[0] == r.outcome
        keyed, same_key = engine.deal_at(cards, 0, "round")
        assert same_key == key and outcome_or_error(lambda k=keyed: k) == fast
        settled = (returns, engine.pushed_bets(r), engine.settle_bettors(r, {"a": bets, "b": {bet: 3 for bet in bets}}))
        assert by_key.setdefault(key, settled) == settled, "one settle key, one settlement"
    assert kinds == {"list", "str"}, "both rounds and errors were met"
    assert len(by_key) >= 3  # several decisions met (the soft game has three)


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_the_fast_tally_is_the_logged_tally(name: str) -> None:
    engine = ENGINES[name]()
    whole, _ = sim.deal_shoes(engine, 11, 0, 6, log=True)
    assert sim.deal_shoes(engine, 11, 0, 6)[0] == whole and whole.shoes == 6
    limit = sim.deal_shoes(engine, 11, 0, 1)[0].rounds + 2  # a run of rounds cuts the second shoe short
    logged, _ = sim.deal_shoes(engine, 11, 0, 6, log=True, limit=limit)
    fast, _ = sim.deal_shoes(engine, 11, 0, 6, limit=limit)
    assert fast == logged and fast.rounds == limit and fast.shoes_cut == 1


@pytest.mark.parametrize("name", sorted(ENGINES))
def test_a_table_reuses_a_settlement_only_for_its_own_key_and_stakes(name: str) -> None:
    """Every round a table deals (settlements kept by settle key and stakes) settles as a round settled afresh."""
    engine = ENGINES[name]()
    bets = list(engine.BETS)
    rng = random.Random(name)
    checked = 0
    for shoe in range(8):
        stakes = {f"s{i}": {bet: rng.choice([1, 5, "2.5", 100]) for bet in rng.sample(bets, rng.randint(1, len(bets)))}
                  for i in range(3)}
        exact = engine.table_bets(stakes)
        table = engine.Table(f"t/{shoe}")
        for n, tr in enumerate(table.rounds(stakes)):
            fresh = engine.TableRound(tr.number, tr.cards, tr.round, exact, engine.squeeze_plan(exact))
            assert (tr.returns, tr.valid, tr.squeeze) == (fresh.returns, fresh.valid, fresh.squeeze)
            tr.returns["s0"] = {}  # a caller's change to one round never reaches the next
            checked += 1
            if n % 7 == 0:  # a server's one round at a time, bets given afresh
                single = engine.Table(f"t/{shoe}")
                assert single.deal(stakes).returns == engine.Table(f"t/{shoe}").deal(exact, engine.squeeze_plan(exact)).returns
    assert checked >= 60 and engine.SETTLED


def test_every_round_of_the_soft_game_is_the_same_inlined_and_traced() -> None:
    """Every sequence of cards the soft game can deal (cards told apart by value, every copy of the shoe), each
    of its prefixes too: the inlined round, with the soft totals it keeps in locals and refreshes after each card,
    is the traced round, fails alike when the cards run out, and its settle key decides bet x (won: 1, pushed
    by a soft dealer: 2) as settling the round does."""
    engine = inline_engine(SOFT)
    by_value: dict = {}
    for code in engine.shoe_cards(engine.DECKS):
        by_value.setdefault(engine.CARD_VALUE[code], []).append(code)
    classes = [sorted(codes) for _value, codes in sorted(by_value.items())]
    seen = {"rounds": 0, "errors": 0, "soft pushes": 0}

    def walk(cards: list[str], used: list[int]) -> None:
        if cards:
            fast = outcome_or_error(lambda: engine.play(cards))
            assert fast == outcome_or_error(lambda: engine.play(cards, explain=True)), cards
            if isinstance(fast[0], str):
                seen["errors"] += 1
            else:
                seen["rounds"] += 1
                used_cards, key = engine.deal_at(cards, 0, True)
                returns = engine.settle(engine.play(cards), {"x": 1})["x"]
                assert (used_cards, key[0]) == (fast[2], fast[1]) and {0: 0, 1: 2, 2: 1}[key[1]] == returns, cards
                seen["soft pushes"] += key[1] == 2
                return
        for c, codes in enumerate(classes):
            if used[c] < len(codes):
                used[c] += 1
                walk(cards + [codes[used[c] - 1]], used)
                used[c] -= 1

    walk([], [0] * len(classes))
    assert seen["rounds"] > 500 and seen["errors"] > 100 and seen["soft pushes"] > 10, seen


def test_the_inlined_soft_round_totals_each_hand_once_a_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """deal_at works a soft hand's total out once after the deal and once after each card it draws (not again
    for every rule that reads it), and outcome_of once a hand for all its outcomes."""
    engine = inline_engine(SOFT)
    calls: list[tuple[str, ...]] = []
    best_total = engine.best_total

    def counted(cards):
        calls.append(tuple(cards))
        return best_total(cards)

    monkeypatch.setattr(engine, "best_total", counted)  # what deal_at and the rules read
    monkeypatch.setattr(engine.game, "best_total", counted)  # what the runtime's total reads
    for cards, dealer in ((["7S", "AH", "AD", "AC", "7H"], 4), (["KS", "AH", "7D"], 2), (["9S", "KH", "7D"], 2)):
        del calls[:]
        r = engine.deal_at(cards, 0)
        assert len(r.d) == dealer and calls == [(cards[0],), *(tuple(cards[1:n + 1]) for n in range(1, dealer + 1))]
        del calls[:]
        engine.outcome_of(r)
        assert calls == [tuple(r.p), tuple(r.d)]
