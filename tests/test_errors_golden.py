"""Golden error specs: every file in tests/errors/ holds, in its header comment, every diagnostic
the compiler must report for it (`# expect: file:line:col: severity[CODE]: message`), and nothing else.

A file with no `# expect:` line must compile cleanly. Each diagnostic code the compiler's parser,
resolver, scopes and checks can emit has at least one golden file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from compiler import pipeline
from compiler.diagnostics import render
from compiler.resolve import Loader

ROOT = Path(__file__).resolve().parent.parent
ERRORS = sorted((ROOT / "tests" / "errors").glob("*.rules"))
EXPECT = re.compile(r"^# expect: (.+)$", re.MULTILINE)
# the modules whose diagnostic codes must each have a golden file
EMITTERS = ["syntax.py", "build_ast.py", "resolve.py", "resolve_checks.py", "scopes.py", "checks/draw_tables.py",
            "checks/bets.py", "checks/hand_types.py"]
# codes no spec text can produce, with the reason
UNREACHABLE = {
    "E0000": "an unreadable file (tested in test_checks.py)",
    "E0130": "the grammar admits only the known tie-break keys",
    "E0199": "a resolver guard against its own bugs",
    "E0998": "an engine that does not compile: a compiler bug (tested in tests/attacks/test_attack_specs.py)",
}


def expected(path: Path) -> list[str]:
    return EXPECT.findall(path.read_text(encoding="utf-8"))


def actual(path: Path) -> list[str]:
    result = pipeline.compile_spec(path, Loader(), emit=False)
    ordered = sorted(result.diagnostics, key=lambda d: (d.span.line, d.span.column, d.code, d.message))
    return [render(d, None).split("\n")[0] for d in ordered]


@pytest.mark.parametrize("path", ERRORS, ids=[p.stem for p in ERRORS])
def test_golden(path: Path) -> None:
    assert sorted(actual(path)) == sorted(expected(path))


def test_paths_are_relative() -> None:
    for path in ERRORS:
        for line in expected(path):
            assert line.startswith(f"tests/errors/{path.name}:"), line


def test_every_code_has_a_golden() -> None:
    emitted = set()
    for name in EMITTERS:
        emitted |= set(re.findall(r'"([EW]\d{4})"', (ROOT / "compiler" / name).read_text(encoding="utf-8")))
    covered = {m.group(1) for p in ERRORS for line in expected(p) for m in [re.search(r"\[([EW]\d{4})\]", line)] if m}
    assert emitted - covered - set(UNREACHABLE) == set()


def test_golden_file_names_its_code() -> None:
    for path in ERRORS:
        code = path.stem.split("_")[0]
        if re.fullmatch(r"[EW]\d{4}", code):
            assert any(f"[{code}]" in line for line in expected(path)), path.name
