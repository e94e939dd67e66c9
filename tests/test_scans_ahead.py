"""The runtime's symbol scans made ahead of time (`scans_ahead`, `runtime_scans.py`): fresh, equal, used."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from croupier.backends.engine import code_reading, runtime_scans, scans_ahead
from croupier.driver.compile import compile_spec

ROOT = Path(__file__).resolve().parent.parent

COPIES = scans_ahead.copies()


def test_the_module_is_fresh():
    """Fails after an edit of `runtime/` until `python -m croupier.backends.engine.scans_ahead` is run."""
    assert scans_ahead.MODULE.read_text(encoding="utf-8") == scans_ahead.module_text(), \
        "runtime_scans.py is stale: run python -m croupier.backends.engine.scans_ahead"


@pytest.mark.parametrize("text", COPIES, ids=[t.split("\n", 1)[0].split()[3] + f"-{i}" for i, t in enumerate(COPIES)])
def test_every_kept_scan_is_the_symbol_tables(text):
    assert code_reading._scanned_ahead(text) == code_reading.scan_text(text)


@pytest.mark.parametrize("text", COPIES, ids=[t.split("\n", 1)[0].split()[3] + f"-{i}" for i, t in enumerate(COPIES)])
def test_every_kept_list_of_public_calls_is_the_texts(text):
    """The public calls kept with a copy are those read from its headers and docstrings (and from its whole
    syntax tree: the two ways agree), and the ones a generated module lists."""
    code_reading._calls.cache_clear()
    kept = code_reading._calls(text)
    assert code_reading._kept(text) is not None and kept == code_reading.calls_read(text)
    assert kept == code_reading._calls_from_tree(text) and list(kept) == code_reading.public_calls(text)


def test_a_text_that_is_not_kept_is_read_afresh(monkeypatch):
    text = COPIES[0].replace("\n", "\nunheard_of_name = 1\n", 1)
    assert code_reading._scanned_ahead(text) is None
    assert "unheard_of_name" in code_reading._scan(text)[1]
    assert code_reading._calls(text) == code_reading.calls_read(text)
    monkeypatch.setattr(runtime_scans, "PYTHON", (2, 7))  # made by another Python: never used
    code_reading._kept.cache_clear()
    assert code_reading._scanned_ahead(COPIES[0]) is None
    code_reading._kept.cache_clear()


def test_the_parts_counted_are_the_conditions_of_the_parts():
    assert scans_ahead.conditions("table_parts", scans_ahead.ENGINE_MARKER) == ["pushed-stakes", "squeeze", "void"]
    assert scans_ahead.conditions("shoe", scans_ahead.ENGINE_MARKER) == []  # copied whole: its bytecode runs
    assert scans_ahead.conditions("analysis_round", scans_ahead.ENGINE_MARKER) is None
    assert scans_ahead.conditions("analysis_round", scans_ahead.COMPANION_MARKER) == []
    assert len(scans_ahead.conditions("round_cards", scans_ahead.ENGINE_MARKER)) > scans_ahead.MOST_CONDITIONS
    assert scans_ahead.conditions("dealt_round", scans_ahead.ENGINE_MARKER) == []


def test_baccarat_finds_every_module_with_few_conditions_among_them():
    """Each runtime module in baccarat's engine and companion is kept, but for those with too many ways to be
    copied (whose scan is then made as before)."""
    c = compile_spec(ROOT / "spec" / "baccarat.rules")
    pieces = re.findall(r"(?ms)^# ---- runtime: (\w+) \(begin\).*?^# ---- runtime: \1 \(end\) ----\n",
                        c.engine_source + "\n" + c.facts["analysis"])
    texts = re.findall(r"(?ms)^# ---- runtime: \w+ \(begin\).*?^# ---- runtime: \w+ \(end\) ----\n",
                       c.engine_source + "\n" + c.facts["analysis"])
    assert len(pieces) == len(texts) >= 6
    kept = {module: code_reading._scanned_ahead(text) is not None for module, text in zip(pieces, texts)}
    for module, found in kept.items():
        marker = scans_ahead.COMPANION_MARKER if module.startswith("analysis") else scans_ahead.ENGINE_MARKER
        assert found == (len(scans_ahead.conditions(module, marker)) <= scans_ahead.MOST_CONDITIONS), module
    assert sum(kept.values()) >= 5
