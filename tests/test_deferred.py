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
from croupier.cli.deferred import defer, defer_init
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
    """A cold `croupier analyze` never imports `regex`, nor Lark's grammar compiler (`lark.lark`: the parser
    is loaded from its tables); a grammar that asks for both afterwards still gets them.
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
        print("grammar compiler imported:", sorted({{"lark.lark", "lark.load_grammar", "lark.parser_frontends"}}
                                                    & set(sys.modules)))
        import lark
        parser = lark.Lark(r"start: /[A-Z]+/", regex=True, parser="lalr")
        print("parsed:", parser.parse("ABC").children[0])
        print("regex imported:", len(builtins.__dict__.get("__regex_imports", [])))
    """)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), str(ROOT)]))
    got = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=tmp_path, env=env)
    assert got.returncode == 0, got.stderr
    assert got.stdout.splitlines() == [f"collector set: True {THRESHOLDS}", "regex imported: 0",
                                       "grammar compiler imported: []", "parsed: ABC", "regex imported: 1"]


def test_main_called_as_a_library_leaves_the_collector_alone(capsys):
    """Only the command's own process tunes the garbage collector (`croupier.cli.collector`)."""
    kept = gc.get_threshold()
    gc.set_threshold(1234, 5, 6)
    try:
        assert main(["fmt", "--check", str(ROOT / "spec" / "baccarat.rules")]) == 0
        assert gc.get_threshold() == (1234, 5, 6)
    finally:
        gc.set_threshold(*kept)


@pytest.fixture
def package(tmp_path, monkeypatch):
    """The name of a fresh package whose `__init__` imports its module `heavy` and is counted (in
    `builtins.__package_inits`); its module `light` imports nothing of the package's but `light_too`."""
    name = f"deferred_package_{tmp_path.name.replace('-', '_')}"
    folder = tmp_path / name
    folder.mkdir()
    (folder / "__init__.py").write_text(textwrap.dedent("""
        import builtins
        builtins.__dict__.setdefault("__package_inits", []).append(__name__)
        from .heavy import HEAVY
        from .light import LIGHT
        VERSION = "1.0"
    """))
    (folder / "heavy.py").write_text("HEAVY = 'heavy'\n")
    (folder / "light.py").write_text("from .light_too import TOO\nLIGHT = 'light ' + TOO\n")
    (folder / "light_too.py").write_text("TOO = 'too'\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield name
    for module in [m for m in sys.modules if m == name or m.startswith(name + ".")]:
        del sys.modules[module]
    import builtins

    builtins.__dict__.pop("__package_inits", None)


def _inits() -> list[str]:
    import builtins

    return builtins.__dict__.get("__package_inits", [])


def test_a_package_with_its_init_deferred_imports_its_modules_without_running_it(package):
    defer_init(package)
    light = importlib.import_module(f"{package}.light")
    assert light.LIGHT == "light too" and _inits() == []
    assert f"{package}.heavy" not in sys.modules
    stand_in = sys.modules[package]
    assert stand_in.light is light  # a module imported is bound on its package, as always
    assert stand_in.VERSION == "1.0"  # a name only the `__init__` defines: it runs, in place, once
    assert _inits() == [package] and sys.modules[package] is stand_in
    assert stand_in.HEAVY == "heavy" and sys.modules[f"{package}.heavy"].HEAVY == "heavy"
    assert "__getattr__" not in vars(stand_in)
    exec(f"from {package} import LIGHT, VERSION", namespace := {})  # noqa: S102 - the import statement is the test
    del namespace["__builtins__"]
    assert namespace == {"LIGHT": "light too", "VERSION": "1.0"} and _inits() == [package]
    with pytest.raises(AttributeError):
        stand_in.missing  # noqa: B018 - the read is the test


def test_from_a_deferred_package_import_runs_its_init(package):
    defer_init(package)
    exec(f"from {package} import HEAVY", namespace := {})  # noqa: S102 - the import statement is the test
    assert namespace["HEAVY"] == "heavy" and _inits() == [package]


def test_a_failing_init_fails_at_first_read_and_again_after(package, tmp_path):
    (tmp_path / package / "__init__.py").write_text("raise RuntimeError('broken init')\n")
    defer_init(package)
    stand_in = importlib.import_module(package)
    for _ in range(2):
        with pytest.raises(RuntimeError, match="broken init"):
            stand_in.anything  # noqa: B018 - the read is the test


def test_defer_init_leaves_alone_what_it_cannot_defer(package, probe):
    real = importlib.import_module(package)
    defer_init(package)  # imported already
    assert sys.modules[package] is real and _inits() == [package]
    defer_init(probe)  # a module, not a package
    assert probe not in sys.modules
    defer_init("croupier_no_such_package_anywhere")
    assert "croupier_no_such_package_anywhere" not in sys.modules
