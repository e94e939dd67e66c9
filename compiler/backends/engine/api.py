"""Engine back end, a generated module's public face: its docstring, imports and `__all__`.

`assemble` puts a generated module (an engine, or its analysis companion) together
from its pieces. The public calls are read from the pieces themselves (every
module-level function and class whose name does not start with `_`), so `__all__`
and the list of calls in the docstring can never drift from the code: each call is
listed with its signature and the first line of its docstring, under the piece it
comes from. The imports are the standard-library names the code uses, no more.
`checked_module` proves the result compiles and reads no name it does not define.
"""

from __future__ import annotations

import _symtable
import ast
import builtins
import inspect
import itertools
import re
import textwrap
import tokenize
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from croupier.backends.engine.loader import compile_engine
from croupier.backends.pywriter import literal, safe_text
from croupier.diagnostics import SpecError, error
from croupier.semantics.model import Game

# (name the code uses, the import that binds it), in the order they are written
IMPORTS = (
    ("itertools", "import itertools"),
    ("json", "import json"),
    ("math", "import math"),
    ("operator", "import operator"),
    ("random", "import random"),
    ("sys", "import sys"),
    ("weakref", "import weakref"),
    ("Decimal", "from decimal import Decimal"),
    ("Fraction", "from fractions import Fraction"),
)
WIDTH = 118  # the docstring's lines
SIGNATURE = 30  # the width of the signature column


@dataclass(frozen=True)
class Piece:
    """A stretch of a generated module's code; its public calls are listed under `heading` (None: not listed)."""

    text: str
    heading: str | None = None


@dataclass(frozen=True)
class Call:
    """One public call of a generated module: its name, signature and one-line description."""

    name: str
    signature: str
    summary: str


def signature(node: ast.FunctionDef | ast.ClassDef) -> str:
    """`name(arguments)` of a function, or of a class by its `__init__` (a class without one: its name)."""
    if isinstance(node, ast.FunctionDef):
        return f"{node.name}({ast.unparse(node.args)})"
    init = next((n for n in node.body if isinstance(n, ast.FunctionDef) and n.name == "__init__"), None)
    return node.name if init is None else class_signature(node.name, init)


def class_signature(name: str, init: ast.FunctionDef) -> str:
    """`name(arguments)` of a class whose `__init__` is `init` (its `self` left out)."""
    args = ast.arguments(posonlyargs=[], args=init.args.args[1:], vararg=init.args.vararg,
                         kwonlyargs=init.args.kwonlyargs, kw_defaults=init.args.kw_defaults,
                         kwarg=init.args.kwarg, defaults=init.args.defaults)
    return f"{name}({ast.unparse(args)})"


def public_calls(text: str) -> list[Call]:
    """Every module-level function and class of `text` whose name does not start with `_`, in order."""
    return list(_calls(text))


def names_read(text: str) -> set[str]:
    """The names `text` reads or assigns (not the names it only defines as functions, classes, parameters
    or imports): what decides the imports a module needs."""
    return set(_symbols(text)[2])


@lru_cache(maxsize=512)
def _calls(text: str) -> tuple[Call, ...]:
    """The public calls of a piece of code, read once: the runtime's pieces recur in every module.

    Read from the headers alone where it can (`_calls_from_headers`: the piece's symbol table,
    already built for `_symbols`, says where each module-level function and class starts, and
    only its header and docstring are read), else from the whole syntax tree: the same calls."""
    calls = _calls_from_headers(text)
    return calls if calls is not None else _calls_from_tree(text)


def _calls_from_tree(text: str) -> tuple[Call, ...]:
    """The public calls of a piece of code from its whole syntax tree (`ast.parse`)."""
    calls = []
    for node in ast.parse(text).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)) and not node.name.startswith("_"):
            summary = (ast.get_docstring(node) or "").strip().split("\n", 1)[0]
            calls.append(Call(node.name, signature(node), summary))
    return tuple(calls)


# a module-level definition's line: `def name` or `class name` from the first column (so not inside a block)
_TOP_DEF = re.compile(r"(def|class)[ \t]+([A-Za-z_][A-Za-z0-9_]*)\b")
_SKIPPED = frozenset({tokenize.NEWLINE, tokenize.NL, tokenize.COMMENT, tokenize.INDENT})


class _Unusual(Exception):
    """A header or docstring `_calls_from_headers` does not read itself: the whole tree is read instead."""


