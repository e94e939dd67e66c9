"""Resolver, a seat game: seats and hand size, hand types and their tie-breaks, table formulas
(top-level `let`), the settle block, and the banker's policy.

Tie-breaks are applied once every hand type is read (`resolve_checks.apply_tiebreaks`);
expressions wait in `Context.waiting` until then too (`resolve_exprs`).
"""

from __future__ import annotations

from fractions import Fraction

from croupier.semantics import model
from croupier.semantics.resolve_checks import MAX_SEATS
from croupier.semantics.resolve_context import Context, Handlers
from croupier.syntax import ast


def seats(cx: Context, stmt: ast.SeatsStmt) -> None:
    """`seats 2..5` or `hand size 1..5`."""
    g = cx.game
    key = stmt.what
    if not cx.singleton(stmt, key, (g.seats if key == "seats" else g.hand_size) is not None):
        return
    if stmt.low > stmt.high or stmt.low < 1:
        cx.err("E0115", f"the {key} range {stmt.low}..{stmt.high} is empty or starts below 1", stmt.span)
    if key == "seats":
        if stmt.high > MAX_SEATS:
            cx.err("E0133", f"a table of {stmt.high} seats is more than {MAX_SEATS}", stmt.span,
                   f"seats 2..{MAX_SEATS} at most")
        g.seats = (stmt.low, stmt.high)
    else:
        cx.hand_size_span = stmt.span
        g.hand_size = (stmt.low, stmt.high)
        g.hand_size_span = stmt.span


def hand_type(cx: Context, stmt: ast.TypeStmt) -> None:
    g = cx.game
    existing = g.type_named(stmt.name)
    if not cx.replace_check(stmt, existing is not None, "hand type", stmt.name):
        return
    t = cx.item(model.HandType, stmt, multiplier=stmt.multiplier or Fraction(0))
    cx.waiting.put(t, "when", stmt.when)
    if stmt.when is None:
        cx.err("E0104", f"hand type `{stmt.name}` has no `when` clause", stmt.span,
               "say which hands are of this type: when count = 5 and …")
    if stmt.multiplier is None:
        cx.err("E0104", f"hand type `{stmt.name}` has no `multiplier`", stmt.span, "add: multiplier 1")
    elif stmt.multiplier < 0:
        cx.err("E0401", "a multiplier cannot be negative", stmt.multiplier_span)
    if existing is not None:
        t.tiebreak = existing.tiebreak
        g.types[g.types.index(existing)] = t
    else:
        g.types.append(t)


def tiebreak(cx: Context, stmt: ast.TiebreakStmt) -> None:
    cx.pending_tiebreaks.append(stmt)


def formula(cx: Context, stmt: ast.LetStmt) -> None:
    g = cx.game
    if cx.replace_check(stmt, stmt.name in g.formulas, "formula", stmt.name):
        g.formulas[stmt.name] = cx.item(model.Formula, stmt)
        cx.waiting.put(g.formulas[stmt.name], "expr", stmt.expr)


def settlement(cx: Context, stmt: ast.SettleStmt) -> None:
    if not cx.singleton(stmt, "settle", cx.game.settlement is not None):
        return
    clauses = []
    for cl in stmt.clauses:
        clause = model.SettleClause(cl.kind, cl.name, None, None, cl.span, cl.cite)
        cx.waiting.put(clause, "expr", cl.expr)
        cx.waiting.put(clause, "unless", cl.unless)
        clauses.append(clause)
    stakes = [model.StakeLine(s.name, s.span, s.name_span, s.cite) for s in stmt.stakes]
    cx.game.settlement = model.Settlement(stmt.scheme, clauses, stmt.span, stmt.cite, cx.labels(stmt.labels), stakes)


def policy(cx: Context, stmt: ast.PolicyStmt) -> None:
    g = cx.game
    if cx.singleton(stmt, "policy", g.policy_threshold is not None):
        g.policy_threshold = stmt.threshold


def turn(cx: Context, stmt: ast.TurnStmt) -> None:
    """`turn deal 5 cards, 1 face up, …`: how a seat game's round is played."""
    g = cx.game
    if not cx.singleton(stmt, "turn", g.turn is not None):
        return
    p = stmt.parts
    deal, up = p.get("deal"), p.get("up")
    if isinstance(up, int) and isinstance(deal, int) and up > deal:
        cx.err("E0161", f"{up} cards face up of the {deal} dealt", stmt.span, f"at most {deal} face up")
    g.turn = model.Turn(stmt.span, deal, up, p.get("hit"), p.get("limit"), p.get("timer"), p.get("order"), stmt.cite)


STATEMENTS: Handlers = {
    ast.TurnStmt: turn,
    ast.SeatsStmt: seats,
    ast.TypeStmt: hand_type,
    ast.TiebreakStmt: tiebreak,
    ast.LetStmt: formula,
    ast.SettleStmt: settlement,
    ast.PolicyStmt: policy,
}
