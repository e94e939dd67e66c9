"""croupier fmt: the canonical layout, idempotent, meaning and comments kept, --check for CI.

The expected layout below is written by hand from the rules of `croupier.syntax.layout`; the
Hypothesis test formats generated and mutated specs and checks that a second pass changes
nothing, that the engine is byte-identical and that `croupier diff` sees no change at all.
"""

from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_fuzz import REAL_SPECS, ROOT, SMALL_SPECS, grammar_specs, mutated_spec

from croupier.backends.engine.emitter import emit_engine
from croupier.cli.main import main
from croupier.diagnostics import SpecError
from croupier.semantics.resolve import Loader
from croupier.syntax import formatter
from croupier.syntax.formatter import FormatError, format_text
from croupier.tools.diff.rules import rule_changes

FUZZ = settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck), database=None)

MESSY = '# A small game,   laid out badly.\ngame g   "G"  zh-Hans "G" zh-Hant "G"\nshoe 1 deck of standard52 [s §1]\nvalue A = 1 , 2..9 = pip,10 J Q K = 0   [s]\ntotal sum mod 10\nhand p "P" zh-Hans "P" zh-Hant "P"\nhand b "B" zh-Hans "B" zh-Hant "B"   # the dealer\ndeal p,b,p,b\n\n  # draws\ndraw p by total( p )   [s §2]\n    |0 1 2 3 4 5 6 7|\n    | D D D D D D S  S |\ndraw b by total(b) x value(third(p))\n    |   |0 1 2 3 4 5 6 7 8 9 10|\n    |0| D D D D D D D D D D D |\n    | 7 | S S S S S S S S S S S |\noutcome p "P wins" zh-Hans "P wins" zh-Hant "P wins" when total(p)>total(b)\noutcome b "B wins" zh-Hans "B wins" zh-Hant "B wins" when total(b)>total(p)\noutcome t "Tie" zh-Hans "Tie" zh-Hant "Tie" when total(p)=total(b)\nbet p "P" zh-Hans "P" zh-Hant "P" [s]\n  wins when outcome is p,pays 1 to 1 less 5% commission rounded half-up to 0.01\n  # ties push\n  push when outcome is t   [s §3]\nassume long "A very long assumption text that goes on and on so that the line cannot fit in one hundred columns." zh-Hans "长" [s]\nevent e "An event with a long label that is long" zh-Hans "一个很长很长的事件名称" zh-Hant "一個很長很長的事件名稱" when -(total(p)) < 5 and not (total(b) = 1)\n# the end\n'

LAID_OUT = '# A small game,   laid out badly.\ngame g "G" zh-Hans "G" zh-Hant "G"\nshoe 1 deck of standard52              [s §1]\nvalue A = 1, 2..9 = pip, 10 J Q K = 0  [s]\ntotal sum mod 10\nhand p "P" zh-Hans "P" zh-Hant "P"\nhand b "B" zh-Hans "B" zh-Hant "B"  # the dealer\ndeal p, b, p, b\n\n# draws\ndraw p by total(p)                 [s §2]\n    | 0 1 2 3 4 5 6 7 |\n    | D D D D D D S S |\ndraw b by total(b) x value(third(p))\n    |   | 0 1 2 3 4 5 6 7 8 9 10 |\n    | 0 | D D D D D D D D D D D  |\n    | 7 | S S S S S S S S S S S  |\noutcome p "P wins" zh-Hans "P wins" zh-Hant "P wins" when total(p) > total(b)\noutcome b "B wins" zh-Hans "B wins" zh-Hant "B wins" when total(b) > total(p)\noutcome t "Tie" zh-Hans "Tie" zh-Hant "Tie" when total(p) = total(b)\nbet p "P" zh-Hans "P" zh-Hant "P"  [s]\n    wins when outcome is p, pays 1 to 1 less 5% commission rounded half-up to 0.01\n    # ties push\n    push when outcome is t         [s §3]\nassume long                        [s]\n    "A very long assumption text that goes on and on so that the line cannot fit in one hundred columns."\n    zh-Hans "长"\nevent e "An event with a long label that is long" zh-Hans "一个很长很长的事件名称" \\\n    zh-Hant "一個很長很長的事件名稱" when -(total(p)) < 5 and not (total(b) = 1)\n# the end\n'


