"""Hands of a seat game whose type changes between two versions, counted over every hand the deck makes.

Every hand of every size the versions allow is a multiset of cards; ranks that
neither version tells apart (same value, classes and wildness in both) are one
class, and a multiset of classes stands for the product of binomial counts of
real hands. Each is evaluated by both engines (`evaluate`, wild substitution
included); a hand counts when its type changes, or when its type's place in the
order of types (its rank among hand types) changes.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb


def rank_key(engine, rank: str) -> tuple:
    classes = tuple(sorted(name for name, members in engine.CLASSES.items() if rank in members))
    return (engine.VALUE.get(rank), classes, rank in engine.WILD_RANKS)


def compare_hands(old, new) -> dict:
    """{"hands", "changed" (share), "moves" {(old type, new type): share}, "example" {…}} of two engines."""
    if (tuple(old.RANKS), tuple(old.SUITS), tuple(old.JOKERS), old.DECKS) != \
            (tuple(new.RANKS), tuple(new.SUITS), tuple(new.JOKERS), new.DECKS):
        return {"comparable": False, "reason": "the two versions deal from other cards"}
    groups: dict[tuple, list[str]] = {}
    for rank in tuple(old.RANKS) + tuple(old.JOKERS):
        if (rank in old.VALUE or rank in old.WILD_RANKS) and (rank in new.VALUE or rank in new.WILD_RANKS):
            groups.setdefault((rank_key(old, rank), rank_key(new, rank)), []).append(rank)
    classes = list(groups.values())
    copies = [sum(old.DECKS * (1 if r in old.JOKERS else len(old.SUITS)) for r in ranks) for ranks in classes]
    low = max(old.HAND_SIZE[0], new.HAND_SIZE[0])
    high = min(old.HAND_SIZE[1], new.HAND_SIZE[1])
    total = changed = 0
    moves: dict = {}
    example = None
    for size in range(low, high + 1):
        for ms in combinations_with_replacement(range(len(classes)), size):
            ways = 1
            for c in set(ms):
                ways *= comb(copies[c], ms.count(c))
            if not ways:
                continue
            codes = cards_of(old, classes, ms)
            a, b = old.evaluate(codes).type, new.evaluate(codes).type
            total += ways
            if a != b or old.TYPE_INDEX[a] != new.TYPE_INDEX.get(b, -1):
                changed += ways
                moves[(a, b)] = moves.get((a, b), 0) + ways
                example = example or {"cards": codes, "old": a, "new": b}
    return {"comparable": True, "hands": total, "changed": Fraction(changed, total) if total else Fraction(0),
            "changed_hands": changed, "moves": {k: Fraction(v, total) for k, v in sorted(moves.items())},
            "example": example}


def cards_of(engine, classes: list[list[str]], ms: tuple[int, ...]) -> list[str]:
    """Distinct real cards for a multiset of classes."""
    used: dict[str, int] = {}
    out = []
    for c in ms:
        for rank in classes[c]:
            k = used.get(rank, 0)
            limit = engine.DECKS * (1 if rank in engine.JOKERS else len(engine.SUITS))
            if k < limit:
                used[rank] = k + 1
                out.append(rank if rank in engine.JOKERS else rank + engine.SUITS[k % len(engine.SUITS)])
                break
    return out
