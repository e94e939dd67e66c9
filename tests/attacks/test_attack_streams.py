"""Attacks on the generated engines' input: dead streams and bad stakes (issue 11).

Every repro goes through the real command (`croupier play SPEC --jsonl`, `--table`, `--replay`,
`--hand`), with the bad line between good ones: every line is answered, the good lines get the
answers they get alone, and nothing prints a traceback. The first and the deepest attack of each kind
(on each of the three specs), invalid UTF-8, the replay and the log written whole run in a child
process; the other attacks repeat those contracts through `croupier.cli.main.main` in this process
(cli_run.py). Every attack's good lines are compared with the answers to the good lines alone, worked
out in this process: a child's good lines equal to them show the two ways of running answer alike.
"""

from __future__ import annotations

import functools
import itertools
import json
import subprocess
from pathlib import Path

import pytest
from cli_run import in_child, in_process

from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.semantics.resolve import Loader

ROOT = Path(__file__).resolve().parent.parent.parent
BACCARAT = "spec/baccarat.rules"
SEATS = "spec/ten_and_a_half.rules"
BANKER = "spec/ten_and_a_half_banker.rules"
CARDS = ["3S", "2H", "4D", "2C", "6H", "AS"]


def croupier(*args: str, stdin: str | bytes = "", child: bool = False) -> subprocess.CompletedProcess:
    """`croupier ARGS` in a child process if `child`, else in this one; never a traceback."""
    proc = (in_child if child else in_process)(*args, stdin=stdin)
    stderr = proc.stderr if isinstance(proc.stderr, str) else proc.stderr.decode("utf-8", "replace")
    assert "Traceback" not in stderr, stderr
    return proc


def jsonl(spec: str, lines: list[str], child: bool = False) -> list[dict]:
    proc = croupier("play", spec, "--jsonl", stdin="".join(line + "\n" for line in lines), child=child)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout.splitlines()
    assert len(out) == len(lines), "every line is answered"
    for line in out:
        line.encode("utf-8")  # every answer can be written out
    return [json.loads(line) for line in out]


def good_dealt() -> list[str]:
    return [json.dumps({"cards": CARDS, "bets": {"banker": 100, "player": "25.5"}}),
            json.dumps({"cards": ["9S", "KH", "QD", "QC"], "bets": {"tie": 10}, "room": "trial"}),
            json.dumps({"cards": ["2S", "3H", "AD", "2C", "8H"], "bets": {"banker": "12.5"}})]


def good_seat(spec: str) -> list[str]:
    if spec == BANKER:
        table = {"hands": {"a": ["AS"], "b": ["2S", "QH"]}, "banker": "a", "coins": {"a": 1000, "b": 1000}}
    else:
        table = {"hands": {"a": ["AS"], "b": ["2S", "QH"]}, "stakes": {"a": 10, "b": "2.5"},
                 "coins": {"a": 1000, "b": 1000}}
    return [json.dumps(table), json.dumps({"hand": ["JS", "QH", "BJ"] if spec == SEATS else ["JS", "QH"]})]


@functools.cache
def answered_alone(spec: str, good: tuple[str, ...]) -> list[dict]:
    """The answers to the good lines alone (in this process: each spec has an attack in a child, whose good lines
    are held to these, so a child answering otherwise than this process still fails)."""
    return jsonl(spec, list(good))


def assert_bad_line_is_contained(spec: str, good: list[str], bad: str, words: str, child: bool = False) -> None:
    """The bad line gets an error naming `words`; 3 good lines before it and 22 after are answered as alone."""
    alone = answered_alone(spec, tuple(good))
    before = [good[i % len(good)] for i in range(3)]
    after = [good[i % len(good)] for i in range(3, 25)]
    got = jsonl(spec, before + [bad] + after, child=child)
    assert list(got[3]) == ["error"] and words in got[3]["error"], got[3]
    assert got[:3] + got[4:] == [alone[i % len(good)] for i in range(25)], "good lines are unaffected"


def with_bets(bets: dict | str, **more) -> str:
    text = bets if isinstance(bets, str) else json.dumps(bets)
    extra = "".join(f', "{k}": {json.dumps(v)}' for k, v in more.items())
    return '{"cards": ' + json.dumps(CARDS) + ', "bets": ' + text + extra + "}"


