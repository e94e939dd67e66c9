"""The layout of generated engines: only the runtime parts a game uses, each marked; `__all__` and a
docstring listing every public call; the exact enumerator in a companion module beside the engine.

The committed engines of generated/ are read as a game server reads them (imported from their
files); spec variants without rooms, squeeze, voids or wild cards are compiled in memory.
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

from croupier.backends.engine import parts
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
MODULES = sorted(p.stem for p in ENGINES.glob("*.py"))
MARK = re.compile(r"^ *# ---- runtime: ([\w.]+) \((begin|end)\) ----(.*)$")


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


def test_the_folder_holds_an_engine_per_spec_and_a_companion_per_dealt_round():
    assert dealt() and seat()
    assert MODULES == sorted(GAMES + [f"{g}_analysis" for g in dealt()])


@pytest.mark.parametrize("name", MODULES)
def test_all_names_exactly_the_public_callables(name):
    module = import_file(name)
    names = module.__all__
    assert len(names) == len(set(names)), "no name twice"
    assert all(callable(getattr(module, n)) for n in names)
    assert set(names) == public_callables(module)


@pytest.mark.parametrize("name", MODULES)
def test_the_docstring_lists_every_public_call(name):
    module = import_file(name)
    listed = re.findall(r"^  (\w+)", module.__doc__, re.MULTILINE)
    assert listed == module.__all__, "each name of __all__, in order, at the start of a line of the docstring"
    flat = " ".join(module.__doc__.split())
    for n in module.__all__:
        summary = (getattr(module, n).__doc__ or "").strip().split("\n")[0].replace('"', "'")
        assert summary, f"{n} has a docstring"
        assert " ".join(summary.split())[:40] in flat, f"the docstring describes {n} by its own first line"


@pytest.mark.parametrize("game", GAMES)
def test_the_docstring_says_where_the_analysis_is(game):
    doc = import_file(game).__doc__
    if game in dealt():
        assert f"companion {game}_analysis.py" in doc
    else:
        assert "no companion module" in doc
    assert "Public calls (`__all__`)" in doc


@pytest.mark.parametrize("name", MODULES)
def test_every_runtime_part_is_marked_where_it_begins_and_ends(name):
    open_: list[str] = []
    modules = []
    for line in source(name).splitlines():
        m = MARK.match(line)
        if not m:
            continue
        part, side, rest = m.groups()
        if side == "begin":
            if "." not in part:
                assert rest.strip() == f"croupier/backends/engine/runtime/{part}.py", "the source file is named"
                assert (parts.RUNTIME / f"{part}.py").is_file()
                modules.append(part)
            else:
                assert part.split(".")[0] == open_[-1], "a part sits inside its module"
                assert rest.startswith(" if "), "a part says when it is included"
            open_.append(part)
        else:
            assert open_ and open_.pop() == part, f"{part} ends where it began"
    assert not open_
    assert modules[-1:] == (["analysis_summary"] if name.endswith("_analysis") else ["jsonl"])


def test_the_engine_carries_no_enumerator_and_the_companion_no_engine():
    for game in dealt():
        engine, companion = source(game), source(f"{game}_analysis")
        assert "Enumerator" not in engine and "def analyse" not in engine and "ANALYSIS" not in engine
        enumerators = [m for m in ("analysis_round", "analysis_general") if f"runtime: {m} " in companion]
        assert len(enumerators) == 1 and "runtime: dealt_round" not in companion
        assert not any(isinstance(n, ast.Import | ast.ImportFrom) and game in ast.unparse(n)
                       for n in ast.walk(ast.parse(companion))), "the companion imports no engine"
        # the longest, baccarat with two payout-table side bets: 1607 (1378 before the inlined `deal_at`, 1527
        # before the dealt parts were three modules); an enumerator (analysis_round alone is about 390 lines)
        # would still overrun the bound
        assert len(engine.splitlines()) < 1700


def test_a_seat_game_carries_no_dealt_round_code_and_baccarat_no_wild_card_code():
    for game in seat():
        text = source(game)
        for absent in ("runtime: dealt_round", "runtime: shoe", "runtime: table_ops", "class Shoe", "SHOE_PROCEDURE",
                       "def burn", "def squeeze_plan", "def play("):
            assert absent not in text, f"{game} holds {absent}"
    for game in dealt():
        text = source(game)
        for absent in ("runtime: seat_hands", "wild_substitutions", "MAX_WILD_TRIES", "WILD_RANKS", "def evaluate"):
            assert absent not in text, f"{game} holds {absent}"
    wild, plain = source("ten_and_a_half"), source("ten_and_a_half_banker")
    assert "runtime: seat_hand_parts.wild (begin)" in wild and "MAX_WILD_TRIES" in wild
    assert "MAX_WILD_TRIES" not in plain and "runtime: seat_hand_parts.no_wild (begin)" in plain
    assert "import itertools" in wild and "import itertools" not in plain, "imports follow the parts"


def test_a_dealt_round_without_table_rules_leaves_their_parts_out(tmp_path):
    """Baccarat cut before its table operations: no rooms, squeeze, valid-bet rule, shoe procedure or voids."""
    text = BACCARAT.read_text(encoding="utf-8")
    game, plain = compile_variant(tmp_path, "plain_rounds", text[:text.index("# ---- table operations")])
    for absent in ("def squeeze_sides", "def burn", "VOID_RETURNS_STAKES:", "ROOMS.get(", "runtime: table_parts.squeeze"):
        assert absent not in plain, absent
    for present in ("runtime: table_parts.no_squeeze (begin) ---- if not squeeze",
                    "runtime: table_parts.no_void (begin)", "runtime: dealt_parts.no_rooms (begin)"):
        assert present in plain, present
    engine = load_engine(plain, "layout_plain_rounds")
    assert set(engine.__all__) == public_callables(engine)
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
    """Both files copied to a folder of their own and imported by name: analyse(engine, decks)."""
    for name in ("baccarat", "baccarat_analysis"):
        (tmp_path / f"{name}.py").write_text(source(name), encoding="utf-8")
        monkeypatch.delitem(sys.modules, name, raising=False)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        baccarat = importlib.import_module("baccarat")
        baccarat_analysis = importlib.import_module("baccarat_analysis")
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
        for name in ("baccarat", "baccarat_analysis"):
            sys.modules.pop(name, None)


def test_the_companion_in_memory_matches_the_committed_file():
    game, _ = Loader().load(str(BACCARAT))
    assert emit_analysis_module(game, "spec/baccarat.rules") == source("baccarat_analysis")
    engine = load_engine(emit_engine(game, "spec/baccarat.rules"), "layout_memory")
    exact = load_engine(source("baccarat_analysis"), "layout_memory_analysis")
    outcomes = exact.analyse(engine, 1)["outcomes"]  # (one analysis, read by both asserts)
    assert outcomes == import_file("baccarat_analysis").analyse(import_file("baccarat"), 1)["outcomes"]
    assert all(isinstance(p, Fraction) for p in outcomes.values())


def test_a_missing_part_is_caught_as_an_undefined_name():
    assert undefined_names("def f(x):\n    return g(x) + len(x)\n") == {"g"}
    assert undefined_names(source("baccarat")) == set()


def test_a_part_marker_that_does_not_close_is_a_compiler_error(monkeypatch):
    monkeypatch.setattr(parts, "runtime_text", lambda module, marker: "# ---- part x if rooms ----\nX = 1\n")
    with pytest.raises(ValueError, match="never ends"):
        parts.copy_module("common", frozenset())
    monkeypatch.setattr(parts, "runtime_text", lambda module, marker: "# ---- part x if rooms or squeeze ----\n")
    with pytest.raises(ValueError, match="condition"):
        parts.copy_module("common", frozenset())


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
