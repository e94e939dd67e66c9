"""Start-up: a command builds only its own sub-command's parser (the full one when it names none); `safe_text`'s
fast path for ASCII text."""

from __future__ import annotations

import argparse

import pytest
from hypothesis import given
from hypothesis import strategies as st

from croupier.backends.pywriter import inert_by_character, safe_text
from croupier.cli.main import main, parser

ALL = ["init", "build", "check", "play", "analyze", "simulate", "fmt", "diff"]


def commands(p: argparse.ArgumentParser) -> list[str]:
    (sub,) = [a for a in p._actions if isinstance(a, argparse._SubParsersAction)]
    return list(sub.choices)


def test_a_named_command_builds_its_parser_alone():
    assert commands(parser("analyze")) == ["analyze"]
    assert commands(parser("play")) == ["play"]
    assert commands(parser("init")) == ["init"]


def test_no_command_or_an_unknown_one_builds_them_all():
    assert commands(parser()) == ALL
    assert commands(parser("--help")) == ALL
    assert commands(parser("nope")) == ALL


def test_an_unknown_command_lists_every_choice(capsys):
    with pytest.raises(SystemExit) as done:
        main(["nope"])
    assert done.value.code == 2
    assert "choose from " + ", ".join(f"'{c}'" for c in ALL) in capsys.readouterr().err


def test_a_command_parses_as_before():
    args = parser("analyze").parse_args(["analyze", "spec.rules", "--json", "--decks", "6"])
    assert (args.command, args.spec, args.json, args.decks) == ("analyze", "spec.rules", True, 6)
    assert args.func.__module__ == "croupier.cli.analyze"


def test_safe_text_on_ascii_in_one_pass_equals_the_character_loop():
    every = "".join(map(chr, range(128)))
    assert safe_text(every) == inert_by_character(every)
    assert safe_text(' a\t"b"\\c\x7f\x00 ') == "a 'b'/c"


@given(st.text(alphabet=st.characters(max_codepoint=127)))
def test_safe_text_on_any_ascii_text_equals_the_character_loop(text):
    assert safe_text(text) == inert_by_character(text)
