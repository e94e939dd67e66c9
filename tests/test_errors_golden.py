"""Golden error specs: every file in tests/errors/ holds, in its header comment, every diagnostic
the compiler must report for it (`# expect: file:line:col: severity[CODE]: message`), and nothing else.

A file with no `# expect:` line must compile cleanly. Each diagnostic code the compiler's parser,
resolver, scopes and checks can emit has at least one golden file.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from croupier.diagnostics import render
from croupier.driver.compile import Level, compile_spec
from croupier.semantics.citations import uncited
from croupier.syntax.parser import parse_text

ROOT = Path(__file__).resolve().parent.parent
ERRORS = sorted((ROOT / "tests" / "errors").glob("*.rules"))
STRICT = "# check --strict\n"  # a golden file checked as `croupier check --strict` checks it
EXPECT = re.compile(r"^# expect: (.+)$", re.MULTILINE)
# the modules whose diagnostic codes must each have a golden file
# every module of the stages that report on spec text: syntax, semantics and the checks
EMITTERS = sorted(str(p.relative_to(ROOT / "compiler" / "croupier")) for stage in ("syntax", "semantics", "checks")
                  for p in (ROOT / "compiler" / "croupier" / stage).glob("*.py") if p.name != "cases.py")  # cases: not spec text
# codes no spec text can produce, with the reason
UNREACHABLE = {
    "E0000": "an unreadable file (tested in test_checks.py)",
    "E0999": "a check pass that raised: a compiler bug, reported instead of a traceback",
    "E0130": "the grammar admits only the known tie-break keys",
    "E0199": "a resolver guard against its own bugs",
    "E0998": "an engine that does not compile: a compiler bug (tested in tests/attacks/test_attack_specs.py)",
}


def expected(path: Path) -> list[str]:
    return EXPECT.findall(path.read_text(encoding="utf-8"))


def actual(path: Path) -> list[str]:
    result = compile_spec(path, Level.CHECKED)
    found = list(result.diagnostics)
    if STRICT in path.read_text(encoding="utf-8"):  # what `croupier check --strict` adds: citations on every rule
        found += uncited(parse_text(path.read_text(encoding="utf-8"), result.spec)[0])
    ordered = sorted(found, key=lambda d: (d.span.line, d.span.column, d.code, d.message))
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
        emitted |= set(re.findall(r'"([EWN]\d{4})"', (ROOT / "compiler" / "croupier" / name).read_text(encoding="utf-8")))
    covered = {m.group(1) for p in ERRORS for line in expected(p) for m in [re.search(r"\[([EWN]\d{4})\]", line)] if m}
    assert emitted - covered - set(UNREACHABLE) == set()


def test_golden_file_names_its_code() -> None:
    for path in ERRORS:
        code = path.stem.split("_")[0]
        if re.fullmatch(r"[EWN]\d{4}", code):
            assert any(f"[{code}]" in line for line in expected(path)), path.name
