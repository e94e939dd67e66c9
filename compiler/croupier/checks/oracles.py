"""What the exhaustive checks ask of a game as it runs: a narrow interface, supplied from outside.

The checks read the resolved model; to know what rounds and hands the rules
actually produce they ask an oracle, through the two protocols here, and never
touch an engine themselves. The driver builds the oracle from the engine back
end (`croupier.backends.engine.oracle`) and hands it to `run_checks`; without
one (a unit test of a pass, say) the exhaustive checks are skipped quietly.

- `RoundOracle` (dealt-round games): play a card sequence, reporting each draw
  decision (`Decision`: which draw tables apply, the key and cell consulted);
  the truth of every bet clause and outcome of a finished round; what a bet
  returns; the exact analysis's expected returns and covered clauses, or why
  it is missing; what the rules read of a hand, so that rounds they cannot
  tell apart are played once. A round whose cards ran out is `CardsRanOut`: given more, it may finish.
- `HandOracle` (seat games): which hand types a hand matches, and how it ranks.

A round the rules cannot finish is reported as `RoundFailure` with the engine's
message. Rounds are opaque handles: only the oracle that made one reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from croupier.semantics.model import Game


class RoundFailure(Exception):
    """A round the rules cannot finish, or a fact they cannot tell: the message says why."""


class CardsRanOut(RoundFailure):
    """The cards given ran out while a hand still had to draw: the same round with more cards may finish."""


@dataclass(slots=True)
class ExactSummary:
    """What the exact analysis tells the checks: expected returns, covered clauses, or why it is missing."""

    returns: dict[str, Fraction]  # bet -> expected return per unit staked (empty when missing)
    covered: dict[str, dict[int, int]]  # bet -> {clause: the earlier clause that always covers it} (from 0)
    missing: str = ""  # why the exact analysis cannot enumerate the game ("" when it can)


@dataclass(slots=True)
class Decision:
    """One draw decision met while a round is played."""

    hand: str
    tables: tuple[int, ...]  # the draw tables (indices into `game.draws`) that apply, in order
    key: object  # the key the first of them consults (None when none applies)
    cell: bool | None  # that cell (or, with no table, the hand's own draw condition): draw, stand, or None
    # when the grid has no cell for the key
    dealt: int  # cards in the hands when the decision is taken
    round: object  # the round so far (a handle for `RoundOracle.hands`)


class RoundOracle(Protocol):
    """The rounds of a dealt-round game, as its rules play them."""

    identity: str  # everything the answers depend on (a digest): the key of cached results
    fact_keys: tuple[tuple, ...]  # ("win", bet, i), ("push", bet, i), ("outcome", name): the order of `facts`
    exact_analysis: bool  # whether the fast exact analysis groups this game's deals (the survey may stop early)

    def play(self, cards: Sequence[str], decided: Callable[[Decision], None]) -> object:
        """Play a round from cards in dealing order, calling `decided` at each draw decision (a hand that
        draws while a condition holds: at each card); a missing cell makes the hand stand. Returns the
        finished round; raises RoundFailure (CardsRanOut when the cards were too few)."""
        ...

    def hands(self, round_: object) -> dict[str, list[str]]:
        """Each hand's cards in a round (finished or not)."""
        ...

    def cards_used(self, round_: object) -> int:
        """How many cards a finished round used."""
        ...

    def with_last_card(self, round_: object, hand: str, card: str) -> object:
        """A finished round with its hand's last card replaced by `card` and its outcome decided again;
        raises RoundFailure. The round given is changed (it is the fast path of the survey): keep a
        `snapshot` of one that must stay as it is."""
        ...

    def snapshot(self, round_: object) -> object:
        """A copy of a round that later changes to it leave alone."""
        ...

    def facts(self, round_: object) -> tuple[tuple[bool, ...], list[str]]:
        """The truth of each fact of `fact_keys` in a finished round, and the messages of the facts
        the rules could not tell (counted false)."""
        ...

    def bet_return(self, round_: object, bet: str, stake: int) -> Fraction:
        """What a stake on a bet returns in a finished round, stake included; raises RoundFailure."""
        ...

    def exact_summary(self) -> ExactSummary | None:
        """The exact analysis's answers (None when a broken rule stops it: its checks report that)."""
        ...

    def hand_grouping(self) -> Callable[[str, Sequence[str]], Hashable] | None:
        """`key(hand, cards)`: what the rules read of a hand's cards, now and once more cards come (its count
        and, as they need them, its total, first two, third card, pairs), such that two rounds so far whose
        hands have equal keys, with the same cards left, play on alike: the same decisions, facts and
        failures whatever the next cards. None when a rule reads a hand in a way that cannot be grouped."""
        ...


class HandOracle(Protocol):
    """The hands of a seat game, as its rules rank them."""

    identity: str  # everything the answers depend on (a digest): the key of cached results

    def matching_types(self, ranks: Sequence[str], wild: bool) -> list[str]:
        """The hand types whose condition holds for these ranks (wild cards already substituted), in order."""
        ...

    def classify(self, cards: Sequence[str]) -> tuple[str, object] | None:
        """A hand's type and its strength within the type (comparable, hashable); None when no type fits."""
        ...


class GameOracle(RoundOracle, HandOracle, Protocol):
    """Both kinds of question, for whichever the game is."""


OracleFactory = Callable[[Game], "GameOracle | None"]  # the driver's: an oracle for a game, None when it has none
