"""The engine on disk (`croupier analyze`): used only while the content it was built from is unchanged.

Each `analyze` below starts with an empty in-process cache (`cache.forget()`), as a new
process would: what it reuses comes from the disk cache. The driver's key is the spec's
text with the texts of its bases, and the compiler's version and digest.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from croupier import cache
from croupier.cli.main import main
from croupier.semantics.resolve import Loader
from tests.conftest import analyze_output as analyze_out

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def compiles(monkeypatch, tmp_path, own_memory):
    """A fresh cache folder and in-process cache of the test's own, and a list that grows by one spec path per
    real compile (parse and resolve)."""
    monkeypatch.setenv("CROUPIER_CACHE", str(tmp_path / "cache"))
    calls: list[str] = []
    real = Loader.load

    def counting(loader, shown, text=None, depth=0, opened=None):  # a spec's parse and resolve (its bases within)
        name = str(opened if opened is not None else shown)
        if depth:
            return real(loader, shown, text, depth, opened)
        calls.append(name)
        return real(loader, shown, text, depth, opened)

    monkeypatch.setattr(Loader, "load", counting)
    cache.forget()
    yield calls
    cache.forget()


def analyze(*args: str) -> dict:
    """`croupier analyze ARGS --json` as a new process would run it: nothing kept in memory."""
    return json.loads(analyze_out(*args, "--json"))


@pytest.fixture
def specs(tmp_path) -> Path:
    """Copies of a base spec and a variant of it, free to edit."""
    folder = tmp_path / "spec"
    folder.mkdir()
    for name in ("baccarat.rules", "baccarat_commission.rules"):
        shutil.copy(ROOT / "spec" / name, folder / name)
    return folder


def test_second_run_uses_the_cache_and_prints_the_same(compiles, specs):
    spec = str(specs / "baccarat_commission.rules")
    first = analyze(spec)
    second = analyze(spec)
    assert compiles == [spec]
    assert first == second
    assert any("unrounded" in n for n in second["notes"])  # the game's facts come back from the cache too


def test_cached_and_uncached_reports_agree(compiles, specs, monkeypatch):
    spec = str(specs / "baccarat.rules")
    analyze(spec)
    warm = analyze(spec)
    monkeypatch.setenv("CROUPIER_CACHE", "off")
    cold = analyze(spec)
    assert warm == cold
    assert len(compiles) == 2


def test_an_edited_payout_is_compiled_afresh(compiles, specs):
    spec = specs / "baccarat.rules"
    before = analyze(str(spec))
    text = spec.read_text(encoding="utf-8")
    spec.write_text(text.replace("wins when outcome is tie, pays 9 including stake",
                                 "wins when outcome is tie, pays 10 including stake"), encoding="utf-8")
    after = analyze(str(spec))
    assert len(compiles) == 2
    assert before["bets"]["tie"]["house_edge"] != after["bets"]["tie"]["house_edge"]
    assert after["bets"]["banker"] == before["bets"]["banker"]


def test_an_edit_undone_finds_the_first_entry_again(compiles, specs):
    spec = specs / "baccarat.rules"
    text = spec.read_text(encoding="utf-8")
    first = analyze(str(spec))
    spec.write_text(text.replace("8 decks", "6 decks", 1), encoding="utf-8")
    analyze(str(spec))
    spec.write_text(text, encoding="utf-8")  # the same content as the first run, with a newer modification time
    assert analyze(str(spec)) == first
    assert len(compiles) == 2


def test_an_edited_base_invalidates_its_variant(compiles, specs):
    variant = str(specs / "baccarat_commission.rules")
    analyze(variant)
    base = specs / "baccarat.rules"
    base.write_text(base.read_text(encoding="utf-8").replace("8 decks", "6 decks", 1), encoding="utf-8")
    data = analyze(variant)
    assert len(compiles) == 2
    assert data["decks"] == 6


def test_a_removed_base_is_a_miss_and_an_error(compiles, specs, capsys):
    variant = str(specs / "baccarat_commission.rules")
    analyze(variant)
    (specs / "baccarat.rules").unlink()
    cache.forget()
    with pytest.raises(SystemExit) as stopped:
        main(["analyze", variant])
    assert stopped.value.code == 1
    assert "E0113" in capsys.readouterr().err
    assert len(compiles) == 2


def test_a_changed_compiler_is_a_miss(compiles, specs, monkeypatch):
    spec = str(specs / "baccarat.rules")
    analyze(spec)
    versions = cache.versions()
    monkeypatch.setattr(cache, "versions", lambda: versions.replace("croupier ", "croupier edited ", 1))
    analyze(spec)
    assert len(compiles) == 2


def test_the_versions_name_the_compiler_and_its_digest():
    """Every cached result is keyed by Croupier's version and the digest of its files; the parser is one of
    them (Lark's standalone parser), so no other package's version is part of the key."""
    import croupier

    assert cache.versions() == f"croupier {croupier.__version__} {cache.compiler_digest()}"
    assert "standalone_parser.py" in {p.name for p in cache.COMPILER.rglob("*.py")}


def test_a_damaged_entry_is_a_miss_not_an_error(compiles, specs, tmp_path):
    spec = str(specs / "baccarat.rules")
    expected = analyze(spec)
    (entry,) = (tmp_path / "cache" / "v2" / "engines").iterdir()
    entry.write_bytes(b"\x00 not json")
    assert analyze(spec) == expected
    assert len(compiles) == 2
    assert analyze(spec) == expected  # rewritten by the second compile
    assert len(compiles) == 2


@pytest.fixture
def seat_runs(monkeypatch) -> list[str]:
    """A list that grows by one threshold per seat report actually computed (`seat.seat_report`)."""
    from croupier.tools.analysis import seat

    runs: list[str] = []
    real = seat.seat_report

    def counting(sa, t):
        runs.append(str(t))
        return real(sa, t)

    monkeypatch.setattr(seat, "seat_report", counting)
    return runs


def test_a_seat_game_second_run_computes_nothing_and_prints_the_same(compiles, seat_runs):
    spec = str(ROOT / "spec" / "ten_and_a_half_banker.rules")
    computed = analyze_out(spec, "--json")
    text = analyze_out(spec)  # the report the JSON run kept
    assert compiles == [spec] and seat_runs == ["8"]
    assert analyze_out(spec, "--json") == computed and analyze_out(spec) == text  # byte for byte
    assert compiles == [spec] and seat_runs == ["8"]  # neither parsed, resolved nor analysed again
    data = json.loads(computed)
    assert data["game"] == "ten_and_a_half_banker" and data["banker_game"]["tables"]
    assert text.startswith("Ten and a half (banker game): one hand, hitting while the total is below 8\n")
    other = analyze_out(spec, "--threshold", "7")  # another threshold: another report, computed and printed
    assert seat_runs == ["8", "7"] and compiles == [spec] and "below 7\n" in other and other != text
    assert analyze_out(spec, "--threshold", "7") == other and seat_runs == ["8", "7"]


def test_a_damaged_seat_report_is_a_miss(compiles, seat_runs, tmp_path):
    spec = str(ROOT / "spec" / "ten_and_a_half_banker.rules")
    expected = analyze(spec)
    (entry,) = (tmp_path / "cache" / "v2" / "seat-report").iterdir()
    entry.write_bytes(entry.read_bytes().replace(b'"threshold":"8"', b'"threshold":"9"', 1))  # its HMAC fails
    assert analyze(spec) == expected
    assert seat_runs == ["8", "8"] and compiles == [spec]  # the engine still came from the disk cache
    assert analyze(spec) == expected  # rewritten by the second run
    assert seat_runs == ["8", "8"]


def test_in_one_process_the_spec_is_compiled_once(compiles, specs, monkeypatch):
    monkeypatch.setenv("CROUPIER_CACHE", "off")
    spec = str(specs / "baccarat.rules")
    for _ in range(2):
        with redirect_stdout(io.StringIO()):
            assert main(["analyze", spec]) == 0
    assert compiles == [spec]


def test_a_warm_analyze_does_not_parse(compiles, specs, tmp_path):
    """The first run (in this process as a new process runs it: nothing kept in memory, the test's own disk cache)
    parses and fills the disk cache; a second run, a process of its own, prints the same without importing Lark or its standalone parser."""
    spec = str(specs / "baccarat.rules")
    first = analyze_out(spec, "--json")
    assert compiles == [spec]  # the first run parsed and resolved the spec
    env = {**os.environ, "CROUPIER_CACHE": str(tmp_path / "cache")}
    # run as the command runs (`main()` reads sys.argv): Lark's package may stand in, never imported or initialised
    code = ("import sys; from croupier.cli.main import main; sys.argv[1:] = ['analyze', sys.argv[1], '--json']; "
            "status = main(); lark = [m for m in sys.modules if m.startswith('lark.') or m.endswith('standalone_parser')]; "
            "lark += ['lark'] if 'Lark' in vars(sys.modules.get('lark', sys)) else []; "
            "print(f'parsed {lark}' if lark else 'not parsed', file=sys.stderr); raise SystemExit(status)")
    run = subprocess.run([sys.executable, "-c", code, spec], env=env, cwd=tmp_path, capture_output=True, text=True,
                         check=True)
    assert run.stderr.strip() == "not parsed"
    assert run.stdout == first