DEALT_ATTACKS = [
    ("room-object", with_bets({"banker": 100}, room={}), '"room" must be text, not an object'),
    ("room-list", with_bets({"banker": 100}, room=["trial"]), '"room" must be text, not a list'),
    ("room-number", with_bets({"banker": 100}, room=7), '"room" must be text'),
    ("deep", "[" * 100_000, "nested too deeply"),
    ("deep-in-bets", with_bets("[" * 100_000), "nested too deeply"),
    ("bets-list", with_bets("[1]"), '"bets" (bet name to stake) is an object'),
    ("stake-fraction", with_bets({"banker": "1/3"}), "the stake on banker must be a number"),
    ("stake-10**1000", with_bets('{"banker": ' + str(10 ** 1000) + "}"), "the stake on banker has too many digits"),
    ("stake-3000-zeros", with_bets({"banker": "1" + "0" * 3000}), "the stake on banker has too many digits"),
    ("stake-3000-places", with_bets('{"banker": 1.' + "0" * 3000 + "1}"), "the stake on banker has too many digits"),
    ("stake-huge-exponent", with_bets('{"banker": 1e999999999}'), "the stake on banker has too many digits"),
    ("stake-tiny-exponent", with_bets('{"banker": 1e-999999999}'), "the stake on banker has too many digits"),
    ("stake-16-digits", with_bets({"banker": 10 ** 15}), "at most 15 digits before the point"),
    ("stake-7-places", with_bets({"banker": "0.0000001"}), "and 6 after"),
    ("stake-arabic-indic", with_bets({"banker": "١٠٠"}), "the stake on banker must be a number"),
    ("stake-fullwidth", with_bets({"banker": "１００"}), "the stake on banker must be a number"),
    ("stake-underscores", with_bets({"banker": "1_0_0"}), "the stake on banker must be a number"),
    ("stake-plus", with_bets({"banker": "+5"}), "the stake on banker must be a number"),
    ("stake-spaces", with_bets({"banker": " 5"}), "the stake on banker must be a number"),
    ("stake-exponent-text", with_bets({"banker": "1e3"}), "the stake on banker must be a number"),
    ("stake-true", with_bets({"banker": True}), "must be a number, not true/false"),
    ("stake-negative-text", with_bets({"banker": "-5"}), "must not be negative"),
    ("bet-lone-surrogate", with_bets('{"p\\ud800": 1}'), "unknown bet"),
    ("card-lone-surrogate", '{"cards": ["\\ud800S", "2H", "4D", "2C"]}', "unknown card"),
]


# the attacks that also run in a child process (the others repeat their contract in this one)
IN_CHILD = {"room-object", "deep", "banker-object"}


@pytest.mark.parametrize(("name", "bad", "words"), DEALT_ATTACKS, ids=[a[0] for a in DEALT_ATTACKS])
def test_dealt_round_stream_survives(name: str, bad: str, words: str) -> None:
    assert_bad_line_is_contained(BACCARAT, good_dealt(), bad, words, child=name in IN_CHILD)


def test_accepted_stakes_are_exact_and_bounded() -> None:
    stakes = ['"999999999999999"', '"0.000001"', "1.5000000000", "1e3", '"007"', '"-0"', "0E+999999"]
    got = jsonl(BACCARAT, [with_bets('{"player": ' + s + "}") for s in stakes])
    # the player wins this round (7 to 0): a stake comes back doubled, exactly
    assert [a["returns"]["player"] for a in got] == ["1999999999999998", "0.000002", "3", "2000", "14", "0", "0"]


SEAT_TABLE = {"hands": {"a": ["AS"], "b": ["2S", "QH"]}, "banker": "a", "coins": {"a": 1000, "b": 1000}}
SEAT_ATTACKS = [
    ("banker-object", BANKER, dict(SEAT_TABLE, banker={"x": 1}), '"banker" (the banker\'s name) must be text'),
    ("banker-list", BANKER, dict(SEAT_TABLE, banker=["a"]), '"banker" (the banker\'s name) must be text'),
    ("seat-lone-surrogate", BANKER, '{"hands": {"a": ["AS"], "p\\ud800": ["2S"]}, "banker": "a", '
     '"coins": {"a": 10, "p\\ud800": 10}}', "lone surrogate"),
    ("banker-lone-surrogate", BANKER, '{"hands": {"a": ["AS"], "b": ["2S"]}, "banker": "\\ud800", '
     '"coins": {"a": 10, "b": 10}}', "lone surrogate"),
    ("coins-fraction", BANKER, dict(SEAT_TABLE, coins={"a": "1/3", "b": 10}), "the coins of a must be a number"),
    ("coins-10**1000", BANKER, '{"hands": {"a": ["AS"], "b": ["2S"]}, "banker": "a", "coins": {"a": 10, "b": '
     + str(10 ** 1000) + "}}", "the coins of b has too many digits"),
    ("coins-object", BANKER, dict(SEAT_TABLE, coins=[1, 2]), '"coins" (player to amount) is an object'),
    ("stake-fraction", SEATS, {"hands": {"a": ["AS"], "b": ["2S"]}, "stakes": {"a": "1/3", "b": 1},
                               "coins": {"a": 10, "b": 10}}, "the stakes of a must be a number"),
    ("stake-true", SEATS, {"hands": {"a": ["AS"], "b": ["2S"]}, "stakes": {"a": True, "b": 1},
                           "coins": {"a": 10, "b": 10}}, "must be a number, not true/false"),
    ("stake-fullwidth", SEATS, {"hands": {"a": ["AS"], "b": ["2S"]}, "stakes": {"a": "１", "b": 1},
                                "coins": {"a": 10, "b": 10}}, "the stakes of a must be a number"),
    ("deep", SEATS, "[" * 100_000, "nested too deeply"),
    ("hand-too-long", SEATS, {"hand": ["BJ", "SJ", "AS", "2S", "3S", "4S"]}, "a hand of more than 5 cards"),
]