def _calls_from_headers(text: str) -> tuple[Call, ...] | None:
    """The public calls of a piece of code, parsing only the header and the docstring of each public
    module-level function and class; None when anything is unusual (then `_calls_from_tree` answers).

    The module-level definitions are the children of the piece's symbol table whose line starts with
    `def NAME` or `class NAME` (a definition in a block, or `async def`, is not in the module's body,
    and `_calls_from_tree` leaves it out too). Each header is tokenized up to its `:` and parsed with
    `pass` for a body; the docstring is the first statement when that is a lone string token. A class's
    signature is that of its first `__init__` written at the indentation of the class's body."""
    if "\r" in text or "\f" in text:
        return None
    lines = text.split("\n")
    calls = []
    try:
        for kind, name, lineno, inits in _scan(text)[3]:
            if not kind:
                return None
            line = lines[lineno - 1]
            match = _TOP_DEF.match(line)
            if match is None or match.group(2) != name or match.group(1) != kind:
                if line[:1] in (" ", "\t") or line.startswith("async") or name in _NAMELESS:
                    continue  # in a block, asynchronous, or a lambda or comprehension: not a module-level def
                return None
            if name.startswith("_"):
                continue
            node, indent, doc = _header(lines, lineno, 0)
            if kind == "def":
                sig = f"{node.name}({ast.unparse(node.args)})"
            else:
                sig = name
                for init in inits:
                    if lines[init - 1].startswith(indent + "def ") and indent:
                        sig = class_signature(name, _header(lines, init, len(indent), docstring=False)[0])
                        break
            summary = (inspect.cleandoc(doc) if doc else "").strip().split("\n", 1)[0]
            calls.append(Call(name, sig, summary))
    except (_Unusual, SyntaxError, tokenize.TokenError, ValueError, IndexError, StopIteration):
        return None
    return tuple(calls)


_NAMELESS = frozenset({"lambda", "genexpr", "listcomp", "setcomp", "dictcomp"})


def _header(lines: list[str], lineno: int, column: int, *, docstring: bool = True
            ) -> tuple[ast.FunctionDef | ast.ClassDef, str, str | None]:
    """(the definition starting at line `lineno`, column `column`, parsed with `pass` for its body; the
    indentation of its body, "" when the body is on the header's line; its docstring or None). Raises
    `_Unusual` (or a tokenizer or syntax error) when it cannot tell them from the tokens alone.

    The usual header, read by `_plain_header` without the tokenizer, gives the same answer."""
    plain = _plain_header(lines, lineno, column, docstring)
    if plain is not None:
        return plain
    fed: list[str] = []
    rows = itertools.chain([lines[lineno - 1][column:]], itertools.islice(lines, lineno, None))

    def readline() -> str:
        row = next(rows, None)
        if row is None:
            return ""
        fed.append(row + "\n")
        return fed[-1]

    tokens = tokenize.generate_tokens(readline)
    depth = 0
    for tok in tokens:
        if tok.type == tokenize.OP:
            if tok.string in "([{":
                depth += 1
            elif tok.string in ")]}":
                depth -= 1
            elif tok.string == ":" and depth == 0:
                break
    else:
        raise _Unusual
    row, col = tok.end
    node = ast.parse("".join(fed[:row - 1]) + fed[row - 1][:col] + " pass").body[0]
    if not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        raise _Unusual
    if not docstring:
        return node, "", None
    indent = ""
    tok = next(tokens)
    while tok.type in _SKIPPED:
        if tok.type == tokenize.INDENT:
            indent = tok.string
        tok = next(tokens)
    if tok.type == tokenize.OP and tok.string == "(":
        raise _Unusual  # perhaps a string in parentheses: a docstring all the same
    if tok.type != tokenize.STRING:
        return node, indent, None
    after = next(tokens)
    while after.type == tokenize.COMMENT:
        after = next(tokens)
    prefix = tok.string[:len(tok.string) - len(tok.string.lstrip("rRuUbBfF"))]
    if after.type != tokenize.NEWLINE or set(prefix) & set("fFbB"):
        raise _Unusual  # an expression that starts with a string, or not a plain string
    return node, indent, ast.literal_eval(tok.string)


_STRING_START = re.compile(r"[A-Za-z]{1,2}['\"]")  # a prefixed string literal: r"", rb'', f"" ...


