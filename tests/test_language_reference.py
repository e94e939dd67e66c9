"""The language reference (croupier/docs/language.md, shipped with the tool, shown by `croupier help`):
its examples are games `croupier check` accepts, and every keyword of the grammar appears in one.

The ```rules NAME blocks of one game, in the page's order, make that game's spec; a variant's base
lies beside it, as in a project.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from croupier.cli.help_topics import REFERENCE, topics
from croupier.driver.compile import Level, compile_spec

ROOT = Path(__file__).resolve().parent.parent
GRAMMAR = ROOT / "compiler" / "croupier" / "syntax" / "croupier.lark"
BLOCK = re.compile(r"```rules (\w+)\n(.*?)```", re.S)


def games() -> dict[str, str]:
    out: dict[str, list[str]] = {}
    for name, body in BLOCK.findall(REFERENCE.read_text(encoding="utf-8")):
        out.setdefault(name, []).append(body)
    return {name: "\n".join(parts) for name, parts in out.items()}


@pytest.fixture(scope="module")
def written(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("reference")
    for name, text in games().items():
        (folder / f"{name}.rules").write_text(text, encoding="utf-8")
    return folder


@pytest.mark.parametrize("game", sorted(games()))
def test_every_example_game_is_accepted_by_check(written: Path, game: str) -> None:
    result = compile_spec(written / f"{game}.rules", Level.CHECKED)
    assert [d.message for d in result.diagnostics if d.is_error] == []
    assert [d.message for d in result.diagnostics if d.severity == "warning" and d.code != "W0601"] == []


def keywords() -> set[str]:
    """Every literal of the grammar: keywords, and the words of its named terminals (`half-up`, `×`)."""
    text = re.sub(r"//[^\n]*", "", GRAMMAR.read_text(encoding="utf-8"))
    text = "\n".join(line for line in text.split("\n") if not re.match(r"\s*[A-Z_][A-Z_0-9.]*:\s*/", line))
    return {w for w in re.findall(r'"([^"\\]+)"', text) if re.search(r"[a-z×]", w)}


def test_every_keyword_of_the_grammar_has_an_example() -> None:
    examples = " ".join(games().values())
    words = set(re.findall(r"[A-Za-z×][A-Za-z0-9_-]*|×", examples))
    missing = sorted(k for k in keywords() if k not in words and k not in examples.split())
    assert missing == []


def test_every_statement_has_a_topic_and_help_shows_it() -> None:
    names = topics()
    for statement in ("game", "source", "assume", "shoe", "value", "hand", "event", "draw", "outcome", "bet",
                      "room", "cut card", "extends", "type", "settle", "expressions"):
        assert any(statement in t for t in names), statement
