"""The leaves of the round space (`rounds`) that differ only in a round's last card, weighed in place.

When the next card is a round's last and no rule looks at it, the enumeration
does not extend the round with each class: it deals the last hand that drew
each class of card left in turn (`RoundOracle.with_last_card`) and weighs each
leaf by the cards of that class left. When every round is weighed, a memo of
fact vectors by the hands' keys (`hand_grouping`) spares reading leaves that
an earlier leaf already read.
"""

from __future__ import annotations

from croupier.checks.oracles import RoundFailure

MEMO_ENTRIES = 1 << 16  # facts kept per tuple of hand keys (and keys per hand), at most: memory stays small
MEMO_TRIAL = 4096  # leaves looked up before the lookups stop if fewer than one in eight was found


class LastCards:
    """The last-card leaves of `rounds._Enumerator`, whose state they read and add to (its oracle, classes,
    grouping, weights, space and the memo of leaf facts)."""

    def known_leaves(self, r) -> tuple[list, int, tuple[str, ...], dict] | None:
        """For the leaves that vary the last card of `r`: (every hand's key, the last drawer's place, its
        cards, the fact vector already found for each tuple of keys), or None when rounds are not grouped.

        The facts of a finished round are what the rules read of its hands, which the hands' keys hold
        (`hand_grouping`): a leaf whose keys an earlier leaf had, and whose round finished and was read
        without a failure, has that leaf's facts. The vectors are kept per enumeration, the first
        MEMO_ENTRIES of them; when keys are as fine as the cards themselves (few found after MEMO_TRIAL
        lookups), the lookups stop: they would cost more than they save. Only when every round is weighed:
        otherwise a leaf is read only until every fact has been seen (see `leaf`), and then costs no more
        than the engine's outcome, which the lookup of its keys costs as much as (and the memo, filled by
        reading leaves, would stay almost empty)."""
        if self.group is None or self.last_drawer is None or self.memo_tries < 0 or not self.weigh_all:
            return None
        if self.memo_tries >= MEMO_TRIAL and 8 * self.memo_hits < self.memo_tries:
            self.memo_tries = -1  # the keys tell leaves apart almost as finely as their cards: no more looking up
            self.leaf_facts.clear()
            self.card_keys.clear()
            return None
        hands = self.oracle.hands(r)
        keys = [self.group(h, hands[h]) for h in self.game.hands]
        at = self.hand_index[self.last_drawer]
        return keys, at, tuple(hands[self.last_drawer][:-1]), self.leaf_facts

    def last_cards(self, r, used: tuple[int, ...], weight: int) -> tuple[tuple[int, tuple | None], ...]:
        """The leaves that differ from `r` only in its last card, dealt to the last hand that drew: one for
        each class left in the shoe (`used`: the cards of each class before it), weighing `weight` times the
        cards of the class left. Without a memo of leaf facts (see `known_leaves`), each is read here.
        Returns (class, fact vector) of each leaf weighed."""
        known = self.known_leaves(r)
        hand = self.last_drawer
        if hand is None:
            return ()
        leaves = [(c, codes[used[c] % len(codes)], weight * (size - used[c]))
                  for c, (codes, size) in enumerate(self.classes) if size - used[c] > 0]
        if known is not None:
            return self.known_last_cards(r, hand, leaves, known)
        with_last_card = self.oracle.with_last_card
        found = []
        for c, card, w in leaves:
            try:
                r = with_last_card(r, hand, card)
            except RoundFailure as exc:
                self.space.failures.setdefault(str(exc), self.describe(r))
                continue
            found.append((c, self.leaf(r, w)[0]))
        return tuple(found)

    def known_last_cards(self, r, hand: str, leaves: list[tuple[int, str, int]],
                         known: tuple) -> tuple[tuple[int, tuple | None], ...]:
        """`last_cards` with a memo of leaf facts (`known_leaves`): a leaf whose hands' keys an earlier leaf
        had is weighed with its facts; the others are read and their facts kept."""
        keys, at, before, vectors = known
        card_keys, group, space, weights = self.card_keys, self.group, self.space, self.weights
        tries = hits = 0
        found = []
        for c, card, weight in leaves:
            cards = (hand, before, card)
            key = card_keys.get(cards)
            if key is None:
                key = group(hand, [*before, card])
                if len(card_keys) < MEMO_ENTRIES:
                    card_keys[cards] = key
            keys[at] = key
            memo = tuple(keys)
            vector = vectors.get(memo)
            tries += 1
            if vector is not None:
                hits += 1
                if self.weigh_all or self.unseen:
                    weights[vector] += weight
                found.append((c, vector))
                continue
            try:
                r = self.oracle.with_last_card(r, hand, card)
            except RoundFailure as exc:
                space.failures.setdefault(str(exc), self.describe(r))
                continue
            vector, clean = self.leaf(r, weight)
            found.append((c, vector))
            if clean and len(vectors) < MEMO_ENTRIES:
                vectors[memo] = vector
        self.memo_tries += tries
        self.memo_hits += hits
        self.space.leaves += hits  # each found leaf is counted (the others by `leaf`)
        return tuple(found)
