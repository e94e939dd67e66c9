"""Ten-and-a-half engines: exhaustive typing, ranking order, settlement and wild properties."""

from __future__ import annotations

import itertools
import tempfile
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from conftest import compile_engine
from hypothesis import given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
SPECS = ("ten_and_a_half", "ten_and_a_half_banker")


@cache
def engine_for(name: str):
    """The engine of one spec, compiled the first time a test asks (not when the file is collected: every
    xdist worker collects every file), once a process. Only the engine: these tests are about what it does,
    not the static checks, cards and analysis a build adds (1.2 s of the first test's CPU)."""
    return compile_engine(ROOT / "spec" / f"{name}.rules", checks=False)


@cache
def face_with_a_two():
    """Ten-and-a-half whose class `face` also holds the 2s: a class across values, so that two substitutions
    of equal total can differ in their faces (two jokers as 2 and 2, or as A and 3)."""
    text = (ROOT / "spec" / "ten_and_a_half.rules").read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "face_with_a_two.rules"
        path.write_text(text.replace(' = J Q K  [004 人牌]', ' = J Q K 2  [004 人牌]'), encoding="utf-8")
        return compile_engine(path, checks=False)


def deck() -> list[str]:
    return list(engine_for("ten_and_a_half").CARD_CODES)


def value_classes(engine) -> list[list[str]]:
    """The deck's cards grouped by what a hand type can see: value, class membership, wildness."""
    groups: dict[tuple, list[str]] = {}
    for code in engine.CARD_CODES:
        rank = engine.RANK_OF[code]
        key = (engine.VALUE.get(rank), rank in engine.WILD_RANKS,
               tuple(rank in members for members in engine.CLASSES.values()), rank if rank in engine.WILD_RANKS else "")
        groups.setdefault(key, []).append(code)
    return list(groups.values())


def substitutions(engine, cards, seen: set | None = None):
    """Every fixed choice for a hand's wild cards: (choice, facts of the substituted hand). With `seen`, a
    substituted hand already in it (the same ranks in the same order, wild or not alike: the same facts) is
    left out, and each one given is added."""
    ranks = [engine.RANK_OF[c] for c in cards]
    wild_at = [i for i, r in enumerate(ranks) if r in engine.WILD_RANKS]
    for choice in itertools.product(engine.WILD_CHOICES, repeat=len(wild_at)):
        subbed = list(ranks)
        for i, r in zip(wild_at, choice):
            subbed[i] = r
        if seen is not None:
            key = (tuple(subbed), bool(wild_at))
            if key in seen:
                continue
            seen.add(key)
        yield choice, engine.HandFacts(subbed, bool(wild_at))


@pytest.mark.parametrize("name", SPECS)
def test_every_hand_of_the_deck_gets_exactly_one_type(name):
    engine = engine_for(name)
    classes = value_classes(engine)
    checked = 0
    seen: set = set()  # substituted hands typed already (a third of them come again from another hand)
    for size in range(1, 6):
        for combo in itertools.combinations_with_replacement(range(len(classes)), size):
            counts = {i: combo.count(i) for i in set(combo)}
            if any(counts[i] > len(classes[i]) for i in counts):
                continue
            cards = [c for i in sorted(counts) for c in classes[i][:counts[i]]]
            for choice, facts in substitutions(engine, cards, seen):
                matching = [t for t, test in engine.TYPE_TESTS if test(facts)]
                assert len(matching) == 1, (cards, choice, matching)
            value = engine.evaluate(cards)
            assert value.type in engine.TYPES
            checked += 1
    assert checked > 1000


hands_strategy = st.lists(st.deferred(lambda: st.sampled_from(deck())), min_size=2, max_size=10, unique=True)


