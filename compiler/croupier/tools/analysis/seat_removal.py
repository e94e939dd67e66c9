"""Exact results of one seat against another, card removal included, without weighing every pair of hands.

The first hand F follows its policy from the full deck, the second H (threshold t)
from what F left, and with policies that read only their own hand

    P(F, H) = V(F) V_t(H) prod_c (N_c)_(F_c) (N_c - F_c)_(H_c) / (N)_(|F|+|H|)

(see `seat_pairs`). Weighing every (F, H) is quadratic in the number of hands. The
removal factor splits by inclusion–exclusion over the cards of class c that H
would take from F's (ordered b-sequences from N - a cards, by how many of the b
places fall among the a removed ones):

    (N - a)_b = sum_j (-1)^j C(b, j) (a)_j (N - j)_(b - j),   j = 0 .. min(a, b)

so that, for a vector j <= F, H of removed-and-retaken counts,

    P(F, H) (N)_(|F|+|H|) = sum_j  [V(F) prod_c (N_c)_(F_c) (F_c)_(j_c)]  [V_t(H) prod_c (-1)^(j_c) C(H_c, j_c) (N_c - j_c)_(H_c - j_c)].

The first bracket is summed once per (j, size of F, settlement key of F): G(j, kF).
For a second hand H, its result is sum over j <= H of its bracket times
R(j, kH) = sum_kF G(j, kF) net(kF, kH), and R is computed once per (j, key of H).
The work grows with the number of sub-vectors j of the hands (pruned to those
below some first hand) and of settlement keys, not with the product of the hand
counts. Every weight is an integer; the results are exact Fractions.

The settlement of two keys needs one pair of hands the deck can deal together.
A pair of keys no two such hands realise weighs exactly 0 in total (it is a sum of
pair probabilities), so its outcome does not matter; a key pair whose dealable
hands a short search does not find is weighed apart as "pending", and since every
pending pair's weight is >= 0, a pending total of 0 proves each one's is 0.
Otherwise the weighing is redone with an exhaustive search.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

from croupier.tools.analysis.seat_deck import SeatDeck, falling
from croupier.tools.analysis.seat_pairs import PairSettler

SEARCH = 24  # pairs of member hands tried per key pair before it is weighed as pending
MAX_TERMS = 40_000_000  # (sub-vector, key) terms weighed at most; beyond, the pair figures are not given


class NotGiven(Exception):
    """The pair figures cannot be given; the message says why."""


class TooLarge(NotGiven):
    """The weighing would exceed MAX_TERMS terms (no spec at hand limit 13 comes near)."""


class _Keys:
    """Member hands of each settlement key, and the least count of each class over them."""

    def __init__(self, settler: PairSettler, hands) -> None:
        self.members: dict[int, list[tuple[int, ...]]] = {}
        self.objects: dict[int, tuple] = {}
        for h in hands:
            key = settler.key(h)
            self.members.setdefault(id(key), []).append(h)
            self.objects[id(key)] = key
        for hs in self.members.values():
            hs.sort(key=sum)
        self.least = {k: tuple(map(min, zip(*hs))) for k, hs in self.members.items()}
        self.order = list(self.members)  # the keys, numbered
        self.index = {k: i for i, k in enumerate(self.order)}


class RemovalWeigher:
    """The second seat's results against the first, key pair by key pair, weighed by inclusion–exclusion."""

    def __init__(self, deck: SeatDeck, settler: PairSettler, t_first: Fraction, seconds,
                 exhaustive: bool = False) -> None:
        self.d, self.s = deck, settler
        self.firsts = deck.finals(t_first)
        self.seconds = seconds
        self.exhaustive = exhaustive
        self.kf = _Keys(settler, self.firsts)
        self.kh = _Keys(settler, seconds)
        self.pending = None  # the outcome id shared by the key pairs left unresolved
        self._sigs: dict[tuple, int] = {}
        self._rows: dict[int, list[int]] = {}
        self.terms = 0
        counts = deck.counts
        # a vector j is numbered sum_c j_c * stride_c (mixed radix, digit c in 0 .. N_c), so that a sub-vector
        # is one addition away from another and the memos are keyed by small ints rather than tuples
        self.stride = [1] * len(counts)
        for c in range(1, len(counts)):
            self.stride[c] = self.stride[c - 1] * (counts[c - 1] + 1)
        # per class c and count a: [(j stride_c, (a)_j)] for the first hand, [(j stride_c, (-1)^j C(a, j)
        # (N_c - j)_(a - j))] for the second, j = 0 .. a
        self.alpha = [[[(j * s, falling(a, j)) for j in range(a + 1)] for a in range(m + 1)]
                      for m, s in zip(counts, self.stride)]
        self.beta = [[[(j * s, (-1) ** j * comb(a, j) * falling(m - j, a - j)) for j in range(a + 1)]
                      for a in range(m + 1)] for m, s in zip(counts, self.stride)]
        # each key's strength by its place among all the keys' strengths (tuples of numbers, a total order), so
        # that two keys compare as two ints: {id of a key: (its type, that place, its top cards)}
        objects = [*self.kf.objects.values(), *self.kh.objects.values()]
        strengths = {key[1] for key in objects}
        place = ({v: i for i, v in enumerate(sorted(strengths))}
                 if all(isinstance(x, (int, Fraction)) for v in strengths for x in v) else {v: v for v in strengths})
        self.facts = {k: (key[0], place[key[1]], key[2]) for keys in (self.kf, self.kh)
                      for k, key in keys.objects.items()}

    # ---- the first seat's sums G(j, kF) ----------------------------------------------------------
    def first_sums(self) -> dict[int, list[tuple[int, int, int]]]:
        """{number of j: [(size of F, number of F's key, sum of V(F) prod_c (N_c)_(F_c) (F_c)_(j_c) over such F)]}."""
        sums: dict[int, dict[tuple[int, int], int]] = {}
        for f, v in self.firsts.items():
            fk = (sum(f), self.kf.index[id(self.s.key(f))])
            base = v * self.d.weight(f)
            for j, w in self._subs(f, self.alpha, None):
                row = sums.setdefault(j, {})
                row[fk] = row.get(fk, 0) + base * w
        return {j: [(size, k, w) for (size, k), w in row.items() if w] for j, row in sums.items()}

    def _subs(self, hand: tuple[int, ...], table, allowed) -> list[tuple[int, int]]:
        """(number of j, prod_c table[c][hand_c][j_c]) for every j <= hand (those in `allowed` only, which is
        closed downwards, so a partial j outside it is cut with all its extensions)."""
        out = [(0, 1)]
        for c, n in enumerate(hand):
            if not n:
                continue
            grown = []
            steps = table[c][n]
            zero = steps[0][1]
            more = steps[1:]
            for j, w in out:
                grown.append((j, w * zero))
                for step, f in more:
                    sub = j + step
                    if allowed is not None and sub not in allowed:
                        break  # a larger j_c is not allowed either
                    grown.append((sub, w * f))
            out = grown
        return out

    # ---- settling a key pair ----------------------------------------------------------------------
    def row(self, kh: int) -> list[int]:
        """The outcome id of every first hand's key (in `self.kf.order`) against a second hand of key kh.

        Two key pairs with one signature (the types and which is stronger, or the types and the top cards'
        classes and counts when the two hands are equal up to their top cards) settle alike, so a signature
        is settled once (a key pair left pending is looked at again each time)."""
        got = self._rows.get(kh)
        if got is None:
            sigs, facts = self._sigs, self.facts
            b = facts[kh]
            type_h, place_h, top_h = b
            got = []
            for kf in self.kf.order:
                type_f, place_f, top_f = facts[kf]
                if top_f is not None and top_h is not None and type_f == type_h and place_f == place_h:
                    sig = (type_f, top_f, top_h)
                else:
                    sig = (type_f, type_h, (place_f > place_h) - (place_f < place_h))
                o = sigs.get(sig)
                if o is None:
                    o = self._resolve(kf, kh)
                    if o != self.pending:
                        sigs[sig] = o
                got.append(o)
            self._rows[kh] = got
        return got

    def _resolve(self, kf: int, kh: int) -> int:
        a, b = self.kf.least[kf], self.kh.least[kh]
        if any(x + y > n for x, y, n in zip(a, b, self.d.counts)):
            return self._pending()  # no two member hands fit in the deck together: weighs 0
        tried = 0
        for f in self.kf.members[kf]:
            for h in self.kh.members[kh]:
                if any(x + y > n for x, y, n in zip(f, h, self.d.counts)):
                    continue
                try:
                    return self.s.outcome_id(f, h)
                except (ValueError, self.s.e.EngineError):
                    pass  # these two cannot be arranged as the law asks: try another pair
                tried += 1
                if tried >= SEARCH and not self.exhaustive:
                    return self._pending()
        return self._pending()

    def _pending(self) -> int:
        if self.pending is None:
            self.pending = len(self.s.outcomes)
            self.s.outcomes.append(None)
        return self.pending

    # ---- the second seat's results ---------------------------------------------------------------
    def unpack(self, acc: int) -> dict[int, int]:
        """{outcome id: its field of a packed sum} for the fields that are not 0."""
        width, mask = self.width, self.mask
        return {o: w for o in range(len(self.s.outcomes)) if (w := (acc >> (width * o)) & mask)}

    def packed_results(self) -> dict[tuple[int, ...], int]:
        """{H: its results packed, one field of `self.width` bits per outcome id} for every second hand H.

        R(j, kH) is kept packed, one field of `width` bits per outcome id, so that a hand's sum over j is one
        multiply-add per j. The fields of a hand's sum each end in [0, falling(N, most)] (each is a sum of
        pair weights, see the module docstring), so they unpack exactly whatever the signs met on the way;
        and so does a sum of hands' results times V_t(H) >= 0 over the final hands of one policy, whose
        fields add up to at most falling(N, most) (pair probabilities, scaled)."""
        n = self.d.cards
        g = self.first_sums()
        allowed = set(g)
        most = max((sum(f) for f in self.firsts), default=0) + max((sum(h) for h in self.seconds), default=0)
        self.most = most
        scale = [falling(n - size, most - size) for size in range(most + 1)]
        width = self.width = falling(n, most).bit_length() + 1
        self.mask = (1 << width) - 1
        # R(j, kH) reads kH only through its row, the outcome of each first key against it: keys of H with one
        # row (about half of them) share their R
        rows: dict[tuple[int, ...], int] = {}  # a row -> its number
        row_of: dict[int, tuple[int, list[int], list[int]]] = {}  # id of H's key -> (row number, row, its outcomes)
        r_memo: dict[tuple[int, int], dict[int, int]] = {}  # (row number, size of H) -> {number of j: R(j, kH)}
        v_memo: dict[tuple[int, int], list[tuple[int, int]]] = {}  # (j, size of H) -> [(kF, sum of G scaled)]
        fields = [0] * len(self.s.outcomes)  # R's fields while it is summed, one per outcome id
        out: dict[tuple[int, ...], int] = {}
        for h in self.seconds:
            size_h = sum(h)
            kh = id(self.s.key(h))
            got = row_of.get(kh)
            if got is None:
                row = self.row(kh)
                got = row_of[kh] = (rows.setdefault(tuple(row), len(rows)), row, sorted(set(row)))
                fields += [0] * (len(self.s.outcomes) - len(fields))
            number, row, met = got
            memo = r_memo.get((number, size_h))
            if memo is None:
                memo = r_memo[(number, size_h)] = {}
            acc = 0
            for j, b in self._subs(h, self.beta, allowed):
                r = memo.get(j)
                if r is None:
                    v = v_memo.get((j, size_h))
                    if v is None:  # G(j, kF) summed over F's sizes, each scaled: the same for every key of H
                        sums: dict[int, int] = {}
                        for size_f, kf, w in g[j]:
                            sums[kf] = sums.get(kf, 0) + w * scale[size_f + size_h]
                        v = v_memo[(j, size_h)] = list(sums.items())
                    for kf, w in v:  # each field summed apart (small numbers), then packed once
                        fields[row[kf]] += w
                    r = 0
                    for o in met:
                        r += fields[o] << (width * o)
                        fields[o] = 0
                    self.terms += len(g[j])
                    if self.terms > MAX_TERMS:
                        raise TooLarge(f"weighing the pairs of hands by class counts would take more than "
                                       f"{MAX_TERMS:,} terms")
                    memo[j] = r
                acc += b * r
            out[h] = acc
        return out


