"""The engine cache of `croupier analyze`: used only while nothing it was built from has changed."""

from __future__ import annotations

import io
import json
import shutil
from contextlib import redirect_stdout
from pathlib import Path

import pytest

import croupier.driver.spec_engine
from croupier.cli.main import main
from croupier.driver import engine_cache

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def compiles(monkeypatch, tmp_path):
    """A fresh cache folder, and a list that grows by one spec path per real compile."""
    monkeypatch.setenv("CROUPIER_CACHE", str(tmp_path / "cache"))
    calls: list[str] = []
    real = croupier.driver.spec_engine.compile_spec

    def counting(spec):
        calls.append(str(spec))
        return real(spec)

    monkeypatch.setattr(croupier.driver.spec_engine, "compile_spec", counting)
    return calls


def analyze(*args: str) -> dict:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["analyze", *args, "--json"]) == 0
    return json.loads(out.getvalue())


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


def test_an_edited_base_invalidates_its_variant(compiles, specs):
    variant = str(specs / "baccarat_commission.rules")
    analyze(variant)
    base = specs / "baccarat.rules"
    base.write_text(base.read_text(encoding="utf-8").replace("8 decks", "6 decks", 1), encoding="utf-8")
    data = analyze(variant)
    assert len(compiles) == 2
    assert data["decks"] == 6


def test_a_changed_compiler_is_a_miss(compiles, specs, monkeypatch):
    spec = str(specs / "baccarat.rules")
    analyze(spec)
    stamp = engine_cache.compiler_stamp()
    monkeypatch.setattr(engine_cache, "compiler_stamp", lambda: stamp + (("new.py", 1, 1),))
    analyze(spec)
    assert len(compiles) == 2


def test_a_damaged_entry_is_a_miss_not_an_error(compiles, specs, tmp_path):
    spec = str(specs / "baccarat.rules")
    expected = analyze(spec)
    (entry,) = (tmp_path / "cache" / "v2" / "engines").iterdir()
    entry.write_bytes(b"\x00 not json")
    assert analyze(spec) == expected
    assert len(compiles) == 2
    assert analyze(spec) == expected  # rewritten by the second compile
    assert len(compiles) == 2


def test_seat_games_are_not_cached(compiles):
    spec = str(ROOT / "spec" / "ten_and_a_half.rules")
    analyze(spec)
    analyze(spec)
    assert len(compiles) == 2