@settings(max_examples=300, deadline=None)
@given(hands_strategy, st.data())
def test_ranking_is_a_total_order_on_hands_that_did_not_bust(cards, data):
    engine = engine_for("ten_and_a_half")
    cut = data.draw(st.integers(min_value=1, max_value=len(cards) - 1))
    a, b = cards[:cut][:5], cards[cut:][:5]
    va, vb = engine.evaluate(a), engine.evaluate(b)
    if "bust" in (va.type, vb.type):
        return
    assert va.strength != vb.strength, (a, b)
    assert (va.strength > vb.strength) != (vb.strength > va.strength)


@cache
def table_strategy(banker_game: bool):
    """Tables of 2 to 5 players dealt from one shuffled deck, with coins, and a banker or stakes. Made once
    for each kind of game: Hypothesis reads a composite strategy's source when one is made (3 ms).

    The cards dealt are the first places of a Fisher-Yates shuffle of the deck drawn as far as the hands
    reach (at most 25 of its 42 cards): any sequence of distinct cards, as a whole permutation gives, without
    drawing the places no hand reads (`st.permutations` draws all 41, half of the test's time)."""
    @st.composite
    def build(draw):
        n = draw(st.integers(min_value=2, max_value=5))
        sizes = [draw(st.integers(min_value=1, max_value=5)) for _ in range(n)]
        cards = list(deck())
        for i in range(sum(sizes)):
            j = draw(st.integers(min_value=i, max_value=len(cards) - 1))
            cards[i], cards[j] = cards[j], cards[i]
        hands, pos = {}, 0
        for i, size in enumerate(sizes):
            hands[f"p{i + 1}"] = list(cards[pos:pos + size])
            pos += size
        coins = {p: draw(st.integers(min_value=0, max_value=5000)) for p in hands}
        table = {"hands": hands, "coins": coins}
        if banker_game:
            table["banker"] = draw(st.sampled_from(list(hands)))
        else:
            table["stakes"] = {p: draw(st.integers(min_value=0, max_value=500)) for p in hands}
        return table
    return build()


@pytest.mark.parametrize("name", SPECS)
@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_settlement_never_moves_more_than_a_loser_holds_and_nets_sum_to_zero(name, data):
    engine = engine_for(name)
    table = data.draw(table_strategy(name.endswith("banker")))
    answer = engine.settle_table(table)
    paid = {p: Fraction(0) for p in table["hands"]}
    for t in answer["transfers"]:
        amount = Fraction(str(t["amount"]))
        assert amount > 0
        paid[t["from"]] += amount
    for p, total in paid.items():
        assert total <= table["coins"][p], (p, total, table)
    assert sum(Fraction(str(v)) for v in answer["net"].values()) == 0


@settings(max_examples=300, deadline=None)
@given(st.lists(st.deferred(lambda: st.sampled_from([c for c in deck() if c not in ("BJ", "SJ")])), min_size=0, max_size=4, unique=True),
       st.sampled_from([["BJ"], ["SJ"], ["BJ", "SJ"]]))
def test_wild_substitution_is_never_worse_than_any_fixed_choice(plain_cards, jokers):
    engine = engine_for("ten_and_a_half")
    cards = (plain_cards + jokers)[:5]
    chosen = engine.evaluate(cards)
    best = (-engine.TYPE_INDEX[chosen.type], chosen.points)
    for _choice, facts in substitutions(engine, cards):
        kind = engine.classify(facts)
        assert (-engine.TYPE_INDEX[kind], facts.total) <= best


def test_play_hand_shows_the_substitution(capsys):
    from croupier.cli.main import main

    assert main(["play", str(ROOT / "spec" / "ten_and_a_half.rules"), "--hand", "JS QH BJ"]) == 0
    out = capsys.readouterr().out
    assert "BJ as 9" in out and "plain" in out


def test_jokers_are_face_cards_in_the_banker_game():
    engine = engine_for("ten_and_a_half_banker")
    value = engine.evaluate(["BJ", "SJ", "JS", "QH", "KD"])
    assert value.type == "five_faces" and value.points == Fraction(5, 2) and not value.wild


