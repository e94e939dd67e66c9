"""The game as it runs, for the static checks: their oracle protocols answered by the generated engine.

`engine_oracle(game)` emits the game's engine and wraps it in an `EngineOracle`,
which answers the questions of `croupier.checks.oracles` through the engine's
own public calls only: `play(cards, observe=...)` with `DECISION_TABLES` for
each draw decision, `BET_CLAUSES` and `Round.outcome` for the facts of a
finished round, `BETS`, `outcome_of`, the analysis companion's `analyse`, and for a seat game
`HandFacts`, `TYPE_TESTS` and `evaluate`. Nothing of the engine is replaced and
nothing is compiled here: the engine is loaded once, when a check first asks.
The driver passes `engine_oracle` to `run_checks`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction
from itertools import repeat
from operator import call
from types import ModuleType

from croupier.backends.engine.analysis_emitter import FactReader, analysis_plan, emit_analysis_module
from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import engine_identity, engine_path, exact_analysis, shared_engine
from croupier.checks.oracles import CardsRanOut, Decision, ExactSummary, RoundFailure
from croupier.semantics.model import Game


def engine_oracle(game: Game) -> EngineOracle | None:
    """An oracle for a game, from its engine (None when no engine can be written for it)."""
    try:
        source = emit_engine(game, game.path)
    except (OSError, SyntaxError, KeyError, ValueError):
        return None  # an engine that cannot be written is reported by the build, not by the checks
    return EngineOracle(game, source)


class EngineOracle:
    """Answers the checks' questions about one game by running its engine (see `checks.oracles`)."""

    def __init__(self, game: Game, source: str) -> None:
        self.game = game
        self.source = source
        self.identity = engine_identity(source)
        self._engine: ModuleType | None = None
        self._companion: ModuleType | None = None
        self._tables: dict[str, list[tuple[int, dict, Callable | None, Callable]]] = {}
        self._tests: list[Callable] = []  # every fact's test, in the order of `fact_keys`
        self._clause_tests: list[Callable] = []  # the bet clauses' tests (the first facts)
        self._outcome_facts: dict[str, tuple[bool, ...]] = {}  # outcome -> the outcome facts' truth
        self._no_outcome: tuple[bool, ...] = ()
        self._repeats: dict[str, Callable] = {}  # hand -> its decide, for hands that draw while a condition holds
        self._keys: tuple[tuple, ...] = ()
        self._grouping: tuple[Callable | None] | None = None

    # ---- the engine, loaded when first needed ----------------------------------------------------------------
    @property
    def engine(self) -> ModuleType:
        """The loaded engine (loaded, and its registries read, on first use)."""
        return self._engine or self._load()

    def _load(self) -> ModuleType:
        if self._engine is None:
            engine = shared_engine(self.source, f"check_{self.game.name}", engine_path(self.game.name))
            if hasattr(engine, "DECISION_TABLES"):
                for index, (hand, grid, _rule, applies, key) in enumerate(engine.DECISION_TABLES):
                    self._tables.setdefault(hand, []).append((index, grid, applies, key))
                repeating = getattr(engine, "REPEATS", ())
                self._repeats = {hand: decide for hand, decide in engine.DRAWERS if hand in repeating}
                keys: list[tuple] = []
                for bet, kind, i, test in engine.BET_CLAUSES:
                    keys.append((kind, bet, i))
                    self._tests.append(test)
                self._clause_tests = list(self._tests)
                outcomes = list(engine.OUTCOME_RULES)
                for outcome in outcomes:
                    keys.append(("outcome", outcome))
                    self._tests.append(_outcome_is(outcome))
                self._outcome_facts = {o: tuple(o == other for other in outcomes) for o in outcomes}
                self._no_outcome = (False,) * len(outcomes)
                self._keys = tuple(keys)
            self._engine = engine
        return self._engine

    @property
    def fact_keys(self) -> tuple[tuple, ...]:
        self._load()
        return self._keys

    @property
    def companion(self) -> ModuleType | None:
        """The game's exact-analysis companion module (None for a game without one), loaded on first use."""
        if self._companion is None and self.game.is_dealt_round:
            source = emit_analysis_module(self.game, self.game.path)
            self._companion = shared_engine(source, f"check_{self.game.name}_analysis", engine_path(f"{self.game.name}_analysis"))
        return self._companion

    @property
    def exact_analysis(self) -> bool:
        companion = self.companion
        return companion is not None and bool(companion.ANALYSIS.get("supported"))

    def exact_summary(self) -> ExactSummary | None:
        engine, companion = self.engine, self.companion
        if companion is None:
            return None
        plan = companion.ANALYSIS
        if not plan["supported"] and not plan.get("general"):
            return ExactSummary({}, {}, plan["reason"])
        try:
            a = exact_analysis(engine, companion, engine.DECKS)
        except engine.EngineError as exc:
            if getattr(exc, "too_large", False):  # other failures are broken rules, reported by their checks
                return ExactSummary({}, {}, str(exc))
            return None
        return ExactSummary({name: Fraction(b["expected_return"]) for name, b in a["bets"].items()},
                            {name: dict(pairs) for name, pairs in a["covered"].items()})

    def hand_grouping(self) -> Callable[[str, Sequence[str]], tuple] | None:
        """What the rules read of a hand, as the exact analysis's plan lists it (None when it cannot group)."""
        if self._grouping is None:
            self._grouping = (_hand_key(self.game, self.engine),)
        return self._grouping[0]

    # ---- dealt rounds --------------------------------------------------------------------------------------
    def play(self, cards: Sequence[str], decided: Callable[[Decision], None]) -> object:
        engine = self.engine
        tables = self._tables
        hands = engine.HANDS
        repeats = self._repeats

        def observe(hand: str, r) -> None:
            dealt = 0
            for h in hands:
                dealt += len(getattr(r, h))
            applying = []
            first = None
            for table in tables.get(hand, ()):
                if table[2] is None or table[2](r):
                    applying.append(table[0])
                    first = first or table
            key, cell = None, False
            if first is not None:
                key = first[3](r)
                cell = first[1].get(key)
            elif hand in repeats:
                cell = repeats[hand](r)[2]
            decided(Decision(hand, tuple(applying), key, cell, dealt, r))

        try:
            return engine.play(cards, observe=observe)
        except engine.NotEnoughCards as exc:
            raise CardsRanOut(str(exc)) from None
        except engine.EngineError as exc:
            raise RoundFailure(str(exc)) from None

    def hands(self, round_: object) -> dict[str, list[str]]:
        return {h: list(getattr(round_, h)) for h in self.engine.HANDS}

    def cards_used(self, round_: object) -> int:
        return round_.cards_used

    def with_last_card(self, round_: object, hand: str, card: str) -> object:
        engine = self._engine or self._load()
        getattr(round_, hand)[-1] = card
        try:
            round_.outcome = engine.outcome_of(round_)
        except engine.EngineError as exc:
            raise RoundFailure(str(exc)) from None
        return round_

    def snapshot(self, round_: object) -> object:
        engine = self.engine
        copy = engine.Round()
        for h in engine.HANDS:
            setattr(copy, h, list(getattr(round_, h)))
        copy.outcome, copy.cards_used = round_.outcome, round_.cards_used
        return copy

    def facts(self, round_: object) -> tuple[tuple[bool, ...], list[str]]:
        error = (self._engine or self._load()).EngineError
        try:  # the outcome facts are looked up by the round's outcome (a name) rather than tested one by one
            clauses = tuple(map(bool, map(call, self._clause_tests, repeat(round_))))
            return clauses + self._outcome_facts.get(round_.outcome, self._no_outcome), []
        except error:
            pass
        tests = self._tests
        vector, failures = [], []
        for test in tests:
            try:
                vector.append(bool(test(round_)))
            except error as exc:
                failures.append(str(exc))
                vector.append(False)
        return tuple(vector), failures

    def bet_return(self, round_: object, bet: str, stake: int) -> Fraction:
        engine = self.engine
        try:
            return Fraction(engine.BETS[bet](round_, stake))
        except engine.EngineError as exc:
            raise RoundFailure(str(exc)) from None

    # ---- seat games ---------------------------------------------------------------------------------------
    def matching_types(self, ranks: Sequence[str], wild: bool) -> list[str]:
        engine = self.engine
        facts = engine.HandFacts(list(ranks), wild)
        return [name for name, test in engine.TYPE_TESTS if test(facts)]

    def classify(self, cards: Sequence[str]) -> tuple[str, object] | None:
        engine = self.engine
        try:
            value = engine.evaluate(list(cards))
        except engine.EngineError:
            return None
        return value.type, value.strength


