"""Decks as data: declared decks (a known deck less ranks or cards, ranks by suits, card by card, jokers),
the shoe made of them, single cards valued apart from their rank, and the engine dealing from them."""

from __future__ import annotations

from fractions import Fraction

import pytest

from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.semantics.resolve import resolve_file

ROUND = """
hand p "P"
hand b "B"
deal p, b, p, b
outcome pw "P wins" when total(p) > total(b)
outcome bw "B wins" when total(b) >= total(p)
bet p "P"
    wins when outcome is pw, pays 1 to 1
"""


def game_of(head: str, rest: str = ROUND):
    g, diags, _ = resolve_file("t.rules", 'game g "G"\n' + head + rest)
    return g, [d for d in diags if d.is_error]


def test_standard_deck_without_ranks_and_a_card() -> None:
    g, errors = game_of("deck short = standard52 without 8 9 10 KD\nshoe 6 decks of short\n"
                        "value A = 1, 2..7 = pip, J Q K = 0\ntotal sum mod 10\n")
    assert errors == []
    assert g.shoe.ranks == ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K")
    assert "KD" not in g.shoe.cards and "KH" in g.shoe.cards and "8S" not in g.shoe.cards
    assert len(g.shoe.cards) == 52 - 12 - 1
    assert g.shoe.size == 6 * 39
    assert g.shoe.rank_copies("K") == 6 * 3


def test_ranks_by_suits_named_by_the_spec() -> None:
    g, errors = game_of('deck italian40 "Italian deck" = ranks A 2..7 J Q K, suits C D S B\n'
                        'suit B "Batons"\nshoe 1 deck of italian40\nvalue A = 1, 2..7 = pip, J Q K = 0\n'
                        "total sum mod 10\n")
    assert errors == []
    assert g.shoe.suits == ("C", "D", "S", "B") and len(g.shoe.cards) == 40
    assert g.shoe.cards[:4] == ("AC", "AD", "AS", "AB")
    assert g.suit_labels["B"].get("en") == "Batons"


def test_a_deck_listed_card_by_card_with_jokers_and_several_decks() -> None:
    g, errors = game_of("deck tiny = cards AS 10D KH KH + jokers JK\nshoe 3 decks of tiny\n"
                        "value A = 1, 10 = 0, K = 0, JK = 0\ntotal sum mod 10\n")
    assert errors == []
    assert g.shoe.cards == ("AS", "10D", "KH", "KH", "JK")
    assert g.shoe.copies("KH") == 6 and g.shoe.copies("JK") == 3 and g.shoe.size == 15


def test_single_cards_have_values_of_their_own() -> None:
    g, errors = game_of("shoe 1 deck of standard52\nvalue A = 1, 2..9 = pip, 10 J Q K = 0, KD = 5, 10H = pip\n"
                        "total sum mod 10\n")
    assert errors == []
    assert g.card_values == {"KD": Fraction(5), "10H": Fraction(10)}
    engine = load_engine(emit_engine(g, "t.rules"), "t_deck")
    r = engine.play(["KD", "2S", "10H", "3S"])
    assert engine.total(r.p) == 5  # 5 + 10, mod 10
    assert engine.total(r.b) == 5


@pytest.mark.parametrize("head, code, needle", [
    ("deck d = ranks A 2, suits coppe S\nshoe 1 deck of d\n", "E0134", "suit `coppe` is not one letter"),
    ("deck d = standard52 without A..K\nshoe 1 deck of standard52\n", "E0135", "holds no card"),
    ("deck d = standard52 + jokers KD\nshoe 1 deck of d\n", "E0122", "joker `KD`"),
    ("deck d = piquet32 without 2\nshoe 1 deck of standard52\n", "E0120", "unknown deck `piquet32`"),
    ("deck standard52 = cards AS\nshoe 1 deck of standard52\n", "E0103", "built-in deck"),
])
def test_bad_decks_are_diagnosed(head: str, code: str, needle: str) -> None:
    _g, errors = game_of(head + "value A = 1, 2..9 = pip, 10 J Q K = 0\ntotal sum mod 10\n")
    assert any(d.code == code and needle in d.message for d in errors), errors


def test_the_engine_deals_and_checks_copies_of_a_declared_deck() -> None:
    g, errors = game_of("deck italian40 = ranks A 2..7 J Q K, suits C D S B\nshoe 2 decks of italian40\n"
                        "value A = 1, 2..7 = pip, J Q K = 0\ntotal sum mod 10\n")
    assert errors == []
    engine = load_engine(emit_engine(g, "t.rules"), "t_italian")
    assert engine.play("7B 2C 2D AS").outcome == "pw"
    with pytest.raises(engine.InvalidCards, match="8S"):
        engine.play("8S 2C 2D AS")
    with pytest.raises(engine.InvalidCards, match="holds it 2 times"):
        engine.play("7B 7B 7B AS")
    shoe = engine.Shoe(seed=1)
    assert sorted(shoe.cards) == sorted(c for c in engine.CARD_CODES for _ in range(2))
