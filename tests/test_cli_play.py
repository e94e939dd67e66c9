"""`croupier play`: explained steps, --json, and --jsonl answering every line in order."""

from __future__ import annotations

import io
import json
import subprocess
import sys

import pytest
from conftest import BACCARAT, ROOT

from croupier.cli.main import main

SPEC = str(BACCARAT.relative_to(ROOT))
CARDS = "3S 2H 4D 2C 6H AS"   # player 3+4 = 7 stands; banker 2+2 = 4 draws 6H → 0; player wins


@pytest.fixture(autouse=True)
def in_repo(monkeypatch):
    monkeypatch.chdir(ROOT)


def play(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["play", SPEC, *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_play_prints_each_step_with_its_rule(capsys):
    code, out, _ = play(capsys, "--cards", CARDS, "--bet", "banker=100")
    assert code == 0
    lines = out.splitlines()
    deals = [line for line in lines if "deal" in line and "[000 §2]" in line]
    assert len(deals) == 4 and "3S" in deals[0] and "2C" in deals[3]
    player = next(line for line in lines if "player stands" in line)
    assert "draw player by total(player) [000 §7]" in player
    banker = next(line for line in lines if "banker draws 6H" in line)
    assert "draw banker when not drew(player) by total(banker) [000 §14]" in banker
    outcome = next(line for line in lines if "outcome: player" in line)
    assert "total(player) > total(banker) [000 §3]" in outcome
    assert "AS" not in " ".join(deals), "the unused card is not dealt"
    assert any("banker" in line and "100" in line and "returns 0" in line for line in lines)


def test_play_json_is_valid_json_with_steps(capsys):
    code, out, _ = play(capsys, "--cards", CARDS, "--bet", "banker=100", "--bet", "player=10", "--json")
    assert code == 0
    data = json.loads(out)
    assert data["player"] == ["3S", "4D"] and data["banker"] == ["2H", "2C", "6H"]
    assert (data["player_total"], data["banker_total"], data["outcome"]) == (7, 0, "player")
    assert data["cards_used"] == 5 and data["natural"] is False and data["banker_pair"] is True
    assert data["returns"] == {"banker": "0", "player": "20"}
    kinds = [s["step"] for s in data["steps"]]
    assert kinds == ["deal"] * 4 + ["stand", "draw", "outcome"]
    assert all(s["rule"] for s in data["steps"])
    assert data["steps"][5] == {"step": "draw", "hand": "banker", "rule": data["steps"][5]["rule"], "key": 4,
                                "card": "6H"}


def test_play_errors_are_messages_not_tracebacks(capsys):
    code, out, err = play(capsys, "--cards", "3S 2H 4D")
    assert code == 1 and "not enough cards" in err and "Traceback" not in err
    code, out, err = play(capsys, "--cards", "3S 2H 4D ZZ", "--json")
    assert code == 1 and "unknown card" in json.loads(out)["error"]


def run_jsonl(capsys, monkeypatch, lines: list[str]) -> list[dict]:
    monkeypatch.setattr(sys, "stdin", io.StringIO("".join(line + "\n" for line in lines)))
    code, out, _ = play(capsys, "--jsonl")
    assert code == 0
    return [json.loads(line) for line in out.splitlines()]


GOOD = [
    {"cards": ["3S", "2H", "4D", "2C", "6H", "AS"], "bets": {"banker": 100}},
    {"cards": ["9S", "9H", "KD", "KC"], "bets": {"tie": 10, "player": 10}},
    {"cards": ["2S", "3H", "AD", "2C", "8H"], "bets": {"banker": "12.5"}},
]
BAD = [
    "not json",
    '{"cards": ["3S", "2H", "4D", "XX"]}',
    '{"cards": ["3S", "2H", "4D"]}',
    '{"cards": ["9S", "9H", "KD", "KC"], "bets": {"dragon": 1}}',
    '{"cards": ["9S", "9H", "KD", "KC"], "bets": {"tie": -1}}',
    '{"cards": ["9S", "9H", "KD", "KC"], "bets": {"tie": "ten"}}',
    "[1, 2]",
    '{"cards": [["9S"], "9H", "KD", "KC"]}',
    '{"cards": ["9S", "9H", "KD", "KC"], "bets": {"tie": 1e999999999}}',
    '{"cards": ["9S", "9H", "KD", "KC"], "bets": {"tie": "1e-999999999"}}',
]


def test_jsonl_answers_every_line_in_order(capsys, monkeypatch):
    answers = run_jsonl(capsys, monkeypatch, [json.dumps(g) for g in GOOD])
    assert len(answers) == 3
    assert [a["cards_used"] for a in answers] == [5, 4, 5]
    assert answers[0]["returns"] == {"banker": "0"}  # every amount a string, whole or not
    assert answers[1]["returns"] == {"tie": "90", "player": "10"} and answers[1]["natural"] is True
    # player 2+1 = 3 draws 8H → 1; banker 3+2 = 5 stands on a third card of 8; 12.5 × 1.95 exactly
    assert (answers[2]["player_total"], answers[2]["banker_total"], answers[2]["outcome"]) == (1, 5, "banker")
    assert answers[2]["returns"] == {"banker": "24.375"}


@pytest.mark.parametrize("bad", BAD)
def test_jsonl_a_bad_line_between_good_ones(capsys, monkeypatch, bad):
    alone = run_jsonl(capsys, monkeypatch, [json.dumps(g) for g in GOOD])
    mixed = run_jsonl(capsys, monkeypatch, [json.dumps(GOOD[0]), bad, json.dumps(GOOD[1]), bad, json.dumps(GOOD[2])])
    assert len(mixed) == 5
    assert list(mixed[1]) == ["error"] and mixed[1]["error"]
    assert mixed[3] == mixed[1]
    assert [mixed[0], mixed[2], mixed[4]] == alone, "good lines are unaffected by the bad ones"


def test_jsonl_as_a_process():
    lines = "\n".join([json.dumps(GOOD[0]), "{", json.dumps(GOOD[1])]) + "\n"
    proc = subprocess.run([sys.executable, "-m", "croupier.cli.main", "play", SPEC, "--jsonl"], cwd=ROOT, input=lines,
                          capture_output=True, text=True, timeout=120, check=False)
    assert proc.returncode == 0, proc.stderr
    out = [json.loads(line) for line in proc.stdout.splitlines()]
    assert [("error" in o) for o in out] == [False, True, False]
    assert out[0]["outcome"] == "player" and out[2]["outcome"] == "tie"


@pytest.mark.parametrize(("bets", "said"), [(["banker=100", "banker=50"], "--bet banker is given twice"),
                                            (["banker"], "--bet 'banker' is not BET=STAKE")])
def test_a_repeated_or_malformed_bet_is_an_error_not_a_silent_choice(capsys, bets, said):
    code, out, err = play(capsys, "--cards", "3S 2H 4D 2C 6H AS",
                          *[x for b in bets for x in ("--bet", b)])
    assert code == 1 and out == "" and said in err
