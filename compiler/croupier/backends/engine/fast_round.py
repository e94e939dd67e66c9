"""Engine back end, the fast path of a dealt round: the spec's rules written out in one function.

`deal_at(cards, start)` deals, draws and decides a round with every rule inlined
where it applies: the hands are local lists, their totals are kept in locals (plain
totals as each card comes; a soft total, with how many cards count at their other
value, by `best_total` after the deal and after each card the hand draws, for the
hands whose total a rule reads) instead of summed again by every rule, a draw table is one
dictionary lookup, events and formulas are written out where they are read. It is
what the shoe, `play` (without tracing) and the exact enumerator deal with; the
rule functions (`event_natural`, `decide_banker`, `bet_tie`, …) stay, with their
citations, for tracing, explaining and tools.

`deal_at(cards, start, True)` deals the same round and, instead of building it,
says which clause decided each bet (`SETTLE_KEY_BETS` order): what a simulation
tallies. A clause's return per unit staked is fixed by the clause (and the payout
table row), so a simulation settles one round of each key with the bet functions
and counts the rest, exactly. `deal_at(cards, start, "round")` gives the round and
its key: a table settles one round of each key with its bettors' stakes and reuses
the returns (and the pushed stakes) for every later round of that key.
"""

from __future__ import annotations

from fractions import Fraction

from croupier.backends.engine.bet_rules import row_test
from croupier.backends.engine.python_expr import LocalTranslator
from croupier.backends.pywriter import PyWriter, literal
from croupier.semantics.expr import expr_text
from croupier.semantics.model import Game


def rule_text(text: str, cite: str | None) -> str:
    return f"{text} [{cite}]" if cite else text


