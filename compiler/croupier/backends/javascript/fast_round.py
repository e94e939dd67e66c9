"""JavaScript back end, the fast path of a dealt round: the spec's rules written out in one function on plain numbers.

`deal_fast(cards, start)` deals, draws and decides a round as the Python engine's `deal_at` does: the hands are
local arrays, their totals running locals (`t_<hand>`), the total of a hand's first two cards `f_<hand>`, a
draw table one `Map` lookup, events and formulas written out where they are read. Card values, totals, keys
and counts are plain JavaScript numbers, not the BigInts of the rule functions: the emitter writes the fast
path only when every number it can meet is exact as a double, that is when every card value and every
constant of the round's rules is a multiple of 1/1024 below 2^20 (halves and quarters included) and the rules
add, subtract, take a remainder by a constant, compare and count, never multiply or divide. Sums of at most
4096 such values are then exact (under 2^42 units of 1/1024), so every comparison and every table key is
the one the exact engine reaches. A game outside these bounds (a soft total, a hand drawing while a
condition holds, multiplication, division, a shoe of more than 4096 cards) gets no fast path.

Anything unusual in a round (the cards running out, a table without the cell reached, a rule reading a card
that was not dealt, no outcome holding) throws the runtime's `SLOW`: the runtime then deals the round again
on the exact rule functions, which give the error by name and message. Money never reaches this function.
"""

from __future__ import annotations

from fractions import Fraction

from croupier.backends.javascript.js_expr import js_literal
from croupier.backends.pywriter import safe_text
from croupier.semantics import expr as ir
from croupier.semantics.expr import expr_text
from croupier.semantics.model import Game
from croupier.syntax.visitor import NodeVisitor

UNIT = Fraction(1, 1024)  # every number of a fast path is a whole multiple of this
LIMIT = 2 ** 20  # and below this in magnitude
MOST_CARDS = 4096  # the most cards a round can hold (a shoe's): sums stay below 2^42 units


# what the fast path reads of the game: card values as numbers, and the reads that give up (SLOW) where the
# exact path raises an error
HELPERS = """// ---- the fast path: the same rules on plain numbers ------------------------------------------------
const CV = game.numberValues(), RANK_OF = game.RANK_OF, SUIT_OF = game.SUIT_OF;
const NO_STEPS = Object.freeze([]);  // a fast round traces nothing
const fastValue = (card) => { const v = CV.get(card); if (v === undefined) throw SLOW; return v; };
const fastRank = (card) => { if (card === null) throw SLOW; return RANK_OF.get(card); };
const fastSuit = (card) => { if (card === null) throw SLOW; return SUIT_OF.get(card); };
const fastTotal = (cards) => game.numberTotal(cards);
const fastMod = (a, b) => { const m = a % b; return m < 0 ? m + b : m; };
"""


class NotFast(Exception):
    """A rule the fast path does not write (it would not be exact on doubles, or it reads what the path keeps
    nowhere): the game gets no fast path."""


def fast_number(value: Fraction | int) -> str:
    """A number as an exact JavaScript double literal; NotFast when it is not a multiple of 1/1024 below 2^20."""
    value = Fraction(value)
    if (value / UNIT).denominator != 1 or abs(value) >= LIMIT:
        raise NotFast(f"the number {value} is not exact on the fast path")
    text = str(value.numerator) if value.denominator == 1 else repr(float(value))
    return f"({text})" if value < 0 else text


