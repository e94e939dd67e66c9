"""The TextMate grammar editors highlight specs with, generated from the Lark grammar's keywords.

Every word the grammar writes in quotes (`"game"`, `"extends"`, `"half-up"`…) is a keyword here,
so a word added to the grammar is highlighted once this module is run again:
`python -m croupier.editor.highlight` rewrites `vscode/syntaxes/croupier.tmLanguage.json`, and a
test fails while the file differs from what this module makes.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import resources
from pathlib import Path

QUOTED_WORD = re.compile(r'"([a-z][a-z0-9_-]*)"')
DECLARING = ("game", "source", "assume", "deck", "suit", "class", "hand", "event", "outcome", "bet", "type", "let",
             "settle", "room")
GRAMMAR_FILE = Path(__file__).parent / "vscode" / "syntaxes" / "croupier.tmLanguage.json"


@cache
def keywords() -> tuple[str, ...]:
    """Every keyword of the language: the quoted words of the Lark grammar (its comments left out), sorted."""
    text = resources.files("croupier.syntax").joinpath("croupier.lark").read_text(encoding="utf-8")
    words = set()
    for line in text.splitlines():
        words.update(QUOTED_WORD.findall(line.split("//")[0]))
    return tuple(sorted(words))


def alternation(words: tuple[str, ...]) -> str:
    """A regular expression matching any of the words as a whole word (a longer word before its prefixes)."""
    ordered = sorted(words, key=lambda w: (-len(w), w))
    return r"(?<![\w-])(?:" + "|".join(re.escape(w) for w in ordered) + r")(?![\w-])"


def grammar() -> dict:
    """The TextMate grammar of spec files."""
    return {
        "$schema": "https://raw.githubusercontent.com/martinring/tmlanguage/master/tmlanguage.json",
        "name": "Croupier",
        "scopeName": "source.croupier",
        "fileTypes": ["rules"],
        "patterns": [{"include": f"#{name}"} for name in
                     ("comment", "string", "citation", "declaration", "grid", "keyword", "date", "number")],
        "repository": {
            "comment": {"name": "comment.line.number-sign.croupier", "match": "#.*$"},
            "string": {"name": "string.quoted.double.croupier", "begin": '"', "end": '"|$',
                       "patterns": [{"name": "constant.character.escape.croupier", "match": r"\\."}]},
            "citation": {"name": "markup.underline.link.citation.croupier", "match": r"\[[^\]\n]*\]"},
            "declaration": {
                "match": r"^\s*(?:(override)\s+)?(" + "|".join(DECLARING) + r")\s+([A-Za-z_][A-Za-z0-9_]*)",
                "captures": {"1": {"name": "keyword.control.croupier"}, "2": {"name": "keyword.control.croupier"},
                             "3": {"name": "entity.name.function.croupier"}}},
            "grid": {"begin": r"^\s*(?=\|)", "end": "$", "patterns": [
                {"name": "punctuation.separator.grid.croupier", "match": r"\|"},
                {"name": "constant.language.draw.croupier", "match": r"(?<![\w-])D(?![\w-])"},
                {"name": "constant.language.stand.croupier", "match": r"(?<![\w-])S(?![\w-])"},
                {"include": "#comment"}, {"include": "#string"}, {"include": "#keyword"}, {"include": "#number"}]},
            "keyword": {"name": "keyword.control.croupier", "match": alternation(keywords())},
            "date": {"name": "constant.numeric.date.croupier", "match": r"\b[0-9]{4}-[0-9]{2}-[0-9]{2}\b"},
            "number": {"name": "constant.numeric.croupier", "match": r"\b[0-9]+(?:\.[0-9]+)?\b"},
        },
    }


def grammar_text() -> str:
    return json.dumps(grammar(), ensure_ascii=False, indent=2) + "\n"


def main() -> None:
    """Write the grammar file beside the VS Code manifest."""
    from croupier.outputs import write_if_changed

    write_if_changed(GRAMMAR_FILE, grammar_text().encode("utf-8"))
    print(f"wrote {GRAMMAR_FILE}")


if __name__ == "__main__":
    main()
