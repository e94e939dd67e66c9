"""`croupier.cli.deferred`: a deferred module is imported at its first use, and then answers as the real one."""

from __future__ import annotations

import gc
import importlib
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from croupier.cli.collector import THRESHOLDS
from croupier.cli.deferred import defer
from croupier.cli.main import main

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def probe(tmp_path, monkeypatch):
    """The name of a fresh module whose import is counted (in `builtins.__probe_imports`)."""
    name = f"deferred_probe_{tmp_path.name.replace('-', '_')}"
    (tmp_path / f"{name}.py").write_text(textwrap.dedent("""
        import builtins
        builtins.__dict__.setdefault("__probe_imports", []).append(__name__)
        VALUE = 42
        class Thing:
            pass
        def double(x):
            return 2 * x
    """))
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    sys.modules.pop(name, None)
    import builtins

    builtins.__dict__.pop("__probe_imports", None)


def _imports() -> list[str]:
    import builtins

    return builtins.__dict__.get("__probe_imports", [])


def test_a_deferred_module_is_imported_at_its_first_attribute_read(probe):
    defer(probe)
    module = importlib.import_module(probe)  # what `import name` gives: the stand-in, nothing run yet
    assert _imports() == []
    assert module.double(21) == module.VALUE == 42
    assert _imports() == [probe]
    real = sys.modules[probe]
    assert real is not module and real.Thing is module.Thing and real.double is module.double
    assert {k: v for k, v in vars(module).items() if k != "__getattr__"}.keys() >= {"VALUE", "Thing", "double"}
    assert module.VALUE == 42 and _imports() == [probe]  # imported once


def test_a_missing_module_still_fails_to_import():
    name = "croupier_no_such_module_anywhere"
    defer(name)
    assert name not in sys.modules
    with pytest.raises(ImportError):
        importlib.import_module(name)


def test_an_imported_module_is_left_alone(probe):
    real = importlib.import_module(probe)
    defer(probe)
    assert sys.modules[probe] is real and _imports() == [probe]


def test_a_failing_import_fails_at_first_use_and_again_after(probe, tmp_path):
    (tmp_path / f"{probe}.py").write_text("raise RuntimeError('broken')\n")
    defer(probe)
    module = importlib.import_module(probe)
    for _ in range(2):
        with pytest.raises(RuntimeError, match="broken"):
            module.anything  # noqa: B018 - the read is the test


def test_the_command_does_not_import_regex_and_lark_can_still_use_it(tmp_path):
    """A cold `croupier analyze` never imports `regex`; a grammar that asks for it afterwards still gets it.
    The command also sets the garbage collector's thresholds (`croupier.cli.collector`).

    The `regex` here is a stand-in on the path (built on `re`, counting its imports), so that the test
    says the same whether or not the real module is installed."""
    (tmp_path / "regex.py").write_text("import builtins\nbuiltins.__dict__.setdefault('__regex_imports', []).append(1)\n"
                                       "from re import *  # noqa: F403\nfrom re import compile, escape  # noqa: F401\n")
    program = textwrap.dedent(f"""
        import builtins, os, sys, io, contextlib
        os.environ["CROUPIER_CACHE"] = "off"
        sys.argv = ["croupier", "analyze", {str(ROOT / "spec" / "baccarat.rules")!r}, "--json"]
        from croupier.cli.main import main
        import gc
        before = gc.get_threshold()
        with contextlib.redirect_stdout(io.StringIO()) as out:
            assert main() == 0
        assert '"game": "baccarat"' in out.getvalue()
        print("collector set:", before != gc.get_threshold(), gc.get_threshold())
        print("regex imported:", len(builtins.__dict__.get("__regex_imports", [])))
        import lark
        parser = lark.Lark(r"start: /[A-Z]+/", regex=True, parser="lalr")
        print("parsed:", parser.parse("ABC").children[0])
        print("regex imported:", len(builtins.__dict__.get("__regex_imports", [])))
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    got = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert got.returncode == 0, got.stderr
    assert got.stdout.splitlines() == [f"collector set: True {THRESHOLDS}", "regex imported: 0",
                                       "parsed: ABC", "regex imported: 1"]


def test_main_called_as_a_library_leaves_the_collector_alone(capsys):
    """Only the command's own process tunes the garbage collector (`croupier.cli.collector`)."""
    kept = gc.get_threshold()
    gc.set_threshold(1234, 5, 6)
    try:
        assert main(["fmt", "--check", str(ROOT / "spec" / "baccarat.rules")]) == 0
        assert gc.get_threshold() == (1234, 5, 6)
    finally:
        gc.set_threshold(*kept)