@pytest.mark.parametrize(("name", "spec", "bad", "words"), SEAT_ATTACKS, ids=[a[0] for a in SEAT_ATTACKS])
def test_seat_game_stream_survives(name: str, spec: str, bad, words: str) -> None:
    assert_bad_line_is_contained(spec, good_seat(spec), bad if isinstance(bad, str) else json.dumps(bad), words,
                                 child=name in IN_CHILD)


def test_invalid_utf8_line_is_answered() -> None:
    good = good_dealt()[0].encode()
    proc = croupier("play", BACCARAT, "--jsonl", stdin=good + b"\n" + b'{"cards": ["A\xffS"]}\n\xfe\xff\n' + good + b"\n",
                    child=True)
    out = [json.loads(line) for line in proc.stdout.decode("utf-8").splitlines()]
    assert len(out) == 4 and "error" in out[1] and "error" in out[2]
    assert out[0] == out[3] and "error" not in out[0]


# ---- one-shot commands: --cards/--bet, --table, --replay ----


@pytest.mark.parametrize("stake", ["1/3", "+5", "١٠٠", "1_0_0", "1" + "0" * 3000])
def test_bet_option_uses_the_same_stake_rule(stake: str) -> None:
    proc = croupier("play", BACCARAT, "--cards", " ".join(CARDS), "--bet", f"banker={stake}", child=stake == "1/3")
    assert proc.returncode == 1 and "the stake on banker" in proc.stderr and "ASCII digits" in proc.stderr


@pytest.mark.parametrize(("table", "words"), [
    ("[" * 100_000, "nested too deeply"),
    (json.dumps(dict(SEAT_TABLE, banker={})), '"banker" (the banker\'s name) must be text'),
    (json.dumps(dict(SEAT_TABLE, room={}, banker=[])), '"banker" (the banker\'s name) must be text'),
    ('{"hands": {"a": ["AS"], "p\\ud800": ["2S"]}, "banker": "a", "coins": {"a": 1, "p\\ud800": 1}}', "lone surrogate"),
])
def test_table_option_rejects_deep_and_bad_fields(table: str, words: str) -> None:
    child = table.startswith("[")  # the deepest in a child process, the others (and its --json repeat) in this one
    proc = croupier("play", BANKER, "--table", table, child=child)
    assert proc.returncode == 1 and words in proc.stderr, proc.stderr
    proc = croupier("play", BANKER, "--table", table, "--json")
    assert proc.returncode == 1 and words in json.loads(proc.stdout)["error"]


def test_table_option_still_settles_a_good_table() -> None:
    proc = croupier("play", BANKER, "--table", json.dumps(SEAT_TABLE), "--json", child=True)
    assert proc.returncode == 0 and json.loads(proc.stdout)["net"] == {"a": "-66", "b": "66"}


def test_replay_reports_deep_and_bad_room_lines_and_goes_on(tmp_path: Path) -> None:
    log = tmp_path / "rounds.jsonl"
    croupier("play", BACCARAT, "--jsonl", "--log", str(log), stdin="\n".join(good_dealt()) + "\n")
    good = log.read_text(encoding="utf-8").splitlines()
    assert len(good) == 3
    bad_room = json.loads(good[0]) | {"round": 7, "room": {}}
    bad_bettor = json.loads(good[0]) | {"round": 8, "bets": {"p\ud800": {"banker": 1}}}
    lines = [good[0], json.dumps(bad_room), "[" * 100_000, good[1],
             json.dumps(bad_bettor), json.dumps(json.loads(good[0]) | {"round": 9, "void": ["x"]}), good[2]]
    log.write_text("\n".join(lines) + "\n", encoding="utf-8")
    proc = croupier("play", BACCARAT, "--replay", str(log), child=True)
    problems = proc.stdout.splitlines()
    assert proc.returncode == 1
    assert "3 round(s) replayed" in proc.stderr, "the good rounds around the bad lines are replayed"
    assert [p.split(":")[0] for p in problems] == ["line 2, round 7", "line 3", "line 5, round 8", "line 6, round 9"]
    assert "the room must be text, not an object" in problems[0] and "nested too deeply" in problems[1]
    assert "lone surrogate" in problems[2] and '"void" (the reason) must be text' in problems[3]


