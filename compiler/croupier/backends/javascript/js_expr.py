"""JavaScript back end: the model's expressions as JavaScript text in a generated engine.

One method per kind of expression (a `NodeVisitor` over `croupier.semantics.expr`), as the Python
back end's translator has. Numbers are exact: a whole number is a BigInt literal (`8n`), any other a
module constant (`Q_39_20 = frac(39n, 20n)`), and the arithmetic and comparisons go through the
runtime's `add`, `mul`, `eq`, `lt`… The names it writes are the ones the generated functions and
the runtime define: a dealt round's rules take the round `r`, a hand-type test the facts `h`, a
table formula and the settlement the table `t`, the seats by role, `tied` and the `let`s as `v_<name>`.
Spec text becomes code only as `js_literal` string constants.
"""

from __future__ import annotations

import json
from fractions import Fraction

from croupier.semantics import expr as ir
from croupier.syntax.visitor import NodeVisitor

# a call's JavaScript, by the function's identity (`Function.key`); {0}… are the arguments, {args} all of them,
# {dealt[i]} how many cards the deal gives the hand named by argument i
CALLS = {
    "total": "total({0})",
    "first2": "{0}.slice(0, 2)",
    "third": "third({0})",
    "value": "cardValue({0})",
    "drew": "({0}.length > {dealt[0]})",
    "count": "count({0})",
    "same_rank": "sameRank({0})",
    "first": "firstCard({0})",
    "last": "lastCard({0})",
    "card": "cardAt({0}, {1})",
    "rank": "cardRank({0})",
    "suit": "cardSuit({0})",
    "same_suit": "sameSuit({0})",
    "count_class": "countClass({0}, {1})",
    "count_suit": "countSuit({0}, {1})",
    "count_rank": "countRank({0}, {1})",
    "soft": "isSoft({0})",
    "abs": "abs({0})",
    "min": "min({args})",
    "max": "max({args})",
    "floor": "floor({0})",
    "class_count": "h.classes.get({0})",
    "stake": "t.stake({0})",
    "multiplier": "t.multiplier({0})",
    "paid": "t.paid.get({0})",
    "coins": "t.coins.get({0})",
    "placed": "bets.includes({0})",
}
COMPARE = {"=": "eq", "!=": "ne", "<": "lt", "<=": "le", ">": "gt", ">=": "ge"}
ARITHMETIC = {"+": "add", "-": "sub", "*": "mul", "/": "exactDiv", "mod": "exactMod"}


def js_literal(value: object) -> str:
    """A JavaScript literal of a text, bool, None or tuple of them (JSON text, with `<`, `>`, `&` and the line
    separators escaped, so that it is inert in a module and in an HTML page alike)."""
    if isinstance(value, (tuple, list)):
        return "[" + ", ".join(js_literal(v) for v in value) + "]"
    text = json.dumps(value, ensure_ascii=False)
    for ch in "<>&\u2028\u2029":
        text = text.replace(ch, f"\\u{ord(ch):04x}")
    return text


def js_number(value: Fraction | int, constants: dict[Fraction, str]) -> str:
    """JavaScript text for an exact number: a BigInt literal when whole, else a named module constant."""
    value = Fraction(value)
    if value.denominator == 1:
        return f"{value.numerator}n" if value >= 0 else f"(-{-value.numerator}n)"
    name = f"Q_{value.numerator}_{value.denominator}".replace("-", "M")
    constants[value] = name
    return name


class JavaScriptTranslator(NodeVisitor):
    """Translates one checked expression; fractions it meets are added to `constants`."""

    def __init__(self, constants: dict[Fraction, str], dealt: dict[str, int]) -> None:
        self.constants = constants
        self.dealt = dealt

    def visit_Num(self, e: ir.Num) -> str:
        return js_number(e.value, self.constants)

    def visit_HandRef(self, e: ir.HandRef) -> str:
        return f"r.{e.name}"

    def visit_EventRef(self, e: ir.EventRef) -> str:
        return f"event_{e.name}(r)"

    def visit_BetRef(self, e: ir.BetRef) -> str:
        return js_literal(e.name)

    visit_ClassRef = visit_RankName = visit_SuitName = visit_CardName = visit_BetRef

    def visit_HandFact(self, e: ir.HandFact) -> str:
        return f"h.{e.name}"

    def visit_TableFact(self, e: ir.TableFact) -> str:
        return f"t.{e.name}"

    def visit_FormulaRef(self, e: ir.FormulaRef) -> str:
        return f"t.formula_{e.name}"

    def visit_RoundFormulaRef(self, e: ir.RoundFormulaRef) -> str:
        return f"formula_{e.name}(r)"

    def visit_RoundFact(self, e: ir.RoundFact) -> str:
        return f"BigInt(r.{e.name})"

    def visit_LetRef(self, e: ir.LetRef) -> str:
        return f"v_{e.name}"

    def visit_RoleRef(self, e: ir.RoleRef) -> str:
        return e.name

    def visit_PairFact(self, e: ir.PairFact) -> str:
        return e.name

    def visit_Call(self, e: ir.Call) -> str:
        template = CALLS.get(e.function.key)
        if template is None:
            raise NotImplementedError(f"no JavaScript for the function `{e.function.key}`")
        args = [self.visit(a) for a in e.args]
        dealt = [self.dealt.get(a.name, 0) if isinstance(a, ir.Name) else 0 for a in e.args]
        return template.format(*args, args=", ".join(args), dealt=dealt)

    def visit_OutcomeIs(self, e: ir.OutcomeIs) -> str:
        return f"(r.outcome === {js_literal(e.what)})"

    def visit_TypeIs(self, e: ir.TypeIs) -> str:
        return f"(t.typeOf({e.subject}) === {js_literal(e.what)})"

    def visit_Binary(self, e: ir.Binary) -> str:
        return f"{ARITHMETIC[e.op]}({self.visit(e.left)}, {self.visit(e.right)})"

    def visit_Negate(self, e: ir.Negate) -> str:
        return f"neg({self.visit(e.operand)})"

    def visit_Compare(self, e: ir.Compare) -> str:
        return f"{COMPARE[e.op]}({self.visit(e.left)}, {self.visit(e.right)})"

    def visit_InRange(self, e: ir.InRange) -> str:
        value = self.visit(e.value)
        return f"(le({self.visit(e.low)}, {value}) && le({value}, {self.visit(e.high)}))"

    def visit_BoolOp(self, e: ir.BoolOp) -> str:
        op = {"and": " && ", "or": " || "}[e.op]
        return "(" + op.join(self.visit(o) for o in e.operands) + ")"

    def visit_Not(self, e: ir.Not) -> str:
        return f"(!{self.visit(e.operand)})"

    def visit_IfElse(self, e: ir.IfElse) -> str:
        return f"({self.visit(e.cond)} ? {self.visit(e.then)} : {self.visit(e.other)})"


def to_javascript(e: ir.Expr, constants: dict[Fraction, str], dealt: dict[str, int]) -> str:
    """JavaScript text for a checked expression of the model."""
    return JavaScriptTranslator(constants, dealt).visit(e)
