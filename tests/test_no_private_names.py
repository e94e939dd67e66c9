"""No private name of another package or of CPython anywhere in compiler/, tests/ or benchmarks/.

A private name is one with a leading underscore (not a dunder). Croupier may read its own; a name of
another package's module or object (`Lark._load_from_dict`, `argparse._SubParsersAction`,
`dataclasses._FIELD`, `atexit._run_exitfuncs`) ties the code to one release of that package. The scan
is static: an attribute `x._name` is foreign unless Croupier's own code defines `_name` somewhere (as a
function, class, parameter, assignment target or attribute it sets), and `from pkg import _name` is
foreign unless `pkg` is Croupier's. `EXCEPTIONS` lists any accepted use with its reason; none is expected.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FOLDERS = ("compiler", "tests", "benchmarks")
OWN_PACKAGES = ("croupier", "conftest", "cli_run")  # Croupier's package, and the test suite's helper modules
NAMED_ATTRIBUTE = ("getattr", "setattr", "hasattr", "delattr")  # an attribute named by a string
EXCEPTIONS: dict[str, str] = {}  # "path:line: name" -> the reason it is accepted
# Files that are not Croupier's code, with the reason: they are read by nobody here, only run.
NOT_OURS = {
    "compiler/croupier/syntax/standalone_parser.py": "written by Lark's own standalone generator "
    "(lark.tools.standalone, through make_standalone): Lark's code, reading Lark's own names",
}


def private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__")) and name != "_"


def python_files() -> list[Path]:
    return sorted(p for folder in FOLDERS for p in (ROOT / folder).rglob("*.py")
                  if "__pycache__" not in p.parts and p.relative_to(ROOT).as_posix() not in NOT_OURS)


def defined_names(tree: ast.AST) -> set[str]:
    """Every name a module defines or sets: functions, classes, parameters, assignment targets, attributes set."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
        elif isinstance(node, ast.arg):
            names.add(node.arg)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store | ast.Del):
            names.add(node.attr)
        elif isinstance(node, ast.alias) and node.asname:
            names.add(node.asname)
        elif isinstance(node, ast.keyword) and node.arg:
            names.add(node.arg)  # a keyword argument names a field of one of our classes (dataclass fields)
    return names


def own_module(module: str | None, level: int) -> bool:
    return level > 0 or (module or "").split(".")[0] in OWN_PACKAGES


def foreign_private_uses(path: Path, tree: ast.AST, own: set[str]) -> list[str]:
    """`path:line: name` for each private name of another package that `tree` reaches."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and private(node.attr) and node.attr not in own:
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.attr}")
        elif (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in NAMED_ATTRIBUTE
              and len(node.args) >= 2 and isinstance(node.args[1], ast.Constant) and isinstance(node.args[1].value, str)
              and private(node.args[1].value) and node.args[1].value not in own):
            found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.args[1].value}")
        elif isinstance(node, ast.ImportFrom) and not own_module(node.module, node.level):
            found += [f"{path.relative_to(ROOT)}:{node.lineno}: {node.module}.{a.name}" for a in node.names
                      if private(a.name)]
        elif isinstance(node, ast.Import):
            found += [f"{path.relative_to(ROOT)}:{node.lineno}: {a.name}" for a in node.names
                      if any(private(part) for part in a.name.split(".")) and not own_module(a.name, 0)]
    return found


def scan(files: list[Path]) -> list[str]:
    trees = {p: ast.parse(p.read_text(encoding="utf-8"), str(p)) for p in files}
    own = set().union(*(defined_names(t) for t in trees.values()))
    return [hit for p, t in trees.items() for hit in foreign_private_uses(p, t, own) if hit not in EXCEPTIONS]


def test_what_is_not_ours_is_generated_by_its_own_tool() -> None:
    for rel in NOT_OURS:
        assert (ROOT / rel).is_file(), rel  # an exception for a file that is gone goes too


def test_no_private_name_of_another_package_is_used() -> None:
    assert scan(python_files()) == []


def test_the_scan_finds_a_private_name_of_another_package(tmp_path: Path) -> None:
    probe = ROOT / "tests" / "probe_private.py"  # never written: only its text is scanned, with its path for names
    text = ("import argparse\nimport lark\nfrom dataclasses import _FIELD\nfrom croupier.cache import _own\n"
            "class Mine:\n    def _helper(self):\n        return self._helper\n"
            "def f(p):\n    p._actions\n    lark.Lark._load_from_dict\n    getattr(p, '_must_rewrite')\n    return Mine()._helper\n")
    tree = ast.parse(text)
    hits = foreign_private_uses(probe, tree, defined_names(tree))
    assert hits == ["tests/probe_private.py:3: dataclasses._FIELD", "tests/probe_private.py:9: _actions",
                    "tests/probe_private.py:10: _load_from_dict", "tests/probe_private.py:11: _must_rewrite"]