def _plain_header(lines: list[str], lineno: int, column: int, docstring: bool
                  ) -> tuple[ast.FunctionDef | ast.ClassDef, str, str | None] | None:
    """What `_header` answers, for the usual header only: one line ending in its one `:` outside brackets,
    holding no string, comment or backslash; its body on the lines below, first a plain triple-quoted
    docstring on its own or no string at all. None for anything else.

    On such a line the brackets counted by character are those the tokenizer counts, so the header is the
    whole line and is parsed exactly as `_header` parses it; and where the body's first statement is not
    a string, nor a prefixed one, nor in parentheses, the tokenizer would find no docstring either."""
    head = lines[lineno - 1][column:].rstrip()
    if not head.endswith(":") or any(c in head for c in "#'\"\\"):
        return None
    depth = colons = 0
    for ch in head:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == ":" and depth == 0:
            colons += 1
    if depth or colons != 1:
        return None
    node = ast.parse(head + " pass").body[0]
    if not isinstance(node, (ast.FunctionDef, ast.ClassDef)):
        return None
    if not docstring:
        return node, "", None
    row = lineno
    while row < len(lines) and (not lines[row].strip(" \t") or lines[row].lstrip(" \t").startswith("#")):
        row += 1
    if row == len(lines):
        return None
    first = lines[row].lstrip(" \t")
    indent = lines[row][:len(lines[row]) - len(first)]
    if not indent or _STRING_START.match(first):
        return None
    if first[0].isalpha() or first[0] == "_":
        return node, indent, None  # a statement that starts with a name: no docstring
    if not first.startswith('"""'):
        return None
    doc, line = [], first[3:]
    while (end := _closing_quotes(line)) < 0:
        doc.append(line)
        row += 1
        if row == len(lines):
            return None
        line = lines[row]
    doc.append(line[:end])
    rest = line[end + 3:].strip(" \t")
    if rest and not rest.startswith("#"):
        return None
    text = "\n".join(doc)
    return node, indent, ast.literal_eval(f'"""{text}"""') if "\\" in text else text


def _closing_quotes(line: str) -> int:
    """Where `\"\"\"` closes a string on this line of its text (not after a backslash, which escapes the
    character after it), or -1. A backslash ending the line escapes the line's end: none carries over."""
    if "\\" not in line:
        return line.find('"""')
    escaped = False
    for i, char in enumerate(line):
        if escaped:
            escaped = False
        elif char == "\\":
            escaped = True
        elif char == '"' and line.startswith('"""', i):
            return i
    return -1


def call_lines(calls: list[Call]) -> list[str]:
    """Each call's signature, then its description (made inert), wrapped under the description column."""
    out = []
    pad = " " * (SIGNATURE + 4)
    for c in calls:
        sig = "  " + safe_text(c.signature)
        summary = safe_text(c.summary)
        if len(sig) > SIGNATURE + 2:
            out.append(sig)
            first = pad
        else:
            first = f"{sig:<{SIGNATURE + 4}}"
        if _fits(summary, WIDTH - len(first)):
            out.append(first + summary)  # what `textwrap.wrap` gives a text that fits on the first line
        else:
            out.extend(textwrap.wrap(summary, WIDTH, initial_indent=first, subsequent_indent=pad) or [sig])
    return out


_TEXTWRAP_WHITESPACE = frozenset("\t\n\x0b\x0c\r")  # what `textwrap` turns into spaces


def _fits(text: str, width: int) -> bool:
    """Whether `textwrap.wrap` would give `text` back whole on one line of `width` characters: it fits,
    has something to show, no blank at either end (dropped) and no whitespace textwrap would replace."""
    return (0 < len(text) <= width and not text[0].isspace() and not text[-1].isspace()
            and not _TEXTWRAP_WHITESPACE.intersection(text))


def wrapped(lines: list[str]) -> list[str]:
    """Prose lines wrapped to the docstring's width (each made inert by `safe_text`)."""
    out = []
    for line in lines:
        text = safe_text(line)
        out.extend(([text] if _fits(text, WIDTH) else textwrap.wrap(text, WIDTH, break_on_hyphens=False))
                   if line else [""])
    return out


def assemble(first_line: str, intro: list[str], pieces: list[Piece], trailer: str = "") -> str:
    """A generated module: the `# @generated` line, a docstring of `intro` and the public calls by
    piece, the imports the code needs, `__all__`, the pieces, then `trailer`."""
    body = "\n\n".join(p.text.rstrip("\n") + "\n" for p in pieces)
    if trailer:
        body += "\n\n" + trailer
    seen: dict[str, tuple[str, Call]] = {}
    for p in pieces:
        if p.heading is not None:
            for call in public_calls(p.text):
                seen.pop(call.name, None)  # a later definition replaces an earlier one
                seen[call.name] = (p.heading, call)
    doc = ['"""' + safe_text(intro[0]), *wrapped(intro[1:]), "", "Public calls (`__all__`), by part:"]
    heading = None
    for head, call in seen.values():
        if head != heading:
            doc += ["", safe_text(head) + ":"]
            heading = head
        doc += call_lines([call])
    doc.append('"""')
    used = set(names_read(trailer)) if trailer else set()  # the names of the body, piece by piece
    for p in pieces:
        used |= names_read(p.text)
    imports = [stmt for name, stmt in IMPORTS if name in used or (name == "math" and "floor" in used)]
    if "floor" in used:
        imports += ["", "floor = math.floor"]
    names = [literal(n) for n in seen]
    # a long name stays whole on its line: a literal broken in two would not compile
    all_lines = textwrap.wrap(", ".join(names), WIDTH - 4, break_on_hyphens=False, break_long_words=False)
    head = [f"# {safe_text(first_line)}", *doc, "", *imports, "", "__all__ = [", *("    " + x for x in all_lines), "]"]
    source = "\n".join(head) + "\n\n\n" + body
    if len(_ASSEMBLED) > 64:
        _ASSEMBLED.clear()
    _ASSEMBLED[source] = ("\n".join(head), *(p.text for p in pieces), trailer)
    return source


