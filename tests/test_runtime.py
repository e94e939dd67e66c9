"""The runtime is a library: its modules import alone and work on a game's data; the build writes them as one
file, `croupier_runtime.py`, which each generated module imports from beside itself (refusing another version);
a loaded engine's tracebacks name the engine's own file and line, or the runtime's."""

from __future__ import annotations

import ast
import importlib
import json
import shutil
import subprocess
import sys
import traceback
from fractions import Fraction

import pytest
from conftest import ROOT

from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import engine_path, load_engine
from croupier.backends.engine.runtime_bundle import MODULES, bundle_digest, checked_bundle, defined_names
from croupier.runtime import numbers
from croupier.runtime.cards import HandReads
from croupier.runtime.errors import InvalidBet, InvalidCards, MissingCell
from croupier.runtime.hand_reads import draw_decision, grid_table, third
from croupier.runtime.requests import parse_money
from croupier.semantics.resolve import Loader

ENGINES = ROOT / "generated" / "engines"
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
DECK = tuple(r + s for r in RANKS for s in "SHCD")
BACCARAT_VALUES = {r: (i + 1) % 10 if i < 9 else 0 for i, r in enumerate(RANKS)}


@pytest.mark.parametrize("name", MODULES)
def test_every_runtime_module_imports_alone(name):
    code = f"import croupier.runtime.{name}"
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False,
                          env={"PYTHONPATH": str(ROOT / "compiler")})
    assert proc.returncode == 0, proc.stderr


def test_no_runtime_module_reads_a_free_name():
    for name in MODULES:
        text = (ROOT / "compiler" / "croupier" / "runtime" / f"{name}.py").read_text(encoding="utf-8")
        assert "noqa: F821" not in text and "# ---- part" not in text, name


def test_the_number_formatter_writes_numbers_as_the_spec_does():
    assert [numbers.number_text(x) for x in (3, Fraction(21, 2), Fraction(-1, 4), Fraction(1, 3), Fraction(8, 4))] == \
        ["3", "10.5", "-0.25", "1/3", "2"]
    assert [numbers.num_json(x) for x in (3, Fraction(4, 2), Fraction(39, 20), Fraction(2, 3))] == [3, 2, "1.95", "2/3"]


def test_the_hand_reads_work_on_a_game_s_data():
    cards = HandReads("toy", 8, DECK, (), BACCARAT_VALUES, modulus=10)
    assert cards.total(["9S", "5H"]) == 4 and cards.same_rank(["9S", "9H"]) and not cards.same_rank(["9S"])
    assert cards.card_value("KD") == 0 and cards.parse_cards("ts, A♠") == ["10S", "AS"]
    with pytest.raises(InvalidCards, match="appears 9 times"):
        cards.check_copies(["AS"] * 9)
    soft = HandReads("soft", 1, DECK, (), {r: min(i + 1, 10) for i, r in enumerate(RANKS)}, soft=(("A",), 10, 21))
    assert soft.best_total(["AS", "AH", "9D"]) == (21, 1) and soft.is_soft(["AS", "6D"]) and soft.total(["KS"]) == 10


def test_the_pure_reads_and_the_input_layer():
    table = grid_table(None, {(0, 1, 2): "D D S"})
    assert table == {0: True, 1: True, 2: False} and third(["AS", "2S"]) is None
    assert draw_decision(table, "rule", 1) == ("rule", 1, True)
    with pytest.raises(MissingCell, match="no cell for 7"):
        draw_decision(table, "rule", 7)
    assert parse_money("25.50", "x") == Fraction(51, 2)
    with pytest.raises(InvalidBet):
        parse_money(-1, "the stake")


def test_the_bundle_is_every_module_once_with_no_name_twice():
    text = checked_bundle()
    tree = ast.parse(text)
    names = defined_names(tree)
    assert len(names) == len(set(names)), "no name defined twice"
    assert "croupier.runtime" not in "".join(ast.unparse(n) for n in tree.body if isinstance(n, ast.ImportFrom))
    imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import | ast.ImportFrom)
                for a in (n.names if isinstance(n, ast.Import) else [ast.alias(n.module)])}
    assert imported <= set(sys.stdlib_module_names)
    assert f'DIGEST = "{bundle_digest()}"' in text and "DealtRound" in names and "SeatGame" in names
    assert (ENGINES / "croupier_runtime.py").read_text(encoding="utf-8") == text


