"""JavaScript back end, what a build writes for a project whose targets name "javascript".

`javascript_files(game, spec_path, cases)` gives a game's files, relative to the output folder:
`engines-js/<game>.js` and `.d.ts`, and `tests-js/<game>.test.mjs` when it has reference cases;
`runtime_outputs()` the runtime written once beside the engines.
"""

from __future__ import annotations

from croupier.backends.javascript.conformance import emit_node_tests
from croupier.backends.javascript.declarations import emit_declarations
from croupier.backends.javascript.emitter import emit_javascript
from croupier.backends.javascript.runtime import runtime_files
from croupier.semantics.cases import Case
from croupier.semantics.model import Game

FOLDER = "engines-js"
TESTS = "tests-js"


def javascript_files(game: Game, spec_path: str, cases: list[Case]) -> dict[str, str]:
    """A game's JavaScript outputs by path relative to the output folder."""
    files = {f"{FOLDER}/{game.name}.js": emit_javascript(game, spec_path),
             f"{FOLDER}/{game.name}.d.ts": emit_declarations(game, spec_path)}
    if cases:
        files[f"{TESTS}/{game.name}.test.mjs"] = emit_node_tests(game, spec_path, cases)
    return files


def runtime_outputs() -> dict[str, str]:
    """The runtime's files by path relative to the output folder."""
    return {f"{FOLDER}/{name}": text for name, text in runtime_files().items()}
