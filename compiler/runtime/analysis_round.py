"""Engine runtime: exact analysis of a dealt round over every deal of a full shoe.

`analyse(decks)` weighs every ordered deal of the cards a round can use by its
count (card removal included) and returns exact Fractions: the outcomes, each
hand's final and two-card totals, the events, and for every bet the probability
of each return (stake included, unit stake), its mean, variance and house edge.

It is generic over the spec: the deal is enumerated over classes of cards that
no rule tells apart (values, or ranks when a rule compares ranks), deals that the
rules cannot tell apart are grouped (the `ANALYSIS` constant says which facts of
a hand the draws and the results read), the draw phase is memoised on what it
depends on, and every decision, event, outcome and bet is the engine's own
function, called on one representative round of each group.
"""
# ruff: noqa: F821 - names such as ANALYSIS and DRAWERS come from the generated part of the engine

from fractions import Fraction

# ---- engine ----

FACT_INDEX = {"count": 0, "total": 1, "third": 2, "pair": 3}


def card_classes(by_rank, decks):
    """[(representative code, value, copies in the shoe, rank index)] by rank or by value."""
    ranks = [(r, decks * len(SUITS), r + SUITS[0]) for r in RANKS] + [(j, decks, j) for j in JOKERS]
    ranks = [x for x in ranks if x[0] in VALUE]
    if by_rank:
        return [(code, VALUE[r], n, i) for i, (r, n, code) in enumerate(ranks)]
    merged = {}
    for r, n, code in ranks:
        v = VALUE[r]
        if v in merged:
            merged[v][2] += n
        else:
            merged[v] = [code, v, n, -1]
    return [tuple(x) for x in merged.values()]


def falling(n, k):
    """n (n-1) … (n-k+1): ordered ways to deal k cards from n."""
    out = 1
    for i in range(k):
        out *= n - i
    return out


def add_value(t, v):
    t += v
    return t % MODULUS if MODULUS else t


def hand_round(codes_by_hand):
    """A Round holding the given cards (for the engine's rule functions)."""
    r = Round()
    for hand, codes in zip(HANDS, codes_by_hand):
        setattr(r, hand, list(codes))
    return r


