"""The pipeline's layering: no stage reaches into a later one, by import or otherwise.

`lint-imports` checks the contracts in pyproject.toml (syntax < semantics <
checks < backends < tools < driver < editor < cli; the back ends independent of each
other) on the import graph of this repository's `compiler/` folder. Two ways
around an import graph are scanned for here: naming a later stage's module in
a call (`importlib.import_module("croupier.tools…")`), and a check pass that
patches what it was handed (an attribute store on anything but itself) or runs
text as code.
"""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SOURCE_ROOT = ROOT / "compiler"  # the src layout: compiler/croupier/ is the package
COMPILER = SOURCE_ROOT / "croupier"
STAGES = ["syntax", "semantics", "checks", "backends", "tools", "driver", "editor", "cli"]
MODULE_NAME = re.compile(r"^croupier\.(\w+)")
LINT = "import sys; from importlinter.cli import lint_imports_command; sys.exit(lint_imports_command())"


def stage_of(path: Path) -> int | None:
    """The stage of a file of compiler/ (None for the shared top-level modules)."""
    parts = path.relative_to(COMPILER).parts
    return STAGES.index(parts[0]) if len(parts) > 1 and parts[0] in STAGES else None


def python_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts)


def test_lint_imports_keeps_every_contract() -> None:
    """Run import-linter from the repository root on this checkout's compiler/croupier/, whichever copy
    of croupier the environment has installed."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(SOURCE_ROOT), os.environ.get("PYTHONPATH", "")])}
    proc = subprocess.run([sys.executable, "-c", LINT, "--no-cache"], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "Contracts: 2 kept, 0 broken." in proc.stdout


def later_stage_names(path: Path, text: str) -> list[str]:
    """Croupier modules of a later stage than `path`'s, named as the first argument of a call in `text`."""
    own = stage_of(path)
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str) and (m := MODULE_NAME.match(node.args[0].value)):
            if m.group(1) in STAGES and (own is None or STAGES.index(m.group(1)) > own):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.args[0].value}")
    return found


def test_no_module_loads_a_later_stage_by_name() -> None:
    found = [hit for path in python_files(COMPILER) for hit in later_stage_names(path, path.read_text("utf-8"))]
    assert found == []


def test_the_scan_for_hidden_imports_would_find_one() -> None:
    text = ('import importlib\nmath = importlib.import_module("croupier.tools.analysis.card_analysis")\n'
            'same = importlib.import_module("croupier.backends.cards.i18n")\n')
    assert later_stage_names(COMPILER / "backends" / "cards" / "card_model.py", text) == [
        "compiler/croupier/backends/cards/card_model.py:2: croupier.tools.analysis.card_analysis"]
    assert later_stage_names(COMPILER / "cli" / "main.py", text) == []


def patches(tree: ast.AST) -> list[tuple[int, str]]:
    """Attribute stores not rooted at `self` or reaching through an engine or an oracle, and
    setattr/eval/exec/compile calls."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
            chain, root = [], node.value
            while isinstance(root, ast.Attribute):
                chain.append(root.attr)
                root = root.value
            if not (isinstance(root, ast.Name) and root.id == "self") or {"engine", "oracle"} & set(chain):
                found.append((node.lineno, ast.unparse(node)))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and \
                node.func.id in ("setattr", "delattr", "eval", "exec", "compile"):
            found.append((node.lineno, node.func.id))
    return sorted(found)


@pytest.mark.parametrize("path", python_files(COMPILER / "checks"), ids=lambda p: p.stem)
def test_a_check_pass_patches_nothing_and_runs_no_text(path: Path) -> None:
    assert patches(ast.parse(path.read_text(encoding="utf-8"))) == []


def test_the_patch_scan_finds_the_old_ways() -> None:
    old = ("engine.DRAWERS = tuple(wrapped)\n"
           "def f(self, code, r):\n    return eval(code, self.engine.__dict__, {'r': r})\n"
           "copy.outcome = r.outcome\nself.space.leaves += 1\nself.oracle.play = None\nsetattr(r, 'p', [])\n")
    assert patches(ast.parse(old)) == [(1, "engine.DRAWERS"), (3, "eval"), (4, "copy.outcome"),
                                       (6, "self.oracle.play"), (7, "setattr")]
