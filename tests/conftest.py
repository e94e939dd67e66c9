"""Shared helpers for the compiler's tests: compile a spec into a loaded engine, build card lists."""

from __future__ import annotations

import gc
import os
from pathlib import Path

import pytest

from croupier import cache
from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.driver.compile import Level, compile_spec

# The suite already runs one worker per core, and an xdist worker is threaded: a build or check that a
# test starts (in process or as `croupier`) compiles in that one process, unless the test asks for jobs
# (tests/test_parallel_build.py does). The README's `croupier build` runs with the default, every core.
os.environ.setdefault("CROUPIER_JOBS", "1")

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec"
BACCARAT = SPEC / "baccarat.rules"

# A dealt-round game with soft totals and a hand that draws while a condition holds (no bets: a test adds them).
SOFT_GAME = """game s "S"
deck short = standard52 without 2 3 4 5 6
shoe 2 decks of short
value A = 1, 7..10 = pip, J Q K = 10
total sum, A counts 1 or 11, best not over 21
hand p "P"
hand d "D"
deal p, d
draw d while total(d) < 17
outcome pw "P" when total(d) > 21 or total(p) > total(d)
outcome dw "D" when total(d) <= 21 and total(d) >= total(p)
cut card 5..6 from end
"""

# One rank of each baccarat value (10 J Q K all count 0).
RANK_OF_VALUE = {0: "K", 1: "A", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9"}
SUITS = "SHCD"


def card(value: int, suit: int = 0) -> str:
    """A card of the given baccarat value (0–9), in one of the four suits."""
    return RANK_OF_VALUE[value] + SUITS[suit % 4]


def two_cards(total: int, way: int = 0) -> tuple[str, str]:
    """Two cards whose baccarat total is `total`, composed in one of several ways.

    way 0: a ten-valued card and the total; way 1: 5 and total-5 (mod 10);
    way 2: 9 and total-9 (mod 10). Different ways give the same total from different cards.
    """
    first = (0, 5, 9)[way % 3]
    return card(first, way), card((total - first) % 10, way + 1)


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """The standard punto banco banker rule, typed in by hand from source 003 without reference
    to the spec or the compiler (None: the player stood, then the banker draws on 0–5).

    After the player drew: 0–2 draw; 3 unless 8; 4 on 2–7; 5 on 4–7; 6 on 6–7; 7 stands.
    """
    if player_third is None:
        return banker_total <= 5
    if banker_total <= 2:
        return True
    if banker_total == 3:
        return player_third != 8
    if banker_total == 4:
        return 2 <= player_third <= 7
    if banker_total == 5:
        return 4 <= player_third <= 7
    if banker_total == 6:
        return player_third in (6, 7)
    return False


def compile_engine(spec: Path, checks: bool = True):
    """Compile one spec in memory (parse, resolve and, unless `checks` is False, the static checks)
    and load its engine.

    Only the engine is emitted (the rule card and conformance tests are other
    tests' business); the test fails on any error diagnostic. A test of what the
    engine does with a changed spec, and not of the checks, passes `checks=False`:
    the exhaustive checks cost seconds a spec, resolving and emitting a fraction of one.
    """
    result = compile_spec(spec, Level.CHECKED if checks else Level.ENGINE)
    errors = [d for d in result.diagnostics if d.is_error]
    assert result.ok, f"{spec} does not compile: {errors}"
    source = emit_engine(result.game, result.spec)
    return load_engine(source, f"test_{result.game.name}_{abs(hash(str(spec)))}")


# The files that take longest (a `--durations=0` run summed per file, after `croupier check` as in CI, 2 December,
# at 07:45: 6.1 s for test_browser down to 0.8 s; Chromium's and the children's CPU besides), started first: with
# `--dist loadfile --no-loadscope-reorder` (pyproject's addopts) pytest-xdist hands out whole files in collection
# order, each worker holding two, so the long ones do not start last on one worker while the other waits idle.
LONGEST_FIRST = ("test_browser.py", "test_attack_cache.py", "test_wheel.py", "test_attack_specs.py",
                 "test_cluster.py", "test_fuzz.py", "test_cards.py", "test_seat_games.py", "test_seat_removal.py",
                 "test_diff.py", "test_checks.py", "test_round_properties.py",
                 "test_analysis_routes.py", "test_build.py", "test_attack_filenames.py", "test_fmt.py",
                 "test_resume.py", "test_parallel_build.py", "test_errors_golden.py", "test_engine_cache.py",
                 "test_driver.py", "test_attack_simulate.py", "test_seat_survey.py", "test_attack_streams.py",
                 "test_standalone_parser.py", "test_new_games.py", "test_project.py", "test_engine_fast.py",
                 "test_engine_layout.py", "test_analysis_recall.py", "test_analysis_deck_counts.py",
                 "test_syntax.py", "test_layers.py", "test_simulate.py")


def analyze_output(*args: str) -> str:
    """What `croupier analyze ARGS` prints, run through `main` as a new process would run it: with nothing kept
    in this process's memory (what it reuses comes from the disk cache)."""
    import io
    from contextlib import redirect_stdout

    from croupier.cli.main import main

    cache.forget()
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["analyze", *args]) == 0
    return out.getvalue()


# The cyclic garbage collector. A test worker keeps a large heap alive for its whole run (Lark's tables, compiled
# specs and engines, session fixtures); at the end of each test file whatever is still alive, once its garbage is
# collected, is frozen (`gc.freeze`), so that later collections no longer walk it. Nothing a test asserts depends
# on when cycles are freed.


def pytest_collection_finish(session: pytest.Session) -> None:
    """Freeze what collection left alive (the imported modules, the collected tests)."""
    gc.collect()
    gc.freeze()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item: pytest.Item, nextitem: pytest.Item | None):
    """After the last test of a file and its module fixtures are gone: collect, then freeze what is left."""
    result = yield
    if nextitem is None or nextitem.path != item.path:
        gc.collect()
        gc.freeze()
    return result


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Collected tests, the files of `LONGEST_FIRST` first in its order (a file's tests keep their order)."""
    rank = {name: i for i, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))


@pytest.fixture(scope="session")
def baccarat():
    """The engine of spec/baccarat.rules, compiled once per test session. Its users test what the engine
    does, not the static checks (tests/test_checks.py runs those on every spec): compiled without them."""
    return compile_engine(BACCARAT, checks=False)


@pytest.fixture(scope="session")
def session_cache(tmp_path_factory) -> Path:
    """A disk cache folder of this test session's own (neither the user's nor CI's), shared by the tests
    that count what the driver does in process: what the disk keeps (round spaces, analyses, card
    templates) is computed once a session instead of once a test."""
    return tmp_path_factory.mktemp("croupier-cache")


@pytest.fixture
def own_memory(monkeypatch) -> None:
    """An in-process cache of this test's own, empty at the start (as a new process's), for a test that counts
    what is computed afresh or calls `cache.forget()`: the values the rest of the session keeps in this worker
    (compiled specs, engines, analyses) are set aside, not dropped, and are back for the next test, which would
    otherwise compile again what earlier tests compiled. What this test keeps is dropped with its memory."""
    monkeypatch.setattr(cache, "_MEMORY", {})
