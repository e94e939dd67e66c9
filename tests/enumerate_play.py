"""Brute force through an engine's own `play`: every ordered deal of a small shoe, with its exact probability.

A round is dealt from the cards in order; when `play` says the cards ran out (`NotEnoughCards`), every card
left in the shoe is tried as the next one, each with its share of the probability. So the rounds listed are
exactly the rounds the engine plays, weighted as a shuffled shoe deals them, with no knowledge of the rules:
the reference the exact analysis is held to.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from fractions import Fraction


def rounds(engine, shoe: list[str]) -> Iterator[tuple[object, Fraction]]:
    """(round, probability) for every way the engine's round can be dealt from `shoe` (a list of card codes,
    copies repeated), the probabilities summing to 1."""
    left = Counter(shoe)
    dealt: list[str] = []

    def deeper(p: Fraction, total: int) -> Iterator[tuple[object, Fraction]]:
        try:
            yield engine.play(dealt), p
            return
        except engine.NotEnoughCards:
            pass
        except engine.InvalidCards as exc:  # too few cards for the deal itself
            if "not enough cards" not in str(exc):
                raise
        for card in sorted(left):
            n = left[card]
            if n == 0:
                continue
            left[card] -= 1
            dealt.append(card)
            yield from deeper(p * Fraction(n, total), total - 1)
            dealt.pop()
            left[card] += 1

    yield from deeper(Fraction(1), len(shoe))


def event_probabilities(engine, shoe: list[str]) -> dict[str, Fraction]:
    """Each event's exact probability, by the engine's own test of each event on the finished round."""
    found: Counter[str] = Counter()
    for r, p in rounds(engine, shoe):
        for name, test in engine.EVENTS:
            if test(r):
                found[name] += p
    return {name: found[name] for name, _test in engine.EVENTS}


def needs_more(engine, cards: list[str]):
    """The engine's round played from `cards`, or None when it needs more cards than these."""
    try:
        return engine.play(cards)
    except engine.NotEnoughCards:
        return None
    except engine.InvalidCards as exc:  # too few cards for the deal itself
        if "not enough cards" not in str(exc):
            raise
        return None


def joint_rounds(old, new, shoe: list[str]) -> Iterator[tuple[object, object, Fraction]]:
    """(old's round, new's round, probability) for every way the one shuffled `shoe` deals both engines' rounds:
    both play the same cards in order, the order extended while either needs another card."""
    left = Counter(shoe)
    dealt: list[str] = []

    def deeper(p: Fraction, total: int) -> Iterator[tuple[object, object, Fraction]]:
        a, b = needs_more(old, dealt), needs_more(new, dealt)
        if a is not None and b is not None:
            yield a, b, p
            return
        for card in sorted(left):
            n = left[card]
            if n == 0:
                continue
            left[card] -= 1
            dealt.append(card)
            yield from deeper(p * Fraction(n, total), total - 1)
            dealt.pop()
            left[card] += 1

    yield from deeper(Fraction(1), len(shoe))
