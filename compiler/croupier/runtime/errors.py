"""The errors an engine raises for bad input: each says what is wrong."""


class EngineError(ValueError):
    """Base of every error this engine raises for bad input; the message says what is wrong."""


class InvalidCards(EngineError):
    """A card that is not in the deck, too few cards, or a card seen too often."""


class InvalidBet(EngineError):
    """An unknown bet, or a stake that is not a non-negative amount, or outside the table limits."""


class InvalidTable(EngineError):
    """A table that cannot be settled: wrong number of players, missing stakes or coins."""


class MissingCell(EngineError):
    """A draw table has no cell for the key a round reaches (a gap in the spec's grid)."""

    def __init__(self, rule, key):
        super().__init__(f"the table {rule!r} has no cell for {key}")
        self.rule = rule
        self.key = key


class NotEnoughCards(InvalidCards):
    """The cards given ran out before the round was over (a hand still had to draw)."""


class ShoeRanOut(InvalidTable):
    """The cards ran out in the middle of a round (a hand drawing while a condition holds went past them)."""
