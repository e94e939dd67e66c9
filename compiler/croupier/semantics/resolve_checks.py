"""Late resolver checks: the shoe and values are complete, tie-breaks, table rules and the settlement
name what exists, spec names do not clash in the engine, and the numbers fit the shoe.

Run once all statements are read (so that names defined later in the file are
known); problems are reported through `err`. The expressions are `resolve_exprs`'.
"""

from __future__ import annotations

from collections.abc import Callable

from croupier.diagnostics import Span
from croupier.semantics import expr as ir
from croupier.semantics import model
from croupier.semantics.answer_fields import ANSWER_SUFFIXES, ENGINE_GLOBALS
from croupier.semantics.expr import Expr, names_used
from croupier.suggest import did_you_mean
from croupier.syntax import ast
from croupier.syntax.visitor import NodeVisitor

TIEBREAK_KEYS = ("total", "count", "no wild", "high card", "high suit")


def check_shoe_and_values(g: model.Game, err: Callable[..., None], value_span: Span) -> None:
    """A shoe, values for every rank, wild cards the deck has, and a total rule."""
    if g.shoe is None:
        err("E0125", "the spec has no `shoe`", g.span, "add: shoe 8 decks of standard52")
        return
    if not g.values:
        err("E0125", "the spec has no `value` statement", g.span, "add: value A = 1, 2..9 = pip, 10 J Q K = 0")
        return
    wild = set(g.wild.ranks) if g.wild else set()
    for r in g.shoe.ranks + g.shoe.jokers:
        if r not in g.values and r not in wild:
            err("E0126", f"rank {r} has no value", value_span,
                f"add `{r} = …` to the value statement")
    if g.wild:
        for r in g.wild.ranks:
            if r not in g.shoe.ranks + g.shoe.jokers:
                err("E0127", f"wild card {r} is not in the shoe", g.wild.span)
        for r in g.wild.stands_for:
            if r not in g.shoe.ranks + g.shoe.jokers or r in wild:
                err("E0127", f"a wild stands for {r}, which the deck lacks or is itself wild", g.wild.span,
                    "a wild stands for ranks of the shoe that are not wild")
    if g.soft is not None:
        for r in g.soft.ranks:
            if r in g.values and g.values[r] != g.soft.low:
                err("E0136", f"the total counts {r} as {g.soft.low} or {g.soft.high}, but its value is "
                             f"{g.values[r]}", g.soft.span, f"give {r} the value {g.soft.low}, the lower of the two")
    if g.total_cite is None and g.modulus is None:
        err("E0125", "the spec has no `total` statement", g.span, "add: total sum mod 10, or: total sum")

def check_settlement_roles(g: model.Game, err: Callable[..., None]) -> None:
    """Every verdict names a role of the scheme, and the stake every player bets is declared, never guessed."""
    s = g.settlement
    assert s is not None
    if s.scheme == "pairwise":
        for cl in s.clauses:
            if cl.kind in ("banker-wins", "player-wins"):
                err("E0150", f"`{cl.kind}` has no role in a pairwise settlement: it has no banker", cl.span,
                    "in `settle pairwise` the stronger hand wins; write `draw when …`, or use `settle against-banker`")
    for line in s.stake_lines[1:]:
        err("E0154", "a settle block declares its stake once", line.span, "keep one `each player stakes NAME` line")
    used: set[str] = set()
    for cl in s.clauses:
        used |= names_used(cl.expr) | names_used(cl.unless)
    for f in g.formulas.values():
        used |= names_used(f.expr)
    if s.stake_lines:
        line = s.stake_lines[0]
        if s.scheme != "against-banker" or "stake()" in used:
            err("E0152", "`each player stakes` conflicts with stakes read from the table", line.span,
                "in `settle pairwise` each seat's stake comes from the table's \"stakes\"; remove this line"
                if s.scheme == "pairwise" else
                "the formulas read stake(…), so each seat's stake comes from the table's \"stakes\"; "
                "remove this line, or stop reading stake(…)")
        elif line.name not in g.formulas:
            err("E0151", f"`{line.name}` is not a table formula", line.name_span,
                f"define it at the top level: let {line.name} = …"
                if not any(cl.kind == "let" and cl.name == line.name for cl in s.clauses)
                else f"the stake is a top-level `let`; move `let {line.name} = …` out of the settle block")
    elif s.scheme == "against-banker" and "stake()" not in used:
        err("E0153", "the settlement never says what each player stakes against the banker", s.span,
            "name the table formula of the stake: each player stakes NAME")


