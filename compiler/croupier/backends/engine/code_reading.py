"""Engine back end, reading a piece of generated code: its public calls and the names it reads and binds.

`public_calls(text)` lists every module-level function and class of a piece whose name does
not start with `_`, with its signature and the first line of its docstring. They are read
from each definition's header and docstring alone where the piece is usual
(`_calls_from_headers`), else from the whole syntax tree (`_calls_from_tree`): the same
calls, which a test holds equal on every engine and runtime module. `symbols(text)` gives
the names a piece reads and binds, from Python's own symbol table; `names_read(text)` the
names that decide the imports it needs. Every answer is kept per text: the runtime's
pieces recur in every generated module.
"""

from __future__ import annotations

import _symtable
import ast
import inspect
import itertools
import re
import tokenize
from dataclasses import dataclass
from functools import lru_cache


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
    return set(symbols(text)[2])


@lru_cache(maxsize=512)
def _calls(text: str) -> tuple[Call, ...]:
    """The public calls of a piece of code, read once: the runtime's pieces recur in every module. A copied
    runtime module's are those kept with its scan (`scans_ahead`); any other piece's are read (`calls_read`)."""
    kept = _kept(text)
    return tuple(Call(*call) for call in kept[4]) if kept is not None else calls_read(text)


def calls_read(text: str) -> tuple[Call, ...]:
    """The public calls of a piece of code, read from the headers alone where it can (`_calls_from_headers`:
    the piece's symbol table, already built for `symbols`, says where each module-level function and class
    starts, and only its header and docstring are read), else from the whole syntax tree: the same calls."""
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
                sig = f"{name}({_parameters(node)})"
            else:
                sig = name
                for init in inits:
                    if lines[init - 1].startswith(indent + "def ") and indent:
                        init_node = _header(lines, init, len(indent), docstring=False)[0]
                        sig = class_signature(name, init_node) if isinstance(init_node, ast.AST) else \
                            f"{name}({', '.join(init_node.split(', ')[1:])})"
                        break
            summary = (inspect.cleandoc(doc) if doc else "").strip().split("\n", 1)[0]
            calls.append(Call(name, sig, summary))
    except (_Unusual, SyntaxError, tokenize.TokenError, ValueError, IndexError, StopIteration):
        return None
    return tuple(calls)


_NAMELESS = frozenset({"lambda", "genexpr", "listcomp", "setcomp", "dictcomp"})

# a `def` header whose parameters are plain ASCII names, each at most with a name for its default (`None`, `True`,
# a class), written as `ast.unparse` writes them: its parameters are its text, without parsing it; the first
# has no default, so dropping it (a method's `self`) leaves what `class_signature` writes
_NAME = r"[A-Za-z_][A-Za-z0-9_]*"
_PLAIN_PARAMETERS = re.compile(rf"def[ \t]+{_NAME}\(((?:{_NAME}(?:, {_NAME}(?:={_NAME})?)*)?)\):")
_PLAIN_CLASS = re.compile(rf"class[ \t]+{_NAME}(?:\({_NAME}(?:, {_NAME})*\))?:")  # read as "": a class's header


def _parameters(node: ast.FunctionDef | ast.ClassDef | str) -> str:
    """The parameters of a function header read by `_header`: `ast.unparse`'s text of its arguments (a
    header `_PLAIN_PARAMETERS` matched is its parameters' text already)."""
    return node if isinstance(node, str) else ast.unparse(node.args)


def _header(lines: list[str], lineno: int, column: int, *, docstring: bool = True
            ) -> tuple[ast.FunctionDef | ast.ClassDef | str, str, str | None]:
    """(the definition starting at line `lineno`, column `column`, parsed with `pass` for its body, or for
    a plain header the text of its parameters (a class's: ""), see `_PLAIN_PARAMETERS`; the
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
                  ) -> tuple[ast.FunctionDef | ast.ClassDef | str, str, str | None] | None:
    """What `_header` answers, for the usual header only: one line ending in its one `:` outside brackets,
    holding no string, comment or backslash; its body on the lines below, first a plain triple-quoted
    docstring on its own or no string at all. None for anything else.

    On such a line the brackets counted by character are those the tokenizer counts, so the header is the
    whole line and is parsed exactly as `_header` parses it (a plain one read as its text: the line of a real
    definition, it parses); and where the body's first statement is not
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
    plain = _PLAIN_PARAMETERS.fullmatch(head)
    node = plain[1] if plain else "" if _PLAIN_CLASS.fullmatch(head) else ast.parse(head + " pass").body[0]
    if not isinstance(node, (ast.FunctionDef, ast.ClassDef, str)):
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


@lru_cache(maxsize=512)
def symbols(text: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
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


Scan = tuple[frozenset[str], frozenset[str], frozenset[str], tuple[tuple[str, str, int, tuple[int, ...]], ...]]
RUNTIME_PIECE = "# ---- runtime: "  # how a copied runtime module begins (see `parts.copy_module`)


@lru_cache(maxsize=512)
def _scan(text: str) -> Scan:
    """`symbols`, and the functions and classes of the module's own scope, in order: (`def` or
    `class`, name, line, the lines of a class's `__init__` functions). A copied runtime module is
    looked up among the scans made ahead of time (`scans_ahead`); anything else is read by `scan_text`."""
    known = _scanned_ahead(text)
    return known if known is not None else scan_text(text)


@lru_cache(maxsize=512)
def _kept(text: str) -> tuple | None:
    """What `runtime_scans` keeps for a copied runtime module's text (made by this version of Python): (names
    read, bound, stored but not read, top-level definitions, public calls); None for any other text."""
    if not text.startswith(RUNTIME_PIECE):
        return None
    import sys

    from croupier.backends.engine import runtime_scans
    from croupier.cache import text_digest

    if tuple(sys.version_info[:2]) != runtime_scans.PYTHON:
        return None
    entry = runtime_scans.SCANS.get(text_digest(text))  # a piece's entry is kept under its text's digest
    return entry if isinstance(entry, tuple) and len(entry) == 5 else None  # (one of another form: not kept)


def _scanned_ahead(text: str) -> Scan | None:
    """The scan of `text` kept in `runtime_scans` (made by this version of Python), or None."""
    entry = _kept(text)
    if entry is None:
        return None
    read, bound, stored, top, _calls = entry
    names = frozenset(read.split())
    return names, frozenset(bound.split()), names | frozenset(stored.split()), top


def scan_text(text: str) -> Scan:
    """What `_scan` answers, read from one symbol table.

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
