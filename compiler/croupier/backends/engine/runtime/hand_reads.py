"""Engine runtime for dealt rounds: what a spec's rules read of a hand's cards, each a part.

Each piece is a part, copied only into an engine whose rules call it: a hand's third card,
one card's value, whether the cards are of one rank. (Apart from `dealt_round`, which then
has no parts; see `dealt_parts`.)
"""
# ruff: noqa: F821 - the engine's generated part, `common` and `dealt_round` give names

# ---- engine ----

# ---- part third if uses third ----
def third(cards):
    """The third card of a hand, or None when it has only two."""
    return cards[2] if len(cards) > 2 else None
# ---- end third ----


# ---- part card_value if uses card_value ----
def card_value(card):
    """The value of one card; asking for a card that was not dealt is an error."""
    if card is None:
        raise EngineError("a rule asked for a card that was not dealt")
    return CARD_VALUE[card]
# ---- end card_value ----


# ---- part same_rank if uses same_rank ----
def same_rank(cards):
    """Whether all the cards are of one rank (a pair, for two cards)."""
    if len(cards) < 2:
        return False
    rank = RANK_OF[cards[0]]
    for c in cards:
        if RANK_OF[c] != rank:
            return False
    return True
# ---- end same_rank ----
