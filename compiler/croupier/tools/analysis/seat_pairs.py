"""How one seat's hand settles against another's (a banker, or an opponent in a pairwise game).

The first hand F follows its policy from the full deck; the second, H, from what
is left. With policies that read only their own hand the order does not change
their joint law: P(F, H) = V(F) V(H) prod_c (N_c)_(F_c + H_c) / (N)_(|F| + |H|),
symmetric in F and H. So for every policy t of the second seat,

    E_t = sum_H V_t(H) A(H),  A(H) = sum_F V(F) prod_c (N_c)_(F_c) (N_c - F_c)_(H_c) net(F, H) / (N)_(|F|+|H|)

where A does not depend on t: each threshold costs one sum. `net(F, H)` is the
second seat's net in units of its stake, by the engine's own `settle_table`; it
depends on the two hands' settlement keys only (below), so `seat_removal` weighs
the pairs key by key, without going through every pair of hands.

When a ranking reads the top card (`high card`, `high suit`, its last keys), a
hand's key holds the class of its top card and how many cards of that class it
holds: which of the class's cards they are is uniformly random (no other rule
reads it), so two hands equal up to their top cards settle by the exact law of
the highest of each one's cards of its top class (two sets from one class being
disjoint). That needs each class to be an unbroken run of the top-card order.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from croupier.tools.analysis.seat_deck import SeatDeck

UNIT_COINS = 10**9  # coins so large that no cap binds; a declared stake is then a fixed amount


class PairSettler:
    """Settles one hand against another through the engine, exactly, the top cards' law included."""

    def __init__(self, deck: SeatDeck, banker_game: bool, stake: str | None) -> None:
        self.d = deck
        e = self.e = deck.e
        self.banker_game = banker_game
        self.stake = stake
        self.top_at: dict[str, int | None] = {}  # each type: where its top-card keys start in a strength
        for name, keys in e.TIEBREAK.items():
            at = [i for i, k in enumerate(keys) if k in ("high card", "high suit")]
            self.top_at[name] = 1 + at[0] if at else None
        place = deck.physical_order()
        self.levels = [sorted((code for r in ranks for code in deck.spellings(r)), key=place.get)
                       for ranks in deck.classes]  # each class's codes, weakest first
        self.place = place
        self.class_rank = {c: i for i, c in enumerate(sorted(range(deck.k), key=lambda c: place[self.levels[c][0]]))}
        self._keys: dict[tuple[int, ...], tuple] = {}
        self._interned: dict[tuple, tuple] = {}  # one object per distinct key (memos key on its id)
        self._memo: dict[tuple, tuple[Fraction, Fraction, Fraction]] = {}
        self._outcomes: dict[tuple, Fraction] = {}
        self._plain: dict[tuple, tuple[Fraction, Fraction, Fraction]] = {}  # `net` by (type, type, comparison)
        self._by_object: dict[int, int] = {}  # id of a result `net` keeps -> its index in `self.outcomes`
        self._ids: dict[tuple[int, int], int] = {}
        self._outcome_index: dict[tuple, int] = {}
        self.outcomes: list[tuple[Fraction, Fraction, Fraction]] = []
        self._laws: dict[tuple, dict] = {}

    @staticmethod
    def top_keys_last(engine) -> bool:
        """Whether every type's top-card keys (`high card`, `high suit`) come after all its other keys."""
        for keys in engine.TIEBREAK.values():
            top = [k in ("high card", "high suit") for k in keys]
            if any(top) and not all(top[top.index(True):]):
                return False
        return True

    # ---- what the settlement sees of a hand ------------------------------------------------------
    def key(self, hand: tuple[int, ...]) -> tuple:
        """Hands with one key settle alike against anything: (type, strength, None), or for a type whose
        ranking reads the top card, (type, strength before it, (class of the top card, cards of it))."""
        got = self._keys.get(hand)
        if got is None:
            v = self.d.value(hand)
            at = self.top_at[v.type]
            if at is None:
                got = (v.type, v.strength, None)
                got = self._interned.setdefault(got, got)
            else:
                top = max((c for c, n in enumerate(hand) if n), key=self.class_rank.get)
                got = (v.type, v.strength[:at], (top, hand[top]))
            got = self._keys[hand] = self._interned.setdefault(got, got)
        return got

    # ---- settling -----------------------------------------------------------------------------------
    def outcome_id(self, first: tuple[int, ...], second: tuple[int, ...]) -> int:
        """`net(first, second)` as an index into `self.outcomes` (one per distinct result)."""
        memo = (id(self.key(first)), id(self.key(second)))
        got = self._ids.get(memo)
        if got is None:
            result = self.net(first, second)  # an object `net` keeps (its id stays its own)
            got = self._by_object.get(id(result))
            if got is None:
                got = self._by_object[id(result)] = self._outcome_index.setdefault(result, len(self.outcomes))
                if got == len(self.outcomes):
                    self.outcomes.append(result)
            self._ids[memo] = got
        return got

    def net(self, first: tuple[int, ...], second: tuple[int, ...]) -> tuple[Fraction, Fraction, Fraction]:
        """The second seat's expected net in units of its stake against the first, and the probabilities
        that it wins and that it loses (a net above or below 0).

        A pair settles by the two hands' types and which is stronger (the settle scope reads types,
        `tied`, multipliers, stakes and coins, and the stakes and coins here are fixed), so the engine
        settles each (type, type, comparison) once."""
        kf, ks = self.key(first), self.key(second)
        memo = (id(kf), id(ks))
        got = self._memo.get(memo)
        if got is None:
            if kf[2] is not None and ks[2] is not None and kf[:2] == ks[:2]:
                law = self._top_outcomes(kf[2], ks[2], kf[0])
                total = sum(w for w, _xy in law.values())
                net = win = loss = Fraction(0)
                for cmp, (w, (x, y)) in law.items():
                    value = self._outcome(kf[0], ks[0], cmp, lambda x=x, y=y: self._arranged(first, second, x, y))
                    p = Fraction(w, total)
                    net += p * value
                    win += p * (value > 0)
                    loss += p * (value < 0)
                got = (net, win, loss)
            else:
                sf, ss = self.d.value(first).strength, self.d.value(second).strength
                cmp = (sf > ss) - (sf < ss)
                plain = (kf[0], ks[0], cmp)
                got = self._plain.get(plain)
                if got is None:  # one result object for every key pair that settles as this one
                    value = self._outcome(kf[0], ks[0], cmp,
                                          lambda: (self.d.codes(first, taken := {}), self.d.codes(second, taken)))
                    got = self._plain[plain] = (value, Fraction(value > 0), Fraction(value < 0))
            self._memo[memo] = got
        return got

    def _outcome(self, type_f: str, type_s: str, cmp: int, codes) -> Fraction:
        """The second seat's net when hands of these types meet and the first is stronger (cmp 1), weaker
        (-1) or tied (0); `codes()` gives two such hands, asked only the first time."""
        key = (type_f, type_s, cmp)
        got = self._outcomes.get(key)
        if got is None:
            got = self._outcomes[key] = self._settle(*codes())
        return got

    def _settle(self, codes_first: list[str], codes_second: list[str]) -> Fraction:
        e = self.e
        request: dict = {"hands": {"first": codes_first, "second": codes_second},
                         "stakes": {"first": 1, "second": 1}, "coins": {"first": UNIT_COINS, "second": UNIT_COINS}}
        if self.banker_game:
            request["banker"] = "first"
        out = e.settle_table(request)
        base = Fraction(out[self.stake]) if self.stake is not None else Fraction(1)
        return Fraction(out["net"]["second"]) / base

    def _top_outcomes(self, top_f, top_s, kind: str) -> dict[int, list]:
        """Two hands equal up to their top cards (the highest of a uniformly random set of a class's cards;
        two sets of one class are disjoint): {comparison: [ways, (level of the first's, of the second's)]}."""
        memo = (top_f, top_s, kind)
        got = self._laws.get(memo)
        if got is not None:
            return got
        keys = self.e.TIEBREAK[kind]

        def top_key(code: str) -> tuple:
            rank, suit = self.place[code]
            return tuple(rank if k == "high card" else suit for k in keys if k in ("high card", "high suit"))

        got = {}
        for (x, y), ways in self._top_law(top_f, top_s).items():
            kx, ky = top_key(self.levels[top_f[0]][x]), top_key(self.levels[top_s[0]][y])
            entry = got.setdefault((kx > ky) - (kx < ky), [0, (x, y)])
            entry[0] += ways
        self._laws[memo] = got
        return got

    def _arranged(self, first, second, x: int, y: int) -> tuple[list[str], list[str]]:
        """Codes of two hands with their top cards at levels x and y of their top classes."""
        top_f, top_s = self.key(first)[2], self.key(second)[2]
        taken: dict[str, int] = {}
        tops = self._arrange(top_f, x, top_s, y, taken)
        codes_f = self.d.codes(tuple(0 if c == top_f[0] else n for c, n in enumerate(first)), taken) + tops[0]
        codes_s = self.d.codes(tuple(0 if c == top_s[0] else n for c, n in enumerate(second)), taken) + tops[1]
        return codes_f, codes_s

    def _top_law(self, top_f, top_s) -> dict[tuple[int, int], int]:
        """{(level of the first's top card, level of the second's): ways}, levels from 0 (weakest)."""
        (cf, a), (cs, b) = top_f, top_s
        d = self.d.held[self.levels[cf][0]]  # copies of each card (alike within a class)
        lf, ls = len(self.levels[cf]), len(self.levels[cs])
        if cf == cs:
            def both(x: int, y: int) -> int:  # ways with every card of the first at levels <= x, second <= y
                if x < 0 or y < 0:
                    return 0
                if x >= y:
                    return comb(d * (y + 1), b) * comb(max(0, d * (x + 1) - b), a)
                return comb(d * (x + 1), a) * comb(max(0, d * (y + 1) - a), b)

            law = {(x, y): both(x, y) - both(x - 1, y) - both(x, y - 1) + both(x - 1, y - 1)
                   for x in range(lf) for y in range(ls)}
        else:
            ds = self.d.held[self.levels[cs][0]]

            def top(n: int, x: int, copies: int) -> int:
                return comb(copies * (x + 1), n) - comb(copies * x, n)

            law = {(x, y): top(a, x, d) * top(b, y, ds) for x in range(lf) for y in range(ls)}
        return {xy: w for xy, w in law.items() if w}

    def _arrange(self, top_f, x: int, top_s, y: int, taken: dict[str, int]) -> tuple[list[str], list[str]]:
        """Cards of the two hands' top classes with the first's highest at level x and the second's at y,
        each hand's others as low as they go (the hand with the lower top card chooses first), recorded in
        `taken`."""
        out: list[list[str]] = [[], []]
        for (c, n), level, who in sorted([(top_f, x, 0), (top_s, y, 1)], key=lambda item: (item[1], item[2])):
            codes = self.levels[c]
            picked = [codes[level]]
            taken[codes[level]] = taken.get(codes[level], 0) + 1
            for code in codes[:level + 1]:
                while len(picked) < n and taken.get(code, 0) < self.d.held[code]:
                    picked.append(code)
                    taken[code] = taken.get(code, 0) + 1
            out[who] = picked
        return out[0], out[1]