def _outcome_is(outcome: str) -> Callable:
    return lambda r: r.outcome == outcome


def _hand_key(game: Game, engine: ModuleType) -> Callable[[str, Sequence[str]], tuple] | None:
    """`key(hand, cards)` of `hand_grouping`: the facts of the analysis plan that any rule (draws, standing,
    events, outcomes, bets) reads of the hand, computed by the engine's own tables; None when the plan is
    not supported (a rule reads a hand in another way) or the engine lacks what the key needs."""
    try:
        plan = analysis_plan(game)
        if not plan.get("supported"):
            return None
        reader = FactReader(game)
        pairs = reader.read(game.stand_when)
        for ev in game.events.values():
            pairs |= reader.read(ev.when, frozenset({ev.name}))
        reads = {h: set(plan["draw"].get(h, ())) | set(plan["final"].get(h, ())) | {f for f, g in pairs if g == h}
                 for h in game.hands}
        total, rank_of = engine.total, engine.RANK_OF
    except Exception:  # noqa: BLE001 - a plan that cannot be read: every round is played
        return None
    wanted = {h: (("total" in f), ("first2" in f), ("third" in f), ("pair2" in f), ("pair" in f))
              for h, f in reads.items()}

    def key(hand: str, cards: Sequence[str]) -> tuple:
        if len(cards) < 2:  # the first two cards make first2 and pair2: until then, the cards themselves
            return (len(cards), *cards)
        want_total, want_first2, want_third, want_pair2, want_run = wanted[hand]
        out: list = [len(cards)]
        if want_total:
            out.append(total(cards))
        if want_first2:
            out.append(total(cards[:2]))
        if want_third:
            out.append(cards[2] if len(cards) > 2 else None)  # the card itself: its class, whatever is read of it
        if want_pair2:
            out.append(len(cards) > 1 and rank_of[cards[0]] == rank_of[cards[1]])
        if want_run:
            rank = rank_of[cards[0]] if cards else None
            out.append(rank if all(rank_of[c] == rank for c in cards) else None)
        return tuple(out)

    return key
