"""Exact analysis of a dealt round over every deal of a full shoe: the fast enumerator.

An analysis companion of a dealt-round engine (`<game>_analysis.py`, beside the
engine) runs it, never the engine itself. Every name of the game (its hands,
deal order, draw deciders, events, outcomes and bets) is read from the engine
module passed in, so the companion works on an engine imported from a file as
well as on one Croupier loaded from source in memory.

It is the fast enumerator, for games whose hands are dealt two cards or more and draw
at most one card each by tables (`analysis_general` is the slower one for the
rest); `analyse(engine, decks)` (`analysis_summary`) weighs every ordered deal of the cards a round can use by its
count (card removal included) and returns exact Fractions: the outcomes, each
hand's final and two-card totals, the events, and for every bet the probability
of each return (stake included, unit stake), its mean, variance and house edge.

It is generic over the spec: the deal is enumerated over classes of cards that
no rule tells apart (values, or ranks when a rule compares ranks), deals that the
rules cannot tell apart are grouped (the `ANALYSIS` constant says which facts of
a hand the draws and the results read: the companion's plan), each distinct draw state is walked once
and its draws weighed by moments of the cards the deals removed (see below), and
every decision, event, outcome and bet is the engine's own function, called on
one representative round of each group.
"""

import itertools
import operator
import weakref

from croupier.runtime.analysis_weights import falling, hand_round

FACT_INDEX = {"count": 0, "total": 1, "third": 2, "pair": 3}

# engine -> {plan: what an enumeration finds the same whatever the number of decks, for the next one to reuse (an
# analysis for several deck counts meets the same hands and draws; only their weights change): each hand's
# dealt groups, the state at the deal of each combination of them, the draw decisions, the ways the draws
# can go from each dealt state (see `paths`), and the classes each removed code counts
SHARED = weakref.WeakKeyDictionary()


def card_classes(engine, by_rank, decks):
    """[(representative code, value, copies in the shoe, rank index)] by rank or by value."""
    value = engine.VALUE
    held = {}  # rank -> [copies in the shoe, its first card]
    for code, n in engine.PER_DECK.items():
        got = held.setdefault(engine.RANK_OF[code], [0, code])
        got[0] += n * decks
    ranks = [(r, n, code) for r, (n, code) in held.items() if r in value]
    if by_rank:
        return [(code, value[r], n, i) for i, (r, n, code) in enumerate(ranks)]
    merged = {}
    for r, n, code in ranks:
        v = value[r]
        if v in merged:
            merged[v][2] += n
        else:
            merged[v] = [code, v, n, -1]
    return [tuple(x) for x in merged.values()]


def value_adder(modulus):
    """`add(total, value)`: a hand's total after one more card, modulo the spec's modulus if it has one."""
    if not modulus:
        return operator.add

    def add(t, v):
        t += v
        return t % modulus

    return add


