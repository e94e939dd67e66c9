"""Late resolver checks: the shoe and values are complete, and every expression fits its scope.

Run once all statements are read (so that names defined later in the file are
known); problems are reported through `err`, type errors through the `Checker`.
"""

from __future__ import annotations

from collections.abc import Callable

from . import ast, model
from .diagnostics import Span
from .game_scopes import round_scope, settle_scope, table_scope, type_scope, valid_bet_scope
from .scopes import BOOL, NUM, Checker, names_used

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
    if g.total_cite is None and g.modulus is None:
        err("E0125", "the spec has no `total` statement", g.span, "add: total sum mod 10, or: total sum")

def check_expressions(g: model.Game, c: Checker, err: Callable[..., None]) -> None:  # noqa: C901
    """Check every expression against the scope of its place (one block per place)."""
    if g.hands:
        rs = round_scope(g, with_outcome=False)
        for ev in g.events.values():
            c.check(ev.when, round_scope(g, with_outcome=False, with_events=False), BOOL)
        if g.stand_when is not None:
            c.check(g.stand_when, rs, BOOL)
        for t in g.draws:
            if t.when is not None:
                c.check(t.when, rs, BOOL)
            c.check(t.row_key, rs, NUM)
            if t.col_key is not None:
                c.check(t.col_key, rs, NUM)
        for o in g.outcomes.values():
            c.check(o.when, rs, BOOL)
        bs = round_scope(g, with_outcome=True)
        for b in g.bets.values():
            for w in b.wins:
                c.check(w.when, bs, BOOL)
            for p in b.pushes:
                c.check(p, bs, BOOL)
        if not g.deal_order:
            err("E0128", "the spec declares hands but no `deal` order", g.span,
                "add: deal player, banker, player, banker")
        if not g.outcomes:
            err("E0128", "the spec declares hands but no outcome", g.span,
                "add: outcome NAME when …")
    if g.valid_bets_none_when is not None:
        c.check(g.valid_bets_none_when, valid_bet_scope(g), BOOL)
    if g.types:
        ts = type_scope(g)
        for t in g.types:
            if t.when is not None:
                c.check(t.when, ts, BOOL)
        for f in g.formulas.values():
            c.check(f.expr, table_scope(g), NUM)
        if g.settlement is None:
            err("E0128", "the spec has hand types but no `settle` block", g.span,
                "add: settle pairwise, or: settle against-banker")
        if g.seats is None:
            err("E0128", "the spec has hand types but no `seats` range", g.span, "add: seats 2..5")
        if g.hand_size is None:
            err("E0128", "the spec has hand types but no `hand size`", g.span, "add: hand size 1..5")
    if g.settlement is not None:
        lets: list[str] = []
        pays = 0
        for cl in g.settlement.clauses:
            scope = settle_scope(g, lets, with_result=cl.kind in ("let", "pay"))
            if cl.kind == "let":
                c.check(cl.expr, scope, NUM)
                if cl.name in lets:
                    err("E0103", f"`{cl.name}` is defined twice", cl.span)
                lets.append(cl.name)
            elif cl.kind == "pay":
                pays += 1
                c.check(cl.expr, scope, NUM)
                if cl.unless is not None:
                    c.check(cl.unless, scope, BOOL)
            else:
                c.check(cl.expr, scope, BOOL)
        if pays != 1:
            err("E0129", "a settle block has exactly one `pay` line", g.settlement.span,
                "add: pay min(a, b)")
        check_settlement_roles(g, err)


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
        used |= names_used(cl.expr) | (names_used(cl.unless) if cl.unless is not None else set())
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
                err("E0101", f"unknown hand type `{tref.text}` in a tie-break", tref.span,
                    f"types: {', '.join(x.name for x in g.types)}")
                continue
            t.tiebreak = tuple(keys)


def check_table_references(g: model.Game, rooms: list[tuple[model.Room, ast.RoomStmt]],
                           squeeze: ast.SqueezeStmt | None, err: Callable[..., None]) -> None:
    """Rooms and the squeeze rule name bets and hands that exist."""
    for room, stmt in rooms:
        for lim in stmt.limits:
            for b in lim.bets:
                if b.text not in g.bets:
                    err("E0101", f"unknown bet `{b.text}` in room `{room.name}`", b.span,
                        f"bets: {', '.join(g.bets)}")
    if squeeze is not None:
        for ref in list(squeeze.bets):
            if ref.text not in g.bets:
                err("E0101", f"unknown bet `{ref.text}` in the squeeze rule", ref.span)
            elif ref.text not in g.hands:
                err("E0101", f"bet `{ref.text}` may squeeze, but no hand is named `{ref.text}`", ref.span,
                    "a squeezing bet squeezes the cards of the hand of the same name")
        for ref in squeeze.order:
            if ref.text not in g.hands:
                err("E0101", f"unknown hand `{ref.text}` in the squeeze order", ref.span)
        if squeeze.ties_to not in g.squeeze.bets:
            err("E0101", f"unknown bet `{squeeze.ties_to}` in the squeeze rule",
                     squeeze.span)
