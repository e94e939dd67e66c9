"""A rule designer's first hour: the scaffold works as printed, mistakes in cases and specs lead to the fix,
and the command line answers alike (project-relative paths, one JSON type for amounts)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from croupier.cli.main import main
from croupier.project import find_project

ROOT = Path(__file__).resolve().parent.parent
CASES = "tests/cases/high_total.toml"
SPEC = "spec/high_total.rules"


def run(capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def project(tmp_path, monkeypatch, capsys) -> Path:
    """A project made by `croupier init` in English only, built, as the current folder."""
    assert find_project(tmp_path) is None
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "init", "--languages", "en")[0] == 0
    assert run(capsys, "build")[0] == 0
    return tmp_path


def test_the_scaffold_is_laid_out_ignores_caches_and_its_cases_pass_without_pytest(project, capsys):
    assert run(capsys, "fmt", "--check", "spec/")[0] == 0
    assert ".venv/" in (project / ".gitignore").read_text() and "__pycache__/" in (project / ".gitignore").read_text()
    code, out, _err = run(capsys, "test")
    assert code == 0 and re.search(r"(\d+) of \1 reference case\(s\) pass", out), out


def test_init_refuses_a_language_croupier_has_no_card_text_for(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    code, _out, err = run(capsys, "init", "x", "--languages", "en", "fr")
    assert code == 2 and "no card text in fr" in err and not (tmp_path / "x").exists()


def test_a_case_naming_what_the_spec_lacks_is_reported_at_its_line_with_the_nearest_name(project, capsys):
    path = project / CASES
    path.write_text(path.read_text().replace("returns = {", "retruns = {", 1).replace("player = 100", "playr = 100", 1))
    code, out, err = run(capsys, "check", "--json")
    found = {(d["code"], d["suggestion"]) for d in json.loads(out)["diagnostics"]}
    assert code == 1 and ("E0903", "player") in found, found
    code, _out, _err = run(capsys, "test")
    assert code == 1, "croupier test fails the same cases"


def test_a_toml_error_is_reported_once_at_its_line_and_column(project, capsys):
    spec = project / SPEC
    (project / "spec/other.rules").write_text(spec.read_text().replace("game high_total", "game other", 1))
    (project / CASES).write_text("# a comment\n\nbroken = =\n" + (project / CASES).read_text())
    code, out, _err = run(capsys, "check", "--json")
    errors = [d for d in json.loads(out)["diagnostics"] if d["code"] == "E0900"]
    assert code == 1 and len(errors) == 1, errors
    assert errors[0]["file"] == CASES and (errors[0]["line"], errors[0]["column"]) == (3, 10), errors


def test_an_amount_is_always_a_string_in_json(project, capsys):
    code, out, _err = run(capsys, "play", SPEC, "--cards", "KS 7H 9D AC", "--bet", "player=100", "--bet", "tie=10",
                          "--json")
    assert code == 0 and all(isinstance(v, str) for v in json.loads(out)["returns"].values())


def test_stale_files_are_named_from_the_project_root(project, capsys):
    (project / "generated/engines/high_total.py").unlink()
    code, _out, err = run(capsys, "check")
    assert code == 1 and "stale: generated/engines/high_total.py: missing" in err


def test_clauses_reordered_that_never_both_apply_are_no_change_in_play(project, capsys):
    old = (project / SPEC).read_text()
    new = old.replace("    wins when outcome is player, pays 1 to 1", "    push when outcome is tie\n"
                      "    wins when outcome is player, pays 1 to 1", 1)
    old = old.replace("    wins when outcome is player, pays 1 to 1", "    wins when outcome is player, pays 1 to 1"
                      "\n    push when outcome is tie", 1)
    old = re.sub(r"(    wins when outcome is player, pays 1 to 1)  \[H1 §5\]", r"\1", old)
    new = re.sub(r"(    wins when outcome is player, pays 1 to 1)  \[H1 §5\]", r"\1", new)
    (project / "a.rules").write_text(old)
    (project / "b.rules").write_text(new)
    code, out, _err = run(capsys, "diff", "a.rules", "b.rules")
    assert code == 0 and "clauses reordered; every round settles the same" in out, out


def test_help_shows_a_topic_of_the_language_reference(capsys):
    code, out, _err = run(capsys, "help", "cut", "card")
    assert code == 0 and "cut card 14..16 from end" in out
    assert run(capsys, "help", "no-such-topic")[0] == 2


def test_laying_a_spec_out_again_changes_no_fingerprint_and_a_rule_change_does(tmp_path):
    from croupier.semantics.resolve import resolve_file

    text = (ROOT / "tests" / "errors" / "base_ok.rules").read_text(encoding="utf-8")
    (tmp_path / "a.rules").write_text(text)
    (tmp_path / "b.rules").write_text("# a comment\n" + text.replace(" when ", "   when ").replace("\n", "  # why\n", 3))
    (tmp_path / "c.rules").write_text(text.replace("pays 1.5 including stake", "pays 1.4 including stake", 1))
    prints = [resolve_file(str(tmp_path / f"{n}.rules"))[0].fingerprint for n in "abc"]
    assert prints[0] == prints[1] != prints[2]
