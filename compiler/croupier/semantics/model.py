"""The resolved model of a game: what the emitters and the analysis walk.

Built from the syntax tree by `resolve`; names are checked, variants are
merged onto their base, values are exact Fractions. Expressions are the model's
own (`expr`: typed, every name resolved), never syntax-tree nodes; each back end
reads them in its own way. No back end writes into the model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from croupier.diagnostics import Span
from croupier.semantics.bet_model import Bet, BetRule, Payout, PayoutRow, PayoutTable  # noqa: F401 - re-exported
from croupier.semantics.expr import Expr, expr_text, names_used, role_arguments
from croupier.semantics.items import Item, Labels

# A subclass that adds no field is not decorated with `@dataclass` again: it inherits its base's generated
# `__init__`, `__repr__`, `__eq__` (and `__hash__`, frozen `__setattr__`), which read the instance's own class;
# decorating it would only compile the same methods once more at every start-up.

STANDARD_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
STANDARD_SUITS = ("S", "H", "C", "D")


@dataclass
class Source:
    """A source document the rules cite: its id, its title in English (`description`) and by language."""

    ident: str
    description: str
    span: Span
    labels: Labels = field(default_factory=Labels)
    lang: str | None = None  # the language the source is written in, when the spec says

    def title(self, lang: str) -> str:
        return self.labels.get(lang, self.description)


class Assumption(Item):
    """A choice the sources leave open, stated in the spec and shown on the card."""


def card_code(rank: str, suit: str) -> str:
    """A card's code: its rank, then the one-letter name of its suit (`KD`, `10S`)."""
    return rank + suit


@dataclass
class Deck(Item):
    """A deck a shoe may be made of: its ranks and suits in order, and its cards (codes, a card listed as
    often as one deck holds it, jokers last)."""

    ranks: tuple[str, ...] = ()
    suits: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()
    jokers: tuple[str, ...] = ()


@dataclass
class Shoe:
    """The cards in play: decks of a kind, jokers, and the ranks and suits they use.

    `cards` is one deck, card by card (jokers last); the shoe holds `decks` of them.
    """

    decks: int
    kind: str
    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    jokers: tuple[str, ...]
    span: Span
    cite: str | None = None
    cards: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if not self.cards:
            self.cards = tuple(card_code(r, s) for r in self.ranks for s in self.suits) + self.jokers

    @property
    def size(self) -> int:
        """How many cards the shoe holds."""
        return self.decks * len(self.cards)

    def rank_of(self, code: str) -> str:
        return code if code in self.jokers else code[:-1]

    def suit_of(self, code: str) -> str | None:
        return None if code in self.jokers else code[-1]

    def codes(self) -> tuple[str, ...]:
        """The distinct cards of the shoe, in the order of its deck."""
        return tuple(dict.fromkeys(self.cards))

    def copies(self, code: str) -> int:
        """How many times the shoe holds a card."""
        return self.decks * self.cards.count(code)

    def codes_of(self, rank: str) -> tuple[str, ...]:
        """The distinct cards of one rank (a joker is its own card)."""
        return tuple(c for c in self.codes() if self.rank_of(c) == rank)

    def rank_copies(self, rank: str) -> int:
        """How many cards of one rank the shoe holds."""
        return self.decks * sum(1 for c in self.cards if self.rank_of(c) == rank)


@dataclass
class CardClass(Item):
    """A named class of cards, such as the face cards: whole ranks, and single cards (`KD`)."""

    ranks: tuple[str, ...] = ()
    cards: tuple[str, ...] = ()


@dataclass
class Wild:
    """Wild cards (whole ranks, and single cards such as the king of one suit), the ranks they may
    stand for, and how the best substitution is chosen."""

    ranks: tuple[str, ...]
    stands_for: tuple[str, ...]
    best_by: tuple[str, ...]
    span: Span
    cite: str | None = None
    cards: tuple[str, ...] = ()  # single wild cards by code (`KD`): the other cards of their rank are not wild

    @property
    def shown(self) -> tuple[str, ...]:
        """The wild ranks and cards, as the spec lists them."""
        return self.ranks + self.cards


@dataclass
class Event(Item):
    """A named condition on a round, reported in its record (natural, pairs)."""

    when: Expr | None = None


@dataclass
class DrawTable:
    """One draw table: which hand, when it applies, its keys and its D/S cells."""

    hand: str
    when: Expr | None
    row_key: Expr | None  # None only while the resolver reads the file
    col_key: Expr | None
    rows: tuple[int, ...]
    cols: tuple[int, ...]  # () for a one-key table
    cells: dict[tuple[int, int | None], bool]  # True = draw
    cell_spans: dict[tuple[int, int | None], Span]
    span: Span
    cite: str | None = None
    origin: str = ""
    ident: str = ""  # a readable Python-safe name, unique in the game (`DRAW_BANKER_2`), given by the resolver

    def describe(self) -> str:
        text = f"draw {self.hand}"
        if self.when is not None:
            text += f" when {expr_text(self.when)}"
        text += f" by {expr_text(self.row_key)}"
        if self.col_key is not None:
            text += f" × {expr_text(self.col_key)}"
        return text