# an assembled module's source -> its parts (the head, each piece, the trailer), each of which parses alone:
# `undefined_names` reads them one by one, so the runtime's pieces, alike in every module, are parsed once
_ASSEMBLED: dict[str, tuple[str, ...]] = {}


def undefined_names(source: str) -> set[str]:
    """Names the code reads that nothing in it binds, nor Python's builtins (loosely: a name bound
    anywhere counts as bound everywhere). An engine missing a runtime part it calls shows here."""
    bound = set(dir(builtins))
    read: set[str] = set()
    for part in _ASSEMBLED.get(source, (source,)):
        part_read, part_bound, _ = _symbols(part)
        read |= part_read
        bound |= part_bound
    return read - bound


@lru_cache(maxsize=512)
def _symbols(text: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """(names read, names bound, names read or assigned) anywhere in a piece of code, from Python's own
    symbol table (`symtable`: built by the compiler in C, so no walk over a syntax tree in Python).

    Read: a name loaded in any scope. Bound: assigned (`=`, augmented, `for`, `with … as`, `except … as`,
    `:=`, `del`), defined by `def` or `class`, imported, or a parameter, in any scope; and `__class__`
    where there is a class (the implicit cell of `super()`). Compiler-made names (`.0`) are left out.
    """
    return _scan(text)[:3]


# the kinds of scope and the flags of a name in the symbol table (`symtable` reads the same ones)
_FUNCTION, _CLASS = _symtable.TYPE_FUNCTION, _symtable.TYPE_CLASS
_USE, _DEF_LOCAL, _DEF_PARAM, _DEF_IMPORT = _symtable.USE, _symtable.DEF_LOCAL, _symtable.DEF_PARAM, _symtable.DEF_IMPORT


@lru_cache(maxsize=512)
def _scan(text: str) -> tuple[frozenset[str], frozenset[str], frozenset[str], tuple[tuple[str, str, int, tuple[int, ...]], ...]]:
    """`_symbols`, and the functions and classes of the module's own scope, in order: (`def` or
    `class`, name, line, the lines of a class's `__init__` functions), from one symbol table.

    The table is read as `symtable` reads it, from the C module behind it (`_symtable`): each scope's
    names with their flags, and its child scopes. `symtable`'s own objects answer the same (a test
    holds them equal) but look every name's flags up among all the child scopes of its scope, which
    takes twice as long as building the table."""
    read: set[str] = set()
    bound: set[str] = set()
    stored: set[str] = set()
    module = _symtable.symtable(text, "<piece>", "exec")
    top = []
    for child in module.children:
        kind = "def" if child.type == _FUNCTION else "class" if child.type == _CLASS else ""  # "": another kind
        inits = tuple(sorted(c.lineno for c in child.children
                             if c.name == "__init__" and c.type == _FUNCTION)) if kind == "class" else ()
        top.append((kind, child.name, child.lineno, inits))
    top.sort(key=lambda item: item[2])
    tables = [module]
    while tables:
        table = tables.pop()
        if table.type == _CLASS:
            bound.add("__class__")
        namespaces = {child.name for child in table.children}  # a name a `def` or `class` defines here
        for name, flags in table.symbols.items():
            if name.startswith("."):
                continue
            if flags & _USE:
                read.add(name)
            if flags & (_DEF_LOCAL | _DEF_IMPORT | _DEF_PARAM):
                bound.add(name)
            if flags & _DEF_LOCAL and not (flags & (_DEF_PARAM | _DEF_IMPORT) or name in namespaces):
                stored.add(name)
        tables.extend(table.children)
    return frozenset(read), frozenset(bound), frozenset(read | stored), tuple(top)


def checked_module(build: Callable[[], str], game: Game, what: str) -> str:
    """The source `build()` writes, proven to compile and to read only names it binds. A failure
    anywhere on the way is a compiler bug, reported as internal error E0998 against the spec (never
    the spec's fault), not as a traceback."""
    try:
        source = build()
        compile_engine(source, game.name)
        missing = undefined_names(source)
        if missing:
            raise ValueError(f"it reads names it never defines: {', '.join(sorted(missing))}")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise SpecError([error(
            "E0998", f"internal error: the {what} generated for this spec does not compile ({type(exc).__name__}: "
            f"{getattr(exc, 'msg', exc)})", game.span,
            "this is a bug of croupier, not of the spec; please report it with the spec")],
            {game.path: game.source_text}) from None
    return source
