"""`croupier build` and `croupier check`: reproducible output, stdlib-only engines, stale detection."""

from __future__ import annotations

import ast
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT

from croupier.cli.main import main


def tree_bytes(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    """Every spec built once into a temporary folder."""
    out = tmp_path_factory.mktemp("built")
    assert main(["build", "--out", str(out)]) == 0
    return out


def test_build_twice_writes_identical_bytes(built, tmp_path):
    first = tree_bytes(built)
    assert any(name.startswith("engines/") for name in first)
    assert main(["build", "--out", str(tmp_path)]) == 0
    assert tree_bytes(tmp_path) == first, "a fresh build into another folder gives the same bytes"
    assert main(["build", "--out", str(built)]) == 0
    assert tree_bytes(built) == first, "rebuilding over the output changes nothing"


def test_committed_generated_folder_is_up_to_date(capsys):
    """`croupier check` passes in the repository: generated/ is what `build` writes."""
    code = main(["check"])
    assert code == 0, capsys.readouterr().err


def imported_modules(source: str) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, "an engine has no relative imports"
            names.add(node.module.split(".")[0])
        elif isinstance(node, ast.Call) and getattr(node.func, "id", None) == "__import__":
            raise AssertionError("an engine imports dynamically")
    return names


def test_engines_import_only_the_standard_library(built):
    """Every generated module imports the standard library and, the runtime itself excepted, the runtime beside
    it: nothing else."""
    engines = sorted((built / "engines").glob("*.py"))
    assert engines and (built / "engines" / "croupier_runtime.py") in engines
    for engine in engines:
        modules = imported_modules(engine.read_text(encoding="utf-8"))
        outside = sorted(m for m in modules if m not in sys.stdlib_module_names)
        assert outside == ([] if engine.stem == "croupier_runtime" else ["croupier_runtime"]), engine.name


def test_engines_start_with_the_generated_header(built):
    for engine in sorted((built / "engines").glob("*.py")):
        first = engine.read_text(encoding="utf-8").splitlines()[0]
        assert first.startswith("# @generated"), engine.name
        assert "do not edit" in first.lower()
        source = "croupier/runtime/" if engine.stem == "croupier_runtime" else \
            f"spec/{engine.stem.removesuffix('_analysis')}.rules"
        assert source in first, "the header names what it is made from"


def test_an_engine_runs_standalone(built):
    """A generated engine is a script: it answers JSON Lines with nothing but Python."""
    line = '{"cards": ["3S","2H","4D","2C","6H","AS"], "bets": {"banker": 100}}\n'
    proc = subprocess.run([sys.executable, "-I", str(built / "engines" / "baccarat.py")], input=line,
                          capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert '"outcome": "player"' in proc.stdout


def installed_croupier() -> str:
    """The `croupier` command installed with this Python (the console script, not `python -m`)."""
    beside = Path(sys.executable).with_name("croupier")
    found = str(beside) if beside.is_file() else shutil.which("croupier")
    assert found, "the croupier command is not installed (pip install -e .)"
    return found


@pytest.fixture(scope="module")
def repo_copy(tmp_path_factory) -> Path:
    """A copy of the project (croupier.toml, specs, cases) without the compiler, with its own
    generated/ freshly built by the installed `croupier` command."""
    root = tmp_path_factory.mktemp("repo")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copy(ROOT / "croupier.toml", root / "croupier.toml")
    shutil.copytree(ROOT / "spec", root / "spec", ignore=ignore)
    shutil.copytree(ROOT / "tests" / "cases", root / "tests" / "cases", ignore=ignore)
    assert not (root / "compiler").exists() and not (root / "croupier").exists()
    proc = croupier(root, "build")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.rstrip().endswith(" in generated"), "the copy is its own project: it builds into its generated/"
    assert (root / "generated" / ".croupier-manifest.json").is_file()
    return root


def croupier(root: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([installed_croupier(), *args], cwd=root, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def check_in(root: Path, monkeypatch, capsys) -> tuple[int, str]:
    """(exit code, standard error) of `croupier check` run from `root`, in this process: what is compared
    is under test here, not the command (the fixture built the copy with the installed command); the
    compiles of one spec text are kept in process, so that each check after the first only compares."""
    monkeypatch.chdir(root)
    capsys.readouterr()
    code = main(["check"])
    return code, capsys.readouterr().err


def test_the_copy_builds_what_the_repository_holds(repo_copy):
    """The project, not the compiler's location, decides what is built: the same bytes as generated/."""
    def built(folder: Path) -> dict[str, bytes]:
        return {k: v for k, v in tree_bytes(folder).items() if "__pycache__" not in k}  # pytest's, not built

    assert built(repo_copy / "generated") == built(ROOT / "generated")


def test_check_fails_on_a_modified_generated_file(repo_copy, monkeypatch, capsys):
    engine = repo_copy / "generated" / "engines" / "baccarat.py"
    original = engine.read_bytes()
    assert check_in(repo_copy, monkeypatch, capsys)[0] == 0, "the fresh copy checks clean"
    try:
        engine.write_bytes(original.replace(b"DECKS = 8", b"DECKS = 6"))
        code, err = check_in(repo_copy, monkeypatch, capsys)
        assert code != 0
        assert "baccarat.py" in err and "stale" in err
    finally:
        engine.write_bytes(original)
    assert check_in(repo_copy, monkeypatch, capsys)[0] == 0


def test_check_fails_on_a_missing_or_extra_generated_file(repo_copy, monkeypatch, capsys):
    card = next((repo_copy / "generated" / "cards").iterdir())
    original = card.read_bytes()
    card.unlink()
    try:
        assert check_in(repo_copy, monkeypatch, capsys)[0] != 0
    finally:
        card.write_bytes(original)
    # a file an earlier build listed in its manifest, and no spec writes now, is stale;
    # a file no build wrote (notes) is not
    manifest = repo_copy / "generated" / ".croupier-manifest.json"
    listed = manifest.read_bytes()
    data = json.loads(listed)
    data["files"].append("engines/by_hand.py")
    manifest.write_text(json.dumps(data), encoding="utf-8")
    extra = repo_copy / "generated" / "engines" / "by_hand.py"
    extra.write_text("# from a spec since removed\n", encoding="utf-8")
    notes = repo_copy / "generated" / "NOTES.md"
    notes.write_text("notes\n", encoding="utf-8")
    try:
        code, err = check_in(repo_copy, monkeypatch, capsys)
        assert code != 0 and "by_hand.py" in err
        assert "NOTES.md" not in err
    finally:
        extra.unlink()
        notes.unlink()
        manifest.write_bytes(listed)