class RoundEnumerator:
    """One exact enumeration of a shoe of `decks` decks (see `analyse`)."""

    def __init__(self, engine, decks, plan):
        self.engine = engine
        HANDS, DEAL_ORDER, DRAWERS = engine.HANDS, engine.DEAL_ORDER, engine.DRAWERS
        self.hands, self.deal_order, self.drawers = HANDS, DEAL_ORDER, DRAWERS
        self.add_value = value_adder(engine.MODULUS)
        self.deal_classes = card_classes(engine, plan["deal_by_rank"], decks)
        self.draw_classes = card_classes(engine, plan["draw_by_rank"], decks)
        by_code = {c[0]: i for i, c in enumerate(self.draw_classes)}
        by_value = {c[1]: i for i, c in enumerate(self.draw_classes)}
        self.to_draw_class = [by_code.get(c[0], by_value[c[1]]) for c in self.deal_classes]
        self.cards = sum(c[2] for c in self.deal_classes)
        self.slots = len(DEAL_ORDER) + len(DRAWERS)
        self.denominator = falling(self.cards, self.slots)
        self.fill = [falling(self.cards - k, self.slots - k) for k in range(self.slots + 1)]
        self.base = len(DEAL_ORDER) + 1  # removed draw classes are counted in this base
        self.draw_keys = [tuple(FACT_INDEX[f] for f in plan["draw"][h] if f in FACT_INDEX) for h in HANDS]
        self.draw_deal = [tuple(4 + (f == "pair2") for f in plan["draw"][h] if f not in FACT_INDEX) for h in HANDS]
        self.final_dyn = [tuple(FACT_INDEX[f] for f in plan["final"][h] if f in FACT_INDEX) for h in HANDS]
        self.final_deal = [tuple(4 + (f == "pair2") for f in plan["final"][h] if f not in FACT_INDEX) for h in HANDS]
        self.pair_final = any(3 in keys for keys in self.final_dyn)
        self.track_pair = plan["draw_by_rank"]
        self.final_get = [operator.itemgetter(*keys) if keys else tuple for keys in self.final_dyn]
        self.draw_get = [operator.itemgetter(*keys) if keys else tuple for keys in self.draw_keys]
        self.deal_events = [(name, test) for name, test in engine.EVENTS if name in plan["deal_events"]]
        self.hand_facts = [None] * len(HANDS)
        self.removals = {}
        self.path_memo = {}
        self.polys = {}
        shared = SHARED.setdefault(engine, {}).get(repr(plan))
        if shared is None:
            shared = SHARED[engine][repr(plan)] = ({}, {}, {}, {}, {})
        self.shared_groups, self.shared_dealt, self.decisions, self.shared_paths, self.shared_removed = shared
        # a class's copies as far as the draws can tell them apart (no path draws more cards than there are
        # drawers): the ways the draws can go are the same for every shoe that agrees on these
        self.caps = tuple(min(c[2], len(DRAWERS)) for c in self.draw_classes)
        # a field holds a final weight (at most the denominator) or a moment of the deals
        moment_bound = falling(self.cards, len(DEAL_ORDER)) * len(DEAL_ORDER) ** len(DRAWERS)
        self.width = max(self.denominator, moment_bound).bit_length() + 1
        self.mask = (1 << self.width) - 1
        self.unit = [1 << (self.width * c) for c in range(len(self.draw_classes))]
        self.full = sum(c[2] * u for c, u in zip(self.draw_classes, self.unit))

    # ---- the deal ---------------------------------------------------------------------
    def hand_groups(self, h, n):
        """Hand h's dealt sequences of n classes, grouped by (facts, classes).

        Returns [(fact id, classes, orderings, a sequence, removed code)]; the facts of
        a fact id are `self.hand_facts[h][id]`. None of it depends on the number of decks.
        """
        got = self.shared_groups.get((h, n))
        if got is None:
            got = self.shared_groups[(h, n)] = self._hand_groups(n)
        self.hand_facts[h] = got[1]
        return got[0]

    def _hand_groups(self, n):
        groups = {}
        for seq in itertools.product(range(len(self.deal_classes)), repeat=n):
            key = (self.facts(seq), tuple(sorted(seq)))
            g = groups.get(key)
            if g is None:
                groups[key] = [1, seq]
            else:
                g[0] += 1
        ids = {}
        out = []
        for (facts, classes), (mult, seq) in groups.items():
            fid = ids.setdefault(facts, len(ids))
            out.append((fid, classes, mult, seq, sum(self.base ** self.to_draw_class[c] for c in classes)))
        return out, list(ids)

    def facts(self, seq):
        """(count, total, third, run, first2, pair2) of dealt cards: run is the rank index while all match."""
        classes = self.deal_classes
        add_value = self.add_value
        total = 0
        for i in seq:
            total = add_value(total, classes[i][1])
        first2 = add_value(add_value(0, classes[seq[0]][1]), classes[seq[1]][1])
        third = classes[seq[2]][1] if len(seq) > 2 else None
        rank = classes[seq[0]][3]
        pair2 = seq[0] == seq[1] and rank >= 0
        run = rank if self.track_pair and rank >= 0 and all(classes[i][3] == rank for i in seq) else -1
        return (len(seq), total, third, run, first2, pair2)

    def deals(self):
        """{(fact ids by hand, removed draw classes): [weight, dealt sequences]} over every ordered deal.

        An ordered deal's count is the product over classes of n (n-1) … for the cards of
        that class it uses, whatever the order: so hands are enumerated one after another.
        """
        per_hand = [self.hand_groups(h, self.deal_order.count(hand)) for h, hand in enumerate(self.hands)]
        counts = [c[2] for c in self.deal_classes]
        groups = {}
        last = len(self.hands) - 1
        # the last hand's groups, each class it takes with how many of that class it took before (its classes
        # are sorted, so alike ones sit together): its weight is read from the counts, which it leaves as they are
        final = [(fid, mult, seq, code, tuple((c, classes[:i].count(c)) for i, c in enumerate(classes)))
                 for fid, classes, mult, seq, code in per_hand[last]]

        def walk(h, weight, ids, removed, seqs):
            if h == last:
                for fid, mult, seq, code, takes in final:
                    w = weight * mult
                    for c, before in takes:
                        w *= counts[c] - before
                    if w:
                        key = (ids + (fid,), removed + code)
                        g = groups.get(key)
                        if g is None:
                            groups[key] = [w, seqs + (seq,)]
                        else:
                            g[0] += w
                return
            for fid, classes, mult, seq, code in per_hand[h]:
                w = weight * mult
                for c in classes:
                    w *= counts[c]
                    counts[c] -= 1
                if w:
                    walk(h + 1, w, ids + (fid,), removed + code, seqs + (seq,))
                for c in classes:
                    counts[c] += 1

        walk(0, 1, (), 0, ())
        walk = None  # it calls itself through its closure: a cycle that would keep `groups` for the garbage collector
        return groups

    def codes(self, seqs):
        return [[self.deal_classes[i][0] for i in seq] for seq in seqs]

    def at_deal(self, seqs):
        """(stand, values of the events that read only the dealt cards) of one dealt state."""
        r = hand_round(self.engine, self.codes(seqs))
        return bool(self.engine.stand_all(r)), tuple(bool(test(r)) for _n, test in self.deal_events)

    # ---- the cards the deal removed, as moments ---------------------------------------------
    # A draw of class c weighs the cards of c left: N_c - r_c - (earlier draws of c), with
    # r the cards the deal removed. So the weight of a path of draws is a polynomial in r,
    # and a group of deals needs only the sums of w * (products of r): its moments. Those
    # are kept packed, one field of `width` bits per draw class (M[S] holds, in field c, the
    # sum of w * r^S * r_c), which also makes a whole last draw one multiplication.
    # Packed integers are exact integers, so any linear combination of them is exact; every
    # field of a final weight lies in [0, denominator], so it unpacks without overflow.

    def removal(self, removed):
        """(monomials of degree < number of drawers with their products, packed counts) of a
        removed code, stored in `self.removals` (where `rounds` looks first)."""
        shared = self.shared_removed.get(removed)
        if shared is None:
            r = []
            rest = removed
            for _c in self.draw_classes:
                rest, k = divmod(rest, self.base)
                r.append(k)
            present = [c for c, k in enumerate(r) if k]
            monos = []
            for degree in range(len(self.drawers)):
                for mono in itertools.combinations_with_replacement(present, degree):
                    prod = 1
                    for c in mono:
                        prod *= r[c]
                    monos.append((mono, prod))
            shared = self.shared_removed[removed] = (monos, r, present)
        monos, r, present = shared
        unit = self.unit
        got = self.removals[removed] = (monos, sum(r[c] * unit[c] for c in present))  # a class not removed adds 0
        return got

    def poly(self, path):
        """The weight of drawing the classes `path` in turn, as ((monomial in r, coefficient), …)."""
        terms = {(): 1}
        seen = {}
        for c in path:
            a = self.draw_classes[c][2] - seen.get(c, 0)
            seen[c] = seen.get(c, 0) + 1
            nxt = {}
            for mono, coef in terms.items():
                nxt[mono] = nxt.get(mono, 0) + a * coef
                longer = tuple(sorted(mono + (c,)))
                nxt[longer] = nxt.get(longer, 0) - coef
            terms = nxt
        return tuple((m, k) for m, k in terms.items() if k)

    # ---- the draws ----------------------------------------------------------------------
    def draw_key(self, stand, facts):
        """What the draw phase depends on, besides the cards removed: the dealt facts the
        draws read."""
        deal_part = tuple(tuple(f[i] for i in d) for f, d in zip(facts, self.draw_deal))
        return (stand, tuple(f[:4] for f in facts), deal_part)

    def component(self, h, s):
        """Hand h's part of a round's signature: the dynamic facts its results read."""
        if self.pair_final:
            s = list(s[:3]) + [s[3] >= 0 and s[0] > 1]
        return self.final_get[h](s)

    def paths(self, key, facts, seqs):
        """Every way the draws can go from one dealt state, memoised on `key` (see `draw_key`).

        Returns [(entry, packed counts or None, weight polynomial, fill, drawn codes)]. An
        entry is ("s", signature) for a round that ends without a last draw, or ("d",
        signature without hand h, h, state of h) for one that ends with hand h drawing:
        then its weight is packed, one field per draw class, and the packed counts are the
        shoe's before the deal's removal (less this path's own draws). The ways themselves
        (`shapes`) are found once for every number of decks; here they are weighed for this one.
        """
        got = self.path_memo.get(key)
        if got is not None:
            return got
        shapes = self.shared_paths.get((key, self.caps))
        if shapes is None:
            shapes = self.shared_paths[(key, self.caps)] = self.shapes(key, facts, seqs)
        fill, unit, full, polys = self.fill, self.unit, self.full, self.polys
        out = self.path_memo[key] = []
        for entry, path, used, drawn, last in shapes:
            poly = polys.get(path)
            if poly is None:
                poly = polys[path] = self.poly(path)
            out.append((entry, full - sum(unit[c] for c in path) if last else None, poly, fill[used], drawn))
        return out

    def shapes(self, key, facts, seqs):
        """The ways the draws can go from one dealt state, whatever the number of decks: [(entry (see
        `paths`), the draw classes drawn in turn, cards used, drawn codes, whether it ends with a last
        draw)]; a way that draws more cards of a class than the shoe holds (`self.caps`) is left out."""
        stand, _facts, deal_part = key
        out = []
        dealt = len(self.deal_order)
        states = [list(f[:4]) for f in facts]
        component = self.component
        if stand:
            out.append((("s", tuple(component(h, st) for h, st in enumerate(states))), (), dealt, (), False))
            return out
        hands = self.codes(seqs)
        drawn = [[] for _ in self.hands]
        path = []
        classes, caps = self.draw_classes, self.caps
        engine, drawers, add_value = self.engine, self.drawers, self.add_value
        last = len(drawers) - 1
        drawer_hand = [self.hands.index(hand) for hand, _d in drawers]

        def walk(step, used):
            if step > last:
                out.append((("s", tuple(component(h, st) for h, st in enumerate(states))), tuple(path), used,
                            tuple(tuple(d) for d in drawn), False))
                return
            h = drawer_hand[step]
            dkey = (step, tuple(get(st) for get, st in zip(self.draw_get, states)), deal_part)
            draws = self.decisions.get(dkey)
            if draws is None:
                draws = self.decisions[dkey] = bool(drawers[step][1](hand_round(engine, hands))[2])
            if not draws:
                walk(step + 1, used)
                return
            s = states[h]
            if step == last:
                kl = [component(i, st) for i, st in enumerate(states)]
                kl[h] = None
                out.append((("d", tuple(kl), h, tuple(s)), tuple(path), used + 1, tuple(tuple(d) for d in drawn),
                            True))
                return
            c0, t0, third0, run0 = s
            s[0] = c0 + 1
            for c, (code, value, _n, rank) in enumerate(classes):
                if caps[c] <= path.count(c):
                    continue  # no deal leaves a card of this class
                s[1] = add_value(t0, value)
                s[2] = value if c0 == 2 else third0
                s[3] = rank if run0 == rank else -1
                path.append(c)
                drawn[h].append(code)
                hands[h].append(code)
                walk(step + 1, used + 1)
                hands[h].pop()
                drawn[h].pop()
                path.pop()
            s[:] = [c0, t0, third0, run0]

        walk(0, dealt)
        walk = None  # a cycle through its own closure (see `deals`)
        return out

    def expand(self, packed_finals):
        """{signature: [weight, codes by hand]} from the entries of `rounds`, last draws unpacked."""
        finals = {}
        mask = self.mask
        grown = {}  # (hand, its state before the last draw) -> [(field shift, card code, hand's component)]
        for (deal_part, entry), (value, codes) in packed_finals.items():
            if entry[0] == "s":
                sig = (deal_part, entry[1])
                g = finals.get(sig)
                if g is None:
                    finals[sig] = [value, codes]
                else:
                    g[0] += value
                continue
            _d, kl, h, state = entry
            steps = grown.get((h, state))
            if steps is None:
                steps = grown[(h, state)] = self.last_draws(h, state)
            kl = list(kl)
            for shift, code, part in steps:
                w = (value >> shift) & mask
                if w:
                    kl[h] = part
                    sig = (deal_part, tuple(kl))
                    g = finals.get(sig)
                    if g is None:
                        hand_codes = list(codes)
                        hand_codes[h] = hand_codes[h] + (code,)
                        finals[sig] = [w, tuple(hand_codes)]
                    else:
                        g[0] += w
        return finals

    def last_draws(self, h, state):
        """[(shift of the draw class's field, its card code, hand h's component after drawing it)] for hand h
        drawing its last card from `state`."""
        c0, t0, third0, run0 = state
        add_value = self.add_value
        return [(self.width * c, code,
                 self.component(h, [c0 + 1, add_value(t0, v), v if c0 == 2 else third0, rank if run0 == rank else -1]))
                for c, (code, v, _n, rank) in enumerate(self.draw_classes)]

    # ---- the whole round -------------------------------------------------------------------
    def rounds(self):
        """{signature: [weight, codes by hand]}: every round, grouped so no rule tells a group apart."""
        scale = self.fill[len(self.deal_order)]
        by_ids = {}  # fact ids by hand -> [weight, its pending group]
        pending = {}  # deals alike for the results and for the draws -> [weight, moments, …]
        removals = self.removals
        for (ids, removed), (w, seqs) in self.deals().items():
            entry = by_ids.get(ids)
            if entry is None:
                facts = tuple(self.hand_facts[h][f] for h, f in enumerate(ids))
                dealt_state = self.shared_dealt.get(ids)
                if dealt_state is None:  # the same for every number of decks
                    dealt_state = self.shared_dealt[ids] = self.at_deal(seqs)
                stand, events = dealt_state
                deal_part = (events, tuple(tuple(f[i] for i in d) for f, d in zip(facts, self.final_deal)))
                key = (deal_part, self.draw_key(stand, facts))
                acc = pending.get(key)
                if acc is None:
                    acc = pending[key] = [0, {}, facts, seqs]
                entry = by_ids[ids] = [0, acc, stand]
            entry[0] += w
            acc = entry[1]
            acc[0] += w
            if not entry[2]:  # somebody may draw: the draws weigh the cards removed
                moments = acc[1]
                monos, packed = removals.get(removed) or self.removal(removed)
                for mono, prod in monos:
                    moments[mono] = moments.get(mono, 0) + w * prod * packed
        dealt_totals = [{} for _ in self.hands]
        for ids, (w, _acc, _stand) in by_ids.items():
            for h, f in enumerate(ids):
                t = self.hand_facts[h][f][4]
                dealt_totals[h][t] = dealt_totals[h].get(t, 0) + w * scale
        packed_finals = {}
        width, mask = self.width, self.mask
        for (deal_part, key), (m0, moments, facts, seqs) in pending.items():
            dealt_codes = None
            for entry, avail, poly, factor, drawn in self.paths(key, facts, seqs):
                value = 0
                for mono, coef in poly:
                    scalar = (moments.get(mono[:-1], 0) >> (width * mono[-1])) & mask if mono else m0
                    value += coef * (scalar if avail is None else scalar * avail - moments.get(mono, 0))
                if not value:
                    continue
                value *= factor
                sig = (deal_part, entry)
                g = packed_finals.get(sig)
                if g is None:
                    dealt_codes = dealt_codes or self.codes(seqs)
                    packed_finals[sig] = [value, tuple(tuple(a) + (drawn[i] if drawn else ())
                                                       for i, a in enumerate(dealt_codes))]
                else:
                    g[0] += value
        return self.expand(packed_finals), dealt_totals
