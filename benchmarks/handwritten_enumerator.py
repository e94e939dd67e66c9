"""A straightforward hand-written enumerator of punto banco's three outcome probabilities.

The yardstick of `bench_analysis.py`: pure Python, standard library, the third-card
rule written out by hand, every ordered deal of up to six cards from an 8-deck shoe
enumerated over the ten card values with card removal, weighted by its count.
Prints P(banker), P(player), P(tie) as exact fractions and decimals.
"""

from __future__ import annotations

import sys
from fractions import Fraction


def banker_draws(banker: int, third: int | None) -> bool:
    """The standard banker rule (player's third card value `third`, None when the player stood)."""
    if third is None:
        return banker <= 5
    if banker <= 2:
        return True
    if banker == 3:
        return third != 8
    if banker == 4:
        return 2 <= third <= 7
    if banker == 5:
        return 4 <= third <= 7
    if banker == 6:
        return 6 <= third <= 7
    return False


def enumerate_outcomes(decks: int = 8) -> dict[str, Fraction]:
    counts = [16 * decks] + [4 * decks] * 9  # value 0 (10 J Q K), then 1..9
    n = sum(counts)
    wins = {"banker": 0, "player": 0, "tie": 0}
    # every round is weighted as an ordered deal of 6 cards: unused cards are free (n-k)…
    free = [1] * 7
    for k in range(6, -1, -1):
        free[k] = 1 if k == 6 else free[k + 1] * (n - k)

    def score(p: int, b: int, w: int) -> None:
        if p > b:
            wins["player"] += w
        elif b > p:
            wins["banker"] += w
        else:
            wins["tie"] += w

    for p1 in range(10):
        w1 = counts[p1]
        counts[p1] -= 1
        for b1 in range(10):
            w2 = w1 * counts[b1]
            counts[b1] -= 1
            for p2 in range(10):
                w3 = w2 * counts[p2]
                counts[p2] -= 1
                for b2 in range(10):
                    w4 = w3 * counts[b2]
                    if not w4:
                        continue
                    counts[b2] -= 1
                    p = (p1 + p2) % 10
                    b = (b1 + b2) % 10
                    if p >= 8 or b >= 8:
                        score(p, b, w4 * free[4])
                    elif p <= 5:
                        for p3 in range(10):
                            w5 = w4 * counts[p3]
                            if not w5:
                                continue
                            counts[p3] -= 1
                            pf = (p + p3) % 10
                            if banker_draws(b, p3):
                                for b3 in range(10):
                                    w6 = w5 * counts[b3]
                                    if w6:
                                        score(pf, (b + b3) % 10, w6)
                            else:
                                score(pf, b, w5 * free[5])
                            counts[p3] += 1
                    elif banker_draws(b, None):
                        for b3 in range(10):
                            w5 = w4 * counts[b3]
                            if w5:
                                score(p, (b + b3) % 10, w5 * free[5])
                    else:
                        score(p, b, w4 * free[4])
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    total = free[0]
    return {k: Fraction(v, total) for k, v in wins.items()}


def main() -> int:
    decks = int(sys.argv[1]) if len(sys.argv) > 1 else 8
    for name, p in enumerate_outcomes(decks).items():
        print(f"{name}: {p.numerator}/{p.denominator} = {p.numerator * 10**12 // p.denominator / 10**12:.12f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
