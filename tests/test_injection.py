"""Injection: spec text (labels, assumptions, sources, citations) never becomes code in an engine
or markup in a rule card. A spec full of Python and HTML payloads compiles to an engine whose
syntax tree holds no trace of them outside string constants, and to cards that show them escaped.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from croupier.backends.engine.loader import load_engine
from croupier.diagnostics import SpecError
from croupier.driver.compile import Level, compile_spec
from croupier.semantics.resolve import Loader

ROOT = Path(__file__).resolve().parent.parent
PY = "__import__('os').system('touch /tmp/croupier_pwned')"
HTML = "<script>alert(1)</script><img src=x onerror=alert(2)>"
PAYLOADS = [
    f'\\"); {PY}; (\\"',
    f'\\"\\"\\"\\n{PY}\\n#',
    "{{ 7*7 }}{% for x in range(3) %}x{% endfor %}",
    HTML,
    "*/ ]]> --> ';alert(3);//",
]


def payload_spec() -> str:
    base = (ROOT / "tests" / "errors" / "base_ok.rules").read_text(encoding="utf-8")
    text = base.replace('game g "G" zh-Hans "G" zh-Hant "G"',
                        'game g "{}" zh-Hans "{}" zh-Hant "{}"'.format(*PAYLOADS[:3]))
    text = text.replace('hand p "P" zh-Hans "P" zh-Hant "P"', f'hand p "{HTML}" zh-Hans "{PAYLOADS[0]}" zh-Hant "{HTML}"')
    text = text.replace('bet p "P" zh-Hans "P" zh-Hant "P"', f'bet p "{PAYLOADS[1]}" zh-Hans "{HTML}" zh-Hant "{PAYLOADS[4]}"')
    text = text.replace("deal p, b, p, b", f"deal p, b, p, b   [s0 {PY} {HTML}]")  # a declared source, then the place
    extra = "".join(f'source "s{i}" "{p}" [s{i} {HTML}]\nassume a{i} "{p}" zh-Hans "{p}" zh-Hant "{HTML}"\n'
                    for i, p in enumerate(PAYLOADS))
    lines = text.split("\n")
    return "\n".join(lines[:4] + extra.rstrip("\n").split("\n") + lines[4:])


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    folder = tmp_path_factory.mktemp("inject")
    path = folder / "inject.rules"
    path.write_text(payload_spec(), encoding="utf-8")
    result = compile_spec(path, Level.ALL, cases_dir=folder)
    assert result.ok, [d.message for d in result.diagnostics if d.is_error]
    return result


def test_the_payloads_reach_the_model(compiled) -> None:
    game = compiled.game
    assert PAYLOADS[2] in game.labels.texts.values()
    assert any(HTML in a.labels.texts.values() for a in game.assumptions.values())


def test_engine_holds_payloads_only_as_strings_and_comments(compiled) -> None:
    source = compiled.artefacts["engines/g.py"]
    tree = ast.parse(source)
    for node in ast.walk(tree):
        assert not (isinstance(node, ast.Name) and node.id == "__import__"), "a payload became code"
        assert not (isinstance(node, ast.Attribute) and node.attr == "system"), "a payload became code"
        assert not (isinstance(node, ast.Name) and node.id == "alert"), "a payload became code"


def test_engine_code_holds_the_payloads_only_inside_string_constants(compiled) -> None:
    """With every string constant blanked (comments are not in the tree), no trace of a payload is left."""
    tree = ast.parse(compiled.artefacts["engines/g.py"])
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            node.value = ""
    code = ast.unparse(tree)
    for trace in ("croupier_pwned", "system", "alert", "onerror", "7*7", "7 * 7", "]]>"):
        assert trace not in code, trace


def test_engine_runs_without_running_a_payload(compiled) -> None:
    marker = Path("/tmp/croupier_pwned")
    marker.unlink(missing_ok=True)
    engine = load_engine(compiled.artefacts["engines/g.py"], "inject")
    assert engine.play(["3S", "2H", "4D", "2C", "6H"]).outcome in ("pw", "bw", "tie")
    assert not marker.exists()


def test_cards_show_payloads_escaped(compiled) -> None:
    cards = {k: v for k, v in compiled.artefacts.items() if k.startswith("cards/")}
    assert cards
    for name, text in cards.items():
        # Markdown escapes with a backslash (`\\<script\\>` shows as text), HTML with entities
        assert not re.search(r"(?<!\\)<(script|img)", text), name
    # the template payload is shown as text, not evaluated by the card templates
    assert any("{{ 7*7 }}" in t.replace("\\", "") or "{{ 7*7 }}" in t.replace("&#123;", "{") for t in cards.values())
    html = [t for k, t in cards.items() if k.endswith(".html")]
    for text in html:
        assert "&lt;script&gt;" in text


def test_generated_code_is_compiled_before_it_is_returned(monkeypatch) -> None:
    from croupier.backends.engine import emitter as engine_emitter

    game, _diags = Loader().load(str(ROOT / "tests" / "errors" / "base_ok.rules"))
    monkeypatch.setattr(engine_emitter, "FORWARD", "def broken(:\n")  # a piece of the engine that does not compile
    with pytest.raises(SpecError) as raised:  # an internal error, shown as a diagnostic, never a traceback
        engine_emitter.emit_engine(game, "x.rules")
    assert raised.value.diagnostics[0].code == "E0998"
