"""The layout of generated engines: the game's data and rules on the runtime library beside them; `__all__`
and a docstring listing the module's own functions; the exact enumerator in a companion module beside the
engine; each within its size bound.

The committed engines of generated/ are read as a game server reads them (imported from their
files); spec variants without rooms, squeeze or voids are compiled in memory.
"""

from __future__ import annotations

import ast
import importlib
import importlib.util
import re
import sys
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest
from conftest import BACCARAT, ROOT, SPEC

from croupier.backends.engine.analysis_emitter import emit_analysis_module
from croupier.backends.engine.api import undefined_names
from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.semantics.model import Game
from croupier.semantics.resolve import Loader

ENGINES = ROOT / "generated" / "engines"
GAMES = sorted(p.stem for p in SPEC.glob("*.rules"))
# The modules checked one by one, named from the committed folder: collecting the tests resolves no spec (every
# xdist worker collects every file); the first test below checks that they are exactly an engine per spec and a
# companion per dealt round, the kinds read from the specs themselves.
MODULES = sorted(p.stem for p in ENGINES.glob("*.py") if p.stem != "croupier_runtime")
ENGINE_LINES, COMPANION_LINES = 500, 150  # the most lines of an engine and of an analysis companion


def import_file(name: str):
    """A generated module imported from its file, as a game server imports it (the folder on sys.path)."""
    spec = importlib.util.spec_from_file_location(f"layout_{name}", ENGINES / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def source(name: str) -> str:
    return (ENGINES / f"{name}.py").read_text(encoding="utf-8")


def public_callables(module) -> set[str]:
    """Every function and class the module itself defines whose name does not start with `_`."""
    return {name for name, value in vars(module).items()
            if not name.startswith("_") and callable(value) and getattr(value, "__module__", None) == module.__name__}


def compile_variant(tmp_path: Path, name: str, text: str):
    """(game, engine source) of a spec written to `tmp_path`; it must resolve without errors."""
    path = tmp_path / f"{name}.rules"
    path.write_text(text, encoding="utf-8")
    game, diags = Loader().load(str(path))
    assert game is not None and not any(d.is_error for d in diags), diags
    return game, emit_engine(game, path.name)


@cache
def kinds() -> dict[str, Game]:
    """Each spec's game, resolved from its file (once a test process)."""
    loader = Loader()
    return {g: loader.load(str(SPEC / f"{g}.rules"))[0] for g in GAMES}


def dealt() -> list[str]:
    return [g for g in GAMES if kinds()[g].is_dealt_round]


def seat() -> list[str]:
    return [g for g in GAMES if kinds()[g].is_seat_game]


def test_the_folder_holds_an_engine_per_spec_a_companion_per_dealt_round_and_the_runtime():
    assert dealt() and seat()
    assert MODULES == sorted(GAMES + [f"{g}_analysis" for g in dealt()])
    assert (ENGINES / "croupier_runtime.py").is_file()


@pytest.mark.parametrize("name", MODULES)
def test_all_names_its_own_functions_and_the_runtime_api(name):
    module = import_file(name)
    names = module.__all__
    assert len(names) == len(set(names)), "no name twice"
    assert all(callable(getattr(module, n)) for n in names), "every name of __all__ reachable from the module"
    assert public_callables(module) <= set(names)
    if not name.endswith("_analysis"):
        assert set(module.game.API) <= set(names), "the runtime's API for the game"
        with pytest.raises(AttributeError, match="has no attribute 'no_such_name'"):
            module.no_such_name  # noqa: B018


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_lists_the_module_s_own_functions(name):
    module = import_file(name)
    flat = " ".join(module.__doc__.split())
    listed = re.findall(r"(\w+)\(", flat.split("Its own functions: ", 1)[1])
    assert listed and sorted(listed) == sorted(public_callables(module)), "exactly the module's own functions"


@pytest.mark.parametrize("name", MODULES)
def test_each_module_within_its_bound(name):
    lines = len(source(name).splitlines())
    assert lines <= (COMPANION_LINES if name.endswith("_analysis") else ENGINE_LINES), (name, lines)


@pytest.mark.parametrize("game", GAMES)
def test_the_docstring_says_where_the_analysis_is(game):
    doc = " ".join(import_file(game).__doc__.split())
    if game in dealt():
        assert f"companion {game}_analysis.py" in doc
    else:
        assert "no companion module" in doc
    assert "croupier_runtime" in doc


def test_the_engine_carries_no_enumerator_and_the_companion_no_engine():
    for game in dealt():
        engine, companion = source(game), source(f"{game}_analysis")
        assert "Enumerator" not in engine and "def analyse" not in engine and "ANALYSIS" not in engine
        assert "DealtRound" not in companion and "def deal_at" not in companion
        assert not any(isinstance(n, ast.Import | ast.ImportFrom) and game in ast.unparse(n)
                       for n in ast.walk(ast.parse(companion))), "the companion imports no engine"


def test_no_engine_carries_runtime_code():
    for game in GAMES:
        text = source(game)
        for absent in ("class Shoe", "class Table", "def play(", "def evaluate", "def settle_table", "def answer",
                       "SHOE_PROCEDURE[", "wild_substitutions"):
            assert absent not in text, f"{game} holds {absent}"


def test_a_dealt_round_without_table_rules_leaves_their_parts_out(tmp_path):
    """Baccarat cut before its table operations: no rooms, squeeze, valid-bet rule, shoe procedure or voids."""
    text = BACCARAT.read_text(encoding="utf-8")
    game, plain = compile_variant(tmp_path, "plain_rounds", text[:text.index("# ---- table operations")])
    engine = load_engine(plain, "layout_plain_rounds")
    assert engine.ROOMS == {} and engine.SQUEEZE_BETS == () and engine.VOID_RETURNS_STAKES is False
    assert not hasattr(engine.Shoe, "burn")
    with pytest.raises(engine.InvalidBet, match="unknown room 'trial'; rooms: none"):
        engine.check_limits("trial", {"banker": 10})
    assert engine.squeeze_plan({"ann": {"banker": 10}}) == {"player": (), "banker": ()}
    rounds = list(engine.Table(seed=7).rounds({"ann": {"banker": 10}}))
    assert rounds and all(tr.squeeze[0] == ("deal", "player", tuple(tr.round.player[:2]), ()) for tr in rounds)
    assert engine.pushed_bets(rounds[0].round) == frozenset()
    with pytest.raises(engine.InvalidTable, match="no void rule"):
        engine.void_round(rounds[0], "misdeal")
    full = emit_engine(Loader().load(str(BACCARAT))[0], "spec/baccarat.rules")
    assert len(plain.splitlines()) < len(full.splitlines())


def test_the_companion_works_beside_the_engine_as_a_server_imports_them(tmp_path, monkeypatch):
    """Both files and the runtime copied to a folder of their own and imported by name: analyse(engine, decks)."""
    for name in ("baccarat", "baccarat_analysis", "croupier_runtime"):
        (tmp_path / f"{name}.py").write_text(source(name), encoding="utf-8")
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        baccarat = importlib.import_module("baccarat")
        baccarat_analysis = importlib.import_module("baccarat_analysis")
        assert sys.modules["croupier_runtime"].__file__ == str(tmp_path / "croupier_runtime.py")
        a = baccarat_analysis.analyse(baccarat, 1)
        assert a["decks"] == 1 and a["cards"] == 52
        assert sum(a["outcomes"].values()) == 1
        assert a["bets"]["tie"]["returns"][0] == 1 - a["outcomes"]["tie"], "a tie bet loses unless the round ties"
        assert baccarat_analysis.exact_returns(baccarat, 1)["tie"] == a["bets"]["tie"]["expected_return"] - 1
        with pytest.raises(baccarat.EngineError):
            baccarat_analysis.analyse(baccarat, 0)
        with pytest.raises(ValueError, match="baccarat_commission"):
            baccarat_analysis.analyse(import_file("baccarat_commission"), 1)
    finally:
        for name in ("baccarat", "baccarat_analysis", "croupier_runtime"):
            sys.modules.pop(name, None)


def test_the_companion_in_memory_matches_the_committed_file():
    game, _ = Loader().load(str(BACCARAT))
    assert emit_analysis_module(game, "spec/baccarat.rules") == source("baccarat_analysis")
    engine = load_engine(emit_engine(game, "spec/baccarat.rules"), "layout_memory")
    exact = load_engine(source("baccarat_analysis"), "layout_memory_analysis")
    outcomes = exact.analyse(engine, 1)["outcomes"]  # (one analysis, read by both asserts)
    assert outcomes == import_file("baccarat_analysis").analyse(import_file("baccarat"), 1)["outcomes"]
    assert all(isinstance(p, Fraction) for p in outcomes.values())


def test_a_name_the_code_never_binds_is_caught():
    assert undefined_names("def f(x):\n    return g(x) + len(x)\n") == {"g"}
    assert undefined_names(source("baccarat")) == set()


def test_a_long_name_stays_whole_in_all(tmp_path: Path) -> None:
    """`__all__` is wrapped to the docstring's width, but a name longer than the width is never broken
    (the fuzzer found a 400-character hand name whose `bet_…` literal was split and did not compile)."""
    long = "x" * 400
    text = BACCARAT.read_text(encoding="utf-8").replace("player_pair", long)
    path = tmp_path / "long.rules"
    path.write_text(text, encoding="utf-8")
    game, diags = Loader().load(str(path))
    assert game is not None and not any(d.is_error for d in diags)
    engine = load_engine(emit_engine(game, "long.rules"), "long_names")
    assert f"bet_{long}" in engine.__all__
