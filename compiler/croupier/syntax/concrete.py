"""The concrete syntax tree of a spec, for the formatter: every token kept, comments collected.

`parser.parse_text` builds the abstract tree (`ast`), which keeps what a spec
says, not how it is written. The formatter needs the rest: every keyword as
written (`deck` or `decks`, `×` or `x`, `1.95`), the line each token stands on,
and the comments. This module parses with the same grammar and indentation rules,
with Lark's `keep_all_tokens` (built by Lark from the grammar: the standalone parser's
tables drop the tokens the grammar filters out), and collects the comments through Lark's
`lexer_callbacks`: the grammar folds comments into its newline token (`_NL`, as
Lark's own Python grammar does), so the callback receives every `_NL` token and
keeps the comments it holds, each with its line and whether it stands on a line
of its own or ends a line of code.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache

from lark import Lark
from lark.indenter import Indenter
from lark.lexer import Token
from lark.tree import Tree

from croupier.syntax.make_standalone import GRAMMAR, OPTIONS
from croupier.syntax.parser import IndentRules

_NEWLINES: ContextVar[list[Token] | None] = ContextVar("croupier_newlines", default=None)


@dataclass(frozen=True)
class Comment:
    """A `# …` comment: its line, its text (trailing blanks dropped), and whether it has a line of its own."""

    line: int
    text: str
    own_line: bool


def _collect(token: Token) -> Token:
    found = _NEWLINES.get()
    if found is not None:
        found.append(token)
    return token


class ConcreteIndenter(IndentRules, Indenter):
    """Lark's post-lexer for indentation, set for the rules language (the text parsed here parsed
    without error already, so its indentation is good)."""


@cache
def concrete_parser() -> Lark:
    """The grammar's LALR parser keeping every token, built by Lark once per process (about 0.2 s)."""
    return Lark.open(str(GRAMMAR), postlex=ConcreteIndenter(), keep_all_tokens=True,
                     lexer_callbacks={"_NL": _collect}, **OPTIONS)


def comments_in(newline: Token, lines: list[str]) -> Iterator[Comment]:
    """The comments one `_NL` token holds (it is newlines, indentation and comments, nothing else)."""
    for i, part in enumerate(str(newline).split("\n")):
        text = part.strip(" \t\r\f")
        if not text.startswith("#"):
            continue
        line = (newline.line or 1) + i
        if i == 0:  # the token starts on a line of code, or at the very start of the file
            before = lines[line - 1][: (newline.column or 1) - 1] if line - 1 < len(lines) else ""
            own = not before.strip()
        else:
            own = True
        yield Comment(line, text.rstrip(), own)


def normalised(text: str) -> str:
    """Spec text as the parser reads it: no byte-order mark, `\\n` line ends, a final newline."""
    work = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    return work if work.endswith("\n") else work + "\n"


def parse_concrete(text: str) -> tuple[Tree, list[Comment]]:
    """(concrete tree, comments in file order) of spec text that `parse_text` accepts without error.
    Raises Lark's exceptions on text it does not."""
    work = normalised(text)
    newlines: list[Token] = []
    reset = _NEWLINES.set(newlines)
    try:
        tree = concrete_parser().parse(work)
    finally:
        _NEWLINES.reset(reset)
    lines = work.split("\n")
    seen: set[tuple[int, int]] = set()
    comments = []
    for tok in newlines:  # the contextual lexer may hand one token over twice: keep each place once
        place = (tok.line or 0, tok.column or 0)
        if place in seen:
            continue
        seen.add(place)
        comments.extend(comments_in(tok, lines))
    comments.sort(key=lambda c: c.line)
    return tree, comments


def tokens(tree: Tree | Token, parent: str = "") -> Iterator[tuple[Token, str, Tree | None]]:
    """Every token under `tree` in order, with the rule that holds it and, for the first token of a
    `label_item`, that item (the formatter may break a long line before it)."""
    if isinstance(tree, Token):
        yield tree, parent, None
        return
    first = True
    for child in tree.children:
        for tok, rule, item in tokens(child, tree.data):
            if first and tree.data == "label_item":
                item = tree
            first = False
            yield tok, rule, item
