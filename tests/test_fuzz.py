"""Fuzzing the compiler: specs generated from the grammar, and the real specs mutated.

Whatever the text, the compiler returns diagnostics and never raises; every
diagnostic carries a position inside the file. `benchmarks/fuzz_compiler.py`
runs the same strategies over 10,000+ inputs; this suite runs a few hundred.
"""

from __future__ import annotations

import re
import string
from functools import cache
from pathlib import Path

import lark
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.lark import LarkStrategy, check_explicit
from hypothesis.internal.conjecture.data import MAX_DEPTH

from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.oracle import engine_oracle
from croupier.checks import run_checks
from croupier.driver import pipeline
from croupier.semantics.resolve import Loader
from croupier.syntax.parser import GRAMMAR

ROOT = Path(__file__).resolve().parent.parent
REAL_SPECS = sorted((ROOT / "spec").glob("*.rules"))
# small specs, cheap enough to run the exhaustive checks on every mutant
SMALL_SPECS = [ROOT / "tests" / "errors" / "base_ok.rules", ROOT / "tests" / "errors" / "W0503_type_unreachable.rules",
               ROOT / "tests" / "errors" / "family_ok.rules"]  # decks, draws while, soft totals, payout tables, …
ODD_TEXT = ["\x00", "\x07", "\x1b[31m", "\u202e", "\ufeff", "\u00a0", "é", "百家樂", "\U0001f0a1", "\t", "\r", "\\",
            '"', "#", "|", "×", "..", "(", ")", "[", "]", "{{", "}}", "'''", "\n    ", "9" * 40, "-1", "0/0",
            " mod 0", " half", " KD", " 10D", " without A", "| 9 | 0 to 1 |", " while", "remove bet "]


def grammar_specs() -> st.SearchStrategy[str]:
    """Text drawn from the grammar itself; _INDENT/_DEDENT (made by the post-lexer) get explicit text.

    Deferred: the grammar (0.3 s) is read when a test first draws, not when the file is collected
    (every xdist worker collects every file), and once a process."""
    return st.deferred(lambda: _grammar_strategy())


# The text the grammar ignores between tokens (its `%ignore` patterns), drawn as exactly the strings each pattern
# matches: left to `from_regex`, these draws took two thirds of the test (about 3 ms each, once every few tokens).
IGNORED = {
    "[\t \f]+": st.text(alphabet="\t \f", min_size=1),
    "\\\\[\t \f]*\r?\n": st.builds(lambda blanks, cr: "\\" + blanks + cr + "\n", st.text(alphabet="\t \f"),
                                    st.sampled_from(["", "\r"])),
}


# A terminal that is one literal, or a group of literals `(?:a|b\\-c)`, without flags: `from_regex` would draw
# exactly these strings, through a filtered regex draw each time (over a third of the test).
ALTERNATIVES = re.compile(r"\(\?:((?:[^\\.*+?()\[\]{}^$|]|\\.)+(?:\|(?:[^\\.*+?()\[\]{}^$|]|\\.)+)*)\)")


def _literals(pattern) -> list[str] | None:
    """The strings a terminal's pattern matches, when it is a literal or an alternation of literals."""
    if pattern.flags:
        return None
    if pattern.type == "str":
        return [pattern.value]
    whole = ALTERNATIVES.fullmatch(pattern.value)
    if whole is None:
        return None
    words = [re.sub(r"\\(.)", r"\1", alt) for alt in re.findall(r"(?:[^\\|]|\\.)+", whole.group(1))]
    assert all(re.fullmatch(pattern.value, w) for w in words), (pattern.value, words)
    return words