class Enumerator:
    """One exact enumeration of a shoe of `decks` decks (see `analyse`)."""

    def __init__(self, decks):
        plan = ANALYSIS
        self.decks = decks
        self.deal_classes = card_classes(plan["deal_by_rank"], decks)
        self.draw_classes = card_classes(plan["draw_by_rank"], decks)
        self.track_pair = plan["draw_by_rank"]
        by_code = {c[0]: i for i, c in enumerate(self.draw_classes)}
        by_value = {c[1]: i for i, c in enumerate(self.draw_classes)}
        self.to_draw_class = [by_code.get(c[0], by_value[c[1]]) for c in self.deal_classes]
        self.cards = sum(c[2] for c in self.deal_classes)
        self.slots = len(DEAL_ORDER) + len(DRAWERS)
        self.denominator = falling(self.cards, self.slots)
        self.fill = [falling(self.cards - k, self.slots - k) for k in range(self.slots + 1)]
        self.hand_at = [HANDS.index(h) for h in DEAL_ORDER]
        self.draw_keys = [tuple(FACT_INDEX[f] for f in plan["draw"][h] if f in FACT_INDEX) for h in HANDS]
        self.draw_deal = [tuple(f for f in plan["draw"][h] if f not in FACT_INDEX) for h in HANDS]
        self.final_dyn = [tuple(FACT_INDEX[f] for f in plan["final"][h] if f in FACT_INDEX) for h in HANDS]
        self.final_deal = [tuple(f for f in plan["final"][h] if f not in FACT_INDEX) for h in HANDS]
        self.deal_events = [(name, test) for name, test in EVENTS if name in plan["deal_events"]]
        self.deal_memo = {}
        self.draw_memo = {}
        self.decisions = {}

    # ---- the deal ---------------------------------------------------------------------
    def deals(self):
        """{(hand facts, removed draw classes): [weight, representative codes]} over all deals."""
        groups = {}
        classes = self.deal_classes
        counts = [c[2] for c in classes]
        chosen = []
        last = len(DEAL_ORDER)

        def walk(pos, weight):
            if pos == last:
                key = (self.dealt_facts(chosen), tuple(sorted(self.to_draw_class[i] for i in chosen)))
                g = groups.get(key)
                if g is None:
                    groups[key] = [weight, tuple(chosen)]
                else:
                    g[0] += weight
                return
            for i, n in enumerate(counts):
                if n:
                    counts[i] = n - 1
                    chosen.append(i)
                    walk(pos + 1, weight * n)
                    chosen.pop()
                    counts[i] = n

        walk(0, 1)
        return groups

    def dealt_facts(self, chosen):
        """Per hand: (count, total, third, run, first2, pair2) of the dealt cards."""
        out = []
        classes = self.deal_classes
        for h in range(len(HANDS)):
            idx = [chosen[p] for p, at in enumerate(self.hand_at) if at == h]
            total = 0
            for i in idx:
                total = add_value(total, classes[i][1])
            first2 = add_value(add_value(0, classes[idx[0]][1]), classes[idx[1]][1])
            third = classes[idx[2]][1] if len(idx) > 2 else None
            run = -1
            if self.track_pair and all(classes[i][3] == classes[idx[0]][3] for i in idx):
                run = classes[idx[0]][3]
            out.append((len(idx), total, third, run, first2, idx[0] == idx[1] and classes[idx[0]][3] >= 0))
        return tuple(out)

    def codes(self, chosen):
        hands = [[] for _ in HANDS]
        for p, i in enumerate(chosen):
            hands[self.hand_at[p]].append(self.deal_classes[i][0])
        return hands

    def at_deal(self, facts, chosen):
        """(stand, values of the events that read only the dealt cards), memoised."""
        got = self.deal_memo.get(facts)
        if got is None:
            r = hand_round(self.codes(chosen))
            got = (bool(stand_all(r)), tuple(bool(test(r)) for _n, test in self.deal_events))
            self.deal_memo[facts] = got
        return got

    # ---- the draws ----------------------------------------------------------------------
    def draws(self, stand, states, removed, dealt_codes):
        """{final facts of the drawn part: [weight, drawn codes]} for one dealt state, memoised."""
        deal_part = tuple(tuple(s[4 + (f == "pair2")] for f in d) for s, d in zip(states, self.draw_deal))
        key = (stand, tuple(s[:4] for s in states), deal_part, removed)
        got = self.draw_memo.get(key)
        if got is not None:
            return got
        out = {}
        counts = [c[2] for c in self.draw_classes]
        for i in removed:
            counts[i] -= 1
        dealt = len(DEAL_ORDER)
        hands = [list(c) for c in dealt_codes]
        drawn = [[] for _ in HANDS]
        states = [list(s[:4]) for s in states]

        def leaf(weight):
            k = tuple(tuple(s[i] if i != 3 else (s[3] >= 0 and s[0] > 1) for i in keys)
                      for s, keys in zip(states, self.final_dyn))
            used = dealt + sum(len(d) for d in drawn)
            g = out.get(k)
            if g is None:
                out[k] = [weight * self.fill[used], tuple(tuple(d) for d in drawn)]
            else:
                g[0] += weight * self.fill[used]

        def walk(step, weight):
            if stand or step == len(DRAWERS):
                leaf(weight)
                return
            hand, decide = DRAWERS[step]
            h = HANDS.index(hand)
            dkey = (step, tuple(tuple(s[i] for i in keys) for s, keys in zip(states, self.draw_keys)), deal_part)
            draws = self.decisions.get(dkey)
            if draws is None:
                draws = bool(decide(hand_round(hands))[2])
                self.decisions[dkey] = draws
            if not draws:
                walk(step + 1, weight)
                return
            s = states[h]
            saved = list(s)
            for c, (code, value, _n, rank) in enumerate(self.draw_classes):
                n = counts[c]
                if not n:
                    continue
                counts[c] = n - 1
                s[0] = saved[0] + 1
                s[1] = add_value(saved[1], value)
                s[2] = value if s[0] == 3 else saved[2]
                s[3] = rank if saved[3] == rank else -1
                hands[h].append(code)
                drawn[h].append(code)
                walk(step + 1, weight * n)
                drawn[h].pop()
                hands[h].pop()
                counts[c] = n
            s[:] = saved

        walk(0, 1)
        self.draw_memo[key] = out
        return out

    # ---- the whole round -------------------------------------------------------------------
    def rounds(self):
        """{signature: [weight, codes by hand]}: every round, grouped so no rule tells a group apart."""
        finals = {}
        dealt_totals = [{} for _ in HANDS]
        scale = self.fill[len(DEAL_ORDER)]
        for (facts, removed), (weight, chosen) in self.deals().items():
            stand, events = self.at_deal(facts, chosen)
            for h, f in enumerate(facts):
                dealt_totals[h][f[4]] = dealt_totals[h].get(f[4], 0) + weight * scale
            deal_part = tuple(tuple(f[4 + (x == "pair2")] for x in d) for f, d in zip(facts, self.final_deal))
            dealt_codes = self.codes(chosen)
            for dyn, (w, drawn) in self.draws(stand, facts, removed, dealt_codes).items():
                sig = (events, deal_part, dyn)
                g = finals.get(sig)
                if g is None:
                    finals[sig] = [weight * w, tuple(tuple(a) + b for a, b in zip(dealt_codes, drawn))]
                else:
                    g[0] += weight * w
        return finals, dealt_totals


