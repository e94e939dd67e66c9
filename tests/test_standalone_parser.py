"""The parser's tables computed ahead of time (`syntax/standalone_parser.py`, Lark's standalone parser written by
`make_standalone`): made from this grammar, and parsing every text as the parser Lark builds from the grammar."""

from __future__ import annotations

from conftest import ROOT
from lark import Lark

from croupier.syntax import make_standalone, standalone_parser
from croupier.syntax.concrete import ConcreteIndenter
from croupier.syntax.parser import BadIndentation, parser

# texts with syntax errors of each kind: a character, a token, the end of the file, bad indentation
BAD_TEXTS = ["game g\nbet b\n    wins when x, pays 2\n", "game g\n@\n", "game g\nbet b\n",
             "game g\nbet b\n        wins when x, pays 2 to 1\n    push when y\n", "game g\nshoe 8 decks of\n",
             "game g\nevent e when total(h) == 6\n", "game g\nevent e when f(x\n", ""]


def test_the_standalone_parser_is_made_from_this_grammar():
    assert standalone_parser.GRAMMAR_SHA256 == make_standalone.grammar_sha256(), \
        "the grammar changed: run python -m croupier.syntax.make_standalone and commit standalone_parser.py"


def shape(node) -> object:
    """A parse tree (either Lark's classes) as plain data: every rule, token, type and place."""
    if hasattr(node, "children"):
        meta = node.meta
        place = None if meta.empty else (meta.line, meta.column, meta.end_line, meta.end_column)
        return node.data, place, [shape(c) for c in node.children]
    return node.type, str(node), node.line, node.column, node.end_line, node.end_column


def outcome(lark, text: str) -> object:
    """The tree of `text`, or the kind and place of the error parsing it raises (and what it expected)."""
    try:
        return shape(lark.parse(text))
    except Exception as exc:  # noqa: BLE001 - compared between the two parsers
        kind = "DedentError" if isinstance(exc, BadIndentation) else type(exc).__name__  # (named by our indenter)
        return (kind, getattr(exc, "line", None), getattr(exc, "column", None),
                sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ()))


def test_the_standalone_parser_parses_as_lark_builds_the_grammar():
    built = Lark.open(str(make_standalone.GRAMMAR), postlex=ConcreteIndenter(), **make_standalone.OPTIONS)
    specs = sorted(p for p in ROOT.rglob("*.rules") if ".git" not in p.parts)
    texts = [p.read_text(encoding="utf-8").replace("\r\n", "\n") for p in specs] + BAD_TEXTS
    assert len(specs) > 80
    for text in texts:
        assert outcome(parser(), text) == outcome(built, text), text[:200]
