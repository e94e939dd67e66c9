"""Engine back end: write a Python engine (standard library only) for a game, on the runtime library.

The engine is the spec's data as readable Python (names from the spec), the game object built
from it (`DealtRound` or `SeatGame` of `croupier_runtime`, the runtime package written once as
one file beside the engines), then the spec's rules as Python functions, each with the spec's
text and citation beside it, which the game object is then given. The engine's public API is its
own functions and, forwarded to the game object, the runtime's (`__all__` lists both; its
docstring, its own); the exact enumerator is not in the engine but in its analysis companion
(`analysis_emitter`). Spec text and the spec's path only ever enter the engine as `literal`
string constants or through `safe_text` in comments and docstrings; the result is checked with
`compile()`, and for names it reads but never binds, before it is returned.
"""

from __future__ import annotations

from fractions import Fraction

from croupier.backends.engine.analysis_emitter import companion_name
from croupier.backends.engine.api import assemble, checked_module
from croupier.backends.engine.bet_rules import bet_functions
from croupier.backends.engine.fast_round import fast_functions
from croupier.backends.engine.python_expr import py_number, shared_totals, to_python
from croupier.backends.engine.table_rules import table_data, table_functions
from croupier.backends.pywriter import PyWriter, literal
from croupier.runtime.dealt_round import DealtRound
from croupier.runtime.numbers import number_text
from croupier.runtime.seat_table import SeatGame
from croupier.semantics.expr import Expr, expr_text
from croupier.semantics.model import Game, card_code, seats_that_bring

DEALT_ROUND_IMPORT = ("from croupier_runtime import (  # noqa: E402 - the runtime beside this file, imported above\n"
                      "    DealtRound, EngineError, MissingCell, ShoeRanOut, card_at, draw_decision, exact_div, exact_mod, "
                      "first_card,\n    floor, grid_table, last_card, loses, pays_to, third,\n)")
SEAT_GAME_IMPORT = ("from croupier_runtime import EngineError, SeatGame, exact_div, exact_mod, floor, loses, pays_to  "
                    "# noqa: E402")
# what the rules of a dealt round read of its game object
DEALT_ROUND_READS = (
    "Round, CARD_VALUE, RANK_OF, SUIT_OF = game.Round, game.CARD_VALUE, game.RANK_OF, game.SUIT_OF",
    "total, best_total, is_soft, card_value = game.total, game.best_total, game.is_soft, game.card_value",
    "card_rank, card_suit, same_rank, same_suit = game.card_rank, game.card_suit, game.same_rank, game.same_suit",
    "count_class, count_suit, count_rank = game.count_class, game.count_suit, game.count_rank",
)
FORWARD = '''def __getattr__(name):
    """The rest of the engine's API (see `__all__`): the runtime's {kind}, for this game."""
    if not name.startswith("_") and hasattr(game, name):
        return getattr(game, name)
    raise AttributeError(f"module {{__name__!r}} has no attribute {{name!r}}")'''
RULES = "the rules of the spec"
MAIN = 'if __name__ == "__main__":\n    game.run_jsonl(sys.stdin, sys.stdout.write)\n'
GENERAL = ("Standard library only, on croupier_runtime.py beside it (which it imports, refusing another version). "
           "Bad input raises EngineError (InvalidCards, InvalidBet, InvalidTable) with a message; amounts and points "
           "are exact. Run as a script, it answers `play --jsonl` requests: a JSON line in, a JSON line out.")
DEALT_ROUND_START = ("Start with: play(cards) adjudicates a round from cards in dealing order and settle(round, bets) "
                     "says what each bet returns; Table(seed) deals a seeded shoe round by round; adjudicate(request), "
                     "answer(line) and run_jsonl(lines, write) answer `play --jsonl` requests. Its API (`__all__`) is "
                     "croupier_runtime.DealtRound's, for this game (`game`), and its own functions.")
SEAT_GAME_START = ("Start with: evaluate(cards) gives a hand's type and points{wild}; "
                   "settle_table(request) settles a table (hands, stakes, coins); adjudicate(request), answer(line) "
                   "and run_jsonl(lines, write) answer `play --jsonl` requests. Its API (`__all__`) is "
                   "croupier_runtime.SeatGame's, for this game (`game`), and its own functions.")


