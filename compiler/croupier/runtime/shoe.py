"""The shoe procedure of a dealt round: seeded shuffle, cut card, burn, last-round rule.

`Shoe(seed)` shuffles the game's decks with `random.Random(seed)` (the same seed gives the
same shoe on every machine), places the cut card in the spec's range from the end, burns by
the revealed card's burn value, and deals rounds until the last-round rule ends the shoe (a shoe shuffled before
each round, `shuffle_each_round`, deals one round: its next shoe is the next round). It
deals with the game's generated `deal_at` (the fast path of `play`: the cards are canonical
codes already, so nothing is parsed or checked again), and a simulation with
`settle_counts`, which builds no round. Each game has its own subclass, whose `game` is the
`DealtRound` it deals for.

A round the rest of the shoe cannot finish (a hand that draws while a condition holds may take
more cards than the cut card leaves) is not dealt from it: the shoe ends before that round, which
is dealt from a fresh shoe. The shoe deals each round one ahead to know it (`ran_out` then turns
true), so no round is ever cut short and nothing is dealt twice.
"""

import random

from croupier.runtime.errors import InvalidTable, ShoeRanOut


class Shoe:
    """A shuffled shoe of the spec's decks, dealt by the spec's procedure.

    `cut` is the index of the card the cut card lies in front of; `burned` the
    revealed card(s) and the cards burned after them; `finished` turns true when
    the last-round rule ends the shoe (or too few cards remain for a round); `ran_out`
    when it ended because the rest of the shoe could not finish the next round.
    """

    game = None  # the DealtRound of the game's own subclass

    def __init__(self, seed=None, decks=None):
        game = self.game
        self.seed = seed
        self.decks = decks or game.DECKS
        self.cards = game.shoe_cards(self.decks)
        rng = random.Random(seed)
        rng.shuffle(self.cards)
        n = len(self.cards)
        p = game.SHOE_PROCEDURE
        self.cut = n - rng.randint(p["cut_low"], p["cut_high"]) if p["cut_low"] is not None else n
        self.position = 0
        self.burned = []
        self.rounds_dealt = 0
        self.cut_out = None  # "during" or "between" once the cut card has come out
        self.last = p.get("shuffle_each_round", False)  # the next round is the shoe's last (each one, when shuffled before each)
        self.finished = False
        self.ran_out = False
        self._ahead = None  # (keyed, what `deal_at` gave) for the round at `position`, dealt one ahead
        self._keep = game.round_max_cards()
        self._deal_at = game.deal_at
        reveal = p["burn_reveal"]
        if reveal:  # reveal cards and burn as many more as their burn values say
            count = reveal + sum(p["burn_values"].get(game.RANK_OF[c], 0) for c in self.cards[:reveal])
            self.burned = self.cards[:count]
            self.position = count

    def remaining(self):
        return len(self.cards) - self.position

    def next_round(self):
        """Deal the next round and apply the last-round rule; return (round, first card index)."""
        r, _, start = self.next_keyed_round(False)
        return r, start

    def next_keyed_round(self, keyed=True):
        """(round, its settle key (None unless `keyed`), first card index); see `deal_at`."""
        if self.finished:
            raise InvalidTable("the shoe has ended; start a new shoe")
        start = self.position
        ahead = self._ahead
        self._ahead = None
        if ahead is not None and ahead[0] == keyed:
            dealt = ahead[1]
        else:
            try:
                dealt = self.deal_next(keyed)
            except ShoeRanOut:  # a round not dealt ahead: the shoe's first, or one after `settle_counts`
                self.finished = self.ran_out = True
                if not self.rounds_dealt:
                    raise InvalidTable("a round needs more cards than a fresh shoe holds") from None
                raise InvalidTable("the shoe has ended: the next round is dealt from a fresh shoe") from None
        r, key = dealt if keyed else (dealt, None)
        pos = self.position = start + r.cards_used
        self.rounds_dealt += 1
        if self.last or pos >= self.cut or len(self.cards) - pos < self._keep:
            self.after_round(start)  # the last-round rule, only where it can apply
        if not self.finished:
            try:
                self._ahead = (keyed, self.deal_next(keyed))
            except ShoeRanOut:  # the next round is dealt from a fresh shoe
                self.finished = self.ran_out = True
        return r, key, start

    def deal_next(self, keyed):
        """What `deal_at` gives for the round at `position` (raises ShoeRanOut when the shoe cannot finish it)."""
        if keyed:
            return self._deal_at(self.cards, self.position, "round")
        return self._deal_at(self.cards, self.position)

    def after_round(self, start):
        """The last-round rule: the cut card out during a round, or between rounds."""
        if self.last:
            self.finished = True
        elif self.cut_out is None and self.position >= self.cut:
            self.cut_out = "during" if start < self.cut < self.position else "between"
            if self.game.SHOE_PROCEDURE["last_round"] == "at-cut":
                self.finished = True
            else:
                self.last = True
        if len(self.cards) - self.position < self._keep:
            self.finished = True

    def settle_counts(self, limit=None):
        """Deal the rest of the shoe (at most `limit` rounds) for a tally, building no round:
        ({settle key: [rounds, first card index of its first round]}, rounds dealt); see `deal_at`."""
        counts = {}
        cards = self.cards
        cut = self.cut
        keep = self._keep
        deal_at = self._deal_at
        size = len(cards)
        n = 0
        self._ahead = None  # a round dealt ahead by `next_keyed_round` is dealt again here
        while not self.finished and n != limit:
            start = self.position
            try:
                used, key = deal_at(cards, start, True)
            except ShoeRanOut:  # the rest of the shoe cannot finish this round: it is dealt from a fresh shoe
                self.finished = self.ran_out = True
                break
            pos = self.position = start + used
            n += 1
            got = counts.get(key)
            if got is None:
                counts[key] = [1, start]
            else:
                got[0] += 1
            if self.last or pos >= cut or size - pos < keep:
                self.after_round(start)  # the last-round rule, only where it can apply
        self.rounds_dealt += n
        return counts, n

    def deal_round(self, bets=None):
        """Play one round from the shoe; return (round, returns of `bets`)."""
        r, _ = self.next_round()
        return r, (self.game.settle(r, bets) if bets else {})