def unprinted(engine: str | None) -> str | None:
    """An engine without its RULES_FINGERPRINT line (a digest of the spec text, which formatting changes)."""
    return None if engine is None else re.sub(r"(?m)^.*RULES_FINGERPRINT.* = .*$", "", engine)


def test_a_messy_spec_gets_its_canonical_layout():
    out, diags = format_text(MESSY, "g.rules")
    assert diags == [] and out == LAID_OUT
    assert format_text(LAID_OUT, "g.rules")[0] == LAID_OUT


@pytest.mark.parametrize("spec", REAL_SPECS, ids=lambda p: p.name)
def test_the_specs_of_the_repository_are_laid_out(spec):
    text = spec.read_text(encoding="utf-8")
    assert format_text(text, str(spec))[0] == text


# the statements of dealt rounds with card-level rules: a deck declaration, a soft total, a repeated draw, a bet of
# ordered clauses with a payout table and a loss of half the stake, and a variant's removals
DEALT = ('game bj extends base  "BJ" zh-Hans "BJ" zh-Hant "BJ"\n'
         'deck short "Short deck"  zh-Hans "短牌" zh-Hant "短牌" = standard52 without 2..5   [s]\n'
         'shoe 6 decks of short\n'
         'value A = 1,6..10 = pip, J Q K = 10\n'
         'total sum , A counts 1 or 11 , best not over 21   [s §1]\n'
         'hand dealer "Dealer" zh-Hans "庄" zh-Hant "莊"\n'
         'deal dealer,dealer\n'
         'draw dealer while total(dealer)<17 or soft(dealer)   [s §2]\n'
         'bet margin "Margin" zh-Hans "差" zh-Hant "差"  [s]\n'
         '  push when total(dealer)=21\n'
         '  wins when count(dealer)>2,pays by total(dealer)-17   [s §3]\n'
         '    |natural|1 to 1|\n'
         '    | 3..4 |   30   to 1 |\n'
         '  loses half when total(dealer) > 21 [s §4]\n'
         'remove bet pair   [s]\n'
         'remove  event pair\n')
# by hand: one block, so one citation column two spaces after its longest cited line (the deck, 79 columns: a CJK
# character takes two); a payout table's cells are whole phrases, aligned as the columns of a grid
DEALT_LAID_OUT = (
    'game bj extends base "BJ" zh-Hans "BJ" zh-Hant "BJ"\n'
    'deck short "Short deck" zh-Hans "短牌" zh-Hant "短牌" = standard52 without 2..5  [s]\n'
    'shoe 6 decks of short\n'
    'value A = 1, 6..10 = pip, J Q K = 10\n'
    'total sum, A counts 1 or 11, best not over 21                                    [s §1]\n'
    'hand dealer "Dealer" zh-Hans "庄" zh-Hant "莊"\n'
    'deal dealer, dealer\n'
    'draw dealer while total(dealer) < 17 or soft(dealer)                             [s §2]\n'
    'bet margin "Margin" zh-Hans "差" zh-Hant "差"                                    [s]\n'
    '    push when total(dealer) = 21\n'
    '    wins when count(dealer) > 2, pays by total(dealer) - 17                      [s §3]\n'
    '        | natural | 1 to 1  |\n'
    '        | 3..4    | 30 to 1 |\n'
    '    loses half when total(dealer) > 21                                           [s §4]\n'
    'remove bet pair                                                                  [s]\n'
    'remove event pair\n')


