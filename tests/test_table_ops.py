"""Table operations of spec/baccarat.rules: shoe procedure, squeeze, valid bets, rooms, voids, replay."""

from __future__ import annotations

import json

import pytest
from conftest import BACCARAT

from croupier.semantics.resolve import resolve_file
from croupier.tools.replay import replay_lines

FLAT = {"b": {"banker": 10}, "p": {"player": 10}, "t": {"tie": 10}}


def test_same_seed_same_shoe_and_other_seed_other_shoe(baccarat):
    a = [tr.record() for tr in baccarat.deal_shoe(7, FLAT)]
    b = [tr.record() for tr in baccarat.deal_shoe(7, FLAT)]
    c = [tr.record() for tr in baccarat.deal_shoe(8, FLAT)]
    assert a == b
    assert a != c


def test_cut_card_lies_in_the_spec_range_and_every_position_occurs(baccarat):
    p = baccarat.SHOE_PROCEDURE
    seen = set()
    for seed in range(200):
        shoe = baccarat.Shoe(seed)
        seen.add(len(shoe.cards) - shoe.cut)
    assert seen == set(range(p["cut_low"], p["cut_high"] + 1))


def test_burn_reveals_one_card_and_burns_by_its_burn_value(baccarat):
    values = baccarat.SHOE_PROCEDURE["burn_values"]
    counts = set()
    for seed in range(100):
        shoe = baccarat.Shoe(seed)
        first = shoe.cards[0]
        assert shoe.burned == shoe.cards[:1 + values[baccarat.RANK_OF[first]]]
        assert shoe.position == len(shoe.burned)
        counts.add(len(shoe.burned))
    assert max(counts) == 11 and min(counts) == 2


def test_exactly_one_round_follows_the_round_where_the_cut_card_comes_out(baccarat):
    for seed in range(60):
        table = baccarat.Table(seed)
        rounds = list(table.rounds(FLAT))
        shoe = table.shoe
        marked = [i for i, tr in enumerate(rounds) if tr.shoe_note and "cut_card" in tr.shoe_note]
        assert marked == [len(rounds) - 2]
        assert rounds[-1].shoe_note == {"last": True}
        # the cut card is among (or right after) the cards of the marked round, not before it
        before = sum(len(tr.cards) for tr in rounds[:-2]) + len(shoe.burned)
        through = before + len(rounds[-2].cards)
        assert before < shoe.cut <= through or (before == shoe.cut and rounds[-2].shoe_note["cut_card"] == "between")


def test_cut_card_between_rounds_is_told_apart_from_during(baccarat):
    notes = set()
    for seed in range(400):
        table = baccarat.Table(seed)
        for tr in table.rounds(FLAT):
            if tr.shoe_note and "cut_card" in tr.shoe_note:
                notes.add(tr.shoe_note["cut_card"])
    assert notes == {"during", "between"}


def test_squeeze_goes_to_the_larger_stake_and_banker_when_equal(baccarat):
    sides = baccarat.squeeze_sides(baccarat.table_bets({
        "a": {"banker": 100, "player": 50}, "b": {"banker": 50, "player": 100},
        "c": {"banker": 100, "player": 100}, "d": {"tie": 100}, "e": {"player_pair": 5, "banker_pair": 5},
        "f": {"player": 5, "tie": 500},
    }))
    assert sides == {"a": "banker", "b": "player", "c": "banker", "f": "player"}


def test_squeeze_order_player_first_then_banker_for_first_and_third_cards(baccarat):
    # 001's teaching round: P 3+2, B 4+2, player draws 6, banker draws A
    tr = baccarat.table_round({"round": 1, "cards": "3S 4H 2D 2C 6H AS",
                               "bets": {"x": {"banker": 5}, "y": {"player": 5}, "z": {"tie": 5}}})
    steps = [(p, h, c, who) for p, h, c, who in tr.squeeze]
    assert steps == [
        ("deal", "player", ("3S", "2D"), ("y",)),
        ("deal", "banker", ("4H", "2C"), ("x",)),
        ("draw", "player", ("6H",), ("y",)),
        ("draw", "banker", ("AS",), ("x",)),
    ]
    assert tr.round.outcome == "banker"


