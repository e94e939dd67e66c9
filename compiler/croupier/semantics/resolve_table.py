"""Resolver, the table around a dealt round: rooms and their limits, the squeeze rule, the shoe
procedure (cut card, burn, last round) and void rounds.

The bets and hands these name are checked once every statement is read
(`resolve_checks.check_table_references`, `check_procedure_bounds`).
"""

from __future__ import annotations

from croupier.semantics import model
from croupier.semantics.resolve_context import Context, Handlers
from croupier.syntax import ast


def room(cx: Context, stmt: ast.RoomStmt) -> None:
    g = cx.game
    if not cx.replace_check(stmt, stmt.name in g.rooms, "room", stmt.name):
        return
    result = cx.item(model.Room, stmt)
    for lim in stmt.limits:
        if lim.low is not None and lim.low > lim.high:
            cx.err("E0115", f"the limit {lim.low}..{lim.high} is empty", lim.span)
        for b in lim.bets:
            if b.text in result.limits:
                cx.err("E0103", f"two limits for bet `{b.text}` in room `{stmt.name}`", b.span)
            result.limits[b.text] = None if lim.low is None else (lim.low, lim.high)
    g.rooms[stmt.name] = result
    cx.pending_rooms.append((result, stmt))


def squeeze(cx: Context, stmt: ast.SqueezeStmt) -> None:
    g = cx.game
    if cx.singleton(stmt, "squeeze", g.squeeze is not None):
        g.squeeze = model.Squeeze(tuple(b.text for b in stmt.bets), stmt.ties_to,
                                  tuple(o.text for o in stmt.order), stmt.span, stmt.cite)
        cx.pending_squeeze = stmt


def cut_card(cx: Context, stmt: ast.CutCardStmt) -> None:
    p = cx.game.procedure
    if cx.singleton(stmt, "cut card", p.cut_low is not None):
        if stmt.low > stmt.high:
            cx.err("E0115", "the cut-card range runs backwards", stmt.span)
        p.cut_low, p.cut_high = stmt.low, stmt.high
        p.cites["cut"] = stmt.cite
        cx.pending_cut = stmt


def burn(cx: Context, stmt: ast.BurnStmt) -> None:
    p = cx.game.procedure
    if cx.singleton(stmt, "burn", bool(p.burn_reveal)):
        p.burn_reveal = stmt.reveal
        p.cites["burn"] = stmt.cite
        cx.pending_burn = stmt


def last_round(cx: Context, stmt: ast.LastRoundStmt) -> None:
    p = cx.game.procedure
    if cx.singleton(stmt, "last round", p.last_round is not None):
        p.last_round = stmt.rule
        p.cites["last"] = stmt.cite
        cx.pending_last = stmt


def shuffle(cx: Context, stmt: ast.ShuffleStmt) -> None:
    p = cx.game.procedure
    if cx.singleton(stmt, "shuffle", p.shuffle_each_round):
        p.shuffle_each_round = True
        p.cites["shuffle"] = stmt.cite
        cx.pending_shuffle = stmt


def shuffle_conflicts(cx: Context) -> None:
    """After every statement: a shoe shuffled before each round deals one round, so it has no cut card and no
    last-round rule: in the same file they are an error (E0147); a variant's shuffle replaces its base's."""
    stmt, p = cx.pending_shuffle, cx.game.procedure
    if stmt is None:
        return
    for rule, given in (("a cut card", cx.pending_cut), ("a last-round rule", cx.pending_last)):
        if given is not None:
            cx.err("E0147", f"a shoe shuffled before each round deals one round: it has no use for {rule}",
                   given.span, "remove the cut card and the last-round rule, or `shuffle before each round`")
    p.cut_low = p.cut_high = p.last_round = None
    p.cites.pop("cut", None)
    p.cites.pop("last", None)


def void(cx: Context, stmt: ast.VoidStmt) -> None:
    g = cx.game
    if cx.singleton(stmt, "void", g.void_returns_stakes):
        g.void_returns_stakes, g.void_cite = True, stmt.cite


def burn_values(cx: Context) -> None:
    """After every statement: how many cards each rank burns (by the shoe's ranks, known by then)."""
    if cx.pending_burn is None:
        return
    universe = cx.universe()
    for item in cx.pending_burn.items:
        for r in cx.ranks(item.ranks, universe, "the burn rule"):
            cx.game.procedure.burn_values[r] = int(item.points) if item.points is not None else int(r)


STATEMENTS: Handlers = {
    ast.RoomStmt: room,
    ast.SqueezeStmt: squeeze,
    ast.CutCardStmt: cut_card,
    ast.BurnStmt: burn,
    ast.LastRoundStmt: last_round,
    ast.VoidStmt: void,
    ast.ShuffleStmt: shuffle,
}
