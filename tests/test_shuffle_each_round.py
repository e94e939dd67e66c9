"""A shoe shuffled before each round (`shuffle before each round`): one round a shoe, in play, simulate, analyze,
check and the card; spec/dragon_tiger_csm.rules is Dragon Tiger dealt from a continuous shuffler."""

from __future__ import annotations

from fractions import Fraction

from conftest import SPEC, compile_engine

from croupier.semantics.resolve import resolve_file
from croupier.tools import simulate as sim
from croupier.tools.analysis.card_analysis import analysis_of

CSM = SPEC / "dragon_tiger_csm.rules"


def test_each_shoe_deals_one_round_from_a_full_shuffled_shoe():
    engine = compile_engine(CSM, checks=False)
    assert engine.SHOE_PROCEDURE["shuffle_each_round"] is True
    firsts = set()
    for seed in range(30):
        shoe = engine.Shoe(seed)
        assert shoe.position == 0 and len(shoe.cards) == 416  # eight full decks, nothing burned
        r, start = shoe.next_round()
        assert start == 0 and shoe.finished and r.cards_used == 2
        firsts.add(tuple(shoe.cards[:2]))
    assert len(firsts) == 30  # shuffled afresh each time
    table = engine.Table(5)
    tr = table.deal({"x": {"dragon": 10}})
    assert tr.record()["last"] is True and table.finished


def test_simulate_plays_one_round_a_shoe_and_analyze_is_the_full_shoe_every_round(tmp_path):
    game, diags, _ = resolve_file(str(CSM))
    assert not [d for d in diags if d.is_error]
    assert game.procedure.shuffle_each_round and game.procedure.cut_low is None
    tally, _ = sim.simulate(compile_source(), game.name, 200, seed=1, workers=1)
    assert tally.rounds == 200 and dict(tally.rounds_per_shoe) == {1: 200}
    a = analysis_of(game)
    # the published figures of source WOO-DT, eight decks: dragon and tiger 3.7349 %, tie 32.7711 %
    assert round(a["bets"]["dragon"]["house_edge"] * 100, 4) == Fraction(37349, 10000)
    assert round(a["bets"]["tie"]["house_edge"] * 100, 4) == Fraction(327711, 10000)


def compile_source() -> str:
    from croupier.cli.simulate import game_engine

    return game_engine(str(CSM))[1]


def test_a_variant_shuffling_before_each_round_drops_its_bases_cut_card(tmp_path):
    (tmp_path / "baccarat.rules").write_text((SPEC / "baccarat.rules").read_text(encoding="utf-8"), encoding="utf-8")
    v = tmp_path / "v.rules"
    v.write_text('game v extends baccarat "V" zh-Hant "V" zh-Hans "V"\nshuffle before each round\n', encoding="utf-8")
    game, diags, _ = resolve_file(str(v))
    assert not [d for d in diags if d.is_error]
    p = game.procedure
    assert p.shuffle_each_round and p.cut_low is None and p.last_round is None and p.burn_reveal == 1


def test_the_card_says_so_in_every_language():
    from conftest import ROOT

    said = {"en": "The cards are shuffled before each round", "zh-Hans": "每局开始前都重新洗牌",
            "zh-Hant": "每局開始前都重新洗牌"}
    for lang, text in said.items():
        card = (ROOT / "generated" / "cards" / f"dragon_tiger_csm.{lang}.html").read_text(encoding="utf-8")
        assert text in card, lang
