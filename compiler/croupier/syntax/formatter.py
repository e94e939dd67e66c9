"""`croupier fmt`: a spec's canonical layout, from its concrete syntax tree with comments attached.

The statement order, the keywords and the names stay as written; the layout is
rebuilt: one space between tokens (none inside `2..9`, `1/2`, `5%`, `f(x)`, before
`,` or `:`), blocks indented four spaces, long lines wrapped, grids and
citations aligned, comments kept where they stand (see `layout`).

Each statement kind has an entry in `LAYOUTS`, the function that turns it into
lines; a statement kind without one (a new statement of the grammar) stops the
formatter with an error naming it, rather than being laid out by guess.
`format_text` then checks its own work: the result must parse to the same
syntax tree (spans aside) and hold the same comments, or nothing is returned.
"""

from __future__ import annotations

from collections.abc import Callable

from lark.lexer import Token
from lark.tree import Tree

from croupier.diagnostics import Diagnostic
from croupier.syntax import ast
from croupier.syntax.concrete import Comment, parse_concrete, tokens
from croupier.syntax.layout import WIDTH, Line, grid_row, render, width
from croupier.syntax.parser import parse_text


class FormatError(Exception):
    """The formatter cannot lay a spec out (a statement kind it has no layout for, or a result
    that would not mean the same): a compiler bug, reported with the spec's path."""


# ---- spacing ----------------------------------------------------------------------------------------------
NO_SPACE_BEFORE = {",", ")", "%", ":", ".."}
NO_SPACE_AFTER = {"(", ".."}


def spaced(prev: Token, tok: Token, rule: str) -> bool:
    """Whether one space separates two tokens of a line (else none)."""
    if str(tok) in NO_SPACE_BEFORE or str(prev) in NO_SPACE_AFTER:
        return False
    if prev.type == "MINUS":  # a negation: `-x`
        return False
    if str(tok) == "(" and rule == "call":
        return False
    return not (tok.type == "SLASH" or prev.type == "SLASH")  # a fraction of points: `1/2`


# ---- statements into lines ------------------------------------------------------------------------------------
class _Lines:
    """Builds the lines of one statement from its tokens."""

    def __init__(self, kind: str, group: int) -> None:
        self.kind, self.group = kind, group
        self.out: list[Line] = []
        self.current: Line | None = None
        self.prev: Token | None = None
        self.level = 0

    def close(self) -> None:
        if self.current is not None:
            self.out.append(self.current)
        self.current, self.prev = None, None

    def start(self, tok: Token) -> Line:
        if self.current is None:
            self.current = Line(self.level, first=tok.line or 0, last=tok.end_line or tok.line or 0, group=self.group)
        return self.current

    def word(self, tok: Token, rule: str, breaks: bool) -> None:
        line = self.start(tok)
        line.last = max(line.last, tok.end_line or 0)
        if not line.chunks or breaks:
            line.chunks.append(str(tok))
        elif self.prev is not None and spaced(self.prev, tok, rule):
            line.chunks[-1] += " " + str(tok)
        else:
            line.chunks[-1] += str(tok)
        self.prev = tok

    def feed(self, tree: Tree) -> list[Line]:
        for tok, rule, item in tokens(tree):
            kind = tok.type
            if kind == "_NL":
                self.close()
            elif kind == "_INDENT":
                self.level += 1
            elif kind == "_DEDENT":
                self.level -= 1
            elif kind == "CITE":
                line = self.start(tok)
                line.cite, line.last = str(tok), max(line.last, tok.end_line or 0)
            elif kind == "GRID_LINE":
                line = self.start(tok)
                line.grid, line.trailing_bar = grid_row(str(tok), phrases=self.kind == "bet")  # a payout table
            else:
                self.word(tok, rule, item is not None or (kind == "WHEN" and rule == self.kind))
        self.close()
        return self.out


def plain(tree: Tree, kind: str, group: int) -> list[Line]:
    """A statement laid out line by line as written: its head, then its block of clauses or grid rows."""
    return _Lines(kind, group).feed(tree)


