"""Expression scopes, and the type checker that resolves a syntax expression into the model's.

Every expression in a spec is checked against the scope of the place it
stands (a draw table, a bet, a hand type, a settlement formula): the names,
functions and `is` subjects it may use there, and their types. The checker
returns the model's expression (`expr`), with every name resolved, and reports
what does not fit as diagnostics. How an expression becomes Python is the
engine back end's business (`backends/engine/python_expr.py`), not the scopes'.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from croupier.diagnostics import Diagnostic, error
from croupier.semantics import expr as ir
from croupier.semantics.expr import BOOL, CARD, NUM, RANK, SUIT, Function
from croupier.suggest import did_you_mean
from croupier.syntax import ast
from croupier.syntax.printer import expr_text
from croupier.syntax.visitor import NodeVisitor


@dataclass
class Scope:
    """Names, functions and `is` subjects visible at one place of a spec."""

    where: str
    names: dict[str, tuple[str, type[ir.Name]]] = field(default_factory=dict)  # name -> (type, reference kind)
    funcs: dict[str, Function | tuple[Function, ...]] = field(default_factory=dict)  # a tuple: overloads
    is_subjects: dict[str, tuple[frozenset[str], str, type[ir.IsTest]]] = field(default_factory=dict)
    # subject -> (the names it may be tested against, what they are, the test it resolves to)
    constants: dict[str, tuple[tuple[str, type[ir.Name], str], ...]] = field(default_factory=dict)
    # a rank, suit or card written as a name (or a number, for a rank) -> (type, kind, canonical name) options
    unavailable: dict[str, str] = field(default_factory=dict)  # a name or `is` subject known elsewhere -> why not here


NUMERIC_FUNCS = {
    "min": Function("min", "min", ("*",), NUM, "the smallest of its arguments"),
    "max": Function("max", "max", ("*",), NUM, "the largest of its arguments"),
    "floor": Function("floor", "floor", (NUM,), NUM, "rounded down to a whole number"),
    "abs": Function("abs", "abs", (NUM,), NUM, "the number without its sign"),
}


def _invalid(e: ast.Expr, type_: str | None = None) -> ir.Invalid:
    return ir.Invalid(e.span, type_, expr_text(e), frozenset(ir.names_used(e)))


class Checker(NodeVisitor):
    """Type-check syntax expressions against a scope, collecting diagnostics; each check returns the
    model's expression (an `Invalid` part where a name or a call did not resolve)."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics

    def check(self, e: ast.Expr, scope: Scope, want: str | None = None) -> ir.Expr:
        node = self.visit(e, scope)
        if want is not None and node.type is not None and node.type != want:
            self.diagnostics.append(error(
                "E0301", f"expected a {want} here, but this is a {node.type}", e.span,
                f"in {scope.where}, this place needs a {want}"))
        return node

    def visit_Num(self, e: ast.Num, scope: Scope) -> ir.Expr:
        return ir.Num(e.span, NUM, e.value, e.text)

    def visit_Name(self, e: ast.Name, scope: Scope) -> ir.Expr:
        if e.name in scope.names:
            kind, ref = scope.names[e.name]
            return ref(e.span, kind, e.name)
        if e.name in scope.funcs:
            self.diagnostics.append(error("E0302", f"`{e.name}` is a function and needs arguments", e.span,
                                          f"write `{e.name}(…)`"))
            return _invalid(e)
        const = self.constant(e, scope, None)
        if const is not None:
            return const
        if e.name in scope.unavailable:
            self.diagnostics.append(error("E0101", f"`{e.name}` cannot be read in {scope.where}", e.span,
                                          scope.unavailable[e.name]))
            return _invalid(e)
        known = ", ".join(sorted(scope.names)) or "none"
        guess, suggestion = did_you_mean(e.name, [*scope.names, *scope.funcs])
        self.diagnostics.append(error("E0101", f"unknown name `{e.name}` in {scope.where}", e.span,
                                      f"{guess} names known here: {known}".strip(), suggestion))
        return _invalid(e)

    @staticmethod
    def constant(e: ast.Expr, scope: Scope, want: str | None) -> ir.Expr | None:
        """A rank, suit or card the name (or, for a rank, the number) stands for, preferring the type `want`;
        None when it is none of them (or a name of the scope, which comes first)."""
        if isinstance(e, ast.Name) and e.name not in scope.names:
            text = e.name
        elif isinstance(e, ast.Num) and want is not None and e.value.denominator == 1:
            text = e.text
        else:
            return None
        options = scope.constants.get(text.upper()) or scope.constants.get(text)
        if not options:
            return None
        kind, ref, canonical = next((o for o in options if o[0] == want), options[0])
        if isinstance(e, ast.Num) and kind != want:
            return None
        return ref(e.span, kind, canonical)

    def operand(self, e: ast.Expr, scope: Scope, want: str | None) -> ir.Expr:
        """An operand next to one of type `want`: a rank, suit or card name is read as one of that type."""
        if want in (RANK, SUIT, CARD):
            const = self.constant(e, scope, want)
            if const is not None:
                return const
        return self.visit(e, scope)

    def overloads(self, e: ast.Call, scope: Scope) -> list[Function]:
        """The functions a call may name: those of its name and arity (none reported as an error)."""
        found = scope.funcs.get(e.func)
        if found is None:
            known = ", ".join(sorted(scope.funcs)) or "none"
            self.diagnostics.append(error("E0102", f"unknown function `{e.func}` in {scope.where}", e.span,
                                          f"functions known here: {known}"))
            return []
        options = found if isinstance(found, tuple) else (found,)
        fitting = [f for f in options if f.args == ("*",) or len(f.args) == len(e.args)]
        if not fitting:
            forms = " or ".join(f"`{e.func}({', '.join(f.args)})`" for f in options)
            counts = " or ".join(sorted({str(len(f.args)) for f in options}))
            self.diagnostics.append(error("E0303", f"`{e.func}` takes {counts} argument(s), not {len(e.args)}",
                                          e.span, f"write {forms}"))
        return fitting

    def fits(self, a: ast.Expr, t: str, scope: Scope) -> bool:
        alts = t.split("|")
        for x in alts:
            const = self.constant(a, scope, x) if x in (RANK, SUIT, CARD) else None
            if const is not None and const.type in alts:
                return True
        return Checker([]).visit(a, scope).type in alts

    def visit_Call(self, e: ast.Call, scope: Scope) -> ir.Expr:
        options = self.overloads(e, scope)
        if not options:
            for a in e.args:
                self.visit(a, scope)
            found = scope.funcs.get(e.func)
            first = found[0] if isinstance(found, tuple) else found
            return _invalid(e, first.result if first is not None else None)
        # of overloads of one arity (`count(h, face)`, `count(h, H)`), the first whose arguments fit
        f = next((g for g in options if all(self.fits(a, t, scope) for a, t in zip(e.args, g.args))), options[0])
        if f.args == ("*",):
            if not e.args:
                self.diagnostics.append(error("E0303", f"`{e.func}` needs at least one argument", e.span))
            return ir.Call(e.span, f.result, f, tuple(self.check(a, scope, NUM) for a in e.args))
        args = []
        for a, t in zip(e.args, f.args):
            alts = t.split("|")
            wanted = [x for x in alts if x in (RANK, SUIT, CARD)]
            node = self.operand(a, scope, wanted[0]) if len(wanted) == 1 else self.visit(a, scope)
            if node.type is not None and node.type not in alts:
                self.diagnostics.append(error(
                    "E0301", f"`{e.func}` expects a {' or '.join(alts)}, but this is a {node.type}", a.span))
            args.append(node)
        return ir.Call(e.span, f.result, f, tuple(args))

    def visit_Binary(self, e: ast.Binary, scope: Scope) -> ir.Expr:
        return ir.Binary(e.span, NUM, e.op, self.check(e.left, scope, NUM), self.check(e.right, scope, NUM))

    def visit_Negate(self, e: ast.Negate, scope: Scope) -> ir.Expr:
        return ir.Negate(e.span, NUM, self.check(e.operand, scope, NUM))

    def visit_Compare(self, e: ast.Compare, scope: Scope) -> ir.Expr:
        if self.constant(e.left, scope, None) is not None and self.constant(e.right, scope, None) is None:
            right = self.visit(e.right, scope)  # `K = rank(first(h))`: the named side takes the other's type
            left = self.operand(e.left, scope, right.type)
        else:
            left = self.visit(e.left, scope)
            right = self.operand(e.right, scope, left.type)
        ordered = False
        for side, t in ((e.left, left.type), (e.right, right.type)):
            if t is not None and t != NUM and e.op not in ("=", "!="):
                hint = "a card's value is value(CARD), its rank rank(CARD)" if t == CARD else ""
                self.diagnostics.append(error("E0301", f"`{e.op}` compares numbers, but this is a {t}", side.span,
                                              hint))
                ordered = True
        if not ordered and left.type and right.type and left.type != right.type:
            self.diagnostics.append(error("E0301", f"cannot compare a {left.type} with a {right.type}", e.span))
        return ir.Compare(e.span, BOOL, e.op, left, right)

    def visit_InRange(self, e: ast.InRange, scope: Scope) -> ir.Expr:
        value, low, high = (self.check(sub, scope, NUM) for sub in (e.value, e.low, e.high))
        return ir.InRange(e.span, BOOL, value, low, high)

    def visit_IsTest(self, e: ast.IsTest, scope: Scope) -> ir.Expr:
        subj = scope.is_subjects.get(e.subject)
        if subj is None:
            known = ", ".join(sorted(scope.is_subjects)) or "nothing"
            hint = scope.unavailable.get(e.subject, f"`is` tests work on: {known}")
            self.diagnostics.append(error("E0101", f"`{e.subject} is …` cannot be tested in {scope.where}",
                                          e.subject_span, hint))
            return _invalid(e, BOOL)
        allowed, kind, test = subj
        if e.what not in allowed:
            known = ", ".join(sorted(allowed)) or "none"
            guess, suggestion = did_you_mean(e.what, allowed)
            self.diagnostics.append(error("E0101", f"unknown {kind} `{e.what}`", e.what_span,
                                          f"{guess} {kind}s: {known}".strip(), suggestion))
            return _invalid(e, BOOL)
        return test(e.span, BOOL, e.subject, e.what)

    def visit_BoolOp(self, e: ast.BoolOp, scope: Scope) -> ir.Expr:
        return ir.BoolOp(e.span, BOOL, e.op, tuple(self.check(o, scope, BOOL) for o in e.operands))

    def visit_Not(self, e: ast.Not, scope: Scope) -> ir.Expr:
        return ir.Not(e.span, BOOL, self.check(e.operand, scope, BOOL))

    def visit_IfElse(self, e: ast.IfElse, scope: Scope) -> ir.Expr:
        cond = self.check(e.cond, scope, BOOL)
        a = self.visit(e.then, scope)
        b = self.visit(e.other, scope)
        if a.type and b.type and a.type != b.type:
            self.diagnostics.append(error("E0301", f"both branches must be of one type ({a.type} vs {b.type})",
                                          e.span))
        return ir.IfElse(e.span, a.type or b.type, cond, a, b)