def plain_top_card(engine, codes):
    """The top card as the runtime found it before it kept each card's place: the card order, then the suit."""
    return max(codes, key=lambda c: (engine.CARD_STRENGTH.get(engine.RANK_OF[c], 0),
                                     engine.SUIT_STRENGTH.get(c[-1], 0) if c not in engine.JOKERS else 0))


def plain_evaluation(engine, cards, facts_of):
    """(type, points, substitution) as the runtime found them before it kept the kinds of hands' facts: every
    substitution of combinations_with_replacement(WILD_TRIES) in turn, its hand's facts classified, the first
    best kept. `facts_of` gives (score by WILD_BEST_BY, kind, total) of sorted substituted ranks (the facts read
    a hand's ranks as a multiset: count, sum, class counts)."""
    ranks = [engine.RANK_OF[c] for c in cards]
    wild_at = [i for i, c in enumerate(cards) if engine.is_wild(c)]
    best = None
    for choice in itertools.combinations_with_replacement(getattr(engine, "WILD_TRIES", ()), len(wild_at)):
        subbed = list(ranks)
        for i, r in zip(wild_at, choice):
            subbed[i] = r
        score, kind, total = facts_of(tuple(sorted(subbed)), bool(wild_at))
        if kind is not None and (best is None or score > best[0]):
            best = (score, kind, total, tuple((i, cards[i], r) for i, r in zip(wild_at, choice)))
    return best[1:]


@pytest.mark.parametrize("name", ("ten_and_a_half_banker", "sette_e_mezzo", "face_with_a_two"))
def test_evaluate_gives_the_plain_evaluation_of_every_hand_of_the_deck(name, monkeypatch):
    """The runtime keeps each kind found by its hand's count, wildness, units and class marks (KINDS), and each
    card's top-card place. In a game without wild cards, one with a wild card and ten-and-a-half's two wild
    jokers with a class across values (ten-and-a-half's own deck and rules but for the 2s: the same work, and
    substitutions of equal total that differ in their class, which ten-and-a-half's J Q K alone never give),
    every hand of up to five cards (one per multiset of value classes) gets the type,
    points (of the same type, int or Fraction), substitution and top card of the plain evaluation, from a store
    that starts empty and fills (each kind found once, then read back); and every tenth hand again from an empty store
    cleared whenever it holds 50 kinds."""
    engine = face_with_a_two() if name == "face_with_a_two" else engine_for(name)
    classes = value_classes(engine)
    plain: dict = {}

    def facts_of(ranks, wild):
        got = plain.get((ranks, wild))
        if got is None:
            facts = engine.HandFacts(list(ranks), wild)
            kind = engine.classify(facts)
            score = kind and tuple(-engine.TYPE_INDEX[kind] if k == "type" else facts.total for k in engine.WILD_BEST_BY)
            got = plain[(ranks, wild)] = (score, kind, facts.total)
        return got

    hands = []
    for size in range(1, 6):
        for combo in itertools.combinations_with_replacement(range(len(classes)), size):
            counts = {i: combo.count(i) for i in set(combo)}
            if all(counts[i] <= len(classes[i]) for i in counts):
                hands.append([c for i in sorted(counts) for c in classes[i][:counts[i]]])
    expected = [plain_evaluation(engine, cards, facts_of) for cards in hands]
    for most, step in ((engine.MAX_KINDS, 1), (50, 10)):
        monkeypatch.setattr(engine.game, "MAX_KINDS", most)
        engine.KINDS.clear()
        for cards, (kind, total, substitution) in zip(hands[::step], expected[::step]):
            value = engine.evaluate(cards)
            assert (value.type, value.points, type(value.points), value.substitution) == \
                (kind, total, type(total), substitution), cards
            assert value.wild == bool(substitution) and engine.top_card(cards) == plain_top_card(engine, cards)
        assert 0 < len(engine.KINDS) <= most
    assert len(hands) > 1000
