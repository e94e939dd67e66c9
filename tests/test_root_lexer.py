"""The contextual lexer that matches with its root scanner first (`syntax.root_lexer`) gives Lark's own
contextual lexer's tokens, positions, callbacks and errors: on every spec of the repository, and on
each of them cut short and with characters put in or taken out at many places."""

from __future__ import annotations

import random
from copy import copy

import pytest
from conftest import ROOT
from lark import Token
from lark.exceptions import UnexpectedInput

from croupier.syntax import grammar_tables
from croupier.syntax.parser import GRAMMAR, LARK_OPTIONS, SpecIndenter, parser
from croupier.syntax.root_lexer import LazyUnless, RootFirstLexer

SPECS = sorted(p for p in ROOT.rglob("*.rules") if ".git" not in p.parts)
NOISE = ["", " ", "\t", "\n", "\n    ", "#", "x", "1", "1.5", "=", "==", ":", "(", ")", ",", "|", "-", "bet", "é",
         "\"", "×", "%", "/", "when", "total(", "decks", "\\\n"]


def load(root_first: bool, newlines: list | None = None, postlex: SpecIndenter | None = None):
    def collect(token: Token) -> Token:
        newlines.append(token)
        return token

    callbacks = {"_NL": collect} if newlines is not None else None
    made = grammar_tables.load(GRAMMAR.read_text(encoding="utf-8"), LARK_OPTIONS, postlex or SpecIndenter(),
                               keep_all_tokens=newlines is not None,
                               lexer_callbacks=callbacks, root_first=root_first)
    assert made is not None
    return made


def place(tok: Token) -> tuple:
    return (tok.type, str(tok), tok.start_pos, tok.line, tok.column, tok.end_line, tok.end_column, tok.end_pos)


def described(exc: Exception) -> tuple:
    """An error as the comparison sees it: its kind, text, place, token and what it expected."""
    if isinstance(exc, UnexpectedInput):
        token = getattr(exc, "token", None)
        return ("error", type(exc).__name__, str(exc), exc.line, exc.column, place(token) if token else None,
                sorted(getattr(exc, "expected", None) or getattr(exc, "allowed", None) or ()))
    return ("error", type(exc).__name__, str(exc))  # the indenter's errors: compared by kind and text


class Diverged(Exception):
    """The two lexers answered differently: the parse stops there (the streams are compared by the test)."""


class Lockstep:
    """The parser's lexer during a parse: it asks both contextual lexers, ours (root scanner first) and Lark's,
    for each token, in the same parser state and at the same place in the text (each with its own line
    counter), compares their answers (a token with its place, the end of the text, or the error raised) and
    hands ours on. While the answers are the same, the parser is where it would be with Lark's lexer alone
    (the same tables, fed the same tokens), so one parse compares the two lexers' whole outputs as two parses,
    one with each lexer, would: the tokens Lark's lexer gives in its own parse are exactly its answers here.
    `answers` counts the answers compared; `diverged` is the first that differ (its index, ours, Lark's)."""

    def __init__(self, ours, theirs) -> None:
        self.ours, self.theirs = ours, theirs
        self.answers = 0
        self.diverged: tuple | None = None

    def lex(self, lexer_state, parser_state):
        ours = self.ours.lex(lexer_state, parser_state)
        theirs = self.theirs.lex(copy(lexer_state), parser_state)
        self.answers, self.diverged = 0, None
        while True:
            (a, token, exc), (b, _, _) = _answer(ours), _answer(theirs)
            if a != b:
                self.diverged = (self.answers, a, b)
                raise Diverged
            self.answers += 1
            if exc is not None:
                raise exc
            if token is None:
                return
            yield token


def _answer(tokens) -> tuple:
    try:
        token = next(tokens)
    except StopIteration:
        return ("end of text",), None, None
    except Exception as exc:  # noqa: BLE001 - an error is an answer, compared
        return described(exc), None, exc
    return place(token), token, None


def lexed(both, text: str):
    """(how many answers the two lexers gave alike, the first they did not give alike or None, how the parse
    ends: the error with what it expected, or None). The parser (`token_parsers`) builds no tree: its rules' callbacks make nothing
    (the tree is not the lexer's, and building it was a third of a parse)."""
    try:
        both.parse(text)
        end = None
    except Diverged:
        end = "the lexers diverged"
    except Exception as exc:  # noqa: BLE001 - the parse's own end: compared
        end = described(exc)
    step = both.parser.lexer.lexer
    return step.answers, step.diverged, end


def token_parsers(newlines: tuple[list, list] | None = None):
    """A parser whose lexer is `Lockstep` of ours and Lark's, that builds no tree (with `newlines`: that keeps
    every token and calls back on each `_NL`, ours appending to the first list, Lark's to the second), and
    Lark's own parser loaded from the same tables (its lexer, Lark's, the one `Lockstep` asks)."""
    made = load(True, newlines[0] if newlines else None)
    lark = load(False, newlines[1] if newlines else None)
    table, lark_table = made.parser.parser.parser.parse_table, lark.parser.parser.parser.parse_table
    assert table.states == lark_table.states and table.start_states == lark_table.start_states
    connector = made.parser.lexer
    connector.lexer = Lockstep(connector.lexer, lark.parser.lexer.lexer)
    callbacks = made.parser.parser.parser.callbacks
    for rule in callbacks:
        callbacks[rule] = _nothing
    return made, lark


def _nothing(children: list) -> None:
    return None


