"""Hypothesis properties of baccarat rounds dealt from random 8-deck shoes.

The cards of each example are drawn without replacement from a real 8-deck
shoe (416 cards), in dealing order (`dealt`). The properties are checked against the
round the engine returns and against the JSON record of the `play --jsonl`
contract.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

SHOE = [r + s for r in ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K") for s in "SHCD"] * 8
POINTS = {"A": 1, "J": 0, "Q": 0, "K": 0, "10": 0} | {str(n): n for n in range(2, 10)}


def dealt(codes: tuple[int, ...]) -> list[str]:
    """The cards dealt in order from the shoe, each code picking one of the cards still in it (the first
    card from all 416, the next from the 415 left, ...): every sequence of distinct positions in the shoe
    has exactly one sequence of codes, so these are draws without replacement with no duplicate to reject."""
    left = list(SHOE)
    return [left.pop(code) for code in codes]


# Six cards are always enough for a baccarat round; sometimes give more to be left over. The codes of n
# cards are drawn as a tuple of n bounded integers (made once per length): the same sequences as a list of
# distinct shoe indices, generated at about a third of the cost of Hypothesis's `unique=True` lists.
CODES = {n: st.tuples(*(st.integers(0, len(SHOE) - 1 - i) for i in range(n))) for n in range(6, 10)}
shoe_cards = st.integers(6, 9).flatmap(CODES.__getitem__).map(dealt)


def points(cards: list[str]) -> int:
    return sum(POINTS[c[:-1]] for c in cards) % 10


def test_the_codes_deal_the_whole_shoe_without_replacement():
    """Codes of all 416 cards deal every card of the shoe once: all zeros in shoe order, the largest codes
    from the back."""
    assert dealt((0,) * len(SHOE)) == SHOE
    assert dealt(tuple(range(len(SHOE) - 1, -1, -1))) == SHOE[::-1]
    assert dealt((5, 5, 0)) == [SHOE[5], SHOE[6], SHOE[0]]


@settings(max_examples=400, deadline=None)
@given(shoe_cards)
def test_at_most_three_cards_per_side(baccarat, cards):
    r = baccarat.play(cards)
    assert 2 <= len(r.player) <= 3
    assert 2 <= len(r.banker) <= 3


@settings(max_examples=400, deadline=None)
@given(shoe_cards)
def test_no_third_card_after_a_natural(baccarat, cards):
    r = baccarat.play(cards)
    natural = points(cards[0:3:2]) >= 8 or points(cards[1:4:2]) >= 8
    assert baccarat.record(r)["natural"] is natural
    if natural:
        assert len(r.player) == len(r.banker) == 2
        assert r.cards_used == 4


@settings(max_examples=400, deadline=None)
@given(shoe_cards)
def test_cards_used_counts_the_dealt_cards(baccarat, cards):
    r = baccarat.play(cards)
    thirds = (len(r.player) - 2) + (len(r.banker) - 2)
    assert r.cards_used == 4 + thirds
    assert sorted(r.player + r.banker) == sorted(cards[:r.cards_used]), "exactly the first cards_used cards are dealt"


@settings(max_examples=400, deadline=None)
@given(shoe_cards)
def test_player_third_card_comes_before_the_bankers(baccarat, cards):
    r = baccarat.play(cards)
    assert r.player[:2] == [cards[0], cards[2]]
    assert r.banker[:2] == [cards[1], cards[3]]
    position = 4
    if len(r.player) == 3:
        assert r.player[2] == cards[position], "the player's third card is the fifth card dealt"
        position += 1
    if len(r.banker) == 3:
        assert r.banker[2] == cards[position], "the banker's third card follows the player's"


@settings(max_examples=400, deadline=None)
@given(shoe_cards)
def test_totals_are_the_sum_mod_10(baccarat, cards):
    r = baccarat.play(cards)
    rec = baccarat.record(r)
    assert rec["player_total"] == points(r.player)
    assert rec["banker_total"] == points(r.banker)
    pt, bt = rec["player_total"], rec["banker_total"]
    assert rec["outcome"] == ("player" if pt > bt else "banker" if bt > pt else "tie")


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32))
def test_a_seeded_shoe_deals_its_cards_in_order(baccarat, seed):
    """Rounds dealt from `Shoe(seed)` take the next cards of the shoe in dealing order, and the
    same seed deals the same rounds."""
    shoe, again = baccarat.Shoe(seed), baccarat.Shoe(seed)
    assert len(shoe.cards) == 416
    for _ in range(5):
        start = shoe.position
        r, _ = shoe.deal_round()
        in_order = [r.player[0], r.banker[0], r.player[1], r.banker[1]] + r.player[2:] + r.banker[2:]
        assert shoe.cards[start:shoe.position] == in_order
        assert shoe.position - start == r.cards_used
        twin, _ = again.deal_round()
        assert (twin.player, twin.banker) == (r.player, r.banker)
