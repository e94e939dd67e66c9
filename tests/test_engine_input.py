"""Bad input to generated engines: every kind is rejected with the engine's own exception type
(an EngineError subclass) and a message; `play --jsonl` answers every line, errors included, and
the good lines around a bad one get the answers they get alone."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from decimal import Decimal
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.semantics.resolve import Loader

ROOT = Path(__file__).resolve().parent.parent


def engine_for(spec: str):
    game, diags = Loader().load(str(ROOT / "spec" / spec))
    assert game is not None and not any(d.is_error for d in diags)
    return load_engine(emit_engine(game, f"spec/{spec}"), f"input_{game.name}")


@pytest.fixture(scope="module")
def bac():
    return engine_for("baccarat.rules")


@pytest.fixture(scope="module")
def seat():
    return engine_for("ten_and_a_half.rules")


BAD_CARDS = [
    (["ZZ", "2H", "3D", "4C"], "InvalidCards", "unknown card"),
    (["3S", "2H", "4D"], "InvalidCards", "not enough cards"),
    (["AS"] * 9 + ["2H"], "InvalidCards", "appears 9 times"),
    ([3, 4, 5, 6], "InvalidCards", "written as text"),
    ({"a": 1}, "InvalidCards", "cards come as a list"),
    (["3S", "2H", "4D", "2C"], "InvalidCards", "cards ran out"),
    (["\x00S", "2H", "4D", "2C"], "InvalidCards", "unknown card"),
    (["A" * 10_000, "2H", "4D", "2C"], "InvalidCards", "unknown card"),
]


@pytest.mark.parametrize(("cards", "kind", "words"), BAD_CARDS)
def test_bad_cards(bac, cards, kind, words) -> None:
    with pytest.raises(getattr(bac, kind)) as info:
        bac.play(cards)
    assert isinstance(info.value, bac.EngineError)
    assert words in str(info.value)
    assert len(str(info.value)) < 200


BAD_BETS = [
    ({"nonsense": 10}, "unknown bet"),
    ({"banker": -5}, "must not be negative"),
    ({"banker": "ten"}, "must be a number"),
    ({"banker": None}, "must be a number"),
    ({"banker": True}, "must be a number"),
    ({"banker": [1]}, "must be a number"),
    ({"banker": "1/0"}, "must be a number"),
    ({"banker": "nan"}, "must be a number"),
]


@pytest.mark.parametrize(("value", "amount"), [
    (0, 0), (999_999_999_999_999, 999_999_999_999_999), ("25.5", Fraction(51, 2)), ("0.000001", Fraction(1, 10**6)),
    (Decimal("1.500000000"), Fraction(3, 2)), (Decimal("1E+3"), 1000), (Decimal("-0.0"), 0), ("-0", 0), ("007", 7),
])
def test_amounts_within_the_rule(bac, value, amount) -> None:
    got = bac.parse_money(value, "the stake on banker")
    assert got == amount and type(got) is type(amount)


@pytest.mark.parametrize(("value", "words"), [
    (10**15, "too many digits"), ("1000000000000000", "too many digits"), ("0.0000001", "too many digits"),
    (Decimal("1E+15"), "too many digits"), (Decimal("1E-7"), "too many digits"), (-10**1000, "too many digits"),
    ("1/3", "must be a number"), ("+5", "must be a number"), ("1_0", "must be a number"), ("٥", "must be a number"),
    ("5.", "must be a number"), (".5", "must be a number"), ("", "must be a number"), ("1e3", "must be a number"),
    (1.5, "a float"), (Fraction(1, 3), "must be a number"), (False, "true/false"), (Decimal("-1"), "must not be negative"),
])
def test_amounts_outside_the_rule(bac, value, words) -> None:
    with pytest.raises(bac.InvalidBet) as info:
        bac.parse_money(value, "the stake on banker")
    assert words in str(info.value) and "the stake on banker" in str(info.value) and len(str(info.value)) < 250


@pytest.mark.parametrize(("bets", "words"), BAD_BETS)
def test_bad_bets(bac, bets, words) -> None:
    r = bac.play(["3S", "2H", "4D", "2C", "6H", "AS"])
    with pytest.raises(bac.InvalidBet) as info:
        bac.settle(r, bets)
    assert words in str(info.value)


@pytest.mark.parametrize("request_", [
    [], "cards", 7, None, {"cards": None}, {"cards": ["3S", "2H", "4D", "2C"], "bets": []},
    {"cards": ["3S", "2H", "4D", "2C", "6H", "AS"], "room": "nowhere", "bets": {"banker": 1}},
])
def test_bad_requests(bac, request_) -> None:
    with pytest.raises(bac.EngineError):
        bac.adjudicate(request_)


@pytest.mark.parametrize(("hand", "kind"), [
    (["JS"] * 2, "InvalidCards"), (["AS", "2S", "3S", "4S", "5S", "6S"], "InvalidCards"), ([], "InvalidCards"),
    (["1S"], "InvalidCards"), ("JS JS", "InvalidCards"),
])
def test_bad_hands(seat, hand, kind) -> None:
    with pytest.raises(getattr(seat, kind)):
        seat.evaluate(hand)


@pytest.mark.parametrize("table", [
    {"hands": {"a": ["AS"]}, "stakes": {"a": 1}, "coins": {"a": 10}},
    {"hands": "x"},
    {"hands": {"a": ["AS"], "b": ["2S"]}, "stakes": {"a": 1}, "coins": {"a": 10, "b": 10}},
    {"hands": {"a": ["AS"], "b": ["AS"]}, "stakes": {"a": 1, "b": 1}, "coins": {"a": 10, "b": 10}},
    {"hands": {"a": ["AS"], "b": ["2S"]}, "stakes": {"a": -1, "b": 1}, "coins": {"a": 10, "b": 10}},
])
def test_bad_tables(seat, table) -> None:
    with pytest.raises(seat.EngineError):
        seat.adjudicate(table)


GOOD = [
    {"cards": ["3S", "2H", "4D", "2C", "6H", "AS"], "bets": {"banker": 100, "player": "25.5"}},
    {"cards": ["9S", "KH", "QD", "QC"], "bets": {"tie": 10}},
]
BAD_LINES = ["", "not json", "{", "[]", '{"cards": "ZZ 2H 4D 2C"}', '{"cards": ["3S"]}', "1e999999",
             '{"cards": ' + "[" * 5000 + "]" * 5000 + "}", '"\\ud800"', "\x00", '{"cards": [], "bets": {"x": 1}}']


def answers(engine, lines: list[str]) -> list[dict]:
    out = io.StringIO()
    engine.run_jsonl(iter(line + "\n" for line in lines), out.write)
    return [json.loads(a) for a in out.getvalue().splitlines()]


def test_jsonl_answers_every_line_and_good_lines_are_unaffected(bac) -> None:
    good = [json.dumps(g) for g in GOOD]
    alone = answers(bac, good)
    lines = []
    for bad in BAD_LINES:
        lines += [good[0], bad, good[1]]
    got = answers(bac, lines)
    assert len(got) == len(lines)
    for i, bad in enumerate(BAD_LINES):
        assert got[3 * i] == alone[0]
        assert got[3 * i + 2] == alone[1]
        assert set(got[3 * i + 1]) == {"error"} and got[3 * i + 1]["error"], bad


def test_play_jsonl_command_answers_every_line() -> None:
    lines = [json.dumps(GOOD[0]), "garbage", json.dumps(GOOD[1]), '{"cards": ["ZZ"]}']
    proc = subprocess.run([sys.executable, "-m", "croupier.cli.main", "play", "spec/baccarat.rules", "--jsonl"],
                          input="\n".join(lines) + "\n", capture_output=True, text=True, cwd=ROOT, timeout=300)
    assert proc.returncode == 0, proc.stderr
    got = [json.loads(a) for a in proc.stdout.splitlines()]
    assert len(got) == 4
    assert "error" in got[1] and "error" in got[3]
    assert got[0]["outcome"] in ("player", "banker", "tie") and "error" not in got[2]
    assert "Traceback" not in proc.stderr
