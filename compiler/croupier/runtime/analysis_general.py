"""Exact analysis of a dealt round: the general enumerator, for the rounds the fast one cannot group.

Run by the analysis companion instead of `analysis_round` when a spec uses
what the fast enumerator does not walk: hands dealt one card, hands that draw
while a condition holds, soft totals, rules that read suits, card positions or
single cards. It plays every sequence of card classes a round can use with the
engine's own rules (`deal_at`, the shoe's fast path of `play`), depth first: a
sequence grows by one card only when the round asks for it. The classes are those
no rule of the spec tells apart (the `ANALYSIS` constant lists them: by value,
by rank, or every card, as `card_reads` found: the plan's "general" entry), each with its copies in the
shoe, so every round is weighed exactly, with card removal. It is exact and
slower; a round space larger than its limit (`ANALYSIS["general"]["limit"]`) is
refused with a reason, never cut short.
"""

from croupier.runtime.analysis_weights import falling


class GeneralEnumerator:
    """One exact enumeration of a shoe of `decks` decks, card class by card class (see the module)."""

    def __init__(self, engine, decks, plan):
        self.engine = engine
        self.classes = [list(codes) for codes in plan["general"]["classes"]]
        self.counts = [len(codes) * decks for codes in self.classes]
        self.cards = sum(self.counts)
        self.limit = plan["general"]["limit"]
        self.denominator = 1

    def rounds(self):
        """({hands' cards: [weight, cards by hand]}, [{dealt total: weight} by hand]), weights over `denominator`."""
        engine = self.engine
        ran_out = engine.ShoeRanOut
        classes, counts = self.classes, self.counts
        limit = self.limit  # rounds (and unfinished deals) played before it gives up
        used = [0] * len(classes)
        deal = len(engine.DEAL_ORDER)
        leaves = {}  # cards by hand -> [weight, length of the round, dealt totals]
        played = 0
        seq = []  # the codes dealt so far

        def walk(weight):
            nonlocal played
            if len(seq) >= deal:
                played += 1
                if played > limit:
                    too_large = engine.EngineError(
                        f"the exact enumeration of this game would play more than {limit:,} rounds; "
                        "analyse a shoe of fewer decks, or a spec whose rules read less of each card")
                    too_large.too_large = True  # the game, not the cards, is at fault: no rule is broken
                    raise too_large
                try:
                    r = engine.deal_at(seq, 0)
                except ran_out:
                    r = None
                if r is not None:
                    key = tuple(tuple(getattr(r, hand)) for hand in engine.HANDS)
                    got = leaves.get(key)
                    if got is None:
                        dealt = [[] for _ in engine.HANDS]
                        for hand, code in zip(engine.DEAL_ORDER, seq):
                            dealt[engine.HANDS.index(hand)].append(code)
                        leaves[key] = [weight, len(seq), tuple(engine.total(c) for c in dealt)]
                    else:
                        got[0] += weight
                    return
            for c, codes in enumerate(classes):
                left = counts[c] - used[c]
                if left <= 0:
                    continue
                seq.append(codes[used[c] % len(codes)])
                used[c] += 1
                walk(weight * left)
                used[c] -= 1
                seq.pop()

        walk(1)
        walk = None  # it calls itself through its closure: a cycle that would keep `leaves` for the garbage collector
        longest = max((n for _w, n, _t in leaves.values()), default=deal)
        self.denominator = falling(self.cards, longest)
        finals = {}
        dealt_totals = [{} for _ in engine.HANDS]
        for key, (weight, n, totals) in leaves.items():
            w = weight * falling(self.cards - n, longest - n)  # every way the unused cards may follow
            finals[key] = [w, key]
            for h, t in enumerate(totals):
                dealt_totals[h][t] = dealt_totals[h].get(t, 0) + w
        return finals, dealt_totals
