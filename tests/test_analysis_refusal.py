"""A game the exact analysis cannot cover is refused at once, from an estimate, and the refusal is kept."""

from __future__ import annotations

import pytest

from croupier import cache
from croupier.backends.engine import loader
from croupier.driver.compile import Level, compile_spec
from croupier.semantics.resolve import resolve_file
from croupier.space_estimate import estimate_nodes
from croupier.tools.analysis.card_analysis import card_analysis, companion_of, engine_of

# one deck; the second hand draws until a card matches the first hand's rank: up to 51 cards a round
RANK_MATCH = """game rank_match "Rank match"
shoe 1 deck of standard52
value A = 1, 2..10 = pip, J = 11, Q = 12, K = 13
total sum
hand p "P"
hand d "D"
deal p, d
draw d while rank(last(d)) != rank(first(p))
outcome short "Short" when count(d) <= 5
outcome long "Long" when count(d) > 5
bet short "Short"
    wins when outcome is short, pays 1 to 1
"""


def test_the_estimate_of_a_uniform_tree_is_exact():
    classes = [([c], 1) for c in ("A", "B", "C", "D", "E")]
    assert estimate_nodes(classes, 3, lambda seq: True) == 5 * 4 * 3  # every round: three cards
    assert estimate_nodes(classes, 2, lambda seq: len(seq) == 3) == 5 * 4 + 5 * 4 * 3


def test_a_game_too_large_is_refused_from_its_estimate_once(tmp_path, monkeypatch):
    spec = tmp_path / "rank_match.rules"
    spec.write_text(RANK_MATCH, encoding="utf-8")
    game, diags, _ = resolve_file(str(spec))
    assert not [d for d in diags if d.is_error]
    _d, engine = engine_of(game)
    _p, companion = companion_of(game)
    walks = []
    monkeypatch.setattr(companion, "analyse", lambda *a: walks.append(a))  # the walk must never start
    cache.forget()
    for _ in range(2):
        with pytest.raises(engine.EngineError, match=r"13 classes: the cards told apart by rank, 1 deck\(s\)\) it "
                                                     r"would take about \d\.\de\d+ rounds") as refused:
            loader.exact_analysis(engine, companion, 1)
        assert refused.value.too_large
    assert walks == []
    assert "missing" in card_analysis(game)
    result = compile_spec(spec, Level.CHECKED)
    notes = [d for d in result.diagnostics if d.code == "N0701"]
    assert len(notes) == 1 and "would take about" in notes[0].message and notes[0].span.line == 8
