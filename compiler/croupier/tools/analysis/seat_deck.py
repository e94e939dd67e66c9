"""A seat game's deck as value classes, and its hands under a threshold policy, from its engine.

Cards no rule tells apart (one value, the same card classes, both wild or both
not, and, when a ranking reads the top card, one place in the card order) form a
value class; a hand is a vector of how many cards of each class it holds. A
policy `hit while total < t` makes a hand *final* when it reaches t (once it has
the least number of cards) or the most cards allowed.

The law of final hands separates into a part that depends on the policy only and
one that depends on the deck only: a final hand H is reached by V_t(H) orderings
of its classes (those whose every proper prefix still hits), and each ordering
has probability prod_c (N_c)_(H_c) / (N)_|H| from a deck of N_c cards of class c
((n)_k the falling factorial). So V_t is counted once, without the deck, and the
same V_t serves a full deck and a deck that another hand has already drawn from.
"""

from __future__ import annotations

from fractions import Fraction


def falling(n: int, k: int) -> int:
    """n (n-1) … (n-k+1); 0 when k > n."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


class SeatDeck:
    """The value classes of an engine's deck, representative cards, and hands under a policy."""

    def __init__(self, engine, by_top: bool = False) -> None:
        e = self.e = engine
        self.low, self.high = e.HAND_SIZE
        self.by_top = by_top  # keep ranks of different places in the card order apart
        wild_cards = tuple(getattr(e, "WILD_CARDS", ()))
        self.held = {code: e.DECKS * n for code, n in e.PER_DECK.items()}  # copies of each card code
        strength = {s: len(e.SUIT_ORDER) - i for i, s in enumerate(e.SUIT_ORDER)}
        self.suits_of: dict[str, list[str]] = {}  # each plain rank's cards, strongest suit first (wild ones left out)
        copies: dict[str, int] = {}
        for code in e.CARD_CODES:
            rank = e.RANK_OF[code]
            if code in wild_cards or rank in e.JOKERS:
                copies[code if code in wild_cards else rank] = self.held[code]
                continue
            self.suits_of.setdefault(rank, []).append(code)
            copies[rank] = copies.get(rank, 0) + self.held[code]
        for codes in self.suits_of.values():
            codes.sort(key=lambda c: -strength.get(e.SUIT_OF[c], 0))
        self.wild_cards = wild_cards
        groups: dict[tuple, list[str]] = {}
        for rank, n in copies.items():
            wild = rank in e.WILD_RANKS or rank in wild_cards
            if n <= 0 or (not wild and rank not in e.VALUE):
                continue
            classes = () if wild else tuple(name for name, members in e.CLASSES.items() if rank in members)
            place = e.CARD_STRENGTH.get(e.RANK_OF.get(rank, rank), 0) if self.by_top else 0
            key = (None if wild else e.VALUE.get(rank), classes, wild, place)
            groups.setdefault(key, []).append(rank)
        self.classes = list(groups.values())  # each: the ranks (or wild card codes) of one class
        self.copies = copies
        self.counts = tuple(sum(copies[r] for r in ranks) for ranks in self.classes)
        self.cards = sum(self.counts)
        self.k = len(self.classes)
        self._values: dict[tuple[int, ...], object] = {}
        self._flat: list[list[str]] | None = None  # `_flat_codes`
        self._finals: dict[Fraction, dict[tuple[int, ...], int]] = {}
        self._ratios: dict[tuple[int, ...], tuple[int, int]] = {}  # a hand's points as (numerator, denominator > 0)

    def physical_order(self) -> dict[str, tuple[int, int]]:
        """Each card code's place in the order a ranking reads the top card by: (rank, suit) strength."""
        e = self.e
        suit = {s: len(e.SUIT_ORDER) - i for i, s in enumerate(e.SUIT_ORDER)}
        return {code: (e.CARD_STRENGTH.get(e.RANK_OF[code], 0), suit.get(e.SUIT_OF[code], 0) if e.SUIT_OF[code] else 0)
                for ranks in self.classes for rank in ranks for code in self.spellings(rank)}

    def classes_are_intervals(self) -> bool:
        """Whether every class holds an unbroken run of the top-card order (so the class of a hand's top card
        is the highest class it holds)."""
        place = self.physical_order()
        spans = []
        for ranks in self.classes:
            keys = [place[code] for rank in ranks for code in self.spellings(rank)]
            spans.append((min(keys), max(keys)))
        spans.sort()
        return all(a[1] < b[0] for a, b in zip(spans, spans[1:]))

    # ---- representative cards ---------------------------------------------------------------
    def codes(self, hand: tuple[int, ...], taken: dict[str, int] | None = None) -> list[str]:
        """Card codes for a hand (a vector of class counts), none of them beyond the copies the deck holds
        together with the codes `taken` already (a count per code, updated): each rank takes its suits
        strongest first."""
        if taken is None:  # the first n of each class's cards in that order, every copy of a code in turn
            flat = self._flat if self._flat is not None else self._flat_codes()
            out = []
            for c, n in enumerate(hand):
                if n > len(flat[c]):
                    raise ValueError(f"the deck has no more cards of class {self.classes[c]}")
                out += flat[c][:n]
            return out
        out = []
        for c, n in enumerate(hand):
            for _ in range(n):
                code = next((x for rank in self.classes[c] for x in self.spellings(rank)
                             if taken.get(x, 0) < self.held[x]), None)
                if code is None:
                    raise ValueError(f"the deck has no more cards of class {self.classes[c]}")
                taken[code] = taken.get(code, 0) + 1
                out.append(code)
        return out

    def _flat_codes(self) -> list[list[str]]:
        """Each class's card codes in the order `codes` takes them, each code as many times as the deck holds it."""
        self._flat = [[x for rank in ranks for x in self.spellings(rank) for _ in range(self.held[x])]
                      for ranks in self.classes]
        return self._flat

    def spellings(self, rank: str) -> list[str]:
        """The codes of a rank's cards, strongest suit first; a joker or a single wild card is its code."""
        return self.suits_of.get(rank, [rank])

    def value(self, hand: tuple[int, ...]):
        """The engine's evaluation of a hand (cached per vector)."""
        v = self._values.get(hand)
        if v is None:
            v = self._values[hand] = self.e.evaluate(self.codes(hand))
        return v

    # ---- hands under a policy ------------------------------------------------------------------
    def finals(self, t: Fraction) -> dict[tuple[int, ...], int]:
        """{final hand: V_t(hand)}, the orderings of its classes that a `hit while total < t` policy
        deals to the end (every hand the full deck allows)."""
        got = self._finals.get(t)
        if got is not None:
            return got
        q = Fraction(t)
        tn, td = q.numerator, q.denominator
        ratios = self._ratios
        layer: dict[tuple[int, ...], int] = {(0,) * self.k: 1}
        final: dict[tuple[int, ...], int] = {}
        for size in range(1, self.high + 1):
            nxt: dict[tuple[int, ...], int] = {}
            for hand, v in layer.items():
                for c in range(self.k):
                    if hand[c] >= self.counts[c]:
                        continue
                    grown = hand[:c] + (hand[c] + 1,) + hand[c + 1:]
                    reached = size >= self.high
                    if not reached and size >= self.low:  # points >= t, as integers
                        r = ratios.get(grown)
                        if r is None:
                            p = self.value(grown).points
                            r = ratios[grown] = (p.numerator, p.denominator)
                        reached = r[0] * td >= tn * r[1]
                    if reached:
                        final[grown] = final.get(grown, 0) + v
                    else:
                        nxt[grown] = nxt.get(grown, 0) + v
            layer = nxt
        self._finals[t] = final
        return final

    def weight(self, hand: tuple[int, ...], removed: tuple[int, ...] | None = None) -> int:
        """prod_c (N_c - removed_c)_(hand_c): how many card sequences of the hand's class order the deck
        (less the cards `removed`) holds."""
        out = 1
        for c, n in enumerate(hand):
            if n:
                out *= falling(self.counts[c] - (removed[c] if removed else 0), n)
        return out

    def law(self, t: Fraction) -> dict[tuple[int, ...], Fraction]:
        """The exact probability of each final hand from the full deck under threshold t."""
        n = self.cards
        return {h: Fraction(v * self.weight(h), falling(n, sum(h))) for h, v in self.finals(t).items()}

    def thresholds(self) -> list[Fraction]:
        """Every threshold that can matter: steps of the smallest card value, up to one step past the
        highest total of a smallest dealt hand (two cards, or the least a hand holds) that is not of the
        lowest type. Only hands the deck can deal are tried."""
        e = self.e
        values = [Fraction(v) for v in e.VALUE.values() if v]
        step = min(values) if values else Fraction(1)
        for v in values:
            while (v / step).denominator != 1:
                step /= 2
        size = min(max(self.low, 2), self.high)
        top = step
        for hand in self._hands_of_size(size):
            v = self.value(hand)
            if v.type != e.TYPES[-1]:
                top = max(top, Fraction(v.points))
        return [step * k for k in range(1, int(top / step) + 2)]

    def _hands_of_size(self, size: int, start: int = 0, hand: tuple[int, ...] | None = None):
        hand = (0,) * self.k if hand is None else hand
        if size == 0:
            yield hand
            return
        for c in range(start, self.k):
            if hand[c] < self.counts[c]:
                yield from self._hands_of_size(size - 1, c, hand[:c] + (hand[c] + 1,) + hand[c + 1:])