# Every character UTF-8 encodes: all but the surrogates (category Cs), the characters `codec="utf-8"` allows.
# Hypothesis gives `codec="utf-8"` the same categories and then intersects them with the codec's characters,
# found by trying to encode each of the 1,114,112 code points (1.4-1.7 s of CPU in a clone without a
# .hypothesis folder, as in CI): the same characters, to the interval, without the trial.
UTF8_LESS = ("Cs",)
UTF8 = st.characters(exclude_categories=UTF8_LESS)  # `st.text`'s default alphabet, given here for the same reason
DIGITS = st.text(alphabet=string.digits, min_size=1)
LOWER = st.text(alphabet=string.ascii_lowercase, min_size=2, max_size=3)
# The other terminals, drawn as exactly the strings their patterns match (with the alphabet `from_lark` gives
# `from_regex`): left to `from_regex`, each draw filters, about 3 ms. LANG's pattern ends in a lookahead for the
# string that follows it in the grammar, which no draw of the tag alone can fullmatch: from_regex never drew it
# (every spec with a language was rejected); here the tag alone is drawn, and the STRING after it follows.
SHAPED = {
    "INT": DIGITS,
    "NUMBER": st.builds(lambda whole, part: whole + part, DIGITS, st.one_of(st.just(""), DIGITS.map(".".__add__))),
    "DATE": st.builds(lambda y, m, d: f"{y}-{m}-{d}", *(st.text(alphabet=string.digits, min_size=n, max_size=n)
                                                         for n in (4, 2, 2))),
    "CARD10": st.builds(str.__add__, DIGITS, st.sampled_from(string.ascii_letters)),
    "CITE": st.text(st.characters(exclude_categories=UTF8_LESS, exclude_characters="]\n")).map(lambda text: f"[{text}]"),
    "GRID_LINE": st.text(st.characters(exclude_categories=UTF8_LESS, exclude_characters="\n#")).map("|".__add__),
    "LANG": st.one_of(st.sampled_from(["zh-Hans", "zh-Hant", "zh", "en"]), LOWER,
                      st.builds(lambda a, b, c: f"{a}-{b}{c}", LOWER, st.sampled_from(string.ascii_uppercase),
                                st.text(alphabet=string.ascii_lowercase, min_size=3, max_size=3))),
}


def _matching(pattern: str):
    """A check that a drawn terminal is one its pattern matches (a trailing lookahead left out)."""
    whole = re.compile(re.sub(r"\(\?=[^()]*\)$", "", pattern))

    def check(text: str) -> str:
        assert whole.fullmatch(text), (pattern, text)
        return text
    return check


@cache
def _grammar_strategy() -> st.SearchStrategy[str]:
    # the strategy reads the grammar's rules and terminals only, the same whichever parser Lark builds: an Earley
    # parser is built in a third of the time of the LALR tables (0.08 s against 0.21 s), and no draw changes
    g = lark.Lark(GRAMMAR.read_text(encoding="utf-8"), parser="earley")
    literal = {t.name: st.sampled_from(words) for t in g.terminals if (words := _literals(t.pattern)) is not None}
    shaped = {t.name: SHAPED[t.name].map(_matching(t.pattern.value)) for t in g.terminals if t.name in SHAPED}
    names = st.sampled_from(["player", "banker", "tie", "p", "b", "total", "natural", "face", "x", "lambda", "outcome",
                             "__init__", "None"])
    ignored = {t.name: IGNORED[t.pattern.value] for t in g.terminals if t.name in g.ignore_tokens}  # a new one: KeyError
    explicit = {
        **literal, **shaped,
        "_INDENT": st.just("\n    "), "_DEDENT": st.just("\n"), "NAME": names,
        "STRING": st.sampled_from(['"A"', '"百家樂"', '"<b>x</b>"']), "_NL": st.sampled_from(["\n", "\n# c\n"]),
        **ignored,
    }
    # as `from_lark(g, explicit=...)` builds it, with the check that each explicit draw is a string
    return ClosingLark(g, None, {k: v.map(check_explicit(k)) for k, v in explicit.items()},
                       UTF8)