def apply_tiebreaks(g: model.Game, stmts: list[ast.TiebreakStmt], err: Callable[..., None]) -> None:
    """Give each hand type its tie-break keys; unknown keys, types and missing orders are errors."""
    for stmt in stmts:
        keys = []
        for k in stmt.keys:
            if k.text not in TIEBREAK_KEYS:
                err("E0130", f"unknown tie-break key `{k.text}`", k.span,
                    f"keys: {', '.join(TIEBREAK_KEYS)}")
            keys.append(k.text)
        if any(k in ("high card",) for k in keys) and not g.card_order:
            err("E0131", "`high card` needs a `card order` statement", stmt.span,
                "card order K Q J 10 9 8 7 6 5 4 3 2 A")
        if any(k == "high suit" for k in keys) and not g.suit_order:
            err("E0131", "`high suit` needs a `suit order` statement", stmt.span, "suit order S H C D")
        for tref in stmt.types:
            t = g.type_named(tref.text)
            if t is None:
                guess, fix = did_you_mean(tref.text, [x.name for x in g.types])
                err("E0101", f"unknown hand type `{tref.text}` in a tie-break", tref.span,
                    f"{guess} types: {', '.join(x.name for x in g.types)}".strip(), fix)
                continue
            t.tiebreak = tuple(keys)


def check_room_limits(g: model.Game, err: Callable[..., None]) -> None:
    """Every room gives every bet a limit, or says it has none (`BET: no limit`). A room of this file that
    misses bets is an error at the room; a bet this file adds that rooms of its base miss, at the bet."""
    at_bet: dict[str, list[str]] = {}
    for room in g.rooms.values():
        missing = [name for name in g.bets if name not in room.limits]
        if room.origin == g.name:
            if missing:
                err("E0146", f"room `{room.name}` gives no stake limit to {_bets(missing)}", room.span,
                    f"give each bet a limit (`{missing[0]}: LOW..HIGH`), or say it has none (`{missing[0]}: no limit`)")
            continue
        for name in missing:
            if g.bets[name].origin == g.name:  # else both come from the base, which reports it
                at_bet.setdefault(name, []).append(room.name)
    for name, rooms in at_bet.items():
        listed = ", ".join(f"`{r}`" for r in rooms)
        err("E0146", f"bet `{name}` has no stake limit in room{'s' if len(rooms) > 1 else ''} {listed} of the base",
            g.bets[name].span, f"override each room with a line `{name}: LOW..HIGH` (or `{name}: no limit`) "
            "besides its other limits")


def _bets(names: list[str]) -> str:
    return ("bet " if len(names) == 1 else "bets ") + ", ".join(f"`{n}`" for n in names)


def check_table_references(g: model.Game, rooms: list[tuple[model.Room, ast.RoomStmt]],
                           squeeze: ast.SqueezeStmt | None, err: Callable[..., None]) -> None:
    """Rooms and the squeeze rule name bets and hands that exist."""
    for room, stmt in rooms:
        for lim in stmt.limits:
            for b in lim.bets:
                if b.text not in g.bets:
                    guess, fix = did_you_mean(b.text, g.bets)
                    err("E0101", f"unknown bet `{b.text}` in room `{room.name}`", b.span,
                        f"{guess} bets: {', '.join(g.bets)}".strip(), fix)
    check_room_limits(g, err)
    if squeeze is not None:
        for ref in list(squeeze.bets):
            if ref.text not in g.bets:
                guess, fix = did_you_mean(ref.text, g.bets)
                err("E0101", f"unknown bet `{ref.text}` in the squeeze rule", ref.span, guess, fix)
            elif ref.text not in g.hands:
                err("E0101", f"bet `{ref.text}` may squeeze, but no hand is named `{ref.text}`", ref.span,
                    "a squeezing bet squeezes the cards of the hand of the same name")
        for ref in squeeze.order:
            if ref.text not in g.hands:
                guess, fix = did_you_mean(ref.text, g.hands)
                err("E0101", f"unknown hand `{ref.text}` in the squeeze order", ref.span, guess, fix)
        if squeeze.ties_to not in g.squeeze.bets:
            err("E0101", f"unknown bet `{squeeze.ties_to}` in the squeeze rule",
                     squeeze.span)


