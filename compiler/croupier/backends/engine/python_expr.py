"""Engine back end: the model's expressions as Python text in a generated engine.

One method per kind of expression (a `NodeVisitor` over `croupier.semantics.expr`).
The text is built only from the templates below and from names the resolver
checked, so spec text never becomes code. The names it writes are the ones the
generated functions and the runtime define:

- a dealt round's rules take the round `r` (`r.player`, `event_natural(r)`,
  `r.outcome`); `no_valid_bets(r, bets)` also the set of bets placed;
- a hand-type test takes the hand's facts `h` (`h.count`, `h.classes[...]`);
- a table formula and the settlement take the table `t` (`t.stake(winner)`,
  `t.formula_base`), the seats by role (`winner`, `banker`), `tied`, and
  the settle block's `let`s as `v_<name>`.

Exact fractions become module constants (`Q_1_2`), collected in `constants`.
"""

from __future__ import annotations

from fractions import Fraction

from croupier.semantics import expr as ir
from croupier.syntax.visitor import NodeVisitor

# a call's Python, by the function's identity (`Function.key`); {0}… are the arguments,
# {args} all of them, {names[i]} the name of a hand given as argument i
CALLS = {
    "total": "total({0})",
    "first2": "{0}[:2]",
    "third": "third({0})",
    "value": "card_value({0})",
    "drew": "(len({0}) > DEALT[{names[0]!r}])",
    "count": "len({0})",
    "same_rank": "same_rank({0})",
    "first": "first_card({0})",
    "last": "last_card({0})",
    "card": "card_at({0}, {1})",
    "rank": "card_rank({0})",
    "suit": "card_suit({0})",
    "same_suit": "same_suit({0})",
    "count_class": "count_class({0}, {1})",
    "count_suit": "count_suit({0}, {1})",
    "count_rank": "count_rank({0}, {1})",
    "soft": "is_soft({0})",
    "abs": "abs({0})",
    "min": "min({args})",
    "max": "max({args})",
    "floor": "floor({0})",
    "class_count": "h.classes[{0}]",
    "stake": "t.stake({0})",
    "multiplier": "t.multiplier({0})",
    "paid": "t.paid[{0}]",
    "coins": "t.coins[{0}]",
    "placed": "({0} in bets)",
}


def py_number(value: Fraction, constants: dict[Fraction, str]) -> str:
    """Python text for an exact number; fractions become named module constants."""
    if value.denominator == 1:
        return str(value.numerator)
    name = f"Q_{value.numerator}_{value.denominator}".replace("-", "M")
    constants[value] = name
    return name


