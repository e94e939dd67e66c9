"""Every expression of a spec, checked against the scope of its place and resolved into the model.

While the resolver reads a file's statements, the expressions wait in `Unresolved`
(keyed by the model object and field they belong to): a name may be declared
later in the file than it is used. Once every statement is read,
`check_expressions` walks the model place by place (the order of its
diagnostics), checks each waiting expression and stores the model's expression
(`expr`) in its field. Expressions a variant inherits from its base are already
resolved and are not checked again.
"""

from __future__ import annotations

from collections.abc import Callable

from croupier.semantics import model
from croupier.semantics.expr import BOOL, NUM
from croupier.semantics.game_scopes import round_scope, settle_scope, table_scope, type_scope, valid_bet_scope
from croupier.semantics.resolve_checks import check_settlement_roles
from croupier.semantics.scopes import Checker, Scope
from croupier.syntax import ast


class Unresolved:
    """The syntax expressions of the file being read, by the model object and field they resolve into."""

    def __init__(self) -> None:
        self._exprs: dict[tuple[int, str], tuple[object, object]] = {}  # the object is kept, so its id stays its own

    def put(self, obj: object, field: str, syntax: ast.Expr | list[ast.Expr] | None) -> None:
        if syntax is not None:
            self._exprs[(id(obj), field)] = (obj, syntax)

    def get(self, obj: object, field: str) -> ast.Expr | list[ast.Expr] | None:
        hit = self._exprs.get((id(obj), field))
        return hit[1] if hit is not None else None


def check_expressions(g: model.Game, c: Checker, err: Callable[..., None], waiting: Unresolved) -> None:  # noqa: C901
    """Check every waiting expression against the scope of its place (one block per place) and resolve it."""

    def resolve(obj: object, field: str, scope: Scope, want: str, checker: Checker = c) -> None:
        syntax = waiting.get(obj, field)
        if syntax is not None:
            setattr(obj, field, checker.check(syntax, scope, want))

    # a place a game of its kind never reads (a bet in a game without hands, a table formula in a game
    # without hand types) is resolved all the same, so that the model holds no syntax, but not reported
    quiet = Checker([])
    rc = c if g.hands else quiet
    rs = round_scope(g, with_outcome=False)
    for ev in g.events.values():
        resolve(ev, "when", round_scope(g, with_outcome=False, with_events=False), BOOL, rc)
    resolve(g, "stand_when", rs, BOOL, rc)
    for t in g.draws:
        resolve(t, "when", rs, BOOL, rc)
        resolve(t, "row_key", rs, NUM, rc)
        resolve(t, "col_key", rs, NUM, rc)
    for o in g.outcomes.values():
        resolve(o, "when", rs, BOOL, rc)
    bs = round_scope(g, with_outcome=True)
    for b in g.bets.values():
        for w in b.wins:
            resolve(w, "when", bs, BOOL, rc)
        pushes = waiting.get(b, "pushes")
        if pushes is not None:
            b.pushes = [rc.check(p, bs, BOOL) for p in pushes]
    if g.hands:
        if not g.deal_order:
            err("E0128", "the spec declares hands but no `deal` order", g.span,
                "add: deal player, banker, player, banker")
        if not g.outcomes:
            err("E0128", "the spec declares hands but no outcome", g.span,
                "add: outcome NAME when …")
    if not g.hands and not g.types and g.base is None:
        err("E0128", "the spec declares neither hands (a dealt round) nor hand types (a seat game): "
                     "there is no game to play", g.span,
            "add: hand NAME … and deal …, or: type NAME … with seats, hand size and settle")
    resolve(g, "valid_bets_none_when", valid_bet_scope(g), BOOL)
    ts = type_scope(g)
    for t in g.types:
        resolve(t, "when", ts, BOOL)
    for f in g.formulas.values():
        resolve(f, "expr", table_scope(g), NUM, c if g.types else quiet)
    if g.types:
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
                resolve(cl, "expr", scope, NUM)
                if cl.name in lets:
                    err("E0103", f"`{cl.name}` is defined twice", cl.span)
                lets.append(cl.name)
            elif cl.kind == "pay":
                pays += 1
                resolve(cl, "expr", scope, NUM)
                resolve(cl, "unless", scope, BOOL)
            else:
                resolve(cl, "expr", scope, BOOL)
        if pays != 1:
            err("E0129", "a settle block has exactly one `pay` line", g.settlement.span,
                "add: pay min(a, b)")
        check_settlement_roles(g, err)
