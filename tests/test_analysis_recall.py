"""`croupier analyze` prints the exact analysis the disk cache keeps for the spec as it is now, compiling nothing.

Each run below starts with an empty in-process cache (`cache.forget()`), as a new process would. The
analysis is kept under the deck count and the identities of the engine and its companion
(`loader.analysis_key`), which `analyze`, the checks and the rule card share.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from croupier import cache
from croupier.backends.engine import loader
from croupier.driver.compile import compile_spec
from croupier.tools.analysis.card_analysis import analysis_of
from tests.conftest import analyze_output as analyze

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def compiled(monkeypatch, tmp_path, own_memory):
    """A fresh cache folder of the test's own, and a list that grows by one name per source compiled."""
    monkeypatch.setenv("CROUPIER_CACHE", str(tmp_path / "cache"))
    names: list[str] = []
    real = loader.compile_engine

    def counting(source, name, path=None):
        names.append(name)
        return real(source, name, path)

    monkeypatch.setattr(loader, "compile_engine", counting)
    cache.forget()
    yield names
    cache.forget()


@pytest.fixture
def spec(tmp_path) -> Path:
    folder = tmp_path / "spec"
    folder.mkdir()
    shutil.copy(ROOT / "spec" / "baccarat.rules", folder / "baccarat.rules")
    return folder / "baccarat.rules"




@pytest.mark.parametrize("args", [["--json"], ["--decks", "2"], ["--deck-table", "--json"]])
def test_a_second_analyze_compiles_nothing_and_prints_the_same(compiled, spec, args, monkeypatch):
    first = analyze(str(spec), *args)
    assert compiled, "the first run compiles the engine and its companion"
    del compiled[:]
    assert analyze(str(spec), *args) == first
    assert compiled == []
    monkeypatch.setenv("CROUPIER_CACHE", "off")
    assert analyze(str(spec), *args) == first  # the same figures as a run that keeps nothing


def test_the_analysis_the_rule_card_kept_serves_analyze(compiled, spec):
    compile_spec(spec, model=False)  # the engine on disk, as a check or build leaves it
    game = compile_spec(spec).game
    assert analysis_of(game)["decks"] == 8  # what a check or build computes for the rule card's mathematics
    del compiled[:]
    data = json.loads(analyze(str(spec), "--json"))
    assert compiled == [] and data["game"] == "baccarat" and data["decks"] == 8


def test_an_edited_spec_is_analysed_afresh(compiled, spec):
    before = json.loads(analyze(str(spec), "--json"))
    text = spec.read_text()
    assert text.count("8 decks") == 1
    spec.write_text(text.replace("8 decks", "6 decks"))
    del compiled[:]
    after = json.loads(analyze(str(spec), "--json"))
    assert compiled and (before["decks"], after["decks"]) == (8, 6)
    assert after["bets"] != before["bets"]


def test_a_damaged_analysis_entry_is_a_miss(compiled, spec, tmp_path):
    first = analyze(str(spec), "--json")
    entries = list((tmp_path / "cache" / "v2" / "analysis").iterdir())
    assert entries
    for entry in entries:
        entry.write_bytes(entry.read_bytes().replace(b'"$q"', b'"$x"', 1))  # an edited figure: the HMAC fails
    del compiled[:]
    assert analyze(str(spec), "--json") == first
    assert compiled, "recomputed"