class ClosingLark(LarkStrategy):
    """`from_lark`'s strategy, with the depth that bounds a draw counted by the strategy instead of Hypothesis.

    `from_lark` opens one Hypothesis span per rule, and Hypothesis throws a draw away once spans nest
    MAX_DEPTH (100) deep ("max depth exceeded"). The expression rules nest deep (expr, or_expr, and_expr,
    not_expr, comparison, sum, product, unary, atom: nine rules, then `( expr )` or a call's arguments start
    again, with the left-recursive `sum +`, `product *`, `and`/`or` lists and `not`/`-` chains in between), and
    a uniform choice among their expansions recurses more often than it closes: over 40% of the draws went past
    100 and were thrown away, a third of the test's time. Here each rule's draw is as in `from_lark`, except:
    - an expansion is drawn only if it can still close within the depth `from_lark` allows (`level`: the depth
      the same derivation has under `from_lark`, MAX_DEPTH at most; `need`: the least depth an expansion takes,
      a lower bound), so no draw is thrown away, and every derivation `from_lark` completes is still allowed:
      the texts drawn are all the texts `from_lark` draws (and a few it threw away, whose terminals nested
      deeper than their lower bound);
    - the deeper a rule, the likelier its closing expansions (those of least `need`): a draw that would have
      gone past the limit closes instead; every allowed expansion keeps a chance while it fits;
    - spans are opened for the outer rules only (SPANS deep), which Hypothesis's shrinker uses, so that the
      spans' own depth never reaches MAX_DEPTH."""

    SPANS = 50
    CLOSE = 0.4  # the chance of a closing expansion at depth 0, growing to 0.99 near MAX_DEPTH: the mean text's
    # length stays that of the texts `from_lark` kept (80 characters against 92 over 900 draws)

    def __init__(self, *args) -> None:
        super().__init__(*args)
        self.expansions = {k: list(v.elements) for k, v in self.nonterminal_strategies.items()}
        need: dict[str, int] = {}  # the least span depth a symbol's draw takes under `from_lark`
        for name in self.terminal_strategies:
            need[name] = 1  # a terminal is a draw: one span, more inside its strategy
        changed = True
        while changed:  # shortest closings: a fixpoint, as the rules recurse
            changed = False
            for name, options in self.expansions.items():
                best = min((self.need_of(e, need) for e in options), default=None)
                if best is not None and (name not in need or 1 + best < need[name]):
                    need[name], changed = 1 + best, True
        self.need = need
        self.options = {k: [(e, self.need_of(e, need)) for e in v] for k, v in self.expansions.items()}
        self.deepest = {k: max(n for _e, n in v) for k, v in self.options.items()}
        self.choices: dict[tuple[str, int], tuple] = {}  # `choices_at`'s answers, made once
        self.ignored = st.sampled_from(self.ignored_symbols) if self.ignored_symbols else None

    @staticmethod
    def need_of(expansion, need: dict[str, int]) -> int:
        """The least depth below a rule that one of its expansions takes: its sampled draw (1) and each symbol."""
        return max([1, *(need.get(s.name, MAX_DEPTH * 2) for s in expansion)])

    def do_draw(self, data) -> str:
        state: list[str] = []
        start = data.draw(self.start)
        self.draw_at(data, start, state, data.depth)
        return "".join(state)

    def draw_at(self, data, symbol, state: list[str], level: int) -> None:
        if symbol.name in self.terminal_strategies:
            state.append(data.draw(self.terminal_strategies[symbol.name]))
            return
        span = data.depth < self.SPANS
        if span:
            data.start_span(self.rule_label(symbol.name))
        closes, closing, fitting = self.choices_at(symbol.name, level)
        if closes and data.draw_boolean(min(self.CLOSE + level / MAX_DEPTH, 0.99)):
            expansion = data.draw(closing)
        else:
            expansion = data.draw(fitting)
        for e in expansion:
            self.draw_at(data, e, state, level + 1)
            self.gen_ignore(data, state)
        if span:
            data.stop_span()

    def choices_at(self, name: str, level: int) -> tuple:
        """(whether some expansions close sooner than others, a draw among those, a draw among all) of the
        expansions of rule `name` that fit at `level`: those whose least depth n keeps level + 1 + n within
        MAX_DEPTH. Which fit depends on the room left only up to the rule's deepest n, so the strategies
        (`sampled_from` of the same lists, in the same order: the same draws) are made once per rule and room,
        not at every draw, where making and validating them was a fifth of the test."""
        room = min(MAX_DEPTH - level - 1, self.deepest[name])
        got = self.choices.get((name, room))
        if got is None:
            fits = [(e, n) for e, n in self.options[name] if n <= room]
            least = min(n for _e, n in fits)
            closing = [e for e, n in fits if n == least]
            got = self.choices[name, room] = (len(closing) < len(fits), st.sampled_from(closing),
                                               st.sampled_from([e for e, _n in fits]))
        return got

    def gen_ignore(self, data, draw_state: list[str]) -> None:
        """`LarkStrategy.gen_ignore`, drawing the ignored symbol from a strategy made once."""
        if self.ignored is not None and data.draw_boolean(1 / 4):
            self.draw_symbol(data, data.draw(self.ignored), draw_state)