def analyse(decks=None):
    """The exact analysis of one round from a full shoe of `decks` decks (default: the spec's).

    Returns exact Fractions: {"decks", "cards", "outcomes": {name: p}, "events": {name: p},
    "totals": {hand: {total: p}}, "two_card_totals": {hand: {total: p}}, "bets": {name:
    {"returns": {multiple: p}, "expected_return", "house_edge", "variance", "hit", "push",
    "scales_linearly"}}}. A bet's return is what a unit stake gets back, stake included.
    """
    if not ANALYSIS["supported"]:
        raise EngineError(f"this game cannot be analysed exactly: {ANALYSIS['reason']}")
    decks = DECKS if decks is None else decks
    if not isinstance(decks, int) or isinstance(decks, bool) or not 1 <= decks <= 64:
        raise EngineError(f"the number of decks must be a whole number from 1 to 64, not {decks!r}")
    en = Enumerator(decks)
    finals, dealt_totals = en.rounds()
    d = en.denominator
    outcomes = {name: 0 for name in OUTCOME_RULES}
    events = {name: 0 for name, _t in EVENTS}
    totals = [{} for _ in HANDS]
    returns = {name: {} for name in BETS}
    linear = {name: True for name in BETS}
    big = 10 ** 6
    for weight, codes in finals.values():
        r = hand_round(codes)
        r.outcome = outcome_of(r)
        r.cards_used = sum(len(c) for c in codes)
        outcomes[r.outcome] += weight
        for name, test in EVENTS:
            if test(r):
                events[name] += weight
        for h, hand in enumerate(HANDS):
            t = total(getattr(r, hand))
            totals[h][t] = totals[h].get(t, 0) + weight
        for name, bet in BETS.items():
            ret = bet(r, 1)
            if linear[name] and Fraction(bet(r, big), big) != ret:
                linear[name] = False
            returns[name][ret] = returns[name].get(ret, 0) + weight
    if sum(outcomes.values()) != d:
        raise EngineError("the enumeration lost some deals (a bug in the analysis)")
    out = {
        "decks": decks,
        "cards": en.cards,
        "outcomes": {k: Fraction(v, d) for k, v in outcomes.items()},
        "events": {k: Fraction(v, d) for k, v in events.items()},
        "totals": {hand: {t: Fraction(w, d) for t, w in sorted(totals[h].items())} for h, hand in enumerate(HANDS)},
        "two_card_totals": {hand: {t: Fraction(w, d) for t, w in sorted(dealt_totals[h].items())}
                            for h, hand in enumerate(HANDS)},
        "bets": {},
    }
    for name, dist in returns.items():
        probs = {m: Fraction(w, d) for m, w in sorted(dist.items())}
        mean = sum((m * p for m, p in probs.items()), Fraction(0))
        second = sum((m * m * p for m, p in probs.items()), Fraction(0))
        out["bets"][name] = {
            "returns": probs,
            "expected_return": mean,
            "house_edge": 1 - mean,
            "variance": second - mean * mean,
            "hit": sum((p for m, p in probs.items() if m > 1), Fraction(0)),
            "push": probs.get(1, Fraction(0)),
            "scales_linearly": linear[name],
        }
    return out


def exact_returns(decks=None):
    """The exact net return per unit staked of each bet (negative: the house's edge)."""
    return {name: b["expected_return"] - 1 for name, b in analyse(decks)["bets"].items()}