def game_expressions(g: model.Game) -> list[tuple[str, Expr]]:
    """Every expression of a game with the place it stands (for messages)."""
    out: list[tuple[str, Expr | None]] = [("the stand rule", g.stand_when), ("the valid-bet rule", g.valid_bets_none_when)]
    out += [(f"draw table {t.describe()}", x) for t in g.draws for x in (t.when, t.row_key, t.col_key)]
    out += [(f"event `{e.name}`", e.when) for e in g.events.values()]
    out += [(f"outcome `{o.name}`", o.when) for o in g.outcomes.values()]
    out += [(f"bet `{b.name}`", x) for b in g.bets.values() for x in b.expressions()]
    out += [(f"formula `{f.name}`", f.expr) for f in g.formulas.values()]
    out += [(f"hand type `{t.name}`", t.when) for t in g.types]
    if g.settlement is not None:
        out += [("the settlement", x) for cl in g.settlement.clauses for x in (cl.expr, cl.unless)]
    return [(where, x) for where, x in out if x is not None]


class _Refs(NodeVisitor):
    """The (kind, name) of everything an expression refers to by name."""

    KINDS = {ir.EventRef: "event", ir.ClassRef: "class", ir.FormulaRef: "formula", ir.BetRef: "bet"}

    def __init__(self) -> None:
        self.found: set[tuple[str, str]] = set()

    def visit_Expr(self, e: Expr) -> None:
        self.generic_visit(e)

    def visit_Name(self, e: ir.Name) -> None:
        kind = self.KINDS.get(type(e))
        if kind is not None:
            self.found.add((kind, e.name))

    def visit_OutcomeIs(self, e: ir.OutcomeIs) -> None:
        self.found.add(("outcome", e.what))

    def visit_TypeIs(self, e: ir.TypeIs) -> None:
        self.found.add(("hand type", e.what))


def check_removed(g: model.Game, removed: list[tuple[str, str, Span]], err: Callable[..., None]) -> None:
    """What a variant removes must not be what the rest of the game still reads."""
    if not removed:
        return
    uses: dict[tuple[str, str], str] = {}
    for where, x in game_expressions(g):
        refs = _Refs()
        refs.visit(x)
        for ref in refs.found:
            uses.setdefault(ref, where)
    if g.squeeze is not None:
        for b in g.squeeze.bets:
            uses.setdefault(("bet", b), "the squeeze rule")
    if g.settlement is not None and g.settlement.stake:
        uses.setdefault(("formula", g.settlement.stake), "the settlement's stake")
    for kind, name, span in removed:
        where = uses.get((kind, name))
        if where is not None:
            err("E0410", f"{kind} `{name}` is removed, but {where} still reads it", span,
                f"override {where} as well, or keep the {kind}")


# ---- names that the engine writes into its answers, or turns into Python identifiers --------------------
# (the answer's fields and the engine's own names are declared in `answer_fields`)


def draw_ident(hand: str, index: int, count: int) -> str:
    """The engine's name of a hand's draw table (`DRAW_BANKER_2`), given by the resolver (`DrawTable.ident`)."""
    return f"DRAW_{hand.upper()}" + (f"_{index}" if count > 1 else "")