def rule_text(text: str, cite: str | None) -> str:
    return f"{text} [{cite}]" if cite else text


class EngineEmitter:
    """Writes the engine of one game."""

    def __init__(self, game: Game, spec_path: str) -> None:
        self.game = game
        self.spec_path = spec_path
        self.constants: dict[Fraction, str] = {}
        self.funcs = PyWriter()
        self.more_data = PyWriter()

    def py(self, expr: Expr) -> str:
        return to_python(expr, self.constants)

    # ---- the whole file ------------------------------------------------------------
    def emit(self) -> str:
        g = self.game
        if g.is_dealt_round:
            self.round_functions()
        if g.is_seat_game:
            self.seat_functions()
        return checked_module(self.assemble, g, "engine")  # a failure here is a compiler bug, never spec text

    def assemble(self) -> str:
        """The engine: the import of the runtime, the data and the game object, the rules; documented."""
        g = self.game
        kind = DealtRound if g.is_dealt_round else SeatGame
        code = (DEALT_ROUND_IMPORT if g.is_dealt_round else SEAT_GAME_IMPORT) + "\n\n\n" + "\n\n".join([
            self.data().rstrip("\n"),
            f"# ---- {RULES} " + "-" * 50 + "\n\n" + self.funcs.text().rstrip("\n"),
            self.give_rules(),
            FORWARD.format(kind=kind.__name__),
        ])
        return assemble(f"@generated by croupier from {self.spec_path}; do not edit.", self.intro(), code,
                        kind.__name__, MAIN)

    def give_rules(self) -> str:
        """The line that gives the game object the functions generated from the rules."""
        if self.game.is_dealt_round:
            return "game.rules(stand_all, DRAWERS, outcome_of, EVENTS, BETS, BET_CLAUSES, deal_at, no_valid_bets)"
        return "game.rules(TYPE_TESTS, FORMULAS, verdict, payment)"

    def intro(self) -> list[str]:
        """The docstring's opening: what the engine is, where to start, the analysis."""
        g = self.game
        title = g.labels.get("en", g.name)
        companion = companion_name(g)
        if companion:
            analysis = (f"Exact analysis: not in this module but in its companion {companion}.py beside it "
                        f"(standard library only): {companion}.analyse(engine, decks), with this module as "
                        "`engine`.")
        else:
            analysis = ("Exact analysis: no companion module; `croupier analyze` enumerates this game's hands "
                        "itself through evaluate().")
        start = DEALT_ROUND_START if g.is_dealt_round else SEAT_GAME_START.format(
            wild=" (and what each wild card stands for)" if g.wild else "")
        return [f"{title}: rules engine generated from {self.spec_path} by croupier. Do not edit.", "",
                GENERAL, "", f"{start} {analysis}"]

    # ---- data ------------------------------------------------------------------------
    def data(self) -> str:
        g = self.game
        w = PyWriter()
        w.line("# ---- the data of the spec " + "-" * 51)
        w.blank()
        w.line(f"GAME = {literal(g.name)}")
        w.line(f"TITLE = {literal(g.labels.get('en', g.name))}")
        w.line(f"RULES_VERSION, RULES_EFFECTIVE, RULES_FINGERPRINT = {literal(g.version)}, {literal(g.effective)}, "
               f"{literal(g.fingerprint)}  # the spec's version and date, a digest of its texts")
        w.comment(rule_text(f"shoe {g.shoe.decks} decks of {g.shoe.kind}", g.shoe.cite))
        w.line(f"DECKS = {g.shoe.decks}")
        w.line(f"RANKS = {literal(g.shoe.ranks)}")
        w.line(f"SUITS = {literal(g.shoe.suits)}")
        w.line(f"JOKERS = {literal(g.shoe.jokers)}")
        self.deck(w)
        w.comment(rule_text("card values", g.value_cite))
        w.assign("VALUE", dict(g.values))
        if g.is_dealt_round:
            if g.card_values:
                w.assign("CARD_VALUES", dict(g.card_values))  # single cards valued apart from their rank
            if g.classes:
                w.comment("card classes of the spec, by the cards of the shoe each holds")
                w.assign("CARD_CLASSES", {c.name: tuple(code for code in g.shoe.codes() if code in c.cards
                                                        or g.shoe.rank_of(code) in c.ranks)
                                          for c in g.classes.values()})
            if g.soft is not None:
                s = g.soft
                w.comment(f"{' '.join(s.ranks)} count {expr_number(s.low)} or {expr_number(s.high)}: "
                          f"a hand takes its best total not over {expr_number(s.limit)}")
                w.line(f"SOFT_RANKS = {literal(s.ranks)}")
                w.line(f"SOFT_EXTRA = {self.number(s.high - s.low)}")
                w.line(f"SOFT_LIMIT = {self.number(s.limit)}")
            if g.repeats:
                w.line(f"REPEATS = {literal(tuple(g.repeats))}  # hands that draw while a condition holds")
        w.comment(rule_text(f"total sum{' mod ' + str(g.modulus) if g.modulus else ''}", g.total_cite))
        w.line(f"MODULUS = {literal(g.modulus or 0)}")
        for value, name in sorted(self.constants.items()):
            w.line(f"{name} = Fraction({value.numerator}, {value.denominator})  # {expr_number(value)}")
        if g.is_dealt_round:
            w.line(f"HANDS = {literal(tuple(g.hands))}")
            w.line(f"DEAL_ORDER = {literal(g.deal_order)}")
            w.assign("DEALT", {h: g.deal_order.count(h) for h in g.hands})  # cards the deal gives each hand
            w.line(f"DEAL_RULE = {literal(rule_text('deal ' + ', '.join(g.deal_order), g.deal_cite))}")
            stand = rule_text("stand all when " + expr_text(g.stand_when), g.stand_cite) if g.stand_when else ""
            w.line(f"STAND_RULE = {literal(stand)}")
            w.line("OUTCOME_RULES = {")
            for o in g.outcomes.values():
                w.line(f"    {literal(o.name)}: {literal(rule_text(f'outcome {o.name} when ' + expr_text(o.when), o.cite))},")
            w.line("}")
            rooms = {r.name: dict(r.limits) for r in g.rooms.values()}  # a bet's (low, high), or None: no limit
            w.assign("ROOMS", rooms)
            w.assign("SHOE_PROCEDURE", self.procedure())
            table_data(g, w)
        text = w.text() + (self.more_data.text() if self.more_data.lines else "")
        return text.rstrip("\n") + "\n\n" + self.game_object()

    def game_object(self) -> str:
        """`game`, the runtime's game object built from the data above (and what the rules read of it)."""
        g = self.game
        w = PyWriter()
        if g.is_dealt_round:
            args = ["GAME", "DECKS", "DECK", "JOKERS", "VALUE", "HANDS", "DEAL_ORDER", "modulus=MODULUS"]
            if g.card_values:
                args.append("card_values=CARD_VALUES")
            if g.soft is not None:
                args.append("soft=(SOFT_RANKS, SOFT_EXTRA, SOFT_LIMIT)")
            if g.classes:
                args.append("card_classes=CARD_CLASSES")
            if g.repeats:
                args.append("repeats=REPEATS")
            args += ["deal_rule=DEAL_RULE", "stand_rule=STAND_RULE", "outcome_rules=OUTCOME_RULES", "rooms=ROOMS",
                     "shoe_procedure=SHOE_PROCEDURE", "squeeze=(SQUEEZE_BETS, SQUEEZE_TIES_TO, SQUEEZE_ORDER)",
                     "valid_pushed_none=VALID_PUSHED_NONE", "void_returns_stakes=VOID_RETURNS_STAKES"]
            kind = "DealtRound"
        else:
            args = ["GAME", "DECKS", "DECK", "JOKERS", "VALUE", "SEATS", "HAND_SIZE", "CLASSES", "TYPES",
                    "MULTIPLIER", "TIEBREAK", "SCHEME", "card_order=CARD_ORDER", "suit_order=SUIT_ORDER",
                    "wild=(WILD_RANKS, WILD_CARDS, WILD_CHOICES, WILD_BEST_BY)", "type_labels=TYPE_LABELS",
                    "stakes_from=STAKES_FROM", "coins_from=COINS_FROM"]
            kind = "SeatGame"
        w.comment(f"The runtime's {kind} of this data, given its rules at the end; and what the rules read of it")
        w.line(f"game = {kind}(")
        line = "   "
        for a in args:
            if len(line) + len(a) + 2 > 118:
                w.line(line.rstrip())
                line = "   "
            line += f" {a},"
        w.line(line)
        w.line(")")
        if g.is_dealt_round:
            for read in DEALT_ROUND_READS:
                w.line(read)
        return w.text()

    def deck(self, w: PyWriter) -> None:
        """`DECK`: one deck, card by card (jokers last); a deck of every rank in every suit as that formula."""
        shoe = self.game.shoe
        if shoe.cards == tuple(card_code(r, s) for r in shoe.ranks for s in shoe.suits) + shoe.jokers:
            w.line("DECK = tuple(rank + suit for rank in RANKS for suit in SUITS) + JOKERS  # one deck, card by card")
            return
        w.line("DECK = (  # one deck, card by card")
        for i in range(0, len(shoe.cards), 13):
            w.line("    " + " ".join(f"{literal(c)}," for c in shoe.cards[i:i + 13]))
        w.line(")")

    def procedure(self) -> dict:
        p = self.game.procedure
        return {
            "cut_low": p.cut_low, "cut_high": p.cut_high, "burn_reveal": p.burn_reveal,
            "burn_values": dict(p.burn_values), "last_round": p.last_round,
            **({"shuffle_each_round": True} if p.shuffle_each_round else {}),  # engines without it stay as they were
        }

    # ---- dealt rounds -------------------------------------------------------------------
    def round_functions(self) -> None:
        g = self.game
        w = self.funcs
        self.named_functions("EVENTS", "event", "r", [(e.name, e.when, e.cite, ":") for e in g.events.values()])
        if g.formulas:
            self.named_functions("FORMULAS", "formula", "r", [(f.name, f.expr, f.cite, " =") for f in g.formulas.values()])
        with w.block("def stand_all(r):"):
            w.line('"""Whether nobody draws after the deal."""')
            w.line(f"return {self.py(g.stand_when) if g.stand_when is not None else 'False'}")
        w.blank(2)
        drawers = []
        for hand, tables in g.hand_draws():
            if hand in g.repeats:
                self.repeat_function(hand)
                drawers.append(hand)
                continue
            for t in tables:
                w.comment(rule_text(t.describe(), t.cite) + ": True = draw, False = stand")
                if not t.cols:
                    row = " ".join("D" if t.cells.get((r, None)) else ("S" if (r, None) in t.cells else "?")
                                   for r in t.rows)
                    w.line(f"{t.ident} = grid_table(None, {{{literal(t.rows)}: {literal(row)}}})")
                    w.line(f"{t.ident}_RULE = {literal(rule_text(t.describe(), t.cite))}")
                    w.blank()
                    continue
                w.line(f"{t.ident} = grid_table(")
                w.line(f"    {literal(t.cols) if t.cols else None},")
                w.line("    {")
                for r in t.rows:
                    if t.cols:
                        row = " ".join("D" if t.cells.get((r, c)) else ("S" if (r, c) in t.cells else "?") for c in t.cols)
                        w.line(f"        {r}: {literal(row)},")
                if not t.cols:
                    row = " ".join("D" if t.cells.get((r, None)) else ("S" if (r, None) in t.cells else "?")
                                   for r in t.rows)
                    w.line(f"        {literal(t.rows)}: {literal(row)},")
                w.line("    },")
                w.line(")")
                w.line(f"{t.ident}_RULE = {literal(rule_text(t.describe(), t.cite))}")
                w.blank()
            with w.block(f"def decide_{hand}(r):"):
                w.docstring(f"Whether {hand} draws: (rule, key, draws).")
                for t in tables:
                    key = self.py(t.row_key)
                    if t.col_key is not None:
                        key = f"({key}, {self.py(t.col_key)})"
                    body = [f"return draw_decision({t.ident}, {t.ident}_RULE, {key})"]
                    if t.when is not None:
                        with w.block(f"if {self.py(t.when)}:"):
                            for b in body:
                                w.line(b)
                    else:
                        for b in body:
                            w.line(b)
                        break
                else:
                    w.line(f"return {literal('no draw table applies: ' + hand + ' stands')}, None, False")
            w.blank(2)
            drawers.append(hand)
        w.line("DRAWERS = (" + "".join(f"({literal(h)}, decide_{h}), " for h in drawers) + ")")
        w.blank(2)
        self.decision_tables()
        with w.block("def outcome_of(r):"):
            w.line('"""The outcome of a finished round."""')
            tr = shared_totals(self.constants, [o.when for o in g.outcomes.values()])
            prelude = tr.prelude(list(g.hands))
            for line in prelude:
                w.line(line)
            for o in g.outcomes.values():
                with w.block(f"if {tr.visit(o.when)}:"):
                    w.line(f"return {literal(o.name)}")
            w.line('raise EngineError("no outcome of the spec holds for this round")')
        w.blank(2)
        bet_functions(g, w, self.py, self.number)
        table_functions(g, w, self.py)
        fast_functions(g, w, self.constants)

    def repeat_function(self, hand: str) -> None:
        """`decide_<hand>(r)` of a hand that draws while a condition holds (asked again after each card)."""
        w = self.funcs
        rule = self.game.repeats[hand]
        ident = f"DRAW_{hand.upper()}_RULE"
        w.line(f"{ident} = {literal(rule_text(rule.describe(), rule.cite))}")
        w.blank()
        with w.block(f"def decide_{hand}(r):"):
            w.docstring(f"Whether {hand} draws again: (rule, key, draws); it draws while its condition holds.")
            w.line(f"return {ident}, None, bool({self.py(rule.when)})")
        w.blank(2)

    def decision_tables(self) -> None:
        """`DECISION_TABLES`: each draw table's hand, grid, rule, condition and key, in the spec's order,
        for a tool that traces the decisions of `play(cards, observe=...)`."""
        w = self.funcs
        w.comment("(hand, grid, rule, applies: None for always, key) of each draw table, for play(cards, observe=…)")
        w.line("DECISION_TABLES = (")
        for t in self.game.draws:
            applies = f"lambda r: {self.py(t.when)}" if t.when is not None else "None"
            key = self.py(t.row_key)
            if t.col_key is not None:
                key = f"({key}, {self.py(t.col_key)})"
            w.line(f"    ({literal(t.hand)}, {t.ident}, {t.ident}_RULE, {applies}, lambda r: {key}),")
        w.line(")")
        w.blank(2)

    def named_functions(self, registry: str, prefix: str, arg: str, items: list) -> None:
        """One function per named spec expression (`def event_natural(r)`), then a registry tuple of them.

        `items` holds (name, expression, citation, separator of the docstring).
        """
        w = self.funcs
        for name, expr, cite, sep in items:
            with w.block(f"def {prefix}_{name}({arg}):"):
                w.docstring(rule_text(f"{name}{sep} {expr_text(expr)}", cite))
                w.line(f"return {self.py(expr)}")
            w.blank(2)
        w.line(f"{registry} = (" + "".join(f"({literal(n)}, {prefix}_{n}), " for n, *_ in items) + ")")
        w.blank(2)

    def number(self, value: Fraction) -> str:
        return py_number(Fraction(value), self.constants)

    # ---- seat games ------------------------------------------------------------------------
    def seat_functions(self) -> None:
        g = self.game
        w = self.more_data
        w.line(f"SEATS = {literal(g.seats)}")
        w.line(f"HAND_SIZE = {literal(g.hand_size)}")
        w.assign("CLASSES", {c.name: tuple(c.ranks) for c in g.classes.values()})
        wild = g.wild
        w.line(f"WILD_RANKS = {literal(tuple(wild.ranks) if wild else ())}")
        w.line(f"WILD_CARDS = {literal(tuple(wild.cards) if wild else ())}")
        w.line(f"WILD_CHOICES = {literal(tuple(wild.stands_for) if wild else ())}")
        w.line(f"WILD_BEST_BY = {literal(tuple(wild.best_by) if wild else ())}")
        w.line(f"CARD_ORDER = {literal(g.card_order)}")
        w.line(f"SUIT_ORDER = {literal(g.suit_order)}")
        w.line(f"TYPES = {literal(tuple(t.name for t in g.types))}")
        w.line("MULTIPLIER = {" + ", ".join(f"{literal(t.name)}: {self.number(t.multiplier)}" for t in g.types) + "}")
        w.line("TIEBREAK = {" + ", ".join(f"{literal(t.name)}: {literal(t.tiebreak)}" for t in g.types) + "}")
        w.assign("TYPE_LABELS", {t.name: t.labels.get("en", t.name) for t in g.types})
        w.line(f"SCHEME = {literal(g.settlement.scheme)}")
        w.line(f"NEEDS_BANKER = {literal(g.settlement.scheme == 'against-banker')}")
        # what the table must give, and for which seats: "every seat", "players", "banker" or "" (nothing)
        w.line(f"STAKES_FROM = {literal(seats_that_bring(g, 'stake'))}")
        w.line(f"COINS_FROM = {literal(seats_that_bring(g, 'coins'))}")
        w.line("NEEDS_STAKES = bool(STAKES_FROM)")
        w.line("NEEDS_COINS = bool(COINS_FROM)")
        w = self.funcs
        self.named_functions("TYPE_TESTS", "type", "h", [(t.name, t.when, t.cite, ":") for t in g.types])
        self.named_functions("FORMULAS", "formula", "t", [(f.name, f.expr, f.cite, " =") for f in g.formulas.values()])
        self.settle_functions()

    def settle_functions(self) -> None:
        g = self.game
        w = self.funcs
        s = g.settlement
        roles = "banker, player, winner, loser" if s.scheme == "against-banker" else "winner, loser"
        verdict_roles = "banker, player" if s.scheme == "against-banker" else "winner, loser"
        with w.block(f"def verdict(t, {verdict_roles}, tied):"):
            w.line('"""The settle block\'s own verdict on a pair: "draw", "banker", "player" or None."""')
            for cl in s.clauses:
                if cl.kind in ("draw", "banker-wins", "player-wins"):
                    w.comment(rule_text(f"{cl.kind} when {expr_text(cl.expr)}", cl.cite))
                    with w.block(f"if {self.py(cl.expr)}:"):
                        w.line(f"return {literal(cl.kind.split('-')[0])}")
            w.line("return None")
        w.blank(2)
        with w.block(f"def payment(t, {roles}):"):
            w.line('"""What the loser pays the winner (nothing when 0 or less)."""')
            for cl in s.clauses:
                if cl.kind == "let":
                    w.comment(rule_text(f"let {cl.name} = {expr_text(cl.expr)}", cl.cite))
                    w.line(f"v_{cl.name} = {self.py(cl.expr)}")
            for cl in s.clauses:
                if cl.kind == "pay":
                    text = f"pay {expr_text(cl.expr)}" + (f" unless {expr_text(cl.unless)}" if cl.unless else "")
                    w.comment(rule_text(text, cl.cite))
                    if cl.unless is not None:
                        with w.block(f"if {self.py(cl.unless)}:"):
                            w.line("return 0")
                    w.line(f"return {self.py(cl.expr)}")
        w.blank(2)


def expr_number(value: Fraction) -> str:
    return number_text(value)


_EMITTED: dict[tuple[int, str], tuple[Game, str]] = {}


def emit_engine(game: Game, spec_path: str) -> str:
    """The engine source for a game (emitted once per game object and path in a process)."""
    key = (id(game), spec_path)
    hit = _EMITTED.get(key)
    if hit is None or hit[0] is not game:
        hit = _EMITTED[key] = (game, EngineEmitter(game, spec_path).emit())
    return hit[1]