def test_the_statements_of_dealt_rounds_keep_their_layout():
    """Deck declarations, soft totals, `draw … while`, payout-table rows, `loses half when` and `remove`."""
    out, diags = format_text(DEALT, "bj.rules")
    assert diags == [] and out == DEALT_LAID_OUT
    assert format_text(DEALT_LAID_OUT, "bj.rules")[0] == DEALT_LAID_OUT
    for kind in ("deck", "draw_while", "remove"):
        assert formatter.LAYOUTS[kind] is formatter.plain


def test_check_writes_nothing_and_fmt_writes_the_layout(tmp_path, capsys):
    spec = tmp_path / "g.rules"
    spec.write_text(MESSY, encoding="utf-8")
    assert main(["fmt", "--check", str(spec)]) == 1
    assert spec.read_text(encoding="utf-8") == MESSY
    assert main(["fmt", str(tmp_path)]) == 0
    assert spec.read_text(encoding="utf-8") == LAID_OUT
    assert main(["fmt", "--check", str(spec)]) == 0
    assert "would reformat" in capsys.readouterr().err


def test_a_spec_with_syntax_errors_is_left_alone(tmp_path, capsys):
    spec = tmp_path / "bad.rules"
    spec.write_text("game g\nbet b wins when x, pays 2 including stake\n", encoding="utf-8")
    assert main(["fmt", str(spec)]) == 1
    assert "error[E0001]" in capsys.readouterr().err
    assert spec.read_text(encoding="utf-8").startswith("game g\nbet b wins")


def test_a_statement_kind_without_a_layout_stops_the_formatter(monkeypatch):
    monkeypatch.delitem(formatter.LAYOUTS, "bet")
    with pytest.raises(FormatError, match="no layout for the statement `bet`"):
        format_text(MESSY, "g.rules")


def engine_of(path: str, text: str) -> tuple[str | None, object]:
    game, diags = Loader().load(path, text)
    if game is None or any(d.is_error for d in diags):
        return None, None
    try:
        return emit_engine(game, path), game
    except SpecError as exc:  # the engine emitter's own internal error (a name too long for it): on both sides
        return f"internal error: {exc.diagnostics[0].message}", game


def check_layout(path: str, text: str) -> None:
    try:
        out, _diags = format_text(text, path)
    except FormatError as exc:  # the formatter refused rather than change the meaning: a bug
        raise AssertionError(str(exc)) from None
    if out is None:
        return
    assert format_text(out, path)[0] == out, "fmt is idempotent"
    before, game = engine_of(path, text)
    after, new = engine_of(path, out)
    # the same engine, but for the fingerprint of the spec text it names (the text is what fmt changes)
    assert unprinted(after) == unprinted(before), "the engine is byte-identical"
    if game is not None:
        assert rule_changes(game, new) == [], "croupier diff sees no change"


@FUZZ
@given(mutated_spec(REAL_SPECS + SMALL_SPECS))
def test_formatting_mutated_specs_is_idempotent_and_keeps_the_engine(case):
    check_layout(*case)


@FUZZ
@given(grammar_specs())
def test_formatting_generated_specs_is_idempotent(text):
    check_layout("spec/generated.rules", text)


@FUZZ
@given(st.sampled_from(REAL_SPECS), st.sampled_from(["  ", "\t", "   \t "]), st.data())
def test_respacing_a_real_spec_lays_out_to_the_same_text(spec, space, data):
    """Another spacing between the words of one statement comes back to the canonical text."""
    text = spec.read_text(encoding="utf-8")
    lines = text.split("\n")
    i = data.draw(st.sampled_from([k for k, line in enumerate(lines) if line and not line.startswith("#")
                                   and not line.lstrip().startswith("|") and " " in line.strip()
                                   and '"' not in line.strip().split(" ", 1)[0]]))  # the first space outside a text
    indent = len(lines[i]) - len(lines[i].lstrip())
    lines[i] = lines[i][:indent] + lines[i][indent:].replace(" ", space, 1)
    assert format_text("\n".join(lines), str(spec.relative_to(ROOT)))[0] == text