@st.composite
def mutated_spec(draw, seeds: list[Path]) -> tuple[str, str]:
    """One of the seed specs with a few token- and line-level mutations."""
    path = draw(st.sampled_from(seeds))
    text = path.read_text(encoding="utf-8")
    for _ in range(draw(st.integers(1, 4))):
        text = draw(st.sampled_from([_token_edit, _line_edit, _truncate, _insert, _rename]))(draw, text)
    return str(path.relative_to(ROOT)), text


def _token_edit(draw, text: str) -> str:
    tokens = text.split(" ")
    if len(tokens) < 2:
        return text
    i = draw(st.integers(0, len(tokens) - 1))
    j = draw(st.integers(0, len(tokens) - 1))
    op = draw(st.sampled_from(["delete", "duplicate", "swap"]))
    if op == "delete":
        del tokens[i]
    elif op == "duplicate":
        tokens.insert(i, tokens[j])
    else:
        tokens[i], tokens[j] = tokens[j], tokens[i]
    return " ".join(tokens)


def _line_edit(draw, text: str) -> str:
    lines = text.split("\n")
    i = draw(st.integers(0, len(lines) - 1))
    j = draw(st.integers(0, len(lines) - 1))
    op = draw(st.sampled_from(["delete", "duplicate", "swap", "indent", "dedent"]))
    if op == "delete":
        del lines[i]
    elif op == "duplicate":
        lines.insert(i, lines[j])
    elif op == "swap":
        lines[i], lines[j] = lines[j], lines[i]
    elif op == "indent":
        lines[i] = "  " + lines[i]
    else:
        lines[i] = lines[i].lstrip()
    return "\n".join(lines)


def _rename(draw, text: str) -> str:
    """Rename every use of one declared name, to another name or to a word the engine reserves."""
    names = sorted(set(re.findall(r"^(?:hand|bet|outcome|event|type|let|deck|class) (\w+)", text, re.MULTILINE)))
    if not names:
        return text
    old = draw(st.sampled_from(names))
    new = draw(st.sampled_from(["lambda", "None", "outcome", "__init__", "steps", "r", "total", "x" * 300]))
    return re.sub(rf"\b{old}\b", new, text)


def _truncate(draw, text: str) -> str:
    return text[:draw(st.integers(0, len(text)))]


def _insert(draw, text: str) -> str:
    at = draw(st.integers(0, len(text)))
    piece = draw(st.one_of(st.sampled_from(ODD_TEXT), st.text(UTF8, max_size=3)))
    return text[:at] + piece + text[at:]


