"""Every situation a dealt round can reach, enumerated exactly over the shoe's value classes.

The game's rules, as a `RoundOracle` (see `oracles`), play every sequence of
value classes (one representative card per use of a class), depth first: a
sequence is extended only when the round asks for one more card. The oracle
reports each draw decision, so the checks see which draw tables apply to a
situation and which cell is consulted; each finished round is reduced to the
truth of every bet clause and outcome, with its exact probability (cards drawn
without replacement). Expected bet returns come from the exact analysis when
the game has one (it tells ranks apart where a rule compares them; the value
classes here do not). The result is a small summary, cached per oracle
identity, shared by the draw-table and bet checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import repeat
from operator import itemgetter, sub

from croupier.cache import cached, from_data
from croupier.checks.oracles import CardsRanOut, Decision, RoundFailure, RoundOracle
from croupier.checks.round_leaves import MEMO_ENTRIES, LastCards
from croupier.semantics.card_reads import card_classes
from croupier.semantics.model import Game
from croupier.space_estimate import estimate_nodes

MAX_LEAVES = 2_000_000  # a safety net: beyond this the enumeration gives up (no diagnostics from it)
ESTIMATE_MARGIN = 4  # a survey estimated at more than this many times MAX_LEAVES rounds is not started
PLAY_TRIAL = 1024  # plays of rounds so far looked up before the lookups stop if fewer than one in eight was found


@dataclass
class Situation:
    """One draw decision met during the enumeration, kept as an example."""

    hand: str
    cards: str  # the round so far, e.g. "player 3S 2H · banker 4D 2C"


@dataclass
class RoundSpace:
    """What the enumeration found: consulted cells, overlaps, gaps, bet facts, failures."""

    complete: bool = True
    consulted: dict[tuple[int, object], Situation] = field(default_factory=dict)  # (table, key) -> example
    overlaps: dict[tuple[int, int], Situation] = field(default_factory=dict)
    gaps: dict[tuple[int, object], Situation] = field(default_factory=dict)
    failures: dict[str, str] = field(default_factory=dict)  # engine error message -> example cards
    # per round fact ("win", bet, i) / ("push", bet, i) / ("outcome", name): probability it holds
    facts: dict[tuple, Fraction] = field(default_factory=dict)
    returns: dict[str, Fraction] = field(default_factory=dict)  # bet -> expected return per unit staked
    leaves: int = 0
    # from the exact analysis: bet -> {clause: the earlier clause that always covers it} (clauses from 0)
    covered: dict[str, dict[int, int]] = field(default_factory=dict)
    analysis_missing: str = ""  # why the exact analysis cannot enumerate the game ("" when it can)


def value_classes(game: Game) -> list[tuple[list[str], int]]:
    """The shoe's classes of cards no rule tells apart (by value, unless a rule reads more of a card; see
    `card_reads`): (card codes of the class, copies of the class in the shoe)."""
    return card_classes(game)


def round_space(game: Game, oracle: RoundOracle | None, full: bool = False) -> RoundSpace | None:
    """The enumerated round space of a dealt-round game (None when there is none to build, or no oracle).

    Unless `full`, the finished rounds are weighed only until every bet clause has been seen
    to hold, when the exact analysis gives the expected returns: `facts` then tells
    which facts can hold, not their probabilities. The draw decisions are always all visited.
    """
    if oracle is None or not game.is_dealt_round or game.shoe is None or not game.values or not game.deal_order:
        return None
    return cached("round-space", f"{full}\0{oracle.identity}", lambda: _Enumerator(game, oracle, full).run(),
                  decode=lambda data: from_data(data, (RoundSpace, Situation)))


class _Enumerator(LastCards):
    """Drives the oracle's rounds over every value-class sequence."""

    def __init__(self, game: Game, oracle: RoundOracle, full: bool) -> None:
        self.game = game
        self.oracle = oracle
        self.space = RoundSpace()
        self.classes = value_classes(game)
        self.fact_keys = oracle.fact_keys
        self.bets = list(game.bets)
        self.max_cards = len(game.deal_order) + len(game.hand_draws())
        # a hand that draws while a condition holds may take any number of cards, up to the whole shoe
        self.longest = sum(n for _codes, n in self.classes) if game.repeats else self.max_cards
        self.last_decision_at = 0
        self.last_drawer: str | None = None
        self.weigh_all = full or not oracle.exact_analysis
        self.unseen = set(range(len(self.fact_keys)))  # facts never yet true
        self.weights: dict[tuple, int] = {}  # fact vector -> weight of the rounds that give it
        self.examples: dict[tuple, object] = {}
        self.unit = 100  # a stake large enough that rounding rules round nothing away
        self.drawn_by: dict[int, str] = {}  # cards dealt -> the hand that last decided then, in the last play

    def describe(self, r) -> str:
        cards = self.oracle.hands(r)
        return " · ".join(f"{h} {' '.join(cards[h])}" for h in self.game.hands)

    def decided(self, d: Decision) -> None:
        """Note one draw decision: the tables that apply, the cell consulted, a missing cell."""
        space = self.space
        self.last_decision_at = d.dealt
        self.drawn_by[d.dealt] = d.hand  # the last hand to decide with so many cards dealt draws the next
        if len(d.tables) > 1:
            self.note(space.overlaps, (d.tables[0], d.tables[1]), d)
        if d.tables:
            self.note(space.consulted, (d.tables[0], d.key), d)
            if d.cell is None:
                self.note(space.gaps, (d.tables[0], d.key), d)
        if d.cell:
            self.last_drawer = d.hand

    def note(self, found: dict, key, d: Decision) -> None:
        if key not in found:
            found[key] = Situation(d.hand, self.describe(d.round))

    def cards_for(self, seq: list[int]) -> list[str] | None:
        used = [0] * len(self.classes)
        out = []
        for c in seq:
            codes, copies = self.classes[c]
            if used[c] >= copies:
                return None
            out.append(codes[used[c] % len(codes)])
            used[c] += 1
        return out

    def deal(self, seq: list[int], used: tuple[int, ...], length: int) -> list[str] | None:
        """`cards_for` the sequence `seq` (`used`: its cards of each class) extended to `length` cards with
        any cards still in the shoe, each time of the class with the most cards left (the first such);
        None when the shoe has too few."""
        classes = self.classes
        out = self.cards_for(seq)
        if out is None:
            return None
        left = [copies - u for (_codes, copies), u in zip(classes, used)]
        for _ in range(length - len(seq)):
            most = max(left)
            if most <= 0:
                return None
            c = left.index(most)
            codes, copies = classes[c]
            out.append(codes[(copies - most) % len(codes)])
            left[c] = most - 1
        return out

    def run(self) -> RoundSpace:
        sizes = [copies for _codes, copies in self.classes]
        self.sizes = sizes
        total = sum(sizes)
        longest = self.longest
        # a prefix of k cards stands for (ways to pick it) × (ways to go on to `longest` cards)
        self.go_on = [_falling(total - k, longest - k) for k in range(longest + 1)]
        self.denominator = _falling(total, longest)
        self.need = len(self.game.deal_order)
        # rounds the rules cannot tell apart are played once (when every round is weighed, only rounds dealt
        # the same cards in another order: their weights below are the same)
        self.group = self.oracle.hand_grouping()
        self.scarce = scarce = [c for c, size in enumerate(sizes) if size < longest]  # classes that may run out
        self.scarce_sizes = [sizes[c] for c in scarce]
        # the cards of each of them in a round so far (the lambda reads `scarce`, not `self`: no cycle)
        self.scarce_used = itemgetter(*scarce) if len(scarce) > 1 else lambda used: [used[c] for c in scarce]
        self.hand_index = {h: i for i, h in enumerate(self.game.hands)}
        self.hand_keys: dict[tuple, object] = {}
        self.subtrees: dict[tuple, tuple[int, dict]] = {}  # group of a round so far -> (leaves, weights) below it
        self.leaf_facts: dict[tuple, tuple] = {}  # every hand's key in a finished round -> its fact vector
        self.memo_tries = self.memo_hits = 0  # leaves looked up in leaf_facts (-1: no longer), and found there
        self.card_keys: dict[tuple, object] = {}  # (hand, its cards but the last, the last card) -> its key
        # when every round is weighed: the shape of a round so far (see `group_of`) -> what playing it gave
        self.plays: dict[tuple, tuple] = {}
        self.play_tries = self.play_hits = 0  # rounds so far looked up in `plays` (-1: no longer), and found there
        if self.too_large():
            self.space.complete = False  # the draw-table and bet checks then say nothing from the survey
            self.exact_returns()
            return self.space
        self.walk()
        self.summarise()
        self.exact_returns()
        return self.space

    def too_large(self) -> bool:
        """Whether the survey, estimated before it starts (`space_estimate`), would play more than ESTIMATE_MARGIN
        times MAX_LEAVES rounds: then it is not walked at all, instead of walking until the safety net."""
        oracle = self.oracle

        def finished(cards: list[str]) -> bool:
            try:
                oracle.play(cards, lambda decision: None)
            except CardsRanOut:
                return False
            except RoundFailure:
                return True
            return True

        cap = ESTIMATE_MARGIN * MAX_LEAVES
        return estimate_nodes(self.classes, self.need, finished) > cap

    def group_of(self, used: tuple[int, ...], held: tuple) -> tuple:
        """The group of a round so far: its shape (`shape_of`), but when every round is weighed, every hand's
        key and the cards left of every class (then the rounds below two sequences of a group weigh the same,
        and so do the two)."""
        keys = []
        for h, classes in zip(self.game.hands, held):
            k = self.hand_keys.get((h, classes))
            if k is None:
                k = self.hand_keys[(h, classes)] = self.group(h, [self.classes[c][0][0] for c in classes])
            keys.append(k)
        if self.weigh_all:
            return (tuple(keys), used)
        return self.shape_of(tuple(keys), used)

    def shape_of(self, keys: tuple, used: tuple[int, ...]) -> tuple:
        """The shape of a round so far (`keys`: every hand's key): its keys and, of each class that may run out,
        the cards left (as many as the round may still take count alike). Rounds so far of one shape play on
        alike (`hand_grouping`): the same decisions, facts and failures."""
        still = self.longest - sum(used)
        return (keys, tuple(map(min, map(sub, self.scarce_sizes, self.scarce_used(used)), repeat(still))))

    def walk(self) -> None:
        """Every sequence, depth first (last class first), extended while its round asks for a card.

        Each sequence carries its hands' classes (`held`, None once unknown). A sequence whose group an
        earlier one had is not played, nor anything below it: the earlier one found every decision, fact
        and failure it could, and first; only its count of leaves is added, and when every round is weighed,
        the weight of each fact vector below it. A marker on the stack notes those once all below a
        sequence is done.

        When every round is weighed, a sequence whose group is new but whose shape an earlier one had is not
        played either: the earlier one's play said how the round goes on (it finished, and with which facts;
        its last card varies in place, and which classes of it give which facts; or which hand draws next),
        and the same holds for this one, weighed by its own cards left (`replay`). The first MEMO_ENTRIES shapes
        are kept; when few are found again after PLAY_TRIAL lookups, the lookups stop (as in `known_leaves`)."""
        space, sizes, need = self.space, self.sizes, self.need
        plays, replays = self.plays, self.weigh_all and self.group is not None
        stack: list[tuple] = [([], 1, tuple(() for _h in self.game.hands), (0,) * len(sizes))]
        while stack:
            item = stack.pop()
            if len(item) == 2:  # (group, (leaves, weights) before): all below the group's first sequence is done
                group, (leaves, before) = item
                below = {} if before is None else {v: grown for v, w in self.weights.items()
                                                   if (grown := w - before.get(v, 0))}
                self.subtrees[group] = (space.leaves - leaves, below)
                continue
            if space.leaves > MAX_LEAVES:
                self.space.complete = False
                return
            seq, weight, held, used = item  # used: the cards of each class in `seq`
            n = len(seq)
            group = None
            if self.group is not None and held is not None:
                group = self.group_of(used, held)
                below = self.subtrees.get(group)
                if below is not None and space.leaves + below[0] <= MAX_LEAVES:
                    self.space.leaves += below[0]
                    for vector, w in below[1].items():
                        self.weights[vector] += w
                    continue
                stack.append((group, (space.leaves, dict(self.weights) if self.weigh_all else None)))
            drawer = self.game.deal_order[n] if n < need else None
            if n >= need:
                played = shape = None
                if replays and group is not None:
                    shape = self.shape_of(group[0], used)
                    played = plays.get(shape)
                    self.play_tries += 1
                    if played is not None:
                        self.play_hits += 1
                    elif self.play_tries >= PLAY_TRIAL and 8 * self.play_hits < self.play_tries:
                        replays = False  # the shapes tell rounds apart almost as finely as their cards
                        plays.clear()
                        self.play_tries = -1
                if played is None:
                    played = self.play_on(seq, used, weight)
                    if replays and shape is not None and len(plays) < MEMO_ENTRIES:
                        plays[shape] = played
                else:
                    self.replay(played, used, weight, n)
                if played[0] != "draws":
                    continue
                drawer = played[1]
            if n >= self.longest:
                continue
            at = self.hand_index.get(drawer) if held is not None else None
            for c, size in enumerate(sizes):
                if size - used[c] > 0:
                    after = None if at is None else held[:at] + (held[at] + (c,),) + held[at + 1:]
                    more = used[:c] + (used[c] + 1,) + used[c + 1:]
                    stack.append((seq + [c], weight * (size - used[c]), after, more))

    def play_on(self, seq: list[int], used: tuple[int, ...], weight: int) -> tuple:
        """Play the round dealt from `seq` (at least the deal) and weigh what it gives; how it went on: ("failed",)
        when it could not finish; ("finished", its fact vector) when `seq` finished it; ("last", ((class, fact
        vector), ...)) when its last card, varied in place, finished it (the classes whose round failed left
        out); ("draws", the hand) when that hand draws the next card, a rule looking at it."""
        n = len(seq)
        self.drawn_by = {}
        r = self.play(seq, used)
        if r is None:
            return ("failed",)
        cards_used = self.oracle.cards_used(r)
        if cards_used <= n:
            return ("finished", self.leaf(r, weight * self.go_on[n])[0])
        if cards_used == n + 1 and self.last_decision_at <= n:
            # the next card is the round's last and no rule looks at it: vary it in place
            return ("last", self.last_cards(r, used, weight * self.go_on[n + 1]))
        return ("draws", self.drawn_by.get(n))

    def replay(self, played: tuple, used: tuple[int, ...], weight: int, n: int) -> None:
        """Weigh a round so far of `n` cards (`used`: its cards of each class) that goes on as an earlier one of
        its shape did (`played`, from `play_on`): the same leaves and facts, weighed by its own cards left."""
        kind = played[0]
        weights = self.weights
        if kind == "finished":
            self.space.leaves += 1
            weights[played[1]] += weight * self.go_on[n]
        elif kind == "last":
            weight *= self.go_on[n + 1]
            sizes = self.sizes
            for c, vector in played[1]:
                weights[vector] += weight * (sizes[c] - used[c])
            self.space.leaves += len(played[1])

    def exact_returns(self) -> None:
        """Prefer the exact analysis (it tells ranks apart where a rule compares them; and unless `full`,
        the enumeration here stops weighing rounds early); it also tells which bet clauses an earlier
        clause always covers, and why a game cannot be analysed exactly."""
        summary = self.oracle.exact_summary()
        if summary is None:
            return
        self.space.analysis_missing = summary.missing
        self.space.covered = summary.covered
        if summary.returns:
            self.space.returns = summary.returns

    def play(self, seq: list[int], used: tuple[int, ...]):
        """The round dealt from `seq` and then any cards; more are added while a hand drawing while a
        condition holds runs out of them (up to the whole shoe)."""
        length = max(self.max_cards, len(seq))
        while True:
            cards = self.deal(seq, used, length)
            if cards is None:
                return None
            self.last_decision_at = 0
            self.last_drawer = None
            try:
                return self.oracle.play(cards, self.decided)
            except CardsRanOut as exc:
                if length >= self.longest:
                    self.space.failures.setdefault(str(exc), " ".join(self.cards_for(seq) or []))
                    return None
                length = min(self.longest, 2 * length)
            except RoundFailure as exc:
                if str(exc) not in self.space.failures:
                    self.space.failures[str(exc)] = " ".join(self.replayable(cards, str(exc)))
                return None

    def replayable(self, cards: list[str], message: str) -> list[str]:
        """The fewest of `cards` (from the first) with which the round fails as it did (`message`): an example
        that `croupier play --cards` reproduces, neither running out of cards first nor holding any it never
        reads."""
        for k in range(1, len(cards)):
            try:
                self.oracle.play(cards[:k], lambda decision: None)
            except CardsRanOut:
                continue
            except RoundFailure as exc:
                if str(exc) == message:
                    return cards[:k]
        return cards

    def leaf(self, r, weight: int) -> tuple[tuple | None, bool]:
        """Count and weigh one finished round: (its fact vector, whether it was read without a failure); (None,
        False) when it is not read (every fact seen, and not every round weighed)."""
        self.space.leaves += 1
        if not self.unseen and not self.weigh_all:
            return None, False
        vector, failures = self.oracle.facts(r)
        for message in failures:
            self.space.failures.setdefault(message, self.describe(r))
        if vector in self.weights:
            self.weights[vector] += weight
        else:
            self.weights[vector] = weight
            self.examples[vector] = self.oracle.snapshot(r)
            self.unseen -= {i for i, holds in enumerate(vector) if holds}
        return vector, not failures

    def summarise(self) -> None:
        """Probabilities of every fact and expected returns, from the weight of each fact vector."""
        space = self.space
        facts: dict[tuple, int] = {}
        returns: dict[str, Fraction] = {}
        for vector, weight in self.weights.items():
            for key, holds in zip(self.fact_keys, vector):
                if holds:
                    facts[key] = facts.get(key, 0) + weight
            r = self.examples[vector]
            for name in self.bets:
                try:
                    back = self.oracle.bet_return(r, name, self.unit) / self.unit
                except RoundFailure as exc:
                    space.failures.setdefault(str(exc), self.describe(r))
                    continue
                returns[name] = returns.get(name, Fraction(0)) + weight * back
        self.space.facts = {k: Fraction(v, self.denominator) for k, v in facts.items()}
        self.space.returns = {k: v / self.denominator for k, v in returns.items()}


def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out
