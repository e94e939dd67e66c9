"""An analysis companion reuses, from one deck count to the next, what an enumeration finds the same for
every shoe (hand groups, dealt states, draw decisions, the ways the draws go): a figure must not depend on
which deck counts were analysed before it, in the same process."""

from __future__ import annotations

import pytest
from conftest import ROOT

from croupier.backends.engine.analysis_emitter import emit_analysis_module
from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.semantics.resolve import Loader


def fresh(spec: str):
    """The game's engine and a companion loaded afresh (nothing kept from an earlier analysis)."""
    game, diags = Loader().load(str(ROOT / "spec" / spec))
    assert game is not None and not any(d.is_error for d in diags)
    engine = load_engine(emit_engine(game, game.path), game.name)
    companion = load_engine(emit_analysis_module(game, game.path), f"{game.name}_analysis")
    assert companion.ANALYSIS["supported"]  # the fast enumerator, the one that shares its work
    return engine, companion


@pytest.mark.parametrize("spec", ["baccarat.rules", "dragon_bonus.rules"])
def test_a_deck_count_gives_the_same_figures_first_or_after_others(spec):
    engine, first = fresh(spec)
    one_first = first.analyse(engine, 1)
    eight_after = first.analyse(engine, 8)
    engine2, other = fresh(spec)
    eight_first = other.analyse(engine2, 8)
    other.analyse(engine2, 4)
    one_after = other.analyse(engine2, 1)
    assert one_after == one_first
    assert eight_after == eight_first
    assert one_first["cards"] == 52 and eight_first["cards"] == 416
    assert one_first["bets"]["banker"]["house_edge"] != eight_first["bets"]["banker"]["house_edge"]
