"""Every situation a dealt round can reach, enumerated exactly over the shoe's value classes.

The spec's own engine is compiled in memory and its `play()` is driven over
every sequence of value classes (one representative card per use of a class),
depth first: a sequence is extended only when the round asks for one more
card. Each draw decision is intercepted through the engine's `DRAWERS`, so the
checks see which draw tables apply to a situation and which cell is consulted;
each finished round is reduced to the truth of every bet clause and outcome,
with its exact probability (cards drawn without replacement). Expected bet
returns come from the exact `analyse()` of the engine's analysis companion when the game supports it (it
tells ranks apart where a rule compares them; the value classes here do not).
The result is a small summary, cached per engine, shared by the draw-table and
bet checks.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from croupier.backends.engine.analysis_emitter import emit_analysis_module
from croupier.backends.engine.emitter import EngineEmitter
from croupier.backends.engine.loader import load_engine
from croupier.backends.engine.python_expr import to_python
from croupier.cache import cached, from_data
from croupier.semantics.card_reads import card_classes
from croupier.semantics.model import Game

MAX_LEAVES = 2_000_000  # a safety net: beyond this the enumeration gives up (no diagnostics from it)


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


def round_space(game: Game, full: bool = False) -> RoundSpace | None:
    """The enumerated round space of a dealt-round game (None when there is none to build).

    Unless `full`, the finished rounds are weighed only until every bet clause has been seen
    to hold, when the engine's exact analysis gives the expected returns: `facts` then tells
    which facts can hold, not their probabilities. The draw decisions are always all visited.
    """
    if not game.is_dealt_round or game.shoe is None or not game.values or not game.deal_order:
        return None
    emitter = EngineEmitter(game, game.path)
    try:
        source = emitter.emit()
    except (OSError, SyntaxError, KeyError, ValueError):
        return None  # an engine that cannot be written is reported by the build, not here
    return cached("round-space", f"{full}\0{source}",
                  lambda: _Enumerator(game, load_engine(source, f"check_{game.name}"), emitter, full).run(),
                  decode=lambda data: from_data(data, (RoundSpace, Situation)))


class _Enumerator:
    """Drives one engine's `play()` over every value-class sequence."""

    def __init__(self, game: Game, engine, emitter: EngineEmitter, full: bool) -> None:
        self.game = game
        self.engine = engine
        self.space = RoundSpace()
        self.classes = value_classes(game)

        def code(expr):
            return compile(to_python(expr, emitter.constants), "<check>", "eval")

        self.tables = []  # (index, hand, when code, row code, col code)
        for i, t in enumerate(game.draws):
            self.tables.append((i, t.hand, code(t.when) if t.when is not None else None,
                                code(t.row_key), code(t.col_key) if t.col_key is not None else None))
        probes = []  # (fact key, python text)
        for b in game.bets.values():
            probes += [(("win", b.name, i), to_python(w.when, emitter.constants)) for i, w in enumerate(b.wins)]
            probes += [(("push", b.name, i), to_python(p, emitter.constants)) for i, p in enumerate(b.pushes)]
        probes += [(("outcome", o), f"r.outcome == {o!r}") for o in game.outcomes]
        self.probe_sources = [text for _key, text in probes]
        self.probes = [(key, compile(text, "<check>", "eval")) for key, text in probes]
        self.bets = [(b.name, engine.BETS[b.name]) for b in game.bets.values()]
        engine.DRAWERS = tuple((hand, self.wrap(hand, decide)) for hand, decide in engine.DRAWERS)
        self.max_cards = len(game.deal_order) + len(engine.DRAWERS)
        # a hand that draws while a condition holds may take any number of cards, up to the whole shoe
        self.longest = sum(n for _codes, n in self.classes) if game.repeats else self.max_cards
        self.last_decision_at = 0
        self.last_drawer: str | None = None
        self.exact = load_engine(emit_analysis_module(game, game.path), f"check_{game.name}_analysis")
        self.weigh_all = full or not self.exact.ANALYSIS["supported"]
        self.unseen = set(range(len(self.probes)))  # probes never yet true
        self.weights: dict[tuple, int] = {}  # probe vector -> weight of the rounds that give it
        self.examples: dict[tuple, object] = {}
        self.probe_tuple = compile("(" + "".join(f"bool({e}), " for e in self.probe_sources) + ")",
                                   "<check>", "eval")
        self.unit = 100  # a stake large enough that rounding rules round nothing away

    def describe(self, r) -> str:
        return " · ".join(f"{h} {' '.join(getattr(r, h))}" for h in self.game.hands)

    def eval(self, code, r):
        return eval(code, self.engine.__dict__, {"r": r})  # noqa: S307 - our own compiled expressions

    def wrap(self, hand: str, decide):
        space = self.space
        mine = [t for t in self.tables if t[1] == hand]
        error = self.engine.EngineError
        hands = tuple(self.game.hands)

        def note(found: dict, key, r) -> None:
            if key not in found:
                found[key] = Situation(hand, self.describe(r))

        def decide_and_record(r):
            self.last_decision_at = sum(len(getattr(r, h)) for h in hands)
            applies = []
            for index, _hand, when, row, col in mine:
                if when is None or self.eval(when, r):
                    applies.append((index, row, col))
            if len(applies) > 1:
                note(space.overlaps, (applies[0][0], applies[1][0]), r)
            if not applies:
                result = decide(r)
            else:
                index, row, col = applies[0]
                key = self.eval(row, r) if col is None else (self.eval(row, r), self.eval(col, r))
                note(space.consulted, (index, key), r)
                try:
                    result = decide(r)
                except error:
                    note(space.gaps, (index, key), r)
                    result = ("gap", key, False)
            if result[2]:
                self.last_drawer = hand
            return result

        return decide_and_record

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

    def filler(self, seq: list[int], length: int) -> list[int]:
        """Extend a sequence to `length` cards with any cards still in the shoe."""
        used = [0] * len(self.classes)
        for c in seq:
            used[c] += 1
        out = list(seq)
        while len(out) < length:
            c = max(range(len(self.classes)), key=lambda k: self.classes[k][1] - used[k])
            used[c] += 1
            out.append(c)
        return out

    def run(self) -> RoundSpace:
        sizes = [copies for _codes, copies in self.classes]
        total = sum(sizes)
        longest = self.longest
        # a prefix of k cards stands for (ways to pick it) × (ways to go on to `longest` cards)
        go_on = [_falling(total - k, longest - k) for k in range(longest + 1)]
        self.denominator = _falling(total, longest)
        stack: list[tuple[list[int], int]] = [([], 1)]
        need = len(self.game.deal_order)
        while stack and self.space.leaves <= MAX_LEAVES:
            seq, weight = stack.pop()
            used = [seq.count(c) for c in range(len(sizes))]
            if len(seq) >= need:
                r = self.play(seq)
                if r is None:
                    continue
                n = len(seq)
                if r.cards_used <= n:
                    self.leaf(r, weight * go_on[n])
                    continue
                if r.cards_used == n + 1 and self.last_decision_at <= n:
                    # the next card is the round's last and no rule looks at it: vary it in place
                    for c, size in enumerate(sizes):
                        if size - used[c] > 0:
                            codes = self.classes[c][0]
                            self.last_card(r, codes[used[c] % len(codes)], weight * (size - used[c]) * go_on[n + 1])
                    continue
            if len(seq) >= longest:
                continue
            for c, size in enumerate(sizes):
                if size - used[c] > 0:
                    stack.append((seq + [c], weight * (size - used[c])))
        self.space.complete = not stack
        self.summarise()
        self.exact_returns()
        return self.space

    def exact_returns(self) -> None:
        """Prefer the engine's exact analysis (it tells ranks apart where a rule compares them;
        and unless `full`, the enumeration here stops weighing rounds early); it also tells which bet
        clauses an earlier clause always covers, and why a game cannot be analysed exactly."""
        plan = self.exact.ANALYSIS
        if not plan["supported"] and not plan.get("general"):
            self.space.analysis_missing = plan["reason"]
            return
        try:
            a = self.exact.analyse(self.engine)
        except self.engine.EngineError as exc:
            if getattr(exc, "too_large", False):  # other failures are broken rules, reported by their checks
                self.space.analysis_missing = str(exc)
            return
        self.space.returns = {name: Fraction(b["expected_return"]) for name, b in a["bets"].items()}
        self.space.covered = {name: dict(pairs) for name, pairs in a["covered"].items()}

    def play(self, seq: list[int]):
        """The round dealt from `seq` and then any cards; more are added while a hand drawing while a
        condition holds runs out of them (up to the whole shoe)."""
        length = max(self.max_cards, len(seq))
        while True:
            cards = self.cards_for(self.filler(seq, length))
            if cards is None:
                return None
            self.last_decision_at = 0
            self.last_drawer = None
            try:
                return self.engine.play(cards)
            except self.engine.NotEnoughCards as exc:
                if length >= self.longest:
                    self.space.failures.setdefault(str(exc), " ".join(self.cards_for(seq) or []))
                    return None
                length = min(self.longest, 2 * length)
            except self.engine.EngineError as exc:
                self.space.failures.setdefault(str(exc), " ".join(self.cards_for(seq) or []))
                return None

    def last_card(self, r, card: str, weight: int) -> None:
        """A leaf that differs from `r` only in its last card, dealt to the last hand that drew."""
        if self.last_drawer is None:
            return
        getattr(r, self.last_drawer)[-1] = card
        try:
            r.outcome = self.engine.outcome_of(r)
        except self.engine.EngineError as exc:
            self.space.failures.setdefault(str(exc), self.describe(r))
            return
        self.leaf(r, weight)

    def leaf(self, r, weight: int) -> None:
        self.space.leaves += 1
        if not self.unseen and not self.weigh_all:
            return
        try:
            vector = self.eval(self.probe_tuple, r)
        except self.engine.EngineError:
            vector = tuple(self.probe_safely(code, r) for _key, code in self.probes)
        if vector in self.weights:
            self.weights[vector] += weight
        else:
            self.weights[vector] = weight
            self.examples[vector] = self.clone(r)
            self.unseen -= {i for i, holds in enumerate(vector) if holds}

    def clone(self, r):
        copy = self.engine.Round()
        for h in self.game.hands:
            setattr(copy, h, list(getattr(r, h)))
        copy.outcome, copy.cards_used = r.outcome, r.cards_used
        return copy

    def probe_safely(self, code, r) -> bool:
        try:
            return bool(self.eval(code, r))
        except self.engine.EngineError as exc:
            self.space.failures.setdefault(str(exc), self.describe(r))
            return False

    def summarise(self) -> None:
        """Probabilities of every fact and expected returns, from the weight of each probe vector."""
        space = self.space
        facts: dict[tuple, int] = {}
        returns: dict[str, Fraction] = {}
        for vector, weight in self.weights.items():
            for (key, _code), holds in zip(self.probes, vector):
                if holds:
                    facts[key] = facts.get(key, 0) + weight
            r = self.examples[vector]
            for name, pay in self.bets:
                try:
                    back = Fraction(pay(r, self.unit)) / self.unit
                except self.engine.EngineError as exc:
                    space.failures.setdefault(str(exc), self.describe(r))
                    continue
                returns[name] = returns.get(name, Fraction(0)) + weight * back
        space.facts = {k: Fraction(v, self.denominator) for k, v in facts.items()}
        space.returns = {k: v / self.denominator for k, v in returns.items()}

def _falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out
