"""Parse spec text into the syntax tree, turning every syntax error into a diagnostic.

The grammar lives in `croupier.lark` (LALR, positions on every node, indentation
turned into _INDENT/_DEDENT tokens by Lark's `Indenter`). Its parser is Lark's
standalone parser (`standalone_parser`, written by `make_standalone`: the LALR
tables computed ahead of time, with the part of Lark that reads them), so its trees,
tokens and exceptions are that module's classes.
After a syntax error the statement holding it is blanked out and the file is
parsed again, so that one run reports every syntax error in the file.
"""

from __future__ import annotations

import os
import re
import stat
from functools import cache
from pathlib import Path

from croupier.diagnostics import Diagnostic, Span, error
from croupier.suggest import did_you_mean
from croupier.syntax import ast
from croupier.syntax.build_ast import BuildAst
from croupier.syntax.standalone_parser import (
    DedentError,
    Indenter,
    Lark,
    Lark_StandAlone,
    LarkError,
    Token,
    Tree,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)

GRAMMAR = Path(__file__).parent / "croupier.lark"
MAX_SYNTAX_ERRORS = 20
MAX_SPEC_BYTES = 1_000_000  # a spec file (UTF-8); the loader reads at most one byte more
MAX_LINE_CHARS = 10_000  # one line of a spec
MAX_EXPR_DEPTH = 50  # operators nested in one expression (`not not …`, `- - …`, `f(f(…))`)
# characters no spec may hold anywhere: the C0 and C1 controls but tab, line feed (after a carriage return or not) and form
# feed (ESC would move a terminal's cursor over what it shows), DEL, and the bidirectional controls that
# make text read differently from how it is stored (embeddings, overrides, isolates, marks, U+061C)
FORBIDDEN_CHARS = {"\x00": "NUL"} | {chr(c): f"U+{c:04X}" for c in (
    *range(0x01, 0x09), 0x0B, 0x0D, *range(0x0E, 0x20), *range(0x7F, 0xA0), 0x061C, 0x200E, 0x200F,
    *range(0x202A, 0x202F), *range(0x2066, 0x206A))}
FORBIDDEN_RE = re.compile("[" + re.escape("".join(FORBIDDEN_CHARS)) + "]")
# characters that show nothing and may not stand inside a name or a label (a comment may hold them):
# zero-width spaces and joiners, the word joiner and invisible operators, the byte-order mark after the start
INVISIBLE_CHARS = {chr(c): f"U+{c:04X}" for c in (0x200B, 0x200C, 0x200D, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064,
                                                   0xFEFF, 0x180E, 0x00AD)}
INVISIBLE_RE = re.compile("[" + "".join(INVISIBLE_CHARS) + "]")

# the rules of the grammar that nest an expression one level deeper
EXPR_RULES = frozenset({"or_expr", "and_expr", "not_expr", "compare", "in_range", "binary", "negate", "call",
                        "if_expr", "draw_key", "draw_when", "draw_while"})


class BadIndentation(LarkError):
    """Indentation that returns to no enclosing level, at the newline token that ends on it."""

    def __init__(self, token: Token) -> None:
        super().__init__("inconsistent indentation")
        self.token = token


class _Repaired(Exception):  # noqa: N818 - not an error: the diagnostic of a mistake parsing can go on past
    """A syntax error reported with the text repaired, to parse again instead of blanking its statement."""

    def __init__(self, diagnostic: Diagnostic, text: str) -> None:
        super().__init__(diagnostic.message)
        self.diagnostic, self.text = diagnostic, text


