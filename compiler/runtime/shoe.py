"""Engine runtime: a seeded, reproducible shoe that deals rounds."""
# ruff: noqa: F821 - names such as DECKS come from the generated part of the engine

import random

# ---- engine ----


class Shoe:
    """A shuffled shoe of the spec's decks; the same seed gives the same cards."""

    def __init__(self, seed=None, decks=None):
        self.decks = decks or DECKS
        self.cards = [code for code in CARD_CODES for _ in range(self.decks)]
        random.Random(seed).shuffle(self.cards)
        self.position = 0

    def remaining(self):
        return len(self.cards) - self.position

    def deal_round(self, bets=None):
        """Play one round from the top of the shoe; return (round, returns)."""
        r = play(self.cards[self.position:self.position + len(DEAL_ORDER) + len(DRAWERS)])
        self.position += r.cards_used
        return r, (settle(r, bets) if bets else {})
