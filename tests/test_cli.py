"""The command line lists and parses every sub-command; `safe_text`'s fast path for ASCII text."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.backends.pywriter import inert_by_character, safe_text
from croupier.cli.main import main, parser

ALL = ["init", "build", "check", "test", "play", "analyze", "simulate", "fmt", "diff", "lsp", "serve", "help"]


def test_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as done:
        main(["--help"])
    assert done.value.code == 0
    usage = capsys.readouterr().out
    assert "{" + ",".join(ALL) + "}" in usage


def test_an_unknown_command_lists_every_choice(capsys):
    with pytest.raises(SystemExit) as done:
        main(["nope"])
    assert done.value.code == 2
    assert "choose from " + ", ".join(f"'{c}'" for c in ALL) in capsys.readouterr().err


def test_a_command_parses_its_arguments():
    args = parser().parse_args(["analyze", "spec.rules", "--json", "--decks", "6"])
    assert (args.command, args.spec, args.json, args.decks) == ("analyze", "spec.rules", True, 6)
    assert args.func.__module__ == "croupier.cli.analyze"


def test_safe_text_on_ascii_in_one_pass_equals_the_character_loop():
    every = "".join(map(chr, range(128)))
    assert safe_text(every) == inert_by_character(every)
    assert safe_text(' a\t"b"\\c\x7f\x00 ') == "a 'b'/c"


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_safe_text_on_any_ascii_text_equals_the_character_loop(text):
    assert safe_text(text) == inert_by_character(text)
