"""A game's cards: the deck, the notation of a card, copies in the shoe, and what rules read of cards."""

from croupier.runtime.errors import EngineError, InvalidCards

SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♣": "C", "♦": "D"}


class CardGame:
    """The cards of one game: `decks` copies of `deck` (card codes, jokers among them), valued by rank.

    `PER_DECK` says how many times one deck holds each code; `RANK_OF` and `SUIT_OF` read a code
    (a joker is its own rank and has no suit).
    """

    def __init__(self, game, decks, deck, jokers, values):
        self.GAME = game
        self.DECKS = decks
        self.DECK = deck
        self.JOKERS = jokers
        self.VALUE = values
        per_deck = {}  # card code -> how many times one deck holds it
        for code in deck:
            per_deck[code] = per_deck.get(code, 0) + 1
        self.PER_DECK = per_deck
        self.CARD_CODES = {code: code for code in per_deck}
        self.RANK_OF = {code: code if code in jokers else code[:-1] for code in per_deck}
        self.SUIT_OF = {code: None if code in jokers else code[-1] for code in per_deck}

    def shoe_cards(self, decks):
        """Every card of a shoe of `decks` decks, in the order of the deck (each card's copies together)."""
        return [code for code, n in self.PER_DECK.items() for _ in range(n * decks)]

    def parse_card(self, text):
        """The canonical code of a card written as `10S`, `ts`, `A♠` or `BJ`."""
        if not isinstance(text, str):
            raise InvalidCards(f"a card is written as text like \"AS\", not {type(text).__name__}")
        code = self.CARD_CODES.get(text)
        if code is not None:
            return code
        t = text.strip().upper()
        for symbol, letter in SUIT_SYMBOLS.items():
            t = t.replace(symbol, letter)
        if t[:1] == "T":
            t = "10" + t[1:]
        code = self.CARD_CODES.get(t)
        if code is None:
            shown = text if len(text) <= 12 else text[:12] + "…"
            raise InvalidCards(f"unknown card {shown!r}")
        return code

    def parse_cards(self, cards):
        """Card codes from a list of card texts or one space-separated string."""
        if isinstance(cards, str):
            cards = cards.replace(",", " ").split()
        if not isinstance(cards, (list, tuple)):
            raise InvalidCards("cards come as a list like [\"3S\", \"2H\"]")
        return [self.parse_card(c) for c in cards]

    def check_copies(self, codes):
        """Reject a card seen more often than the shoe holds it."""
        decks = self.DECKS
        if len(codes) <= decks:
            return
        seen = {}
        for code in codes:
            seen[code] = seen.get(code, 0) + 1
            held = decks * self.PER_DECK[code]
            if seen[code] > held:
                if held == 1:
                    raise InvalidCards(f"card {code} appears twice, but the deck holds it once")
                raise InvalidCards(f"card {code} appears {seen[code]} times, but the shoe holds it {held} times")


def value_reads(card_value_of, rank_of, soft):
    """(card_value(card), best_total(cards)) of a game whose cards are worth `card_value_of` ({code: value}),
    with `soft` = (ranks, extra, limit) or None: the two reads of card values the fast path calls in a round."""

    def card_value(card):
        """The value of one card; asking for a card that was not dealt is an error."""
        if card is None:
            raise EngineError("a rule asked for a card that was not dealt")
        return card_value_of[card]

    ranks, extra, limit = soft or ((), 0, 0)

    def best_total(cards):
        """(total, cards counted at their other value): the highest total not over the soft limit, counting each
        card of the soft ranks at its value or at its value plus the extra; the lowest when every total is over."""
        base = 0
        soft = 0
        for c in cards:
            base += card_value_of[c]
            if rank_of[c] in ranks:
                soft += 1
        best = 0
        for k in range(1, soft + 1):
            if base + k * extra > limit:
                break
            best = k
        return base + best * extra, best

    return card_value, best_total


class HandReads(CardGame):
    """What a dealt round's rules read of cards by the game's values, ranks, suits and classes.

    `CARD_VALUE` is each card's value (`card_values` gives single cards a value apart from their
    rank); totals are summed modulo `modulus` (0: none), or, with `soft` = (ranks, extra, limit),
    a card of those ranks may count `extra` more while the total stays at most `limit`.
    """

    def __init__(self, game, decks, deck, jokers, values, card_values=None, modulus=0, soft=None,
                 card_classes=None):
        super().__init__(game, decks, deck, jokers, values)
        card_values = card_values or {}
        self.CARD_VALUES = card_values
        self.CARD_VALUE = {code: card_values.get(code, values[self.RANK_OF[code]]) for code in self.CARD_CODES}
        self.MODULUS = modulus
        self.soft = soft
        self.CARD_CLASSES = card_classes or {}
        # what the fast path `deal_at` calls in a round, as plain functions (no bound method, no attribute lookup)
        self.card_value, self.best_total = value_reads(self.CARD_VALUE, self.RANK_OF, soft)

    def total(self, cards):
        """The total of some cards, by the spec's values (the best of them with soft values: `best_total`)."""
        if self.soft is not None:
            return self.best_total(cards)[0]
        s = 0
        value = self.CARD_VALUE
        for c in cards:
            s += value[c]
        return s % self.MODULUS if self.MODULUS else s

    def is_soft(self, cards):
        """Whether the best total counts a card at its other value (a soft total)."""
        return self.best_total(cards)[1] > 0

    def card_rank(self, card):
        """The rank of one card; asking for a card that was not dealt is an error."""
        if card is None:
            raise EngineError("a rule asked for the rank of a card that was not dealt")
        return self.RANK_OF[card]

    def card_suit(self, card):
        """The suit of one card (None for a joker); asking for a card that was not dealt is an error."""
        if card is None:
            raise EngineError("a rule asked for the suit of a card that was not dealt")
        return self.SUIT_OF[card]

    def same_rank(self, cards):
        """Whether all the cards are of one rank (a pair, for two cards)."""
        if len(cards) < 2:
            return False
        rank_of = self.RANK_OF
        rank = rank_of[cards[0]]
        for c in cards:
            if rank_of[c] != rank:
                return False
        return True

    def same_suit(self, cards):
        """Whether all the cards are of one suit (two cards or more; a joker has no suit)."""
        suit_of = self.SUIT_OF
        if len(cards) < 2 or suit_of[cards[0]] is None:
            return False
        return all(suit_of[c] == suit_of[cards[0]] for c in cards)

    def count_class(self, cards, name):
        """How many of the cards belong to a card class of the spec."""
        members = self.CARD_CLASSES[name]
        return sum(1 for c in cards if c in members)

    def count_suit(self, cards, suit):
        """How many of the cards are of a suit."""
        return sum(1 for c in cards if self.SUIT_OF[c] == suit)

    def count_rank(self, cards, rank):
        """How many of the cards are of a rank."""
        return sum(1 for c in cards if self.RANK_OF[c] == rank)