def variants(text: str, count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    out = [text]
    for _ in range(count):
        at = rng.randrange(len(text) + 1)
        cut = rng.choice([0, 0, 1, 2, 5])
        out.append(text[:at] + rng.choice(NOISE) + text[at + cut:])
    out.append(text[: len(text) // 2])
    return out


@pytest.fixture(scope="module")
def parsers():
    return token_parsers()


def test_the_spec_parser_uses_it(parsers):
    assert isinstance(parser().parser.lexer.lexer, RootFirstLexer)
    both = parsers[0].parser.lexer.lexer
    assert isinstance(both.ours, RootFirstLexer)
    assert type(both.theirs) is not RootFirstLexer  # the reference: Lark's own lexer
    assert both.theirs is parsers[1].parser.lexer.lexer


@pytest.mark.parametrize("path", SPECS, ids=lambda p: str(p.relative_to(ROOT)))
def test_same_tokens_and_errors_as_lark(parsers, path):
    both = parsers[0]
    text = path.read_text(encoding="utf-8").replace("\r\n", "\n")
    for i, variant in enumerate(variants(text, 12, seed=len(text))):
        answers, diverged, end = lexed(both, variant)
        assert diverged is None and end != "the lexers diverged", f"variant {i}: {diverged}"
        assert answers >= 1


def test_it_takes_the_shortcut_and_keeps_lexer_callbacks():
    """Every spec as it is: the same tokens, errors and `_NL` callbacks. (The trees these tokens make are
    compared in test_grammar_tables: the loaded parsers, which lex with this lexer, against parsers built
    from the grammar with Lark's own, the formatter's keeping every token and calling back on `_NL`.)"""
    fast_lines: list = []
    lark_lines: list = []
    fast, lark = token_parsers((fast_lines, lark_lines))
    for path in SPECS:
        text = path.read_text(encoding="utf-8")
        answers, diverged, end = lexed(fast, text)
        assert diverged is None and answers > 1, diverged
        assert end is None or "errors" in path.parts
        assert [place(t) for t in fast_lines] == [place(t) for t in lark_lines]
    assert len(fast_lines) > 1000
    lexer = fast.parser.lexer.lexer = fast.parser.lexer.lexer.ours  # the loaded parser's own lexer again
    assert lexer.ready()  # the shortcut is taken: few states built a scanner of their own
    # the root scanner, built from what the tables module recorded, is the one Lark builds itself
    assert lexer.scanner_parts is not None
    assert grammar_tables.root_scanner_parts(fast) == grammar_tables.root_scanner_parts(lark)
    mine, lark_root = lexer.root_lexer, lark.parser.lexer.lexer.root_lexer
    assert [t.name for t in mine.scanner.terminals] == [t.name for t in lark_root.scanner.terminals]
    assert [m.pattern for m in mine.scanner._mres] == [m.pattern for m in lark_root.scanner._mres]
    # each string callback's scanner, compiled at its first use (`LazyUnless`), is the one Lark builds
    assert mine.callback.keys() == lark_root.callback.keys() and lexer.unless
    for name in lexer.unless:
        callback, theirs = mine.callback[name], lark_root.callback[name].scanner
        assert type(callback) is LazyUnless
        assert [t.name for t in callback.scanner.terminals] == [t.name for t in theirs.terminals]
        assert [m.pattern for m in callback.scanner._mres] == [m.pattern for m in theirs._mres]
    met = {id(s): s for s in lexer.lexers.values()}  # the states' lexers are made when their state is met
    assert len(lexer.lexers) < len(lark.parser.lexer.lexer.lexers)
    assert sum(s._scanner is not None for s in met.values()) < len(met) // 4


@pytest.mark.parametrize("keep", [False, True])
def test_a_state_lexer_is_the_one_lark_makes(keep):
    """For every state of the parser, the lexer made from the root lexer's terminals (`_subset_lexer`) holds
    what Lark's `BasicLexer.__init__` makes from the same conf: the same terminals in the same order, the same
    newline and ignored types, callbacks and options."""
    from copy import copy

    from lark.lexer import BasicLexer

    lexer = load(True, [] if keep else None).parser.lexer
    lexer = getattr(lexer, "lexer", lexer)
    assert isinstance(lexer, RootFirstLexer)
    checked = 0
    for state, accepts in lexer._states.items():
        names = set(accepts) | set(lexer._conf.ignore) | lexer._always
        conf = copy(lexer._conf)
        conf.terminals = [conf.terminals_by_name[n] for n in names if n in conf.terminals_by_name]
        lark_own, ours = BasicLexer(conf, None), lexer._subset_lexer(names)
        assert set(vars(ours)) == set(vars(lark_own)), state
        assert [t.name for t in ours.terminals] == [t.name for t in lark_own.terminals], state
        assert all(a is b for a, b in zip(ours.terminals, lark_own.terminals))
        for attr in ("newline_types", "ignore_types", "user_callbacks", "g_regex_flags", "use_bytes",
                     "terminals_by_name", "re", "_scanner"):
            assert getattr(ours, attr) == getattr(lark_own, attr), (state, attr)
        checked += 1
    assert checked == len(lexer._states) > 100


def test_a_spec_without_errors_is_lexed_without_compiling_the_string_callbacks():
    """The states' lexers decide between a pattern and its strings themselves: lexing a spec that has no
    error never calls a string callback, so their scanners are never compiled (`LazyUnless`)."""
    made = load(True)
    made.parse((ROOT / "spec" / "baccarat.rules").read_text(encoding="utf-8"))
    lexer = made.parser.lexer.lexer
    callbacks = [lexer.root_lexer.callback[name] for name in lexer.unless]
    assert callbacks and all(type(c) is LazyUnless and "scanner" not in vars(c) for c in callbacks)