class PythonTranslator(NodeVisitor):
    """Translates one checked expression; fractions it meets are added to `constants`."""

    def __init__(self, constants: dict[Fraction, str]) -> None:
        self.constants = constants

    def visit_Num(self, e: ir.Num) -> str:
        return py_number(e.value, self.constants)

    def visit_HandRef(self, e: ir.HandRef) -> str:
        return f"r.{e.name}"

    def visit_EventRef(self, e: ir.EventRef) -> str:
        return f"event_{e.name}(r)"

    def visit_BetRef(self, e: ir.BetRef) -> str:
        return repr(e.name)

    def visit_ClassRef(self, e: ir.ClassRef) -> str:
        return repr(e.name)

    def visit_HandFact(self, e: ir.HandFact) -> str:
        return f"h.{e.name}"

    def visit_TableFact(self, e: ir.TableFact) -> str:
        return f"t.{e.name}"

    def visit_FormulaRef(self, e: ir.FormulaRef) -> str:
        return f"t.formula_{e.name}"

    def visit_RoundFormulaRef(self, e: ir.RoundFormulaRef) -> str:
        return f"formula_{e.name}(r)"

    def visit_RoundFact(self, e: ir.RoundFact) -> str:
        return f"r.{e.name}"

    def visit_RankName(self, e: ir.RankName) -> str:
        return repr(e.name)

    visit_SuitName = visit_CardName = visit_RankName

    def visit_LetRef(self, e: ir.LetRef) -> str:
        return f"v_{e.name}"

    def visit_RoleRef(self, e: ir.RoleRef) -> str:
        return e.name

    def visit_PairFact(self, e: ir.PairFact) -> str:
        return e.name

    def visit_Call(self, e: ir.Call) -> str:
        template = CALLS.get(e.function.key)
        if template is None:
            raise NotImplementedError(f"no Python for the function `{e.function.key}`")
        args = [self.visit(a) for a in e.args]
        names = [a.name if isinstance(a, ir.Name) else "" for a in e.args]  # checked identifiers
        return template.format(*args, args=", ".join(args), names=names)

    def visit_OutcomeIs(self, e: ir.OutcomeIs) -> str:
        return f"(r.outcome == {e.what!r})"

    def visit_TypeIs(self, e: ir.TypeIs) -> str:
        return f"(t.type_of({e.subject}) == {e.what!r})"

    def visit_Binary(self, e: ir.Binary) -> str:
        if e.op == "/":
            return f"exact_div({self.visit(e.left)}, {self.visit(e.right)})"
        if e.op == "mod":
            return f"exact_mod({self.visit(e.left)}, {self.visit(e.right)})"
        return f"({self.visit(e.left)} {e.op} {self.visit(e.right)})"

    def visit_Negate(self, e: ir.Negate) -> str:
        return f"(-{self.visit(e.operand)})"

    def visit_Compare(self, e: ir.Compare) -> str:
        op = {"=": "==", "!=": "!="}.get(e.op, e.op)
        return f"({self.visit(e.left)} {op} {self.visit(e.right)})"

    def visit_InRange(self, e: ir.InRange) -> str:
        return f"({self.visit(e.low)} <= {self.visit(e.value)} <= {self.visit(e.high)})"

    def visit_BoolOp(self, e: ir.BoolOp) -> str:
        return "(" + f" {e.op} ".join(self.visit(o) for o in e.operands) + ")"

    def visit_Not(self, e: ir.Not) -> str:
        return f"(not {self.visit(e.operand)})"

    def visit_IfElse(self, e: ir.IfElse) -> str:
        return f"({self.visit(e.then)} if {self.visit(e.cond)} else {self.visit(e.other)})"


def to_python(e: ir.Expr, constants: dict[Fraction, str]) -> str:
    """Python text for a checked expression of the model (an `Invalid` part is a compiler bug here)."""
    return PythonTranslator(constants).visit(e)


class SharedTotals(PythonTranslator):
    """Rules of one function that read a round `r` and share its hands' totals: `total(hand)` of a hand of
    `shared` is the local `t_<hand>` and `soft(hand)` is `s_<hand> > 0`, which the function sets once at its
    top (`prelude`). `reads` counts the reads of each hand's total or softness, `softness` the hands whose
    softness is read: a first pass with nothing shared says which hands a function reads more than once."""

    def __init__(self, constants: dict[Fraction, str], shared: frozenset[str] = frozenset()) -> None:
        super().__init__(constants)
        self.shared = shared
        self.reads: dict[str, int] = {}
        self.softness: set[str] = set()

    def visit_Call(self, e: ir.Call) -> str:
        key, args = e.function.key, e.args
        if key in ("total", "soft") and isinstance(args[0], ir.HandRef):
            hand = args[0].name
            self.reads[hand] = self.reads.get(hand, 0) + 1
            if key == "soft":
                self.softness.add(hand)
            if hand in self.shared:
                return f"t_{hand}" if key == "total" else f"(s_{hand} > 0)"
        return super().visit_Call(e)

    def prelude(self, hands: list[str]) -> list[str]:
        """The lines that set the shared hands' locals, in the order of `hands`."""
        return [f"t_{h}, s_{h} = best_total(r.{h})" if h in self.softness else f"t_{h} = total(r.{h})"
                for h in hands if h in self.shared]


def shared_totals(constants: dict[Fraction, str], exprs: list[ir.Expr]) -> SharedTotals:
    """The translator of a function whose rules are `exprs`: it shares the totals of the hands they read twice
    or more (read once, a total is left where it is read)."""
    first = SharedTotals(dict(constants))
    for e in exprs:
        first.visit(e)
    shared = SharedTotals(constants, frozenset(h for h, n in first.reads.items() if n > 1))
    shared.softness = first.softness
    return shared