@pytest.mark.parametrize("cards, bets, valid", [
    ("9S KH KD QC", {"banker": 100, "player": 50}, 0),             # both sides: none, whatever the amounts
    ("9S KH KD QC", {"banker": 100, "player": 50, "tie": 20}, 0),  # the tie stake too (assumption)
    ("9S 9H KD KC", {"banker": 100, "tie": 20}, 20),               # a tie: the pushed banker stake counts none
    ("9S 9H KD KC", {"player": 30, "player_pair": 5}, 5),
    ("9S KH KD QC", {"banker": 100, "tie": 20, "banker_pair": 5}, 125),
])
def test_valid_bets(baccarat, cards, bets, valid):
    tr = baccarat.table_round({"round": 1, "cards": cards, "bets": {"x": bets}})
    assert tr.valid == {"x": valid}


def test_room_limits_reject_with_room_and_limit(baccarat):
    table = baccarat.Table(1, room="junior")
    with pytest.raises(baccarat.InvalidBet, match=r"room junior: 40 to 1500"):
        table.deal({"x": {"tie": 39}})
    tr = table.deal({"x": {"banker": 2500}})
    assert tr.record()["room"] == "junior"
    with pytest.raises(baccarat.InvalidBet, match="unknown room"):
        baccarat.Table(1, room="nowhere")


def test_void_returns_stakes_and_counts_no_valid_bet(baccarat):
    tr = baccarat.table_round({"round": 3, "cards": "9S KH KD QC", "bets": {"x": {"banker": 100, "tie": 20}}})
    assert tr.returns["x"]["banker"] == 0
    baccarat.void_round(tr, "card misread")
    rec = tr.record()
    assert rec["returns"] == {"x": {"banker": "100", "tie": "20"}}
    assert rec["valid"] == {"x": "0"} and rec["void"] == "card misread" and rec["outcome"] is None


def test_replay_finds_a_changed_card_and_result_by_round_number(baccarat):
    records = [tr.record() for tr in baccarat.deal_shoe(3, FLAT)][:5]
    lines = [json.dumps(r) for r in records]
    assert replay_lines(baccarat, lines) == (5, [])
    bad = dict(records[2])
    bad["player"] = [bad["player"][0], "KS" if bad["player"][1] != "KS" else "QS"] + bad["player"][2:]
    bad["returns"] = {"b": {"banker": 999}, **{k: v for k, v in bad["returns"].items() if k != "b"}}
    lines[2] = json.dumps(bad)
    lines.append(json.dumps(records[0]))
    checked, problems = replay_lines(baccarat, lines)
    assert checked == 6
    assert any(p.startswith("line 3, round 3: round.player[2]") for p in problems)
    assert any("round 3" in p and "returns.b.banker" in p and "999" in p for p in problems)
    assert any("line 6, round 1: this round number appears twice" == p for p in problems)


def test_squeeze_bet_without_a_hand_of_its_name_is_an_error(tmp_path):
    text = BACCARAT.read_text(encoding="utf-8").replace(
        "squeeze banker player by", "squeeze banker tie by")
    spec = tmp_path / "b.rules"
    spec.write_text(text, encoding="utf-8")
    game, diags, _ = resolve_file(str(spec), text)
    assert any(d.code == "E0101" and "no hand is named `tie`" in d.message for d in diags)


def test_the_spec_states_its_table_rules(baccarat):
    assert baccarat.SQUEEZE_ORDER == ("player", "banker")
    assert baccarat.VALID_PUSHED_NONE and baccarat.VOID_RETURNS_STAKES
    assert set(baccarat.ROOMS) == {"trial", "junior", "middle", "senior"}


def test_a_side_bet_with_no_limit_takes_any_stake_and_a_removed_bet_changes_the_rooms():
    from conftest import SPEC, compile_engine

    ez = compile_engine(SPEC / "ez_baccarat.rules", checks=False)
    assert ez.ROOMS["junior"]["dragon7"] is None and ez.ROOMS["junior"]["tie"] == (40, 1500)
    table = ez.Table(1, room="junior")
    tr = table.deal({"x": {"dragon7": 1, "panda8": 10 ** 9, "banker": 40}})  # `no limit`: any stake
    assert set(tr.returns["x"]) == {"dragon7", "panda8", "banker"}
    with pytest.raises(ez.InvalidBet, match=r"room junior: 40 to 1500"):
        table.deal({"x": {"dragon7": 1, "tie": 39}})
    game, diags, _ = resolve_file(str(SPEC / "ez_baccarat.rules"))
    assert not [d for d in diags if d.is_error]
    rooms = [d for d in game.differences if d.kind == "room"]
    assert [d.name for d in rooms] == ["trial", "junior", "middle", "senior"]  # each once, though also overridden
    assert all(set(r.limits) == set(game.bets) for r in game.rooms.values())
