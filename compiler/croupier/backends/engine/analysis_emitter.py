"""Engine back end, analysis companion: the exact enumerator of a dealt round, in a module of its own.

The enumerator (`croupier.runtime.analysis_round`) walks every deal of a full shoe,
grouping deals that no rule of the spec can tell apart. Which deals those are
follows from the spec: this module reads every expression of the round (draw
tables, events, outcomes, bets) and lists the *facts* of each hand they read:

- `count`  how many cards (also `drew`), `total` the hand's total,
- `third`  the value of the third card, `first2` the total of the first two,
- `pair2`  whether the first two cards are of one rank, `pair` whether all are.

`emit_analysis_module` writes the companion `<game>_analysis.py` that sits beside
the engine `<game>.py`: the constant `ANALYSIS` (that plan) and `analyse`, which runs
the enumerator of croupier_runtime beside it by that plan. It imports no engine: `analyse(engine, decks)` takes the
engine module, as a game server imports it from a file or as Croupier loads it
from source in memory, so the engine a server imports stays short. A rule that
reads a hand in a way not listed here makes the analysis unsupported (with the
reason), never wrong.
"""

from __future__ import annotations

from collections import Counter

from croupier.backends.engine.api import assemble, checked_module
from croupier.backends.pywriter import PyWriter, literal
from croupier.semantics import expr as ir
from croupier.semantics.card_reads import card_classes
from croupier.semantics.model import Game
from croupier.syntax.visitor import NodeVisitor

COMPANION_SUFFIX = "_analysis"

FACTS = ("count", "total", "third", "first2", "pair2", "pair")
DEAL_FACTS = ("first2", "pair2")  # fixed once every hand holds its two dealt cards
NUMERIC = ("min", "max", "floor", "value")
GENERAL_LIMIT = 2_000_000  # rounds (and unfinished deals) the general enumerator plays before it gives up


class Unsupported(Exception):
    """A rule reads a hand in a way the enumerator cannot group deals by."""


class FactReader(NodeVisitor):
    """Collects the (fact, hand) pairs an expression reads, following events and outcomes."""

    def __init__(self, game: Game) -> None:
        self.game = game

    @staticmethod
    def hand_of(e: ir.Expr) -> str | None:
        return e.name if isinstance(e, ir.HandRef) else None

    def first2_of(self, e: ir.Expr) -> str | None:
        if isinstance(e, ir.Call) and e.func == "first2" and len(e.args) == 1:
            return self.hand_of(e.args[0])
        return None

    def read(self, e: ir.Expr | None, seen: frozenset[str] = frozenset()) -> set[tuple[str, str]]:
        return set() if e is None else self.visit(e, seen)

    def visit_HandRef(self, e: ir.HandRef, seen: frozenset[str]) -> set[tuple[str, str]]:
        raise Unsupported(f"a rule reads the hand {e.name} in a way the analysis cannot group")

    def visit_EventRef(self, e: ir.EventRef, seen: frozenset[str]) -> set[tuple[str, str]]:
        ev = self.game.events.get(e.name)
        if ev is not None and e.name not in seen:
            return self.read(ev.when, seen | {e.name})
        return set()

    def visit_OutcomeIs(self, e: ir.OutcomeIs, seen: frozenset[str]) -> set[tuple[str, str]]:
        return set().union(*(self.read(o.when, seen) for o in self.game.outcomes.values()))

    def visit_IsTest(self, e: ir.IsTest, seen: frozenset[str]) -> set[tuple[str, str]]:
        raise Unsupported(f"a rule tests `{e.subject} is …`, which the analysis cannot group")

    def visit_RoundFact(self, e: ir.RoundFact, seen: frozenset[str]) -> set[tuple[str, str]]:
        return {("count", h) for h in self.game.hands}  # the cards a round used: every hand's count

    def visit_RoundFormulaRef(self, e: ir.RoundFormulaRef, seen: frozenset[str]) -> set[tuple[str, str]]:
        f = self.game.formulas.get(e.name)
        if f is not None and f"let {e.name}" not in seen:
            return self.read(f.expr, seen | {f"let {e.name}"})
        return set()

    def visit_Name(self, e: ir.Name, seen: frozenset[str]) -> set[tuple[str, str]]:
        return set()  # a name of no hand (a bet, a card class): no fact of a hand

    def visit_Num(self, e: ir.Num, seen: frozenset[str]) -> set[tuple[str, str]]:
        return set()

    def visit_operator(self, e: ir.Expr, seen: frozenset[str]) -> set[tuple[str, str]]:
        return set().union(*self.generic_visit(e, seen))

    visit_Binary = visit_Negate = visit_Compare = visit_InRange = visit_BoolOp = visit_Not = visit_IfElse = visit_operator

    def visit_Call(self, e: ir.Call, seen: frozenset[str]) -> set[tuple[str, str]]:
        arg = e.args[0] if len(e.args) == 1 else None
        hand = self.hand_of(arg) if arg is not None else None
        first2 = self.first2_of(arg) if arg is not None else None
        if e.func in ("total", "count") and hand:
            return {(e.func, hand)}
        if e.func == "total" and first2:
            return {("first2", first2)}
        if e.func == "count" and first2:
            return {("count", first2)}
        if e.func == "drew" and hand:
            return {("count", hand)}
        if e.func == "third" and hand:
            return {("third", hand)}
        if e.func == "same_rank" and first2:
            return {("pair2", first2)}
        if e.func == "same_rank" and hand:
            return {("pair", hand)}
        if e.func in NUMERIC:
            return set().union(set(), *(self.read(a, seen) for a in e.args))
        raise Unsupported(f"a rule uses {e.func}(…) in a way the analysis cannot group")