class FastTranslator(NodeVisitor):
    """A round's rule as a JavaScript expression on the locals of `deal_fast` (numbers, arrays, texts)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.dealt = {h: game.deal_order.count(h) for h in game.hands}
        self.hoisted: set[str] = set()

    def visit_Num(self, e: ir.Num) -> str:
        return fast_number(e.value)

    def visit_HandRef(self, e: ir.HandRef) -> str:
        return f"h_{e.name}"

    def visit_EventRef(self, e: ir.EventRef) -> str:
        return f"({self.visit(self.game.events[e.name].when)})"

    def visit_RoundFormulaRef(self, e: ir.RoundFormulaRef) -> str:
        return f"({self.visit(self.game.formulas[e.name].expr)})"

    def visit_RoundFact(self, e: ir.RoundFact) -> str:
        if e.name != "cards_used":
            raise NotFast(f"the round fact {e.name}")
        return "(pos - start)"

    def visit_BetRef(self, e: ir.Name) -> str:
        return js_literal(e.name)

    visit_ClassRef = visit_RankName = visit_SuitName = visit_CardName = visit_BetRef

    def visit_OutcomeIs(self, e: ir.OutcomeIs) -> str:
        return f"(outcome === {js_literal(e.what)})"

    def dealt_hand(self, e: ir.Expr, least: int) -> str | None:
        if isinstance(e, ir.HandRef) and self.dealt.get(e.name, 0) >= least:
            return e.name
        return None

    def visit_Call(self, e: ir.Call) -> str:
        key, args = e.function.key, e.args
        arg0 = args[0] if args else None
        if key == "total" and isinstance(arg0, ir.HandRef):
            return f"t_{arg0.name}"
        if key in ("total", "same_rank") and isinstance(arg0, ir.Call) and arg0.function.key == "first2":
            hand = self.dealt_hand(arg0.args[0], 2)
            if hand is not None and key == "total" and self.dealt[hand] == 2:
                self.hoisted.add(hand)
                return f"f_{hand}"
            if hand is not None and key == "same_rank":
                return f"(RANK_OF.get(h_{hand}[0]) === RANK_OF.get(h_{hand}[1]))"
        if key in ("value", "rank", "suit", "first") and isinstance(arg0, ir.Call) and arg0.function.key == "first" \
                and self.dealt_hand(arg0.args[0], 1):
            card = f"h_{arg0.args[0].name}[0]"
            return {"value": f"CV.get({card})", "rank": f"RANK_OF.get({card})", "suit": f"SUIT_OF.get({card})",
                    "first": card}[key]
        if key == "first" and self.dealt_hand(arg0, 1):
            return f"h_{arg0.name}[0]"
        if key == "drew" and isinstance(arg0, ir.HandRef):
            return f"(h_{arg0.name}.length > {self.dealt.get(arg0.name, 0)})"
        a = [self.visit(x) for x in args]
        calls = {
            "total": "fastTotal({0})", "first2": "{0}.slice(0, 2)", "third": "third({0})", "value": "fastValue({0})",
            "count": "{0}.length", "same_rank": "sameRank({0})", "same_suit": "sameSuit({0})",
            "first": "firstCard({0})", "last": "lastCard({0})", "rank": "fastRank({0})", "suit": "fastSuit({0})",
            "count_class": "Number(countClass({0}, {1}))", "count_suit": "Number(countSuit({0}, {1}))",
            "count_rank": "Number(countRank({0}, {1}))", "abs": "Math.abs({0})", "min": "Math.min({args})",
            "max": "Math.max({args})", "floor": "Math.floor({0})",
        }
        if key not in calls:
            raise NotFast(f"the function {key}")
        return calls[key].format(*a, args=", ".join(a))

    def visit_Binary(self, e: ir.Binary) -> str:
        if e.op in ("+", "-"):
            return f"({self.visit(e.left)} {e.op} {self.visit(e.right)})"
        if e.op == "mod" and isinstance(e.right, ir.Num) and e.right.value > 0:
            return f"fastMod({self.visit(e.left)}, {fast_number(e.right.value)})"
        raise NotFast(f"the operator {e.op}")

    def visit_Negate(self, e: ir.Negate) -> str:
        return f"(-{self.visit(e.operand)})"

    def visit_Compare(self, e: ir.Compare) -> str:
        op = {"=": "===", "!=": "!=="}.get(e.op, e.op)
        return f"({self.visit(e.left)} {op} {self.visit(e.right)})"

    def visit_InRange(self, e: ir.InRange) -> str:
        value = self.visit(e.value)
        return f"({self.visit(e.low)} <= {value} && {value} <= {self.visit(e.high)})"

    def visit_BoolOp(self, e: ir.BoolOp) -> str:
        return "(" + {"and": " && ", "or": " || "}[e.op].join(self.visit(o) for o in e.operands) + ")"

    def visit_Not(self, e: ir.Not) -> str:
        return f"(!{self.visit(e.operand)})"

    def visit_IfElse(self, e: ir.IfElse) -> str:
        return f"({self.visit(e.cond)} ? {self.visit(e.then)} : {self.visit(e.other)})"


def rule_text(text: str, cite: str | None) -> str:
    return f"{text} [{cite}]" if cite else text


class FastRound:
    """The lines of `deal_fast` of one dealt-round game (NotFast when it has none)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.tr = FastTranslator(game)
        self.lines: list[str] = []
        self.depth = 1

    def line(self, text: str) -> None:
        self.lines.append("  " * self.depth + text)

    def comment(self, text: str) -> None:
        self.line("// " + safe_text(text))

    def js(self, e: ir.Expr) -> str:
        return self.tr.visit(e)

    def check(self) -> None:
        g = self.game
        if g.soft is not None or g.repeats:
            raise NotFast("a soft total or a hand drawing while a condition holds")
        if g.shoe.decks * len(g.shoe.cards) > MOST_CARDS:
            raise NotFast("a shoe of more cards than the fast path adds exactly")
        for v in [*dict(g.values).values(), *dict(g.card_values or {}).values(), g.modulus or 0]:
            fast_number(v)

    def emit(self) -> list[str]:
        g = self.game
        self.check()
        out = ["// The round dealt from cards[start] on, every rule above written out on plain numbers (exact here:",
               "// card values and constants are multiples of 1/1024 below 2^20, the rules only add, subtract and",
               "// compare). Anything unusual throws SLOW: the runtime then deals the round on the rule functions.",
               "export function deal_fast(cards, start) {"]
        self.line(f"if (cards.length - start < {len(g.deal_order)}) throw SLOW;")
        self.comment(rule_text("deal " + ", ".join(g.deal_order), g.deal_cite))
        for hand in g.hands:
            at = [i for i, h in enumerate(g.deal_order) if h == hand]
            self.line(f"const h_{hand} = [" + ", ".join(f"cards[start + {i}]" if i else "cards[start]" for i in at)
                      + "];")
        self.line(f"let pos = start + {len(g.deal_order)}, card, draws;")
        for hand in g.hands:
            self.line(f"let t_{hand} = {self.sum_of(hand)};")
        mark = len(self.lines)
        if g.stand_when is not None:
            self.comment(rule_text("stand all when " + expr_text(g.stand_when), g.stand_cite))
            self.line(f"if (!{self.js(g.stand_when)}) {{")
            self.depth += 1
            self.draws()
            self.depth -= 1
            self.line("}")
        else:
            self.draws()
        self.line("let outcome;")
        for i, o in enumerate(g.outcomes.values()):
            self.comment(rule_text(f"outcome {o.name} when " + expr_text(o.when), o.cite))
            self.line(f"{'else ' if i else ''}if ({self.js(o.when)}) outcome = {js_literal(o.name)};")
        self.line("else throw SLOW;")
        self.lines[mark:mark] = ["  " + f"const f_{h} = t_{h};" for h in sorted(self.tr.hoisted)]
        self.line("const r = Object.create(Round.prototype);")
        for hand in g.hands:
            self.line(f"r.{hand} = h_{hand};")
        self.line("r.outcome = outcome;")
        self.line("r.cards_used = pos - start;")
        self.line("r.steps = NO_STEPS;")
        self.line("return r;")
        return out + self.lines + ["}"]

    def sum_of(self, hand: str) -> str:
        n = self.tr.dealt[hand]
        if not n:
            return "0"
        s = " + ".join(f"CV.get(h_{hand}[{i}])" for i in range(n))
        return f"fastMod({s}, {fast_number(self.game.modulus)})" if self.game.modulus else s

    def draws(self) -> None:
        g = self.game
        for hand, tables in g.hand_draws():
            for i, t in enumerate(tables):
                self.comment(rule_text(t.describe(), t.cite))
                lookup = f"draws = FAST_{t.ident}.get({self.js(t.row_key)})"
                if t.col_key is not None:
                    lookup += f"?.get({self.js(t.col_key)})"
                if t.when is None:
                    self.line(f"else {lookup};" if i else f"{lookup};")
                    break
                self.line(f"{'else if' if i else 'if'} ({self.js(t.when)}) {lookup};")
            else:
                self.line("else draws = false;  // no draw table applies: the hand stands")
            self.line("if (draws === undefined) throw SLOW;")
            self.line("if (draws) {")
            self.depth += 1
            self.line("if (pos >= cards.length) throw SLOW;")
            self.line("card = cards[pos++];")
            self.line(f"h_{hand}.push(card);")
            m = self.game.modulus
            self.line(f"t_{hand} = fastMod(t_{hand} + CV.get(card), {fast_number(m)});" if m
                      else f"t_{hand} += CV.get(card);")
            self.depth -= 1
            self.line("}")

    def grids(self) -> list[str]:
        """The draw tables keyed by plain numbers (and texts), for the fast path."""
        out = []
        for _hand, tables in self.game.hand_draws():
            for t in tables:
                if not t.cols:
                    row = " ".join("D" if t.cells.get((r, None)) else ("S" if (r, None) in t.cells else "?")
                                   for r in t.rows)
                    keys = "[" + ", ".join(fast_key(r) for r in t.rows) + "]"
                    out.append(f"const FAST_{t.ident} = gridTable(null, [[{keys}, {js_literal(row)}]], fastKey);")
                else:
                    out.append(f"const FAST_{t.ident} = gridTable([{', '.join(fast_key(c) for c in t.cols)}], [")
                    for r in t.rows:
                        row = " ".join("D" if t.cells.get((r, c)) else ("S" if (r, c) in t.cells else "?")
                                       for c in t.cols)
                        out.append(f"  [{fast_key(r)}, {js_literal(row)}],")
                    out.append("], fastKey);")
        return out


def fast_key(value: object) -> str:
    return js_literal(value) if isinstance(value, str) else fast_number(value)


def fast_round(game: Game) -> str | None:
    """The fast path of a dealt-round game (its number-keyed draw tables and `deal_fast`), or None when its rules
    are not all exact on doubles."""
    f = FastRound(game)
    try:
        body = f.emit()
        grids = f.grids()
    except NotFast:
        return None
    return "\n".join([HELPERS, *grids, "", *body]) + "\n"
