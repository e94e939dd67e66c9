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

from croupier.semantics import expr as ir
from croupier.semantics import model
from croupier.semantics.expr import BOOL, NUM
from croupier.semantics.game_scopes import round_scope, settle_scope, table_scope, type_scope, valid_bet_scope
from croupier.semantics.resolve_checks import check_settlement_roles
from croupier.semantics.scopes import Checker, Scope
from croupier.syntax import ast
from croupier.syntax.visitor import NodeVisitor, children


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

    def resolve(obj: object, field: str, scope: Scope, want: str | None, checker: Checker = c) -> None:
        syntax = waiting.get(obj, field)
        if syntax is not None:
            setattr(obj, field, checker.check(syntax, scope, want))

    # a place a game of its kind never reads (a bet in a game without hands, a table formula in a game
    # without hand types) is resolved all the same, so that the model holds no syntax, but not reported
    quiet = Checker([])
    rc = c if g.hands else quiet
    # an event or a dealt round's formula may read the finished round (its outcome) and other events and
    # formulas: each is resolved after those it reads, so that a boolean formula is known as one where it is read
    if g.hands:
        for kind, name, cyclic in named_conditions_in_order(g, waiting, err):
            obj = g.events[name] if kind == "event" else g.formulas[name]
            scope = round_scope(g, with_outcome=True, where=f"an event (`{name}`)" if kind == "event" else
                                f"a `let` (`{name}`)")
            # a cycle is reported once (E0140); what follows from it (a type not yet known) is not
            resolve(obj, "when" if kind == "event" else "expr", scope, BOOL if kind == "event" else None,
                    quiet if cyclic else rc)
    else:
        for ev in g.events.values():
            resolve(ev, "when", round_scope(g, with_outcome=True, with_events=False, formulas=()), BOOL, quiet)
    rs = round_scope(g, with_outcome=False)
    resolve(g, "stand_when", rs, BOOL, rc)
    for t in g.draws:
        resolve(t, "when", rs, BOOL, rc)
        resolve(t, "row_key", rs, NUM, rc)
        resolve(t, "col_key", rs, NUM, rc)
    for rep in g.repeats.values():
        resolve(rep, "when", rs, BOOL, rc)
    for o in g.outcomes.values():
        resolve(o, "when", rs, BOOL, rc)
    before_the_end = [g.stand_when] + [x for t in g.draws for x in (t.when, t.row_key, t.col_key)]
    before_the_end += [r.when for r in g.repeats.values()] + [o.when for o in g.outcomes.values()]
    for e in before_the_end:
        check_before_the_end(g, e, err)
    bs = round_scope(g, with_outcome=True)
    for b in g.bets.values():
        for w in b.clauses:
            resolve(w, "when", bs, BOOL, rc)
            if w.table is not None:
                resolve(w.table, "key", bs, NUM, rc)
                for row in w.table.rows:
                    resolve(row, "condition", bs, BOOL, rc)
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
    for f in g.formulas.values() if not g.hands else ():
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


def syntax_names(e: ast.Expr | list[ast.Expr] | None) -> set[str]:
    """Every name a syntax expression writes (references, not function names)."""
    found: set[str] = set()
    stack = list(e) if isinstance(e, list) else [e] if e is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Name):
            found.add(node.name)
        stack.extend(children(node))
    return found


def named_conditions_in_order(g: model.Game, waiting: Unresolved,
                              err: Callable[..., None]) -> list[tuple[str, str, bool]]:
    """The events and formulas of a dealt round, ("event" | "let", name, in a cycle?), each after every event or
    formula it reads, otherwise in the spec's order (events first). Those that read each other in a cycle are
    reported (E0140) and come last, in the spec's order."""
    items = [("event", n, ev, "when") for n, ev in g.events.items()]
    items += [("let", n, f, "expr") for n, f in g.formulas.items() if n not in g.events]
    index = {name: i for i, (_k, name, _o, _f) in enumerate(items)}
    reads = [sorted(index[n] for n in syntax_names(waiting.get(obj, field)) if n in index)
             for _k, _name, obj, field in items]
    order: list[int] = []
    state = [0] * len(items)  # 0 new, 1 on the path, 2 placed
    cyclic: list[int] = []

    def place(i: int, path: list[int]) -> None:
        if state[i] == 2:
            return
        if state[i] == 1:
            cycle = path[path.index(i):]
            if not any(j in cyclic for j in cycle):
                names = " → ".join(items[j][1] for j in cycle + [i])
                err("E0140", f"events and formulas read each other in a cycle: {names}", items[i][2].span,
                    "one of them must be said without the other")
            cyclic.extend(j for j in cycle if j not in cyclic)
            return
        state[i] = 1
        for j in reads[i]:
            place(j, path + [i])
        state[i] = 2
        if i not in cyclic:
            order.append(i)

    for i in range(len(items)):
        place(i, [])
    return [(items[i][0], items[i][1], i in cyclic) for i in order + sorted(cyclic)]


class _AfterTheRound(NodeVisitor):
    """The events and formulas an expression names that read the finished round (its outcome, the cards
    it used), directly or through other formulas."""

    def __init__(self, game: model.Game) -> None:
        self.game = game
        self.memo: dict[str, bool] = {}

    def reads_after(self, e: ir.Expr | None) -> bool:
        if e is None:
            return False
        return any(True for _ in self.refs(e))

    def refs(self, e: ir.Expr):
        """(reference, …) of `e` that read the finished round; a direct `outcome is` yields itself."""
        stack = [e]
        while stack:
            node = stack.pop()
            if isinstance(node, ir.AFTER_THE_ROUND):
                yield node
            elif isinstance(node, (ir.EventRef, ir.RoundFormulaRef)) and self.named_after(node):
                yield node
            else:
                stack.extend(children(node))

    def named_after(self, ref: ir.Name) -> bool:
        key = f"{type(ref).__name__}:{ref.name}"
        if key not in self.memo:
            self.memo[key] = False  # a cycle reads nothing more
            if isinstance(ref, ir.EventRef):
                target = self.game.events.get(ref.name)
                body = target.when if target is not None else None
            else:
                target = self.game.formulas.get(ref.name)
                body = target.expr if target is not None else None
            self.memo[key] = self.reads_after(body)
        return self.memo[key]


def check_before_the_end(g: model.Game, e: ir.Expr | None, err: Callable[..., None]) -> None:
    """A rule of the deal, the draws or the outcome names no event or formula that reads the finished round."""
    if e is None or not g.hands:
        return
    for ref in _AfterTheRound(g).refs(e):
        if isinstance(ref, (ir.EventRef, ir.RoundFormulaRef)):
            what = "event" if isinstance(ref, ir.EventRef) else "formula"
            err("E0304", f"{what} `{ref.name}` reads the finished round (its outcome or the cards it used), "
                         "which this rule comes before", ref.span,
                f"test `{ref.name}` in a bet or an event; a rule of the deal, the draws or the outcome cannot "
                "depend on the outcome")