class LocalTranslator(PythonTranslator):
    """The same expressions read from a round being dealt in local variables (the engine's fast path).

    A hand is the list `h_<hand>`; with plain totals its total is the running `t_<hand>`; with soft totals
    a hand of `kept` has its total in `t_<hand>` and its cards counted at their other value in `s_<hand>`
    (set after the deal and after each card it draws), and `read` collects the other hands whose total or
    softness a rule reads (through `total` and `is_soft`); the total of its first two cards is `f_<hand>`
    (set once after the deal, for a hand dealt two cards);
    the outcome is `outcome`; an event or a round formula is written out where it is read, so it is
    computed from the round as it stands then, as `event_<name>(r)` would be. `hoisted` collects the
    `f_<hand>` names used.
    """

    def __init__(self, constants: dict[Fraction, str], events: dict[str, ir.Expr], formulas: dict[str, ir.Expr],
                 dealt: dict[str, int], running_totals: bool, kept: frozenset[str] = frozenset()) -> None:
        super().__init__(constants)
        self.events = events
        self.formulas = formulas
        self.dealt = dealt
        self.running = running_totals
        self.kept = kept
        self.read: set[str] = set()
        self.hoisted: set[str] = set()

    def visit_HandRef(self, e: ir.HandRef) -> str:
        return f"h_{e.name}"

    def visit_EventRef(self, e: ir.EventRef) -> str:
        return f"({self.visit(self.events[e.name])})"

    def visit_RoundFormulaRef(self, e: ir.RoundFormulaRef) -> str:
        return f"({self.visit(self.formulas[e.name])})"

    def visit_RoundFact(self, e: ir.RoundFact) -> str:
        return "(pos - start)" if e.name == "cards_used" else super().visit_RoundFact(e)

    def visit_OutcomeIs(self, e: ir.OutcomeIs) -> str:
        return f"(outcome == {e.what!r})"

    def dealt_hand(self, e: ir.Expr, least: int) -> str | None:
        """The hand `e` names when it is a hand the deal gives at least `least` cards."""
        if isinstance(e, ir.HandRef) and self.dealt.get(e.name, 0) >= least:
            return e.name
        return None

    def first_card(self, e: ir.Expr) -> str | None:
        """`h_<hand>[0]` for `first(hand)` of a hand the deal gives a card (never None)."""
        if isinstance(e, ir.Call) and e.function.key == "first" and self.dealt_hand(e.args[0], 1):
            return f"h_{e.args[0].name}[0]"
        return None

    def visit_Call(self, e: ir.Call) -> str:
        key, args = e.function.key, e.args
        if key in ("total", "soft") and isinstance(args[0], ir.HandRef):
            hand = args[0].name
            if key == "total" and (self.running or hand in self.kept):
                return f"t_{hand}"
            if key == "soft" and hand in self.kept:
                return f"(s_{hand} > 0)"
            self.read.add(hand)
        if key in ("total", "same_rank") and isinstance(args[0], ir.Call) and args[0].function.key == "first2":
            hand = self.dealt_hand(args[0].args[0], 2)
            if hand is not None and key == "total" and self.dealt[hand] == 2:
                self.hoisted.add(hand)
                return f"f_{hand}"
            if hand is not None and key == "same_rank":
                return f"(RANK_OF[h_{hand}[0]] == RANK_OF[h_{hand}[1]])"
        if key == "drew" and isinstance(args[0], ir.HandRef):
            return f"(len(h_{args[0].name}) > {self.dealt.get(args[0].name, 0)})"
        if key in ("value", "rank", "suit"):
            card = self.first_card(args[0])
            if card is not None:
                table = {"value": "CARD_VALUE", "rank": "RANK_OF", "suit": "SUIT_OF"}[key]
                return f"{table}[{card}]"
        if key == "first" and self.dealt_hand(args[0], 1):
            return f"h_{args[0].name}[0]"
        return super().visit_Call(e)