@dataclass
class DrawRepeat:
    """`draw HAND while …`: the hand draws one card after another while the condition holds."""

    hand: str
    when: Expr | None  # None only while the resolver reads the file
    span: Span
    cite: str | None = None
    origin: str = ""

    def describe(self) -> str:
        return f"draw {self.hand} while {expr_text(self.when) if self.when is not None else '…'}"


@dataclass
class Soft:
    """Cards that count one of two values (`A counts 1 or 11`): a hand takes the best total not over
    `limit` (the lowest when every choice is over it)."""

    ranks: tuple[str, ...]
    low: Fraction
    high: Fraction
    limit: Fraction
    span: Span


@dataclass
class Turn:
    """How a seat game's round is played (`turn`): cards dealt to each hand and how many face up, how a hit
    takes a card (`reveals` one of the hand's face-down cards, or `draws` from the deck), the most hits, the
    hit timer (seconds; 0: a timer of unstated length), the order of play. None: the spec does not say."""

    span: Span
    deal: int | None = None
    up: int | None = None
    hit: str | None = None
    limit: int | None = None
    timer: int | None = None
    order: str | None = None
    cite: str | None = None

    def describe(self) -> str:
        """The statement as the spec writes it."""
        parts = [f"deal {self.deal} cards"] if self.deal is not None else []
        parts += [f"{self.up} face up"] if self.up is not None else []
        parts += [f"hit {self.hit}"] if self.hit else []
        parts += [f"at most {self.limit} hits"] if self.limit is not None else []
        parts += ["timer" + (f" {self.timer} seconds" if self.timer else "")] if self.timer is not None else []
        parts += [self.order] if self.order else []
        return "turn " + ", ".join(parts)


@dataclass
class Outcome(Item):
    """A named result of a round, with the condition that decides it."""

    when: Expr | None = None


@dataclass
class HandType(Item):
    """A named hand type with its predicate and multiplier; listed high to low."""

    when: Expr | None = None
    multiplier: Fraction = Fraction(0)
    tiebreak: tuple[str, ...] = ()


@dataclass
class Formula(Item):
    """A named table formula (`let NAME = …` at the top level of a spec)."""

    expr: Expr | None = None


@dataclass
class SettleClause:
    """One line of a settle block: `let NAME = …`, `draw when …`, `banker-wins when …`,
    `player-wins when …`, or `pay … unless …`."""

    kind: str  # "let", "draw", "banker-wins", "player-wins", "pay"
    name: str | None
    expr: Expr | None  # None only while the resolver reads the file
    unless: Expr | None
    span: Span
    cite: str | None = None


@dataclass
class StakeLine:
    """`each player stakes NAME` in a settle block: the table formula every player bets against the banker."""

    name: str
    span: Span
    name_span: Span
    cite: str | None = None


@dataclass
class Settlement:
    """How a seat game settles: the scheme and its formula clauses, in order."""

    scheme: str  # "pairwise" | "against-banker"
    clauses: list[SettleClause]
    span: Span
    cite: str | None = None
    labels: Labels = field(default_factory=Labels)
    stake_lines: list[StakeLine] = field(default_factory=list)  # `each player stakes NAME`

    @property
    def stake(self) -> str | None:
        """The table formula every player stakes against the banker (`each player stakes NAME`), if declared."""
        return self.stake_lines[0].name if self.stake_lines else None


def seats_that_bring(game: Game, what: str) -> str:
    """Which seats a table must give an amount for, by the settlement scheme and what its formulas read:
    `what` is "stake" or "coins"; the answer "every seat", "players" (all but the banker), "banker"
    or "" (no formula reads it). In a pairwise game any seat may win or lose, so every seat brings
    what is read; against a banker, `stake(player)` asks the players only."""
    s = game.settlement
    if s is None:
        return ""
    roles: set[str] = set()
    for cl in s.clauses:
        roles |= role_arguments(cl.expr, what) | role_arguments(cl.unless, what)
    for f in game.formulas.values():
        roles |= role_arguments(f.expr, what)
        if what == "coins" and "poorest" in names_used(f.expr):
            roles.add("every seat")
    if not roles:
        return ""
    if s.scheme != "against-banker" or not roles <= {"player", "banker"} or roles == {"player", "banker"}:
        return "every seat"
    return "players" if roles == {"player"} else "banker"


@dataclass
class Room(Item):
    """A room with per-bet table limits: (lowest, highest) stake, or None where the room sets no limit."""

    limits: dict[str, tuple[Fraction, Fraction] | None] = field(default_factory=dict)


@dataclass
class Squeeze:
    """Who may squeeze: the bets that may, the tie rule, and the order of sides."""

    bets: tuple[str, ...]
    ties_to: str
    order: tuple[str, ...]
    span: Span
    cite: str | None = None


