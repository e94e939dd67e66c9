"""Print expressions back in the spec's own notation, for cards and docstrings."""

from __future__ import annotations

from fractions import Fraction

from croupier.syntax import ast

_PRECEDENCE = {"or": 1, "and": 2, "not": 3, "cmp": 4, "+": 5, "-": 5, "*": 6, "/": 6, "neg": 7, "atom": 8}


def number_text(value: Fraction) -> str:
    """An exact number as the spec would write it: 3, 10.5, 1/3."""
    if value.denominator == 1:
        return str(value.numerator)
    d = value.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d == 1:
        digits = 0
        v = value
        while v.denominator != 1:
            v *= 10
            digits += 1
        sign = "-" if v < 0 else ""
        s = str(abs(v.numerator)).rjust(digits + 1, "0")
        return f"{sign}{s[:-digits]}.{s[-digits:]}"
    return f"{value.numerator}/{value.denominator}"


def _prec(e: ast.Expr) -> int:
    if isinstance(e, ast.BoolOp):
        return _PRECEDENCE[e.op]
    if isinstance(e, ast.Not):
        return _PRECEDENCE["not"]
    if isinstance(e, (ast.Compare, ast.InRange, ast.IsTest)):
        return _PRECEDENCE["cmp"]
    if isinstance(e, ast.Binary):
        return _PRECEDENCE[e.op]
    if isinstance(e, ast.Negate):
        return _PRECEDENCE["neg"]
    if isinstance(e, ast.IfElse):
        return 0
    return _PRECEDENCE["atom"]


def expr_text(e: ast.Expr) -> str:
    """Render an expression in spec syntax, with only the parentheses it needs."""

    def wrap(sub: ast.Expr, minimum: int) -> str:
        text = expr_text(sub)
        return f"({text})" if _prec(sub) < minimum else text

    if isinstance(e, ast.Num):
        return e.text
    if isinstance(e, ast.Name):
        return e.name
    if isinstance(e, ast.Call):
        return f"{e.func}({', '.join(expr_text(a) for a in e.args)})"
    if isinstance(e, ast.Binary):
        p = _PRECEDENCE[e.op]
        return f"{wrap(e.left, p)} {e.op} {wrap(e.right, p + 1)}"
    if isinstance(e, ast.Negate):
        return f"-{wrap(e.operand, _PRECEDENCE['neg'])}"
    if isinstance(e, ast.Compare):
        return f"{wrap(e.left, 5)} {e.op} {wrap(e.right, 5)}"
    if isinstance(e, ast.InRange):
        return f"{wrap(e.value, 5)} in {wrap(e.low, 5)}..{wrap(e.high, 5)}"
    if isinstance(e, ast.IsTest):
        return f"{e.subject} is {e.what}"
    if isinstance(e, ast.BoolOp):
        p = _PRECEDENCE[e.op]
        return f" {e.op} ".join(wrap(o, p + 1) for o in e.operands)
    if isinstance(e, ast.Not):
        return f"not {wrap(e.operand, _PRECEDENCE['not'])}"
    if isinstance(e, ast.IfElse):
        return f"if {expr_text(e.cond)} then {expr_text(e.then)} else {expr_text(e.other)}"
    return "?"