class SharedBases(Loader):
    """A Loader that resolves a spec read from disk (an unmutated base a spec extends) once for the module, per
    place in the chain of bases (its depth and the specs being loaded around it, which decide its cycles): the
    repository's specs never change while the tests run, and resolving the bases again for every example was
    40% of `test_mutated_real_specs_never_crash`. The text drawn (the mutant) is always resolved afresh."""

    RESOLVED: dict[tuple, tuple] = {}

    def load(self, path: str, text: str | None = None, depth: int = 0, opened=None):
        if text is not None or str(path) in self._games:
            return super().load(path, text, depth, opened)
        key = (str(path), str(opened), depth, tuple(self.loading))
        if key not in self.RESOLVED:
            self.RESOLVED[key] = super().load(path, text, depth, opened)
        game, diags = self._games[str(path)] = self.RESOLVED[key]
        return game, list(diags)


COMPILED: dict[tuple[str, str, bool], list] = {}  # (path, text, checks) -> the diagnostics of `compile_text`


def compile_text(path: str, text: str, checks: bool) -> list:
    """Run the compiler on spec text as far as it goes; return its diagnostics (it must not raise).

    A text this process already compiled at the same path, the same way, is not compiled again: the compiler
    is a function of its input, and Hypothesis draws the same text again often (one mutant in five of the
    real specs'); its diagnostics, kept, are checked again as the test's own."""
    key = (path, text, checks)
    if key not in COMPILED:
        COMPILED[key] = compile_afresh(path, text, checks)
    return list(COMPILED[key])


def compile_afresh(path: str, text: str, checks: bool) -> list:
    """`compile_text`'s work: parse and resolve (the unmutated bases shared), then the checks if asked, and the
    engine's source when nothing is an error."""
    loader = SharedBases()
    game, diags = loader.load(path, text)
    diags = list(diags)
    if game is not None and not any(d.is_error for d in diags):
        if checks:
            diags += run_checks(game, engine_oracle)
        if not any(d.is_error for d in diags):
            emit_engine(game, path)
    return diags


def assert_positioned(diags: list, path: str, text: str) -> None:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").count("\n") + 2
    for d in diags:
        assert d.code[:1] in "EWN" and d.severity in ("error", "warning", "note"), d
        assert d.span.file.endswith(Path(path).name) or d.span.file.endswith(".rules"), d
        assert 1 <= d.span.line <= lines and d.span.column >= 1, d


FUZZ = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck), database=None)


@FUZZ
@given(grammar_specs())
def test_grammar_generated_specs_never_crash(text: str) -> None:
    diags = compile_text("spec/fuzz.rules", text, checks=True)
    assert_positioned(diags, "spec/fuzz.rules", text)


@FUZZ
@given(mutated_spec(REAL_SPECS))
def test_mutated_real_specs_never_crash(case: tuple[str, str]) -> None:
    path, text = case
    diags = compile_text(path, text, checks=False)
    assert_positioned(diags, path, text)


@settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck), database=None)
@given(mutated_spec(SMALL_SPECS))
def test_mutated_small_specs_never_crash_with_checks(case: tuple[str, str]) -> None:
    path, text = case
    diags = compile_text(path, text, checks=True)
    assert_positioned(diags, path, text)


def test_every_real_spec_compiles_without_errors() -> None:
    results, _loader = pipeline.compile_all(REAL_SPECS, emit=False)
    for r in results:
        assert r.ok, [d.message for d in r.diagnostics if d.is_error]


def test_the_drawn_characters_are_every_character_utf8_encodes() -> None:
    """UTF-8 encodes every code point but the surrogates U+D800-U+DFFF (RFC 3629): what `codec="utf-8"` allows."""
    assert getattr(UTF8, "wrapped_strategy", UTF8).intervals.intervals == ((0, 0xD7FF), (0xE000, 0x10FFFF))
    for code in (0, 0xD7FF, 0xE000, 0x10FFFF):
        chr(code).encode("utf-8")
    for code in (0xD800, 0xDFFF):
        with pytest.raises(UnicodeEncodeError):
            chr(code).encode("utf-8")
