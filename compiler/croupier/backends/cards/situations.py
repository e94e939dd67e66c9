"""The dispute lookup of a card: which worked example shows which situation of the rules.

A support agent settling a dispute looks up the situation of the round ("the Banker's total
is 3 and the Player's third card is 8") and finds the worked examples that show it. The
examples are reference cases written by hand; this module only sorts them: it replays each
example's cards through the generated engine with `play(cards, explain=True)` and reads
which draw-table cell decided each hand (the engine names the table's rule), and, when no
hand drew, which parts of the stand rule held (each part of an `or`, evaluated on the dealt
cards with the engine's own functions: `Holds`). The expected results stay the case's own.

`required(game)` lists the situations a card must show an example of: every grid cell whose
action differs from the majority of its row, and the stand rule with all its parts holding
(natural against natural).
"""

from __future__ import annotations

from collections import Counter
from types import ModuleType

from croupier.backends.cards.sentences import Sentences
from croupier.backends.cards.words import N_
from croupier.semantics import expr as ir
from croupier.semantics.model import Game
from croupier.syntax.visitor import NodeVisitor


class CannotTell(Exception):
    """An expression this evaluator cannot decide on a dealt round (the situation is then not indexed)."""


class Holds(NodeVisitor):
    """Decides a dealt-round condition on an engine's `Round`, with the engine's public functions."""

    def __init__(self, game: Game, engine: ModuleType, r) -> None:
        self.game, self.engine, self.r = game, engine, r

    def visit_Num(self, e: ir.Num):
        return e.value

    def visit_HandRef(self, e: ir.HandRef):
        return list(getattr(self.r, e.name))

    def visit_EventRef(self, e: ir.EventRef):
        return self.visit(self.game.events[e.name].when)

    def visit_Name(self, e: ir.Name):
        raise CannotTell(e.name)

    def visit_Call(self, e: ir.Call):
        args = [self.visit(a) for a in e.args]
        eng = self.engine
        funcs = {
            "total": lambda cards: eng.total(cards),
            "first2": lambda cards: cards[:2],
            "third": lambda cards: eng.third(cards),
            "value": lambda card: eng.card_value(card),
            "count": lambda cards: len(cards),
            "same_rank": lambda cards: eng.same_rank(cards),
            "drew": lambda cards: len(cards) > eng.DEALT[e.args[0].name],
        }
        if e.function.key not in funcs:
            raise CannotTell(e.func)
        return funcs[e.function.key](*args)

    def visit_Compare(self, e: ir.Compare):
        a, b = self.visit(e.left), self.visit(e.right)
        return {"<": a < b, "<=": a <= b, ">": a > b, ">=": a >= b, "=": a == b, "!=": a != b}[e.op]

    def visit_BoolOp(self, e: ir.BoolOp):
        values = [bool(self.visit(x)) for x in e.operands]
        return all(values) if e.op == "and" else any(values)

    def visit_Not(self, e: ir.Not):
        return not self.visit(e.operand)

    def visit_Expr(self, e: ir.Expr):
        raise CannotTell(type(e).__name__)


def stand_parts(game: Game) -> list[ir.Expr]:
    """The parts of the stand rule: the operands of its `or` (through a named event), or the rule itself."""
    e = game.stand_when
    if isinstance(e, ir.EventRef):
        e = game.events[e.name].when
    if isinstance(e, ir.BoolOp) and e.op == "or":
        return list(e.operands)
    return [e] if e is not None else []


def required(game: Game) -> set[str]:
    """The situations a card must show an example of: minority cells of every row, and every stand part at once."""
    need: set[str] = set()
    for t in game.draws:
        rows = [[(r, c) for c in t.cols] for r in t.rows] if t.cols else [[(r, None) for r in t.rows]]
        for row in rows:
            acts = Counter(t.cells[k] for k in row if k in t.cells)
            if len(acts) < 2:
                continue
            majority = acts.most_common(1)[0][0]
            need.update(cell_id(t.ident, k) for k in row if k in t.cells and t.cells[k] != majority)
    parts = stand_parts(game)
    if len(parts) > 1:
        need.add("stand:" + ",".join(str(i) for i in range(len(parts))))
    return need


def cell_id(ident: str, key) -> str:
    row, col = key
    return f"{ident}:{row}" if col is None else f"{ident}:{row},{col}"