# ---- wild cards: substitutions by position, and bounded work ----

def wild_spec(tmp_path: Path, decks: int, hand_size: int) -> str:
    """ten_and_a_half with more decks (so a joker code can repeat in a hand) and a longer hand size."""
    text = (ROOT / SEATS).read_text(encoding="utf-8")
    text = text.replace("shoe 1 deck of", f"shoe {decks} decks of").replace("hand size 1..5 ", f"hand size 1..{hand_size}")
    path = tmp_path / "wild.rules"
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_repeated_jokers_are_explained_by_position(tmp_path: Path) -> None:
    spec = wild_spec(tmp_path, 4, 12)
    proc = croupier("play", spec, "--hand", "BJ SJ BJ SJ 2S", "--json", child=True)
    data = json.loads(proc.stdout)
    subs = data["substitution"]
    assert list(subs) == ["BJ@1", "SJ@2", "BJ@3", "SJ@4"], "one entry per wild position"
    game, _ = Loader().load(spec)
    engine = load_engine(emit_engine(game, "wild.rules"), "attack_wild")
    points = sum(engine.VALUE[r] for r in subs.values()) + engine.VALUE["2"]
    assert engine.num_json(points) == data["points"], "the substitutions add up to the points"
    text = croupier("play", spec, "--hand", "BJ SJ BJ SJ 2S").stdout
    for key, rank in subs.items():
        code, pos = key.split("@")
        assert f"{code} as {rank} (card {pos})" in text


def test_substitution_by_combinations_matches_the_full_product(tmp_path: Path) -> None:
    game, _ = Loader().load(wild_spec(tmp_path, 3, 12))
    engine = load_engine(emit_engine(game, "wild.rules"), "attack_wild3")
    for hand in (["BJ", "SJ", "BJ", "2S"], ["BJ", "BJ", "JS", "QH"], ["SJ", "AS", "BJ", "SJ", "4D"], ["BJ", "SJ", "BJ"]):
        ranks = [engine.RANK_OF[c] for c in hand]
        wild_at = [i for i, r in enumerate(ranks) if r in engine.WILD_RANKS]
        best = None
        for choice in itertools.product(engine.WILD_CHOICES, repeat=len(wild_at)):
            subbed = list(ranks)
            for i, r in zip(wild_at, choice):
                subbed[i] = r
            facts = engine.HandFacts(subbed, True)
            kind = engine.classify(facts)
            score = tuple(-engine.TYPE_INDEX[kind] if k == "type" else facts.total for k in engine.WILD_BEST_BY)
            if best is None or score > best[0]:
                best = (score, kind, facts.total, choice)
        value = engine.evaluate(hand)
        assert (value.type, value.points) == best[1:3]
        assert tuple(r for _i, _c, r in value.substitution) == best[3], hand


def test_many_jokers_are_refused_quickly(tmp_path: Path) -> None:
    proc = croupier("play", SEATS, "--hand", " ".join(["BJ", "SJ"] * 5))
    assert proc.returncode == 1 and "more than 5 cards" in proc.stderr, "the spec's hand size bounds the work"
    spec = wild_spec(tmp_path, 5, 12)
    proc = croupier("play", spec, "--hand", " ".join(["BJ", "SJ"] * 5))
    assert proc.returncode == 1 and "10 wild cards" in proc.stderr and "at most 20000" in proc.stderr
    lines = [json.dumps({"hand": ["BJ", "SJ"] * 5}), json.dumps({"hand": ["BJ", "SJ"] * 3 + ["2S"]})]
    got = jsonl(spec, lines)
    assert "10 wild cards" in got[0]["error"] and got[1]["type"] and len(got[1]["substitution"]) == 6


def test_play_log_is_opened_first_and_written_whole(tmp_path: Path) -> None:
    good = json.dumps({"cards": ["3S", "2H", "4D", "2C", "6H", "AS"], "bets": {"banker": 100}})
    # a log that cannot be opened: refused before a line is read (in this process); the log written whole: a child
    proc = croupier("play", BACCARAT, "--jsonl", "--log", str(tmp_path / "no" / "such" / "l.jsonl"), stdin=good + "\n")
    assert proc.returncode == 2 and "cannot write the log" in proc.stderr and proc.stdout == ""
    log = tmp_path / "l.jsonl"
    proc = croupier("play", BACCARAT, "--jsonl", "--log", str(log), stdin=f"{good}\n{{\"room\": {{}}}}\n{good}\n",
                    child=True)
    assert proc.returncode == 0 and len(proc.stdout.splitlines()) == 3
    records = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert [r["round"] for r in records] == [1, 2] and all(r["outcome"] == "player" for r in records)
    assert not list(tmp_path.glob(".l.jsonl.*")), "no temporary file is left beside the log"
