"""Resolver, the bets: each `bet` with its win clauses (condition and payout) and push clauses,
and the valid-bet rules (which stakes count as valid bets).

A payout must pay something, a commission lies in [0, 100 %), a rounding unit is
above zero, and a bet wins somehow. The conditions wait in `Context.waiting`
until every statement is read (`resolve_exprs`: a bet's are checked in the scope
of a bet, which knows the round's outcome; the valid-bet rule's in its own).
"""

from __future__ import annotations

from croupier.semantics import model
from croupier.semantics.resolve_context import Context, Handlers
from croupier.syntax import ast


def bet(cx: Context, stmt: ast.BetStmt) -> None:
    if not cx.replace_check(stmt, stmt.name in cx.game.bets, "bet", stmt.name):
        return
    result = cx.item(model.Bet, stmt)
    for w in stmt.wins:
        p = w.payout
        if p.ratio <= 0:
            cx.err("E0401", f"bet `{stmt.name}` pays {p.text}: a payout must be above zero", p.span,
                   "a winning bet returns more than nothing")
        if p.commission is not None and not 0 <= p.commission < 1:
            cx.err("E0402", "a commission is a percentage from 0 to under 100", p.span)
        if p.unit is not None and p.unit <= 0:
            cx.err("E0402", "a rounding unit must be above zero", p.span)
        rule = model.BetRule(None, model.Payout(p.style, p.ratio, p.commission, p.rounding, p.unit, p.text),
                             w.span, w.cite)
        cx.waiting.put(rule, "when", w.when)
        result.wins.append(rule)
    cx.waiting.put(result, "pushes", [p.when for p in stmt.pushes])
    if not stmt.wins:
        cx.err("E0403", f"bet `{stmt.name}` never wins", stmt.span, "add a `wins when …, pays …` line")
    cx.game.bets[stmt.name] = result


def valid_bets(cx: Context, stmt: ast.ValidBetStmt) -> None:
    """`valid bets none for pushed stakes`, or `valid bets none when …`."""
    g = cx.game
    if stmt.pushed:
        if cx.singleton(stmt, "valid bets pushed", g.valid_bets_pushed_none):
            g.valid_bets_pushed_none, g.valid_bets_pushed_cite = True, stmt.cite
    elif cx.singleton(stmt, "valid bets", g.valid_bets_none_when is not None):
        g.valid_bets_none_when, g.valid_bets_cite = None, stmt.cite
        cx.waiting.put(g, "valid_bets_none_when", stmt.when)


STATEMENTS: Handlers = {ast.BetStmt: bet, ast.ValidBetStmt: valid_bets}
