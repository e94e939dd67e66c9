"""Resolver, a dealt round: its hands and the deal, events, the stand rule, draw tables and outcomes.

Expressions wait in `Context.waiting` until every statement is read (`resolve_exprs`).
A draw table is known, for a variant, by its hand and its condition as written.
"""

from __future__ import annotations

from croupier.semantics import model
from croupier.semantics.draw_grid import read_grid
from croupier.semantics.expr import expr_text as model_text
from croupier.semantics.resolve_context import Context, Handlers
from croupier.syntax import ast
from croupier.syntax.printer import expr_text


def hand(cx: Context, stmt: ast.HandStmt) -> None:
    g = cx.game
    if cx.replace_check(stmt, stmt.name in g.hands, "hand", stmt.name):
        g.hands[stmt.name] = cx.item(model.Item, stmt)


def deal(cx: Context, stmt: ast.DealStmt) -> None:
    g = cx.game
    if cx.singleton(stmt, "deal", bool(g.deal_order)):
        g.deal_order, g.deal_cite, g.deal_span = tuple(r.text for r in stmt.order), stmt.cite, stmt.span
        for r in stmt.order:
            if r.text not in g.hands:
                cx.unknown(f"unknown hand `{r.text}` in the deal", r.span, r.text, g.hands,
                           f"hands: {', '.join(g.hands) or 'none (declare them with `hand`)'}")
        for h in g.hands.values():
            if h.name not in g.deal_order:
                cx.err("E0139", f"the deal gives hand `{h.name}` no card", stmt.span,
                       f"every hand is dealt one card or more: if `{h.name}` is a hand of the game, add it to the "
                       f"deal (which changes the game: check the sources); if it only stands for cards set aside, "
                       f"remove `hand {h.name}`")


def event(cx: Context, stmt: ast.EventStmt) -> None:
    g = cx.game
    if cx.replace_check(stmt, stmt.name in g.events, "event", stmt.name):
        g.events[stmt.name] = cx.item(model.Event, stmt)
        cx.waiting.put(g.events[stmt.name], "when", stmt.when)


def stand(cx: Context, stmt: ast.StandStmt) -> None:
    g = cx.game
    if cx.singleton(stmt, "stand", g.stand_when is not None):
        g.stand_when, g.stand_cite, g.stand_span = None, stmt.cite, stmt.span
        cx.waiting.put(g, "stand_when", stmt.when)


def draw(cx: Context, stmt: ast.DrawStmt) -> None:
    g = cx.game
    table = model.DrawTable(stmt.hand, None, None, None, (), (), {}, {}, stmt.span, stmt.cite, origin=g.name)
    if stmt.hand not in g.hands:
        cx.unknown(f"unknown hand `{stmt.hand}` in a draw table", stmt.hand_span, stmt.hand, g.hands,
                   f"hands: {', '.join(g.hands) or 'none'}")
    read_grid(stmt, table, cx.err)
    # identity for variants: hand + condition text
    cond = expr_text(stmt.when) if stmt.when is not None else ""
    same = [t for t in g.draws if t.hand == stmt.hand and condition_text(cx, t) == cond]
    label = f"{stmt.hand}{' when ' + cond if cond else ''}"
    if stmt.hand in g.repeats:
        cx.err("E0137", f"hand `{stmt.hand}` draws while a condition holds, so it has no draw table",
               stmt.hand_span or stmt.span, "a hand draws by its tables or by `draw … while …`, not both")
    if cx.replace_check(stmt, bool(same), "draw table", label):
        if stmt.hand not in g.draw_order:
            g.draw_order.append(stmt.hand)
        for field in ("when", "row_key", "col_key"):
            cx.waiting.put(table, field, getattr(stmt, field))
        if same:
            g.draws[g.draws.index(same[0])] = table
        else:
            g.draws.append(table)


def draw_while(cx: Context, stmt: ast.DrawWhileStmt) -> None:
    """`draw HAND while …`: one rule a hand, instead of tables; a variant overrides it by the hand."""
    g = cx.game
    if stmt.hand not in g.hands:
        cx.unknown(f"unknown hand `{stmt.hand}` in a draw rule", stmt.hand_span or stmt.span, stmt.hand, g.hands,
                   f"hands: {', '.join(g.hands) or 'none'}")
    if any(t.hand == stmt.hand for t in g.draws):
        cx.err("E0137", f"hand `{stmt.hand}` has a draw table, so it cannot also draw while a condition holds",
               stmt.hand_span or stmt.span, "a hand draws by its tables or by `draw … while …`, not both")
        return
    if cx.replace_check(stmt, stmt.hand in g.repeats, "repeated draw", stmt.hand):
        rule = model.DrawRepeat(stmt.hand, None, stmt.span, stmt.cite, origin=g.name)
        cx.waiting.put(rule, "when", stmt.when)
        g.repeats[stmt.hand] = rule
        if stmt.hand not in g.draw_order:
            g.draw_order.append(stmt.hand)


def condition_text(cx: Context, t: model.DrawTable) -> str:
    """A draw table's condition as written (with its hand, the identity of a table for variants)."""
    waiting = cx.waiting.get(t, "when")
    if waiting is not None:
        return expr_text(waiting)
    return model_text(t.when) if t.when is not None else ""


def outcome(cx: Context, stmt: ast.OutcomeStmt) -> None:
    g = cx.game
    if cx.replace_check(stmt, stmt.name in g.outcomes, "outcome", stmt.name):
        g.outcomes[stmt.name] = cx.item(model.Outcome, stmt)
        cx.waiting.put(g.outcomes[stmt.name], "when", stmt.when)


STATEMENTS: Handlers = {
    ast.HandStmt: hand,
    ast.DealStmt: deal,
    ast.EventStmt: event,
    ast.StandStmt: stand,
    ast.DrawStmt: draw,
    ast.DrawWhileStmt: draw_while,
    ast.OutcomeStmt: outcome,
}
