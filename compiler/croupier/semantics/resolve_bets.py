"""Resolver, the bets: each `bet` with its clauses in the order written (`wins when …, pays …`, a
payout table `wins when …, pays by KEY`, `push when …`, `loses [half] when …`), the valid-bet rules
(which stakes count as valid bets), and `remove` (a variant drops something its base declares).

A payout must pay something, a commission lies in [0, 100 %), a rounding unit is
above zero, a payout table gives each key value one row, and a bet wins somehow.
The conditions wait in `Context.waiting` until every statement is read
(`resolve_exprs`: a bet's are checked in the scope of a bet, which knows the
round's outcome; the valid-bet rule's in its own).
"""

from __future__ import annotations

from croupier.semantics import model
from croupier.semantics.resolve_context import Context, Handlers
from croupier.suggest import did_you_mean
from croupier.syntax import ast


def payout(cx: Context, bet: str, p: ast.Payout) -> model.Payout:
    if p.ratio <= 0:
        cx.err("E0401", f"bet `{bet}` pays {p.text}: a payout must be above zero", p.span,
               "a winning bet returns more than nothing")
    if p.commission is not None and not 0 <= p.commission < 1:
        cx.err("E0402", "a commission is a percentage from 0 to under 100", p.span)
    if p.unit is not None and p.unit <= 0:
        cx.err("E0402", "a rounding unit must be above zero", p.span)
    return model.Payout(p.style, p.ratio, p.commission, p.rounding, p.unit, p.text)


def table(cx: Context, bet: str, w: ast.WinsClause) -> model.PayoutTable:
    """A payout table's rows; a key value in two rows is an error."""
    out = model.PayoutTable(None, [])
    cx.waiting.put(out, "key", w.key)
    taken: dict[int, ast.PayoutRow] = {}
    for row in w.rows:
        if row.payout is None or (row.low is None and row.condition is None):
            continue  # reported by the parser
        if row.low is not None and row.high is not None:
            if row.high < row.low:
                cx.err("E0107", f"the range {row.low}..{row.high} runs backwards", row.span,
                       f"write {row.high}..{row.low}")
                continue
            clash = next((k for k in range(row.low, min(row.high, row.low + 10_000) + 1) if k in taken), None)
            if clash is not None:
                cx.err("E0408", f"the payout table of bet `{bet}` gives the key {clash} two rows", row.span,
                       "each key value gets one row")
                continue
            taken.update({k: row for k in range(row.low, min(row.high, row.low + 10_000) + 1)})
        got = model.PayoutRow(row.low, row.high, None, payout(cx, bet, row.payout), row.span)
        cx.waiting.put(got, "condition", row.condition)
        out.rows.append(got)
    return out


def bet(cx: Context, stmt: ast.BetStmt) -> None:
    if not cx.replace_check(stmt, stmt.name in cx.game.bets, "bet", stmt.name):
        return
    result = cx.item(model.Bet, stmt)
    for c in stmt.clauses:
        if isinstance(c, ast.WinsClause):
            rule = model.BetRule(None, payout(cx, stmt.name, c.payout) if c.payout is not None else None,
                                 c.span, c.cite)
            if c.key is not None:
                rule.table = table(cx, stmt.name, c)
        elif isinstance(c, ast.PushClause):
            rule = model.BetRule(None, None, c.span, c.cite, kind="push")
        else:
            rule = model.BetRule(None, None, c.span, c.cite, kind="loses", part=c.part)
        cx.waiting.put(rule, "when", c.when)
        result.clauses.append(rule)
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


# what `remove KIND NAME` names, and where a game keeps it
REMOVABLE = {"bet": ("bet", "bets"), "event": ("event", "events"), "outcome": ("outcome", "outcomes"),
             "class": ("class", "classes"), "room": ("room", "rooms"), "assume": ("assumption", "assumptions"),
             "let": ("formula", "formulas"), "deck": ("deck", "decks")}


def remove(cx: Context, stmt: ast.RemoveStmt) -> None:
    """`remove KIND NAME`: only in a variant, only of something its base declares. What the rest of the
    game still says about it is checked once every statement is read (`resolve_checks.check_removed`)."""
    g = cx.game
    span = stmt.name_span or stmt.span
    kind, field_name = REMOVABLE.get(stmt.what, ("hand type", ""))
    if not cx.variant:
        cx.err("E0110", f"`remove` in a game that extends nothing ({kind} `{stmt.name}`)", stmt.span,
               "a variant removes what its base declares; in a game of its own, delete the statement")
        return
    if stmt.what == "type":
        exists = g.type_named(stmt.name) is not None
    else:
        exists = stmt.name in getattr(g, field_name)
    if not exists:
        guess, suggestion = did_you_mean(stmt.name, cx.base_names.get(kind, ()))
        cx.err("E0111", f"this variant removes {kind} `{stmt.name}`, which its base lacks", span,
               f"{guess} {kind}s of the base: {', '.join(sorted(cx.base_names.get(kind, ()))) or 'none'}".strip(),
               suggestion)
        return
    if stmt.what == "type":
        g.types = [t for t in g.types if t.name != stmt.name]
    else:
        del getattr(g, field_name)[stmt.name]
    cx.removed.append((kind, stmt.name, stmt.span))
    g.differences.append(model.Difference("remove", kind, stmt.name, stmt.span))
    if stmt.what == "bet":
        for room in g.rooms.values():  # a removed bet has no limit left to keep: the room changes, and says so
            if room.limits.pop(stmt.name, False) is not False:
                cx.differs("override", "room", room.name, stmt.span)


STATEMENTS: Handlers = {ast.BetStmt: bet, ast.ValidBetStmt: valid_bets, ast.RemoveStmt: remove}