def situations_of(game: Game, engine: ModuleType, cards) -> list[str]:
    """The situations one round shows: the cell behind each draw decision, or the stand parts that held."""
    r = engine.play(cards, explain=True)
    tables = {getattr(engine, f"{t.ident}_RULE", None): t for t in game.draws}
    out = []
    for s in r.steps:
        if s["step"] in ("draw", "stand") and s.get("rule") in tables:
            t = tables[s["rule"]]
            key = s["key"]
            out.append(cell_id(t.ident, tuple(key) if isinstance(key, (tuple, list)) else (key, None)))
        elif s["step"] == "stand all":
            try:
                held = [i for i, part in enumerate(stand_parts(game)) if Holds(game, engine, r).visit(part)]
            except (CannotTell, KeyError, TypeError, AttributeError):
                continue
            out.append("stand:" + ",".join(map(str, held)))
    return out


def describe(game: Game, lang: str, sid: str) -> str:
    """A situation in words."""
    say = Sentences(game, lang)
    if sid.startswith("stand:"):
        parts = stand_parts(game)
        held = [say.cond(parts[int(i)]) for i in sid[len("stand:"):].split(",") if i]
        return say.p.sentence(say.say(N_("%(facts)s: %(act)s."), facts=say.p.clauses(held, N_("%(first)s and %(last)s")),
                                      act=say.say(N_("no hand draws"))))
    ident, _, key = sid.partition(":")
    t = next(t for t in game.draws if t.ident == ident)
    row, _, col = key.partition(",")
    draws = t.cells.get((int(row), int(col) if col else None))
    act = say.say(N_("the %(hand)s draws"), hand=say.hand(t.hand)) if draws else \
        say.say(N_("the %(hand)s stands"), hand=say.hand(t.hand))
    facts = [say.cond(t.when)] if t.when is not None else []
    facts.append(say.say(N_("%(key)s is %(value)s"), key=say.cond(t.row_key), value=row))
    if col:
        facts.append(say.say(N_("%(key)s is %(value)s"), key=say.cond(t.col_key), value=col))
    return say.p.sentence(say.say(N_("%(facts)s: %(act)s."), facts=say.p.clauses(facts, N_("%(first)s and %(last)s")),
                                  act=act))


def entry(game: Game, lang: str, sid: str) -> str:
    """A situation in short, under the heading of its rule: the stand parts that held, or the cell's keys and action."""
    say = Sentences(game, lang)
    if sid.startswith("stand:"):
        parts = stand_parts(game)
        held = [say.cond(parts[int(i)]) for i in sid[len("stand:"):].split(",") if i]
        return say.p.sentence(say.p.clauses(held, N_("%(first)s and %(last)s")))
    ident, _, key = sid.partition(":")
    t = next(t for t in game.draws if t.ident == ident)
    row, _, col = key.partition(",")
    draws = t.cells.get((int(row), int(col) if col else None))
    return say.say(N_("%(keys)s: %(act)s"), keys=f"{row} × {col}" if col else row,
                   act=say.say(N_("draws")) if draws else say.say(N_("stands")))


def lookup(game: Game, lang: str, engine: ModuleType | None, examples: list[dict], cards: dict[str, list]) -> list[dict]:
    """The dispute lookup: one group per rule (the stand rule, each draw table, in the spec's order), each with
    its situations that some example shows and the ids of those examples; each example's own situations are
    filled in too (`examples[i]["situations"]`, in full sentences). `cards`: case id → its cards."""
    if engine is None or not game.is_dealt_round:
        return []
    shown: dict[str, list[str]] = {}
    for x in examples:
        if x["id"] not in cards:
            continue
        try:
            sids = situations_of(game, engine, cards[x["id"]])
        except Exception:  # noqa: BLE001 - an example the engine refuses is shown, but not indexed
            continue
        x["situations"] = [describe(game, lang, s) for s in sids]
        for s in sids:
            shown.setdefault(s, []).append(x["id"])
    say = Sentences(game, lang)
    groups = []
    stands = sorted(s for s in shown if s.startswith("stand:"))
    if stands:
        groups.append({"title": say.stand(), "axes": "", "entries": [
            {"id": s, "text": entry(game, lang, s), "examples": shown[s]} for s in stands]})
    for t in game.draws:
        cells = [s for s in shown if s.startswith(t.ident + ":")]
        if not cells:
            continue
        cells.sort(key=lambda s: tuple(int(k) for k in s.partition(":")[2].split(",")))
        axes = say.cond(t.row_key) if t.col_key is None else say.say(
            N_("%(rows)s × %(cols)s"), rows=say.cond(t.row_key), cols=say.cond(t.col_key))
        groups.append({"title": say.table_title(t), "axes": say.p.sentence(axes), "entries": [
            {"id": s, "text": entry(game, lang, s), "examples": shown[s]} for s in cells]})
    return groups
