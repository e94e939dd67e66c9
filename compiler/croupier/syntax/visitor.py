"""One generic traversal of expression trees: `visit(node)` calls `visit_<ClassName>(node)`.

As in Jinja2's `NodeVisitor` and pegen's `GrammarVisitor`, a pass over an
expression is a class with one method per node kind. The method is looked up
along the node's class hierarchy, most specific class first, so one method may
serve a family of nodes (`visit_Name` for every kind of reference) and a pass
over the syntax tree also serves the semantic expressions whose classes share
its names (`Binary`, `Compare`, …). A node that no method of a pass handles is a
compiler bug and fails here, loudly, in one place.

Both the syntax tree's expressions (`expr_ast`) and the model's
(`croupier.semantics.expr`) derive from `Node`; a node's children are its fields
that hold a `Node`, or a list or tuple of them.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import fields
from typing import Any


class Node:
    """Base of every node a visitor walks (a dataclass)."""

    __slots__ = ()


def children(node: Node) -> Iterator[Node]:
    """The node's child nodes, in the order its fields declare them."""
    for f in fields(node):  # type: ignore[arg-type]
        value = getattr(node, f.name)
        if isinstance(value, Node):
            yield value
        elif isinstance(value, (list, tuple)):
            yield from (v for v in value if isinstance(v, Node))


class NodeVisitor:
    """Dispatch on the node's class: `visit_<ClassName>`, found along the class hierarchy.

    Extra positional and keyword arguments of `visit` are passed on to the method.
    """

    _methods: dict[type, str] = {}  # node class -> name of its method, per visitor class

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._methods = {}

    def visit(self, node: Node, *args: Any, **kwargs: Any) -> Any:
        kind = type(node)
        name = self._methods.get(kind)
        if name is None:
            name = next((f"visit_{c.__name__}" for c in kind.__mro__ if hasattr(self, f"visit_{c.__name__}")), "")
            if not name:
                raise NotImplementedError(f"{type(self).__name__} has no method for a {kind.__module__}."
                                          f"{kind.__name__} node (nor any of its base classes)")
            self._methods[kind] = name
        return getattr(self, name)(node, *args, **kwargs)

    def generic_visit(self, node: Node, *args: Any, **kwargs: Any) -> list[Any]:
        """Visit every child of the node; the results, in order."""
        return [self.visit(child, *args, **kwargs) for child in children(node)]