def by_hand(game: Game, pairs: set[tuple[str, str]]) -> dict[str, tuple[str, ...]]:
    return {h: tuple(f for f in FACTS if (f, h) in pairs) for h in game.hands}


def analysis_plan(game: Game) -> dict:
    """What the enumerator must tell apart: facts per hand, for the draws and for the result."""
    reader = FactReader(game)
    plan: dict = {"supported": True, "reason": ""}
    try:
        if game.card_values:
            raise Unsupported("single cards have values of their own (the enumerator deals ranks)")
        if game.repeats:
            raise Unsupported("a hand draws while a condition holds (the enumerator walks one draw a hand)")
        if game.soft is not None:
            raise Unsupported("a card counts one of two values (the enumerator adds values as it deals)")
        dealt = Counter(game.deal_order)
        if any(dealt[h] < 2 for h in game.hands):
            raise Unsupported("the analysis needs every hand to be dealt at least two cards")
        draw = set().union(set(), *(reader.read(x) for t in game.draws for x in (t.when, t.row_key, t.col_key)))
        stand = reader.read(game.stand_when)
        deal_events, final = [], set()
        for ev in game.events.values():
            facts = reader.read(ev.when, frozenset({ev.name}))
            if all(f in DEAL_FACTS for f, _h in facts):
                deal_events.append(ev.name)
            else:
                final |= facts
        for o in game.outcomes.values():
            final |= reader.read(o.when)
        for b in game.bets.values():
            for x in b.expressions():
                final |= reader.read(x)
        final |= {("total", h) for h in game.hands}
    except Unsupported as exc:
        return general_plan(game, str(exc))
    every = draw | stand | final | {
        f for ev in game.events.values() for f in reader.read(ev.when, frozenset({ev.name}))}
    plan["draw_by_rank"] = any(f == "pair" for f, _h in every)
    plan["deal_by_rank"] = plan["draw_by_rank"] or any(f == "pair2" for f, _h in every)
    plan["draw"] = by_hand(game, draw)
    plan["final"] = by_hand(game, final)
    plan["deal_events"] = tuple(deal_events)
    return plan


def general_plan(game: Game, reason: str) -> dict:
    """The plan of the general enumerator, which plays every sequence of the classes of cards no rule tells
    apart; none (with the reason) when a round of at most one draw a hand would already play more than
    `GENERAL_LIMIT` rounds. A game whose hands draw while a condition holds is bounded as it runs."""
    classes = tuple(tuple(codes) for codes, _n in card_classes(game))
    plan = {"supported": False, "reason": reason, "deal_by_rank": False, "draw_by_rank": False,
            "draw": {}, "final": {}, "deal_events": ()}
    longest = len(game.deal_order) + len(game.hand_draws())
    if not game.repeats and len(classes) ** longest > GENERAL_LIMIT:
        plan["reason"] = (f"{reason}; played card class by card class ({len(classes)} classes the rules tell "
                          f"apart, rounds of up to {longest} cards) it could take {len(classes) ** longest:,} "
                          f"rounds, more than {GENERAL_LIMIT:,}")
        return plan
    plan["general"] = {"classes": classes, "limit": GENERAL_LIMIT}
    return plan


