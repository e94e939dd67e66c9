"""Print expressions back in the spec's own notation, for cards, diagnostics and docstrings."""

from __future__ import annotations

from croupier.runtime.numbers import number_text  # noqa: F401 - the one number formatter, for printer's old callers
from croupier.syntax import ast
from croupier.syntax.visitor import Node, NodeVisitor

_PRECEDENCE = {"or": 1, "and": 2, "not": 3, "cmp": 4, "+": 5, "-": 5, "*": 6, "/": 6, "mod": 6, "neg": 7, "atom": 8}


class ExprPrinter(NodeVisitor):
    """Prints an expression; each method returns (text, precedence of its outermost operator).

    It prints the syntax tree's expressions and, through the class names they share, the
    model's (`croupier.semantics.expr` adds the one node kind the syntax lacks).
    """

    def wrap(self, sub: Node, minimum: int) -> str:
        text, precedence = self.visit(sub)
        return f"({text})" if precedence < minimum else text

    def text(self, e: Node) -> str:
        return self.visit(e)[0]

    def visit_Num(self, e) -> tuple[str, int]:
        return e.text, _PRECEDENCE["atom"]

    def visit_Name(self, e) -> tuple[str, int]:
        return e.name, _PRECEDENCE["atom"]

    def visit_Call(self, e) -> tuple[str, int]:
        return f"{e.func}({', '.join(self.text(a) for a in e.args)})", _PRECEDENCE["atom"]

    def visit_Binary(self, e) -> tuple[str, int]:
        p = _PRECEDENCE[e.op]
        return f"{self.wrap(e.left, p)} {e.op} {self.wrap(e.right, p + 1)}", p

    def visit_Negate(self, e) -> tuple[str, int]:
        return f"-{self.wrap(e.operand, _PRECEDENCE['neg'])}", _PRECEDENCE["neg"]

    def visit_Compare(self, e) -> tuple[str, int]:
        return f"{self.wrap(e.left, 5)} {e.op} {self.wrap(e.right, 5)}", _PRECEDENCE["cmp"]

    def visit_InRange(self, e) -> tuple[str, int]:
        return f"{self.wrap(e.value, 5)} in {self.wrap(e.low, 5)}..{self.wrap(e.high, 5)}", _PRECEDENCE["cmp"]

    def visit_IsTest(self, e) -> tuple[str, int]:
        return f"{e.subject} is {e.what}", _PRECEDENCE["cmp"]

    def visit_BoolOp(self, e) -> tuple[str, int]:
        p = _PRECEDENCE[e.op]
        return f" {e.op} ".join(self.wrap(o, p + 1) for o in e.operands), p

    def visit_Not(self, e) -> tuple[str, int]:
        return f"not {self.wrap(e.operand, _PRECEDENCE['not'])}", _PRECEDENCE["not"]

    def visit_IfElse(self, e) -> tuple[str, int]:
        return f"if {self.text(e.cond)} then {self.text(e.then)} else {self.text(e.other)}", 0


def expr_text(e: ast.Expr) -> str:
    """Render an expression in spec syntax, with only the parentheses it needs."""
    return _PRINTER.text(e)


_PRINTER = ExprPrinter()