class FastRound:
    """Writes `deal_at` of one dealt-round game."""

    def __init__(self, game: Game, w: PyWriter, constants: dict[Fraction, str],
                 kept: frozenset[str] | None = None) -> None:
        self.game = game
        self.w = w
        self.dealt = {h: game.deal_order.count(h) for h in game.hands}
        self.running = game.soft is None  # a soft total is the best of several: not kept as each card comes
        if kept is None:
            kept = frozenset() if self.running else soft_totals_read(game, constants)
        self.kept = kept  # hands whose soft total is kept in t_<hand>, s_<hand>
        self.tr = LocalTranslator(constants, {n: e.when for n, e in game.events.items()},
                                  {n: f.expr for n, f in game.formulas.items()}, self.dealt, self.running, kept)

    def py(self, expr) -> str:
        return self.tr.visit(expr)

    def emit(self) -> None:
        w = self.w
        w.line(f"SETTLE_KEY_BETS = {literal(tuple(self.game.bets))}")
        w.blank(2)
        with w.block("def deal_at(cards, start, settle_key=False):"):
            w.line('"""The round dealt from `cards[start]` on (canonical codes): the shoe\'s `play`, every rule inlined;')
            w.line("with `settle_key`, (cards used, (outcome, the number of the clause or row deciding each bet of")
            w.line("SETTLE_KEY_BETS, 0 for none)), with settle_key=\"round\" (round, that key). Cards running out: ShoeRanOut.")
            w.line('"""')
            self.body()
            with w.block("if settle_key is not True:  # the round itself, alone or with its settle key"):
                self.build_round()
                with w.block("if not settle_key:"):
                    w.line("return r")
            names = []
            for bet in self.game.bets.values():
                names.append(self.decision(bet))
            w.line(f"key = (outcome, {''.join(n + ', ' for n in names)})")
            with w.block('if settle_key == "round":'):
                w.line("return r, key")
            w.line("return pos - start, key")
        w.blank(2)

    def build_round(self) -> None:
        """`r`, the Round of the locals (no steps: the fast path traces nothing)."""
        w = self.w
        w.line("r = Round.__new__(Round)")
        for hand in self.game.hands:
            w.line(f"r.{hand} = h_{hand}")
        w.line("r.outcome = outcome")
        w.line("r.cards_used = pos - start")
        w.line("r.steps = []")

    # ---- the round ---------------------------------------------------------------------
    def body(self) -> None:
        """Deal, draw and decide the outcome into locals; IndexError (cards ran out) becomes ShoeRanOut."""
        w = self.w
        g = self.game
        with w.block("try:"):
            w.comment(rule_text("deal " + ", ".join(g.deal_order), g.deal_cite))
            for hand in g.hands:
                at = [i for i, h in enumerate(g.deal_order) if h == hand]
                w.line(f"h_{hand} = [" + ", ".join(f"cards[start + {i}]" if i else "cards[start]" for i in at) + "]")
            w.line(f"pos = start + {len(g.deal_order)}")
            if self.running:
                for hand in g.hands:
                    w.line(f"t_{hand} = {self.sum_of(hand)}")
            for hand in g.hands:
                if hand in self.kept:
                    w.line(f"t_{hand}, s_{hand} = best_total(h_{hand})  # its total, cards at their other value")
            self.tr.hoisted.clear()
            mark, indent = len(w.lines), "    " * w.level
            if g.stand_when is not None:
                w.comment(rule_text("stand all when " + expr_text(g.stand_when), g.stand_cite))
                with w.block(f"if not {self.py(g.stand_when)}:"):
                    self.draws()
            else:
                self.draws()
            for i, o in enumerate(g.outcomes.values()):
                w.comment(rule_text(f"outcome {o.name} when " + expr_text(o.when), o.cite))
                with w.block(f"{'el' if i else ''}if {self.py(o.when)}:"):
                    w.line(f"outcome = {literal(o.name)}")
            with w.block("else:"):
                w.line('raise EngineError("no outcome of the spec holds for this round")')
            hoisted = [indent + (f"f_{h} = t_{h}" if self.running or h in self.kept else f"f_{h} = total(h_{h})")
                       for h in sorted(self.tr.hoisted)]
            w.lines[mark:mark] = hoisted  # the first two cards' totals, right after the deal
        with w.block("except IndexError:"):
            w.line('raise ShoeRanOut("the shoe ran out of cards in the middle of a round") from None')

    def sum_of(self, hand: str) -> str:
        n = self.dealt[hand]
        if not n:
            return "0"
        s = " + ".join(f"CARD_VALUE[h_{hand}[{i}]]" for i in range(n))
        return f"({s}) % {self.game.modulus}" if self.game.modulus else s

    def take(self, hand: str) -> None:
        """Give `hand` the next card."""
        w = self.w
        w.line("card = cards[pos]")
        w.line("pos += 1")
        w.line(f"h_{hand}.append(card)")
        if self.running:
            m = self.game.modulus
            w.line(f"t_{hand} = (t_{hand} + CARD_VALUE[card]) % {m}" if m else f"t_{hand} += CARD_VALUE[card]")
        elif hand in self.kept:
            w.line(f"t_{hand}, s_{hand} = best_total(h_{hand})")

    def draws(self) -> None:
        w = self.w
        g = self.game
        for hand, tables in g.hand_draws():
            if hand in g.repeats:
                rule = g.repeats[hand]
                w.comment(rule_text(rule.describe(), rule.cite))
                with w.block(f"while {self.py(rule.when)}:"):
                    self.take(hand)
                continue
            for i, t in enumerate(tables):
                w.comment(rule_text(t.describe(), t.cite))
                key = self.py(t.row_key)
                if t.col_key is not None:
                    key = f"({key}, {self.py(t.col_key)})"
                head = "if" if i == 0 else "elif"
                if t.when is not None:
                    with w.block(f"{head} {self.py(t.when)}:"):
                        self.lookup(t, key)
                else:
                    if i:
                        with w.block("else:"):
                            self.lookup(t, key)
                    else:
                        self.lookup(t, key)
                    break
            else:
                with w.block("else:"):
                    w.line("draws = False  # no draw table applies: the hand stands")
            with w.block("if draws:"):
                self.take(hand)

    def lookup(self, t, key: str) -> None:
        w = self.w
        w.line(f"key = {key}")
        w.line(f"draws = {t.ident}.get(key)")
        with w.block("if draws is None:"):
            w.line(f"raise MissingCell({t.ident}_RULE, key)")

    # ---- the bets --------------------------------------------------------------------------
    def decision(self, bet) -> str:
        """`k_<bet>` = the number of the clause (or payout-table row) that decides the bet, 0 if none."""
        w = self.w
        name = f"k_{bet.name}"
        cites = sorted({rule.cite for rule in bet.clauses if rule.cite})
        w.comment(f"{bet.name}: its clauses in the order written" + (f" [{'; '.join(cites)}]" if cites else ""))
        w.line(f"{name} = 0")
        number = 0
        for rule in bet.clauses:
            when = self.py(rule.when)
            for row in (rule.table.rows if rule.table is not None else [None]):
                number += 1
                test = when if row is None else f"{when} and {row_test(row, self.py(rule.table.key), self.py)}"
                with w.block(f"{'elif' if number > 1 else 'if'} {test}:"):
                    w.line(f"{name} = {number}")
        return name


def soft_totals_read(game: Game, constants: dict[Fraction, str]) -> frozenset[str]:
    """The hands whose soft total (or softness) `deal_at` reads: found by writing it once aside."""
    scratch = FastRound(game, PyWriter(), dict(constants), frozenset())
    scratch.emit()
    return frozenset(scratch.tr.read)


def fast_functions(game: Game, w: PyWriter, constants: dict[Fraction, str]) -> None:
    """`SETTLE_KEY_BETS` and `deal_at` of a dealt-round game."""
    FastRound(game, w, constants).emit()