def second_seat_results(deck: SeatDeck, settler: PairSettler, t_first: Fraction,
                        thresholds: list[Fraction]) -> dict[Fraction, dict]:
    """For each threshold t of the second seat: its exact expected net per unit against a first seat
    hitting below `t_first`, and the probabilities that it wins, loses or draws. Raises TooLarge beyond
    MAX_TERMS terms, NotGiven when a pair of kinds of hand that can meet finds no hands to settle."""
    seconds: dict[tuple[int, ...], None] = {}
    for t in thresholds:
        seconds.update(dict.fromkeys(deck.finals(t)))
    out = _weigh(deck, settler, t_first, thresholds, seconds, exhaustive=False)
    if out is None:
        out = _weigh(deck, settler, t_first, thresholds, seconds, exhaustive=True)
    return out


def _weigh(deck, settler, t_first, thresholds, seconds, exhaustive: bool) -> dict[Fraction, dict] | None:
    weigher = RemovalWeigher(deck, settler, t_first, seconds, exhaustive)
    packed = weigher.packed_results()
    denominator = falling(deck.cards, weigher.most)
    out = {}
    for t in thresholds:
        total = 0  # the policy's final hands' results, packed (see `packed_results`)
        for h, v in deck.finals(t).items():
            total += v * packed[h]
        sums = weigher.unpack(total)
        if sums.get(weigher.pending, 0):
            if exhaustive:
                raise NotGiven("two kinds of hand that can meet could not be dealt together to be settled")
            return None
        row = {"net": Fraction(0), "wins": Fraction(0), "losses": Fraction(0)}
        for i, w in sums.items():
            if i == weigher.pending:
                continue
            net, win, loss = settler.outcomes[i]
            p = Fraction(w, denominator)
            row["net"] += p * net
            row["wins"] += p * win
            row["losses"] += p * loss
        row["draws"] = Fraction(sum(sums.values()), denominator) - row["wins"] - row["losses"]
        out[t] = row
    return out
