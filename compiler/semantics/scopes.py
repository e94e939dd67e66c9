"""Expression scopes: which names and functions an expression may use, their
types, and how each translates to Python in a generated engine.

Every expression in a spec is checked against the scope of the place it
stands (a draw table, a bet, a hand type, a settlement formula). The checker
returns diagnostics; the translator emits Python text built only from known
templates, so spec text can never become code.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from croupier.diagnostics import Diagnostic, error
from croupier.syntax import ast

NUM, BOOL, HAND, CARDS, CARD, ROLE, CLASS = "number", "condition", "hand", "cards", "card", "seat", "card class"


@dataclass
class Func:
    """A built-in function: argument types, result type, Python template."""

    args: tuple[str, ...]
    result: str
    template: str  # "{0}" etc.; "*" as args means any number of numbers
    doc: str = ""


@dataclass
class Scope:
    """Names, functions and `is` subjects visible at one place of a spec."""

    where: str
    names: dict[str, tuple[str, str]] = field(default_factory=dict)  # name -> (type, python)
    funcs: dict[str, Func] = field(default_factory=dict)
    is_subjects: dict[str, tuple[frozenset[str], str, str]] = field(default_factory=dict)
    # subject -> (allowed names, python template with {subject} and {what}, what kind)

    def with_names(self, extra: dict[str, tuple[str, str]]) -> Scope:
        return Scope(self.where, {**self.names, **extra}, self.funcs, self.is_subjects)


NUMERIC_FUNCS = {
    "min": Func(("*",), NUM, "min({args})", "the smallest of its arguments"),
    "max": Func(("*",), NUM, "max({args})", "the largest of its arguments"),
    "floor": Func((NUM,), NUM, "floor({0})", "rounded down to a whole number"),
}


def py_number(value: Fraction, constants: dict[Fraction, str]) -> str:
    """Python text for an exact number; fractions become named module constants."""
    if value.denominator == 1:
        return str(value.numerator)
    name = f"Q_{value.numerator}_{value.denominator}".replace("-", "M")
    constants[value] = name
    return name


class Checker:
    """Type-check expressions against a scope, collecting diagnostics."""

    def __init__(self, diagnostics: list[Diagnostic]) -> None:
        self.diagnostics = diagnostics

    def check(self, e: ast.Expr, scope: Scope, want: str | None = None) -> str | None:
        got = self._check(e, scope)
        if want is not None and got is not None and got != want:
            self.diagnostics.append(error(
                "E0301", f"expected a {want} here, but this is a {got}", e.span,
                f"in {scope.where}, this place needs a {want}"))
        return got

    def _check(self, e: ast.Expr, scope: Scope) -> str | None:
        if isinstance(e, ast.Num):
            return NUM
        if isinstance(e, ast.Name):
            if e.name in scope.names:
                return scope.names[e.name][0]
            if e.name in scope.funcs:
                self.diagnostics.append(error("E0302", f"`{e.name}` is a function and needs arguments", e.span,
                                              f"write `{e.name}(…)`"))
                return None
            known = ", ".join(sorted(scope.names)) or "none"
            self.diagnostics.append(error("E0101", f"unknown name `{e.name}` in {scope.where}", e.span,
                                          f"names known here: {known}"))
            return None
        if isinstance(e, ast.Call):
            f = scope.funcs.get(e.func)
            if f is None:
                known = ", ".join(sorted(scope.funcs)) or "none"
                self.diagnostics.append(error("E0102", f"unknown function `{e.func}` in {scope.where}", e.span,
                                              f"functions known here: {known}"))
                for a in e.args:
                    self._check(a, scope)
                return None
            if f.args == ("*",):
                if not e.args:
                    self.diagnostics.append(error("E0303", f"`{e.func}` needs at least one argument", e.span))
                for a in e.args:
                    self.check(a, scope, NUM)
                return f.result
            if len(e.args) != len(f.args):
                self.diagnostics.append(error(
                    "E0303", f"`{e.func}` takes {len(f.args)} argument(s), not {len(e.args)}", e.span,
                    f"write `{e.func}({', '.join(f.args)})`"))
                return f.result
            for a, t in zip(e.args, f.args):
                alts = t.split("|")
                got = self._check(a, scope)
                if got is not None and got not in alts:
                    self.diagnostics.append(error(
                        "E0301", f"`{e.func}` expects a {' or '.join(alts)}, but this is a {got}", a.span))
            return f.result
        if isinstance(e, ast.Binary):
            self.check(e.left, scope, NUM)
            self.check(e.right, scope, NUM)
            return NUM
        if isinstance(e, ast.Negate):
            self.check(e.operand, scope, NUM)
            return NUM
        if isinstance(e, ast.Compare):
            left = self._check(e.left, scope)
            right = self._check(e.right, scope)
            for side, t in ((e.left, left), (e.right, right)):
                if t is not None and t != NUM and e.op not in ("=", "!="):
                    self.diagnostics.append(error("E0301", f"`{e.op}` compares numbers, but this is a {t}", side.span))
            if left and right and left != right:
                self.diagnostics.append(error("E0301", f"cannot compare a {left} with a {right}", e.span))
            return BOOL
        if isinstance(e, ast.InRange):
            for sub in (e.value, e.low, e.high):
                self.check(sub, scope, NUM)
            return BOOL
        if isinstance(e, ast.IsTest):
            subj = scope.is_subjects.get(e.subject)
            if subj is None:
                known = ", ".join(sorted(scope.is_subjects)) or "nothing"
                self.diagnostics.append(error("E0101", f"`{e.subject} is …` cannot be tested in {scope.where}",
                                              e.subject_span, f"`is` tests work on: {known}"))
                return BOOL
            allowed, _tmpl, kind = subj
            if e.what not in allowed:
                known = ", ".join(sorted(allowed)) or "none"
                self.diagnostics.append(error("E0101", f"unknown {kind} `{e.what}`", e.what_span,
                                              f"{kind}s: {known}"))
            return BOOL
        if isinstance(e, ast.BoolOp):
            for o in e.operands:
                self.check(o, scope, BOOL)
            return BOOL
        if isinstance(e, ast.Not):
            self.check(e.operand, scope, BOOL)
            return BOOL
        if isinstance(e, ast.IfElse):
            self.check(e.cond, scope, BOOL)
            a = self._check(e.then, scope)
            b = self._check(e.other, scope)
            if a and b and a != b:
                self.diagnostics.append(error("E0301", f"both branches must be of one type ({a} vs {b})", e.span))
            return a or b
        return None


def to_python(e: ast.Expr, scope: Scope, constants: dict[Fraction, str]) -> str:
    """Translate a checked expression to Python text (only from scope templates)."""

    def go(x: ast.Expr) -> str:
        if isinstance(x, ast.Num):
            return py_number(x.value, constants)
        if isinstance(x, ast.Name):
            return scope.names[x.name][1]
        if isinstance(x, ast.Call):
            f = scope.funcs[x.func]
            args = [go(a) for a in x.args]
            names = [a.name if isinstance(a, ast.Name) else "" for a in x.args]  # checked identifiers
            return f.template.format(*args, args=", ".join(args), names=names)
        if isinstance(x, ast.Binary):
            if x.op == "/":
                return f"exact_div({go(x.left)}, {go(x.right)})"
            return f"({go(x.left)} {x.op} {go(x.right)})"
        if isinstance(x, ast.Negate):
            return f"(-{go(x.operand)})"
        if isinstance(x, ast.Compare):
            op = {"=": "==", "!=": "!="}.get(x.op, x.op)
            return f"({go(x.left)} {op} {go(x.right)})"
        if isinstance(x, ast.InRange):
            return f"({go(x.low)} <= {go(x.value)} <= {go(x.high)})"
        if isinstance(x, ast.IsTest):
            _allowed, tmpl, _kind = scope.is_subjects[x.subject]
            return tmpl.format(subject=x.subject, what=repr(x.what))
        if isinstance(x, ast.BoolOp):
            return "(" + f" {x.op} ".join(go(o) for o in x.operands) + ")"
        if isinstance(x, ast.Not):
            return f"(not {go(x.operand)})"
        if isinstance(x, ast.IfElse):
            return f"({go(x.then)} if {go(x.cond)} else {go(x.other)})"
        raise ValueError(f"cannot translate {type(x).__name__}")

    return go(e)


def names_used(e: ast.Expr) -> set[str]:
    """Every bare name and function name an expression mentions."""
    out: set[str] = set()

    def go(x: ast.Expr) -> None:
        if isinstance(x, ast.Name):
            out.add(x.name)
        elif isinstance(x, ast.Call):
            out.add(x.func + "()")
            for a in x.args:
                go(a)
        elif isinstance(x, ast.IsTest):
            out.add(x.subject)
        for attr in ("left", "right", "operand", "value", "low", "high", "cond", "then", "other"):
            sub = getattr(x, attr, None)
            if isinstance(sub, ast.Expr):
                go(sub)
        for sub in getattr(x, "operands", []) or []:
            go(sub)

    go(e)
    return out