def check_name_clashes(g: model.Game, err: Callable[..., None]) -> None:
    """Two spec names that become the same answer field or the same Python identifier are errors:
    the answer keys (hands, `<hand>_total`, events, formulas) and the engine's identifiers
    (`DRAW_<HAND>`, `decide_<hand>`, `event_<name>`, `bet_<name>`, `type_<name>`, `formula_<name>`)."""
    fields: dict[str, tuple[str, str, Span]] = {}

    def field_(key: str, kind: str, name: str, span: Span) -> None:
        if key in fields and fields[key][:2] != (kind, name):
            other_kind, other, _ = fields[key]
            err("E0116", f"{kind} `{name}` writes the answer field `{key}`, which {other_kind} `{other}` "
                         "also writes", span, "rename one of them: each answer field has one meaning")
        fields.setdefault(key, (kind, name, span))

    if g.is_dealt_round:
        for h in g.hands.values():
            field_(h.name, "hand", h.name, h.span)
        for h in g.hands.values():
            for suffix in ANSWER_SUFFIXES:
                field_(h.name + suffix, "hand", h.name, h.span)
        for e in g.events.values():
            field_(e.name, "event", e.name, e.span)
    for f in g.formulas.values():
        field_(f.name, "formula", f.name, f.span)

    idents: dict[str, tuple[str, str, Span]] = {}
    reported: set[tuple[str, str]] = set()

    def ident(py: str, kind: str, name: str, span: Span) -> None:
        if py in idents and (name, idents[py][1]) in reported:
            return
        if py in ENGINE_GLOBALS:
            err("E0117", f"{kind} `{name}` becomes `{py}` in the engine, a name its runtime already uses", span,
                "choose another name")
        elif py in idents and idents[py][:2] != (kind, name):
            other_kind, other, _ = idents[py]
            err("E0117", f"{kind} `{name}` and {other_kind} `{other}` both become `{py}` in the engine", span,
                "names may not differ only in letter case or by a `_1`-like suffix; rename one")
            reported.add((name, other))
        idents.setdefault(py, (kind, name, span))

    for hand, tables in g.hand_draws():
        item = g.hands.get(hand)
        span = item.span if item is not None else (tables[0].span if tables else g.span)
        ident(f"decide_{hand}", "hand", hand, span)
        if hand in g.repeats:
            ident(f"DRAW_{hand.upper()}_RULE", "hand", hand, span)
        for t in tables:
            ident(t.ident, "hand", hand, span)
            ident(t.ident + "_RULE", "hand", hand, span)
    for prefix, kind, items in (("event", "event", g.events), ("bet", "bet", g.bets),
                                ("formula", "formula", g.formulas)):
        for item in items.values():
            ident(f"{prefix}_{item.name}", kind, item.name, item.span)
    for t in g.types:
        ident(f"type_{t.name}", "hand type", t.name, t.span)
    for b in g.bets.values():
        for i, rule in enumerate(b.clauses, 1):
            if rule.table is not None:
                ident(f"pays_{b.name}_{i}", "bet", b.name, b.span)
        if any(c.kind == "push" for c in b.clauses):
            ident(f"pushed_{b.name}", "bet", b.name, b.span)


# ---- bounds: what `check`, `simulate` and the engine can afford --------------------------------------------
MAX_SEATS = 10  # seats at one table of a seat game
def check_hand_bounds(g: model.Game, hand_size_span: Span | None, err: Callable[..., None]) -> None:
    """A seat game's hand fits in its shoe."""
    if g.hand_size is None or g.shoe is None or hand_size_span is None or g.hand_size[0] > g.hand_size[1]:
        return
    cards = g.shoe.size
    if g.hand_size[1] > cards:
        err("E0132", f"a hand of {g.hand_size[1]} cards is more than the shoe's {cards}", hand_size_span)
        return


def check_procedure_bounds(g: model.Game, cut: ast.CutCardStmt | None, burn: ast.BurnStmt | None,
                           err: Callable[..., None]) -> None:
    """The shoe procedure's numbers fit the shoe: the cut card lies inside it, and the cards before
    the cut card hold the largest burn and one round."""
    if g.shoe is None or (cut is None and burn is None):
        return
    shoe = g.shoe
    n = shoe.size
    p = g.procedure
    if cut is not None and p.cut_high is not None and p.cut_high >= n:
        err("E0132", f"the cut card {p.cut_high} cards from the end lies outside the shoe of {n} cards", cut.span,
            f"a cut card lies 1 to {n - 1} cards from the end")
        return
    burn_most = p.burn_reveal * (1 + max(p.burn_values.values(), default=0))
    round_most = len(g.deal_order) + len(g.hand_draws())
    room = n - (p.cut_high or 0)
    if burn is not None and burn_most + round_most > room:
        err("E0132", f"burning up to {burn_most} cards leaves no round before the cut card "
                     f"({n} cards, cut card up to {p.cut_high or 0} from the end, a round takes up to {round_most})",
            burn.span, "reveal fewer cards, or burn fewer per card")
