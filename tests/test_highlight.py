"""The TextMate grammar and the VS Code manifest in the package's data: the grammar is the one
`croupier.editor.highlight` generates from the Lark grammar, every keyword of the language is
highlighted as one, and the manifest starts `croupier lsp` with that grammar."""

from __future__ import annotations

import json
import re
from pathlib import Path

from croupier.editor import highlight

VSCODE = Path(highlight.__file__).parent / "vscode"


def test_grammar_file_is_the_generated_one() -> None:
    assert highlight.GRAMMAR_FILE.read_text(encoding="utf-8") == highlight.grammar_text(), \
        "run `python -m croupier.editor.highlight` and commit the grammar"


def test_every_keyword_is_highlighted_and_names_are_not() -> None:
    grammar = json.loads(highlight.GRAMMAR_FILE.read_text(encoding="utf-8"))
    keyword = re.compile(grammar["repository"]["keyword"]["match"])
    words = highlight.keywords()
    assert {"game", "extends", "override", "bet", "wins", "half-up", "one-more-after"} <= set(words)
    for word in words:
        assert keyword.fullmatch(word), word
        assert keyword.search(f"= {word} ;").group() == word
    for name in ("banker_pair", "gamer", "bets_x", "my-when"):
        assert not keyword.fullmatch(name), name


def test_vscode_manifest_starts_the_language_server() -> None:
    manifest = json.loads((VSCODE / "package.json").read_text(encoding="utf-8"))
    grammar = manifest["contributes"]["grammars"][0]
    assert (VSCODE / grammar["path"]).resolve() == highlight.GRAMMAR_FILE.resolve()
    assert manifest["contributes"]["languages"][0]["extensions"] == [".rules"]
    assert manifest["contributes"]["configuration"]["properties"]["croupier.command"]["default"] == ["croupier", "lsp"]
    assert (VSCODE / manifest["main"]).is_file()