class IndentRules:
    """The settings of Lark's `Indenter` (the post-lexer for indentation) for the rules language."""

    NL_type = "_NL"
    OPEN_PAREN_types = ["LPAR"]
    CLOSE_PAREN_types = ["RPAR"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 4


class SpecIndenter(IndentRules, Indenter):
    """Lark's post-lexer for indentation (the standalone parser's), set for the rules language; its
    `DedentError` (which names no place) becomes a `BadIndentation` naming the newline token that ends
    on the bad indentation."""

    def handle_NL(self, token: Token):  # noqa: N802 - Lark's name
        try:
            yield from super().handle_NL(token)
        except DedentError:
            raise BadIndentation(token) from None


@cache
def parser() -> Lark:
    """The LALR parser for the rules language, loaded once per process from the standalone parser's tables."""
    return Lark_StandAlone(postlex=SpecIndenter())


# Words for the terminals a syntax error may expect.
TERMINAL_WORDS = {
    "NAME": "a name",
    "INT": "a whole number",
    "NUMBER": "a number",
    "DATE": "a date like 2025-01-31",
    "STRING": 'a quoted text like "Label"',
    "LANG": "a language tag like zh-Hant",
    "CITE": "a source citation like [000 §15]",
    "GRID_LINE": "a grid row starting with |",
    "_NL": "the end of the line",
    "_INDENT": "an indented block",
    "_DEDENT": "the end of the indented block",
    "COMPARE": "a comparison (=, <, >, <=, >=, !=)",
    "ADD_OP": "+ or -",
    "MUL_OP": "* or /",
    "LPAR": "(",
    "RPAR": ")",
    "COMMA": ",",
    "EQUAL": "=",
    "COLON": ":",
    "PLUS": "+",
    "PERCENT": "%",
    "SLASH": "/",
    "MINUS": "-",
    "PIP": "pip",
    "ROUNDING": "a rounding rule (down, up, half-up, half-even)",
    "SCHEME": "a settlement scheme (pairwise, against-banker)",
    "VERDICT": "banker-wins or player-wins",
    "LAST_RULE": "one-more-after or at-cut",
    "_DECKS": "deck or decks",
    "_TIMES": "× (row key × column key)",
    "$END": "the end of the file",
}

# Common mistakes, recognised with Lark's match_examples.
COMMON_MISTAKES = {
    ("a bet needs an indented block of `wins when …` and `push when …` lines",
     "write the clauses on the following lines, indented"): [
        "bet b wins when outcome is o, pays 2 including stake\n",
    ],
    ("a payout needs a form: `pays X including stake` or `pays X to Y`",
     "for example: pays 1.95 including stake, or pays 1 to 1"): [
        "bet b\n    wins when outcome is b, pays 2\n",
        "bet b\n    wins when outcome is b, pays 2 including\n",
        "bet b\n    wins when outcome is b, pays 2 to\n",
    ],
    ("a draw table needs its grid rows, indented under the `draw` line",
     "write rows like `| D D S S |` on the next lines, indented"): [
        "draw h by total(h)\nhand x\n",
    ],
    ("a comparison uses a single `=`",
     "write `total(h) = 6`, not `==`"): [
        "event e when total(h) == 6\n",
        "outcome o when total(h) == 6\n",
        "stand all when total(h) == 6\n",
        "bet b\n    wins when total(h) == 6, pays 2 including stake\n",
        "bet b\n    wins when outcome is b\n    push when total(h) == 6\n",
    ],
    ("the shoe says how many decks and of which kind",
     "for example: shoe 8 decks of standard52"): [
        "shoe standard52\n",
        "shoe 8 standard52\n",
    ],
}


def _describe_expected(expected: set[str]) -> str:
    words = []
    for term in sorted(expected):
        if term in TERMINAL_WORDS:
            words.append(TERMINAL_WORDS[term])
        elif term.isupper() or term.startswith("_"):
            words.append(term.lower().lstrip("_"))
        else:
            words.append(term)
    words = sorted(set(words))
    if len(words) > 6:
        keywords = [w for w in words if " " not in w]
        words = [w for w in words if " " in w][:4] + (["a keyword"] if keywords else [])
    if not words:
        return "something else"
    if len(words) == 1:
        return words[0]
    return ", ".join(words[:-1]) + " or " + words[-1]


def _keyword_words(expected: set[str]) -> set[str]:
    out = set()
    term_map = {t.name: t for t in parser().terminals}
    for name in expected:
        term = term_map.get(name)
        if term is not None and term.pattern.type == "str":
            out.add(f"`{term.pattern.value}`")
        else:
            out.add(name)
    return out


def _syntax_diagnostic(exc: Exception, path: str, text: str) -> tuple[Diagnostic, int]:
    """Turn a Lark exception into a diagnostic and the line to blank out."""
    lines = text.splitlines() or [""]
    if isinstance(exc, BadIndentation):
        tok = exc.token
        line = (tok.end_line or tok.line or 1)
        line = min(line, len(lines))
        return (
            error("E0002", "this line's indentation matches no enclosing block", Span(path, line, 1),
                  "indent the lines of one block by the same amount"),
            line,
        )
    if isinstance(exc, UnexpectedInput):
        line = getattr(exc, "line", None) or 1
        column = getattr(exc, "column", None) or 1
        if line < 1 or line > len(lines):
            line, column = len(lines), max(1, len(lines[-1]) + 1)
        indentation = _indentation_diagnostic(exc, path, text.split("\n"), line)
        if indentation is not None:
            diag, line, repaired = indentation
            raise _Repaired(diag, repaired)
        mistake = _match_mistake(exc)
        if isinstance(exc, UnexpectedCharacters):
            char = lines[line - 1][column - 1:column] if column - 1 < len(lines[line - 1]) else ""
            shown = repr(char) if char and char.isprintable() else f"U+{ord(char):04X}" if char else "end of line"
            msg = f"unexpected character {shown}"
            hint = "expected " + _describe_expected(_keyword_words(set(exc.allowed or ())))
        elif isinstance(exc, UnexpectedToken):
            tok = exc.token
            found = "end of the line" if tok.type == "_NL" else (
                "end of the file" if tok.type == "$END" else (
                    "end of the block" if tok.type == "_DEDENT" else (
                        "an indented block" if tok.type == "_INDENT" else f"`{tok}`")))
            msg = f"unexpected {found}"
            hint = "expected " + _describe_expected(_keyword_words(set(exc.expected or ())))
            guess, suggestion = _keyword_guess(tok, set(exc.expected or ()))
            if guess:
                end = Span(path, line, column, line, column + len(str(tok)))
                diag = error("E0001", f"{msg}: {guess}", end, f"write `{suggestion}`", suggestion)
                fixed = text.split("\n")
                fixed[line - 1] = fixed[line - 1][:column - 1] + suggestion + fixed[line - 1][column - 1 + len(str(tok)):]
                if fixed[line - 1][column - 1:].startswith(suggestion) and _parses_past(fixed, line):
                    raise _Repaired(diag, "\n".join(fixed))
                return diag, line
        elif isinstance(exc, UnexpectedEOF):
            msg = "unexpected end of the file"
            hint = "expected " + _describe_expected(_keyword_words(set(exc.expected or ())))
        else:
            msg, hint = "syntax error", ""
        if mistake is not None:
            msg, hint = f"{msg}: {mistake[0]}", mistake[1]
        return error("E0001", msg, Span(path, line, column), hint), line
    return error("E0001", "syntax error", Span(path, 1, 1)), 1




def _keyword_guess(tok: Token, expected: set[str]) -> tuple[str, str]:
    """("did you mean `outcome`?", "outcome") when a misspelt word stands where a keyword was expected."""
    if tok.type != "NAME":
        return "", ""
    words = [w.strip("`") for w in _keyword_words(expected) if w.startswith("`") and w.strip("`").isidentifier()]
    return did_you_mean(str(tok), words)


def _leading(text: str) -> int:
    """The indentation of a line, a tab counting as `IndentRules.tab_len` spaces."""
    stripped = text.lstrip(" \t")
    return len(text[:len(text) - len(stripped)].expandtabs(IndentRules.tab_len))


def _parses_past(lines: list[str], line: int) -> bool:
    """Whether the text of `lines` parses, or fails only after `line` (a repair that helps)."""
    try:
        parser().parse("\n".join(lines) + "\n")
    except UnexpectedInput as other:
        return (getattr(other, "line", 0) or 0) > line
    except LarkError:
        return False
    return True


def _indentation_diagnostic(exc: UnexpectedInput, path: str, lines: list[str],
                            line: int) -> tuple[Diagnostic, int, str] | None:
    """E0002 at the line whose indentation is wrong, saying what it should be (a statement's clause not
    indented below it, or a line indented deeper than the block it continues), with the text repaired
    (the line indented as it should be), so that parsing goes on past it."""
    token = getattr(exc, "token", None)
    kind = getattr(token, "type", None)
    following = next((n for n in range(line + 1, len(lines) + 1)
                      if lines[n - 1].strip() and not lines[n - 1].lstrip().startswith("#")), None)
    if kind == "_INDENT" and following is not None and _leading(lines[following - 1]) > _leading(lines[line - 1]):
        above, deeper = _leading(lines[line - 1]), _leading(lines[following - 1])
        fixed = list(lines)
        n = following
        while n <= len(fixed) and fixed[n - 1].strip() and _leading(fixed[n - 1]) == deeper:
            fixed[n - 1] = " " * above + fixed[n - 1].lstrip(" \t")
            n += 1
        if fixed == lines:
            return None
        return (error("E0002", f"this line is indented {deeper} spaces, deeper than the block it continues",
                      Span(path, following, 1),
                      f"indent it by {above} spaces, like line {line}" if above else
                      "start it at the beginning of the line, like the statement above"),
                following, "\n".join(fixed))
    if kind in ("_INDENT", "_DEDENT", "$END", "_NL") or getattr(exc, "column", 0) != 1 or line < 2:
        return None
    statement = next((n for n in range(line - 1, 0, -1) if lines[n - 1].strip()
                      and not lines[n - 1].lstrip().startswith("#") and _leading(lines[n - 1]) == 0), None)
    if statement is None or statement != next(n for n in range(line - 1, 0, -1) if lines[n - 1].strip()):
        return None  # only the line right after a statement (blank lines aside) can be its first clause
    fixed = list(lines)
    fixed[line - 1] = "    " + fixed[line - 1]
    if not _parses_past(fixed, line):
        return None
    return (error("E0002", "this line is a clause of the statement above it, so it is indented",
                  Span(path, line, 1),
                  f"indent it by 4 spaces: the clauses of the statement on line {statement} go on the lines "
                  "below it, each indented by 4 spaces"), line, "\n".join(fixed))


def _variants(example: str) -> list[str]:
    """An example after a `game` line (so the parser's stack matches a real file), with and without a label,
    and with and without a comment line first (a file's leading comments change the parser's stack)."""
    labelled = re.sub(r"^(bet|outcome|event) (\w+)", r'\1 \2 "Label"', example)
    forms = [example] + ([labelled] if labelled != example else [])
    return [head + "game g\n" + form for head in ("", "# comment\n") for form in forms]


@cache
def _mistake_examples() -> dict:
    """Each common mistake's examples in all their variants (made at the first syntax error)."""
    return {label: [v for ex in examples for v in _variants(ex)] for label, examples in COMMON_MISTAKES.items()}


# What parsing each mistake example gives (its tree, or the exception it raises), once per process: the
# examples and the parser are fixed, and every syntax error of every file is compared with all of them.
_EXAMPLE_OUTCOMES: dict[str, tuple[bool, object]] = {}


def _parse_example(example: str) -> Tree:
    """`parser().parse(example)`, the outcome kept: the same tree returned, or the same exception raised again."""
    outcome = _EXAMPLE_OUTCOMES.get(example)
    if outcome is None:
        try:
            outcome = (True, parser().parse(example))
        except Exception as exc:  # noqa: BLE001 - kept and raised again, to be judged by the caller as before
            outcome = (False, exc)
        _EXAMPLE_OUTCOMES[example] = outcome
    parsed, value = outcome
    if parsed:
        return value
    raise value.with_traceback(None)


def _match_mistake(exc: UnexpectedInput):
    """The common mistake this error looks like: Lark's `match_examples`, kept only when the example
    fails on the same kind of token (a match on the parser state alone is too loose to name a mistake)."""
    token = getattr(exc, "token", None)
    for label, examples in _mistake_examples().items():
        try:
            found = exc.match_examples(_parse_example, {label: examples}, token_type_match_fallback=True)
        except Exception:  # noqa: BLE001 - match_examples re-parses; any failure means no match
            continue
        if found is None:
            continue
        for example in examples:
            try:
                _parse_example(example)
            except UnexpectedInput as other:
                mine = getattr(other, "token", None)
                if other.state == exc.state and getattr(mine, "type", None) == getattr(token, "type", None):
                    return found
            except Exception:  # noqa: BLE001 - an example that fails otherwise names nothing
                continue
    return None


DECLARED = re.compile(r"\s*(?:override\s+)?[A-Za-z_]+\s+([A-Za-z_]\w*)")


def _declared_name(text: str, line: int) -> set[str]:
    """The name the statement around `line` declares (its second word: `outcom tie …` declares tie), if any."""
    lines = text.split("\n")
    idx = max(0, min(line - 1, len(lines) - 1))
    while idx > 0 and (not lines[idx].strip() or lines[idx][:1] in " \t"):
        idx -= 1
    m = DECLARED.match(lines[idx])
    return {m.group(1)} if m else set()


def _blank_statement(text: str, line: int) -> str:
    """Blank the statement around `line`: its first line and its indented block."""
    lines = text.split("\n")
    idx = max(0, min(line - 1, len(lines) - 1))

    def indent(s: str) -> int:
        return len(s) - len(s.lstrip(" \t"))

    def blank(s: str) -> bool:
        return not s.strip() or s.strip().startswith("#")

    start = idx
    while start > 0 and (blank(lines[start]) or indent(lines[start]) > 0):
        start -= 1
    if indent(lines[start]) > 0 or blank(lines[start]):
        start = idx
    end = start + 1
    while end < len(lines) and (blank(lines[end]) or indent(lines[end]) > 0):
        end += 1
    for i in range(start, max(end, idx + 1)):
        lines[i] = ""
    return "\n".join(lines)


def read_spec(path: str) -> tuple[str, Diagnostic | None]:
    """The text of a spec file, or the diagnostic saying why it is not read (not a regular file,
    larger than `MAX_SPEC_BYTES`, not UTF-8)."""
    span = Span(path, 1, 1)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as exc:
        return "", error("E0000", f"cannot read the spec: {exc.strerror or exc}", span)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return "", error("E0000", "cannot read the spec: it is not a regular file", span,
                             "give the path of a .rules file")
        with os.fdopen(fd, "rb", closefd=False) as f:
            data = f.read(MAX_SPEC_BYTES + 1)
    except OSError as exc:
        return "", error("E0000", f"cannot read the spec: {exc.strerror or exc}", span)
    finally:
        os.close(fd)
    if len(data) > MAX_SPEC_BYTES:
        return "", error("E0004", f"the spec is larger than {MAX_SPEC_BYTES:,} bytes", span,
                         "a spec is a page of rules; split it or look for a stray file")
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        return "", error("E0000", f"cannot read the spec: it is not UTF-8 ({exc.reason} at byte {exc.start})", span)


def check_text(text: str, path: str) -> list[Diagnostic]:
    """The bounds every spec text must keep before it is parsed: its size, its line lengths, and no
    NUL or bidirectional-control character anywhere (in a label it would show one text and store another)."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_SPEC_BYTES:
        return [error("E0004", f"the spec is larger than {MAX_SPEC_BYTES:,} bytes", Span(path, 1, 1),
                      "a spec is a page of rules; split it or look for a stray file")]
    diags = []
    forbidden = FORBIDDEN_RE.search(text.replace("\r\n", "\n")) is not None
    invisible = INVISIBLE_RE.search(text, 1) is not None
    for number, line in enumerate(text.split("\n"), 1):
        if len(line) > MAX_LINE_CHARS:
            diags.append(error("E0004", f"this line is longer than {MAX_LINE_CHARS:,} characters",
                               Span(path, number, MAX_LINE_CHARS + 1), "break the statement or shorten the label"))
        elif forbidden and (m := FORBIDDEN_RE.search(line.removesuffix("\r"))) is not None:
            name = FORBIDDEN_CHARS[m.group()]
            diags.append(error("E0006", f"the character {name} is not allowed in a spec",
                               Span(path, number, m.start() + 1),
                               "remove it: control characters and bidirectional controls make text read "
                               "differently from how it is stored, or move a terminal's cursor"))
        elif invisible and (m := INVISIBLE_RE.search(line, 1 if number == 1 else 0)) is not None \
                and not line[:m.start()].lstrip().startswith("#") and "#" not in _outside_strings(line[:m.start()]):
            name = INVISIBLE_CHARS[m.group()]
            diags.append(error("E0006", f"the invisible character {name} is not allowed in a name or a label",
                               Span(path, number, m.start() + 1),
                               "remove it: a character that shows nothing makes two names or labels look alike"))
    return diags


def _outside_strings(text: str) -> str:
    """The parts of a line's start that are outside its quoted strings (where a `#` starts a comment)."""
    out, quoted, escaped = [], False, False
    for char in text:
        if quoted:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                quoted = False
        elif char == '"':
            quoted = True
        else:
            out.append(char)
    return "".join(out)


def expression_too_deep(tree: Tree, path: str) -> Diagnostic | None:
    """The first expression nested more than `MAX_EXPR_DEPTH` operators deep, walked without recursion."""
    stack: list[tuple[Tree, int]] = [(tree, 0)]
    pop, push = stack.pop, stack.append
    while stack:
        node, depth = pop()
        if node.data in EXPR_RULES:
            depth += 1
            if depth > MAX_EXPR_DEPTH:
                line, column = getattr(node.meta, "line", 1), getattr(node.meta, "column", 1)
                return error("E0005", f"this expression nests more than {MAX_EXPR_DEPTH} operators deep",
                             Span(path, line, column), "name a part of it with `event` or `let`, or drop "
                             "doubled operators such as `not not`")
        for child in node.children:
            if isinstance(child, Tree):
                push((child, depth))
    return None


def parse_text(text: str, path: str) -> tuple[ast.SpecFile, list[Diagnostic]]:
    """Parse spec text; return the syntax tree of what parsed and every syntax error."""
    text = text.removeprefix("\ufeff")
    diags: list[Diagnostic] = check_text(text, path)
    if any(d.code == "E0004" for d in diags):
        return ast.SpecFile(path, text, []), diags
    work = text.replace("\r\n", "\n").replace("\r", "\n")
    if not work.endswith("\n"):
        work += "\n"
    tree: Tree | None = None
    lost: set[str] = set()
    for _ in range(MAX_SYNTAX_ERRORS + 1):
        try:
            tree = parser().parse(work)
            break
        except (UnexpectedInput, BadIndentation) as exc:
            try:
                diag, line = _syntax_diagnostic(exc, path, work)
            except _Repaired as repaired:
                diags.append(repaired.diagnostic)
                work = repaired.text if repaired.text.endswith("\n") else repaired.text + "\n"
                continue
            diags.append(diag)
            lost |= _declared_name(work, line)
            blanked = _blank_statement(work, line)
            if blanked == work:
                break
            work = blanked
        except (LarkError, RecursionError, ValueError, AssertionError, MemoryError) as exc:
            diags.append(error("E0001", f"cannot parse this file ({type(exc).__name__})", Span(path, 1, 1)))
            break
    if tree is None:
        return ast.SpecFile(path, text, []), diags
    too_deep = expression_too_deep(tree, path)
    if too_deep is not None:
        return ast.SpecFile(path, text, []), diags + [too_deep]
    builder = BuildAst(path)
    try:
        statements = builder.transform(tree)
    except Exception as exc:  # noqa: BLE001 - a transformer bug must not become a traceback
        inner = getattr(exc, "orig_exc", exc)
        diags.append(error("E0001", f"cannot read this file ({inner})", Span(path, 1, 1)))
        return ast.SpecFile(path, text, []), diags
    diags.extend(builder.diagnostics)
    return ast.SpecFile(path, text, statements, frozenset(lost), tuple(builder.citations)), diags
