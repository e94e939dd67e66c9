"""The static checks: the real specs pass them, the enumeration behind them is exact, and the
command reports warnings as warnings unless `--strict`, as text or as JSON."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.checks import PASSES, bets, draw_tables, hand_types, run_checks
from croupier.checks.rounds import round_space, value_classes
from croupier.semantics.resolve import Loader

ROOT = Path(__file__).resolve().parent.parent
ERRORS = ROOT / "tests" / "errors"


def load(path: Path):
    game, diags = Loader().load(str(path))
    assert game is not None and not any(d.is_error for d in diags), diags
    return game


def test_passes_are_registered() -> None:
    for module in (draw_tables, bets, hand_types):
        assert module.check in PASSES


@pytest.mark.parametrize("spec", sorted((ROOT / "spec").glob("*.rules")), ids=lambda p: p.stem)
def test_real_specs_pass_every_check(spec: Path) -> None:
    found = [d for d in run_checks(load(spec)) if d.code[1:3] in ("02", "04", "05")]
    assert found == []


def test_baccarat_enumeration_is_exact() -> None:
    space = round_space(load(ROOT / "spec" / "baccarat.rules"), full=True)
    assert space.complete
    # every cell of the three baccarat tables is consulted by some round: 8 + 8 + 8 × 10
    assert len(space.consulted) == 96 and not space.gaps and not space.overlaps and not space.failures
    outcomes = {k[1]: v for k, v in space.facts.items() if k[0] == "outcome"}
    assert sum(outcomes.values()) == 1
    assert round(outcomes["banker"] * 10000) == 4586 and round(outcomes["player"] * 10000) == 4462  # RULES B18
    assert space.returns["banker"] < 1 and space.returns["tie"] < 1


def test_value_classes_cover_the_shoe() -> None:
    game = load(ROOT / "spec" / "baccarat.rules")
    classes = value_classes(game)
    assert len(classes) == 13  # the pair bets compare ranks, so the classes are the ranks
    assert sum(copies for _codes, copies in classes) == 8 * 52
    assert max(copies for _codes, copies in classes) == 8 * 4


def test_gap_names_the_cells_and_shows_a_round() -> None:
    game = load_with_errors(ERRORS / "E0210_draw_gap.rules")
    [d] = draw_tables.check(game)
    assert d.code == "E0210" and "total(b) 4" in d.message
    assert d.notes and d.notes[0].startswith("for example: p ")


def load_with_errors(path: Path):
    game, _diags = Loader().load(str(path))
    return game


def test_expected_return_above_one_is_a_warning_only() -> None:
    found = bets.check(load(ERRORS / "W0406_expected_return_above_one.rules"))
    assert [d.severity for d in found] == ["warning"]


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "croupier.cli.main", *args], capture_output=True, text=True, cwd=ROOT,
                          timeout=600)


def test_check_strict_makes_warnings_errors() -> None:
    spec = "tests/errors/W0503_type_unreachable.rules"
    relaxed = cli("check", "--no-stale", spec)
    strict = cli("check", "--no-stale", "--strict", spec)
    assert relaxed.returncode == 0 and "warning[W0503]" in relaxed.stderr
    assert strict.returncode == 1 and "warning[W0503]" in strict.stderr


def test_check_format_json_for_editors() -> None:
    proc = cli("check", "--no-stale", "--format", "json", "tests/errors/E0001_syntax_several.rules")
    assert proc.returncode == 1
    diags = json.loads(proc.stdout)["diagnostics"]
    assert len(diags) == 2 and {d["code"] for d in diags} == {"E0001"}
    for d in diags:
        assert d["file"] == "tests/errors/E0001_syntax_several.rules" and d["line"] > 0 and d["column"] > 0


def test_text_diagnostic_has_source_line_caret_and_hint() -> None:
    proc = cli("check", "--no-stale", "tests/errors/E0121_deck_count.rules")
    lines = proc.stderr.splitlines()
    head = lines.index(next(x for x in lines if "error[E0121]" in x))
    assert lines[head].startswith("tests/errors/E0121_deck_count.rules:4:6: error[E0121]:")
    assert "shoe 20 decks" in lines[head + 1] and lines[head + 2].strip().startswith("^")
    assert lines[head + 3].startswith("hint: ")


def test_unreadable_spec_is_a_diagnostic(tmp_path: Path) -> None:
    bad = tmp_path / "bad.rules"
    bad.write_bytes(b"game \xff\xfe\n")
    game, diags = Loader().load(str(bad))
    assert game is None and [d.code for d in diags] == ["E0000"]


def test_exact_decimal_in_messages() -> None:
    assert bets._decimal(Fraction(17547, 10000)) == "1.7547" and bets._decimal(Fraction(2, 3)) == "0.6667"