def copy_engines(tmp_path):
    folder = tmp_path / "somewhere" / "engines"
    shutil.copytree(ENGINES, folder)
    return folder


def test_an_engine_run_as_a_script_answers_from_any_folder_in_isolated_mode(tmp_path):
    folder = copy_engines(tmp_path)
    line = '{"cards": "3S 2H 4D 2C 6H AS", "bets": {"banker": 100}}\n'
    for script in ("baccarat.py", "ten_and_a_half.py"):
        request = line if script == "baccarat.py" else '{"hand": ["BJ", "KS"]}\n'
        proc = subprocess.run([sys.executable, "-I", str(folder / script)], input=request, capture_output=True,
                              text=True, timeout=60, cwd=tmp_path, check=False)
        assert proc.returncode == 0 and "error" not in json.loads(proc.stdout), proc.stderr


def test_an_engine_imports_from_a_package_folder(tmp_path, monkeypatch):
    folder = copy_engines(tmp_path)
    (folder / "__init__.py").write_text("", encoding="utf-8")
    monkeypatch.syspath_prepend(str(folder.parent))
    for name in ("croupier_runtime", "engines", "engines.baccarat", "engines.baccarat_analysis"):
        monkeypatch.delitem(sys.modules, name, raising=False)
    try:
        engine = importlib.import_module("engines.baccarat")
        companion = importlib.import_module("engines.baccarat_analysis")
        assert engine.play("3S 2H 4D 2C 6H AS").outcome == "player"
        assert sum(companion.analyse(engine, 1)["outcomes"].values()) == 1
    finally:
        for name in ("croupier_runtime", "engines", "engines.baccarat", "engines.baccarat_analysis"):
            sys.modules.pop(name, None)


def test_a_runtime_of_another_version_is_refused(tmp_path):
    folder = copy_engines(tmp_path)
    runtime = folder / "croupier_runtime.py"
    runtime.write_text(runtime.read_text(encoding="utf-8").replace('VERSION = "', 'VERSION = "9.9.9+', 1),
                       encoding="utf-8")
    proc = subprocess.run([sys.executable, "-I", str(folder / "baccarat.py")], input="{}\n", capture_output=True,
                          text=True, timeout=60, check=False)
    assert proc.returncode != 0 and "ImportError" in proc.stderr
    assert "9.9.9+" in proc.stderr and f"'{bundle_digest()}'" in proc.stderr, "both versions named"


def test_a_loaded_engine_s_traceback_names_its_own_file_and_line():
    game, _ = Loader().load(str(ROOT / "spec" / "baccarat.rules"))
    source = emit_engine(game, "spec/baccarat.rules")
    engine = load_engine(source, "baccarat")
    with pytest.raises(Exception) as raised:
        engine.outcome_of(None)  # a rule reading a round that is not one
    frame = traceback.extract_tb(raised.value.__traceback__)[-1]
    assert frame.filename == engine_path("baccarat") == "generated/engines/baccarat.py"
    assert source.splitlines()[frame.lineno - 1].strip() == frame.line and "r.player" in frame.line
    with pytest.raises(InvalidCards) as raised:
        engine.play("3S ZZ")
    frames = traceback.extract_tb(raised.value.__traceback__)
    assert frames[-1].filename.endswith("croupier/runtime/cards.py"), "the runtime's own file"


def test_the_bundle_refuses_a_name_two_modules_define(monkeypatch):
    import croupier.backends.engine.runtime_bundle as bundle

    monkeypatch.setattr(bundle, "MODULES", ("numbers", "numbers"))
    bundle.bundle_text.cache_clear()
    try:
        with pytest.raises(ValueError, match="number_text"):
            bundle.checked_bundle()
    finally:
        bundle.bundle_text.cache_clear()


def test_engines_loaded_by_the_tools_name_the_game_s_own_file():
    """An engine the tools load under a name of their own (simulate's, the checks' oracle) still reports the
    game's engine file in its tracebacks, never a file that does not exist."""
    from croupier.backends.engine.oracle import engine_oracle
    from croupier.tools.simulate import engine_of

    game, _ = Loader().load(str(ROOT / "spec" / "baccarat.rules"))
    source = emit_engine(game, "spec/baccarat.rules")
    for engine in (engine_of(source, "baccarat"), engine_oracle(game).engine):
        with pytest.raises(Exception) as raised:
            engine.outcome_of(None)
        assert traceback.extract_tb(raised.value.__traceback__)[-1].filename == "generated/engines/baccarat.py"