def assumption(tree: Tree, kind: str, group: int) -> list[Line]:
    """`assume NAME labels [cite]` on one line when it fits, else its labels in an indented block
    below the head, one a line (the language's form for long assumptions)."""
    head = _Lines(kind, group)
    items: list[Tree] = []
    for sub in tree.iter_subtrees_topdown():
        if sub.data == "label_item":
            items.append(sub)
    heads = []
    for tok, rule, _item in tokens(tree):
        if rule in ("label_item",) or tok.type in ("_NL", "_INDENT", "_DEDENT"):
            continue
        heads.append((tok, rule))
    for tok, rule in heads:
        if tok.type == "CITE":
            line = head.start(tok)
            line.cite = str(tok)
        else:
            head.word(tok, rule, False)
    line = head.current or Line(0)
    spans = [[(t.line or line.last, t.end_line or t.line or line.last) for t in i.scan_values(lambda v: isinstance(v, Token))]
             for i in items]
    labels = [" ".join(str(t) for t in i.scan_values(lambda v: isinstance(v, Token))) for i in items]
    one_line = width(" ".join(line.chunks + labels)) + (2 + width(line.cite) if line.cite else 0)
    if one_line <= WIDTH:
        line.last = max([line.last] + [end for span in spans for _, end in span])
        line.chunks = [" ".join(line.chunks + labels)]
        return [line]
    # each label keeps the source lines it came from, and with them the comments written on them
    return [line] + [Line(line.indent + 1, [text], first=max(line.last, min(a for a, _ in span)),
                          last=max(line.last, max(b for _, b in span)), group=group)
                     for text, span in zip(labels, spans)]


def _kinds(*names: str) -> dict[str, Callable[[Tree, str, int], list[Line]]]:
    return {name: plain for name in names}


# every statement of the grammar and how it is laid out
LAYOUTS: dict[str, Callable[[Tree, str, int], list[Line]]] = {
    **_kinds("game", "version", "effective", "source", "deck", "suit", "shoe", "joker", "value", "card_class", "wild", "total", "card_order",
             "suit_order", "hand", "deal", "event", "stand", "draw", "draw_while", "outcome", "bet", "hand_type",
             "tiebreak", "remove",
             "seats", "hand_size", "let", "settle", "policy", "turn", "room", "squeeze", "valid_bet", "valid_pushed",
             "cut_card", "burn", "last_round", "void", "shuffle"),
    "assume": assumption,
}


def statement_kind(tree: Tree) -> str:
    """The statement kind of a top-level tree (`override bet …` is a bet)."""
    if tree.data == "override":
        inner = [c for c in tree.children if isinstance(c, Tree)]
        return str(inner[0].data) if inner else "override"
    return str(tree.data)


# ---- comments ---------------------------------------------------------------------------------------------------
def attach(lines: list[Line], comments: list[Comment]) -> list[Line]:
    """The lines with the comments put where they stand: a comment at the end of a line stays with that
    line; a comment of its own becomes a line before the next line of the spec, indented as it."""
    out: list[Line] = []
    pending = sorted(comments, key=lambda c: c.line)
    i = 0
    for line in lines:
        while i < len(pending) and pending[i].line < line.first and pending[i].own_line:
            c = pending[i]
            out.append(Line(line.indent, [c.text], first=c.line, last=c.line))
            i += 1
        while i < len(pending) and pending[i].line <= line.last:
            c = pending[i]
            if c.own_line:  # inside a statement written over several lines: kept, after it
                line.comments.append(c.text)
            else:
                line.comments.append(c.text)
            i += 1
        out.append(line)
    for c in pending[i:]:
        if not c.own_line and out:
            out[-1].comments.append(c.text)
        else:
            out.append(Line(0, [c.text], first=c.line, last=c.line))
    return out


# ---- the whole file --------------------------------------------------------------------------------------------------
def layout(tree: Tree, comments: list[Comment]) -> str:
    """The canonical text of a concrete tree and its comments."""
    lines: list[Line] = []
    for group, stmt in enumerate((c for c in tree.children if isinstance(c, Tree)), 1):
        kind = statement_kind(stmt)
        lay = LAYOUTS.get(kind)
        if lay is None:
            raise FormatError(f"fmt has no layout for the statement `{kind}` (line {stmt.meta.line}): "
                              "add it to croupier.syntax.formatter.LAYOUTS")
        lines.extend(lay(stmt, kind, group))
    return render(attach(lines, comments))


_meaning = ast.meaning  # what two layouts of one spec must share


def format_text(text: str, path: str) -> tuple[str | None, list[Diagnostic]]:
    """(canonical text, diagnostics) of one spec's text; the text is None when the spec has syntax
    errors (the diagnostics say which). Raises FormatError when the result would not mean the same."""
    spec, diags = parse_text(text, path)
    if any(d.is_error for d in diags):
        return None, diags
    tree, comments = parse_concrete(text)
    result = layout(tree, comments)
    if result == text:  # already laid out: parsing the result again would parse the same text again
        return result, diags
    again, more = parse_text(result, path)
    if any(d.is_error for d in more) or _meaning(again.statements) != _meaning(spec.statements):
        raise FormatError(f"{path}: the laid-out spec would not mean the same; left as it is")
    if [c.text for c in parse_concrete(result)[1]] != [c.text for c in comments]:
        raise FormatError(f"{path}: the laid-out spec would lose or add a comment; left as it is")
    return result, diags