@dataclass
class ShoeProcedure:
    """Cut card, burn and last-round rules of a shoe, or a shoe shuffled before each round."""

    shuffle_each_round: bool = False  # `shuffle before each round`: one round a shoe, from a full shoe
    cut_low: int | None = None
    cut_high: int | None = None
    burn_reveal: int = 0
    burn_values: dict[str, int] = field(default_factory=dict)
    last_round: str | None = None
    cites: dict[str, str | None] = field(default_factory=dict)


@dataclass
class Difference:
    """How a variant differs from its base: what was overridden, added or removed."""

    what: str  # "override" | "add" | "remove"
    kind: str
    name: str
    span: Span


@dataclass
class Game:
    """A whole game, resolved: the one object every back end reads."""

    name: str
    labels: Labels
    path: str
    span: Span
    base: Game | None = None
    sources: list[Source] = field(default_factory=list)
    assumptions: dict[str, Assumption] = field(default_factory=dict)
    decks: dict[str, Deck] = field(default_factory=dict)
    shoe: Shoe | None = None
    joker_labels: dict[str, Labels] = field(default_factory=dict)
    suit_labels: dict[str, Labels] = field(default_factory=dict)
    values: dict[str, Fraction] = field(default_factory=dict)
    card_values: dict[str, Fraction] = field(default_factory=dict)  # single cards valued apart from their rank
    value_cite: str | None = None
    classes: dict[str, CardClass] = field(default_factory=dict)
    wild: Wild | None = None
    modulus: int | None = None
    soft: Soft | None = None
    total_cite: str | None = None
    card_order: tuple[str, ...] = ()
    suit_order: tuple[str, ...] = ()
    hands: dict[str, Item] = field(default_factory=dict)
    deal_order: tuple[str, ...] = ()
    deal_cite: str | None = None
    deal_span: Span | None = None  # where the deal is stated (the card's link to the spec line)
    events: dict[str, Event] = field(default_factory=dict)
    stand_when: Expr | None = None
    stand_cite: str | None = None
    stand_span: Span | None = None  # where `stand all when …` is stated
    draws: list[DrawTable] = field(default_factory=list)
    repeats: dict[str, DrawRepeat] = field(default_factory=dict)  # hand -> its `draw … while` rule
    draw_order: list[str] = field(default_factory=list)  # hands in the order of their first draw rule
    outcomes: dict[str, Outcome] = field(default_factory=dict)
    bets: dict[str, Bet] = field(default_factory=dict)
    seats: tuple[int, int] | None = None
    hand_size: tuple[int, int] | None = None
    hand_size_span: Span | None = None  # where the hand size is stated (for the survey bound)
    types: list[HandType] = field(default_factory=list)
    formulas: dict[str, Formula] = field(default_factory=dict)
    settlement: Settlement | None = None
    policy_threshold: Fraction | None = None
    turn: Turn | None = None  # how a seat game's round is played, as the spec states it
    rooms: dict[str, Room] = field(default_factory=dict)
    squeeze: Squeeze | None = None
    valid_bets_none_when: Expr | None = None
    valid_bets_cite: str | None = None
    valid_bets_pushed_none: bool = False
    valid_bets_pushed_cite: str | None = None
    procedure: ShoeProcedure = field(default_factory=ShoeProcedure)
    void_returns_stakes: bool = False
    void_cite: str | None = None
    differences: list[Difference] = field(default_factory=list)
    source_text: str = ""
    rules_text: str = ""  # the spec's statements as data, layout and comments left out (`ast.meaning`)
    version: str | None = None  # `version "…"`: the rules' version, as the operator numbers it
    effective: str | None = None  # `effective YYYY-MM-DD`: the day the rules take effect
    version_cite: str | None = None

    @property
    def fingerprint(self) -> str:
        """A digest of the rules of this spec and its bases, in their canonical form (SHA-256, 16 hex digits):
        the card, the engine and `play --json` all carry it, so a round names the exact rules. Laying a spec
        out again (`croupier fmt`) or changing a comment changes no fingerprint."""
        from croupier.cache import sha256

        h = sha256()
        g: Game | None = self
        while g is not None:
            data = g.rules_text.encode("utf-8")
            h.update(f"{g.name}\n{len(data)}\n".encode())
            h.update(data)
            g = g.base
        return h.hexdigest()[:16]

    @property
    def is_dealt_round(self) -> bool:
        """A game whose rounds are dealt and drawn by fixed rules, with bets."""
        return bool(self.hands)

    @property
    def is_seat_game(self) -> bool:
        """A game of seated players whose hands are ranked and settled."""
        return bool(self.types)

    def type_named(self, name: str) -> HandType | None:
        return next((t for t in self.types if t.name == name), None)

    def hand_draws(self) -> list[tuple[str, list[DrawTable]]]:
        """Draw tables grouped by hand, hands in order of their first draw rule (a table or `draw … while`;
        a hand that draws while a condition holds has no table)."""
        order = [h for h in self.draw_order if h in self.repeats or any(t.hand == h for t in self.draws)]
        for t in self.draws:
            if t.hand not in order:
                order.append(t.hand)
        return [(h, [t for t in self.draws if t.hand == h]) for h in order]