def companion_name(game: Game) -> str | None:
    """The module name of a game's analysis companion (beside its engine), or None when it has none."""
    return game.name + COMPANION_SUFFIX if game.is_dealt_round else None


def plan_data(game: Game, plan: dict) -> str:
    """The companion's data: the game it belongs to and the `ANALYSIS` plan (`analysis_plan`) the enumerator reads."""
    w = PyWriter()
    w.line("from croupier_runtime import analysis_of, enumerator  # noqa: E402 - the runtime beside this file, imported above")
    w.blank(2)
    w.line("# ---- the data of the spec " + "-" * 51)
    w.blank()
    w.line(f"GAME = {literal(game.name)}  # the engine this module analyses")
    w.comment("What the exact analysis must tell apart, read from the rules of the spec (see analyse()).")
    w.line("ANALYSIS = {")
    for key, value in plan.items():
        if key == "general":
            w.line(f"    {literal(key)}: {{\"limit\": {value['limit']}, \"classes\": (  # classes no rule tells apart")
            for codes in value["classes"]:
                w.line(f"        {literal(codes)},")
            w.line("    )},")
            continue
        w.line(f"    {literal(key)}: {literal(value)},")
    w.line("}")
    return w.text()


ANALYSE = '''def analyse(engine, decks=None):
    """The exact analysis of one round of `engine` from a full shoe of `decks` decks (default: the spec's).

    Returns exact Fractions: {"decks", "cards", "outcomes": {name: p}, "events": {name: p},
    "totals": {hand: {total: p}}, "two_card_totals": {hand: {total: p}}, "bets": {name:
    {"returns": {multiple: p}, "expected_return", "house_edge", "variance", "hit", "push",
    "scales_linearly"}}, "clauses": {bet: [whether clause i ever holds]}, "covered": {bet:
    {clause: earlier clause that always covers it}}}. A bet's return is what a unit stake gets
    back, stake included; clauses are counted from 0 in the order the spec writes them.
    Bad input raises the engine's EngineError; an engine of another game, ValueError.
    """
    return analysis_of(engine, decks, GAME, ANALYSIS)


def exact_returns(engine, decks=None):
    """The exact net return per unit staked of each bet of `engine` (negative: the house's edge)."""
    return {name: b["expected_return"] - 1 for name, b in analyse(engine, decks)["bets"].items()}


def Enumerator(engine, decks):  # noqa: N802 - named as the class it gives
    """This game's exact enumerator of `engine` for a shoe of `decks` decks: `.rounds()`, `.denominator`."""
    return enumerator(engine, decks, ANALYSIS)
'''

_EMITTED: dict[tuple[int, str], tuple[Game, str]] = {}


def emit_analysis_module(game: Game, spec_path: str) -> str:
    """The source of a dealt-round game's analysis companion (emitted once per game object and path)."""
    key = (id(game), spec_path)
    hit = _EMITTED.get(key)
    if hit is not None and hit[0] is game:
        return hit[1]
    name = companion_name(game)
    if name is None:
        raise ValueError(f"the game {game.name} deals no round, so it has no analysis companion")

    def build() -> str:
        code = plan_data(game, analysis_plan(game)).rstrip("\n") + "\n\n\n" + ANALYSE
        return assemble(f"@generated by croupier from {spec_path}; do not edit.", intro, code)

    intro = [
        f"{game.labels.get('en', game.name)}: the exact analysis companion of the engine {game.name}.py, "
        f"generated from {spec_path} by croupier. Do not edit.", "",
        "Standard library only, and it imports no engine: pass the engine module in, as imported from "
        f"{game.name}.py beside this file or as Croupier loads it from source. For example, with both files "
        f"on the import path: `import {game.name}, {name}` then `{name}.analyse({game.name}, 8)` gives the "
        "exact figures (Fractions) of one round from a full 8-deck shoe. The enumerators are croupier_runtime's "
        "(beside this file, which it imports and refuses in another version); this module gives them the plan.",
    ]
    source = checked_module(build, game, "analysis companion")
    _EMITTED[key] = (game, source)
    return source
