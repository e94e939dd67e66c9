"""Attacks on a shared terminal and on bounds (issue 32, repros 6, 7, 9-11, 13-16, 18).

No control, bidirectional or invisible character reaches a terminal raw (`diagnostics.terminal_text`, over
every stream a command writes), specs and case files refuse them, every input is bounded before it is
parsed, and data read back (checkpoints, case files) is checked, never trusted.
"""

from __future__ import annotations

import io
import json
import time
from decimal import Decimal
from pathlib import Path

import pytest
from cli_run import in_child, in_process
from conftest import BACCARAT

from croupier.diagnostics import Span, error, render, terminal_text
from croupier.runtime.jsonl import bounded_lines
from croupier.runtime.numbers import bounded_fraction
from croupier.semantics.cases import load_case_file
from croupier.syntax.parser import check_text
from croupier.tools.replay import norm

SPEC_TEXT = BACCARAT.read_text(encoding="utf-8")
ESC_TITLE = '\x1b[1G\x1b[8A\x1b[J"Rule changes in play: none"'


# ---- 6: controls in specs, and escaped on the terminal ------------------------------------------------------------

@pytest.mark.parametrize("char", ["\x1b", "\x07", "\x9b", "\x85", "\x7f", "\u061c", "\r"])
def test_control_characters_are_refused_anywhere_in_a_spec(char):
    for text in (f'game g "G{char}"\n', f'game g "G"  # a {char}comment\n', f'game g "G"\nsource s "t" [{char}]\n'):
        assert [d.code for d in check_text(text, "s.rules")] == ["E0006"], repr(text)


@pytest.mark.parametrize("char", ["\u200b", "\u200d", "\u2060", "\ufeff"])
def test_invisible_characters_are_refused_in_names_and_labels_not_in_comments(char):
    assert [d.code for d in check_text(f'game g{char}x "G"\n', "s.rules")] == ["E0006"]
    assert [d.code for d in check_text(f'game g "G{char}"\n', "s.rules")] == ["E0006"]
    assert check_text(f'game g "G"  # a {char}comment\n', "s.rules") == []


def test_a_crlf_spec_is_still_read():
    assert check_text('game g "G"\r\nversion "1"\r\n', "s.rules") == []


def test_terminal_text_escapes_and_keeps_json_meaning():
    assert terminal_text("a\x1b[2Jb\u202ec\td\n") == "a\\u001b[2Jb\\u202ec\td\n"
    assert json.loads(terminal_text(json.dumps({"x": "\x85\u2066"}, ensure_ascii=False))) == {"x": "\x85\u2066"}


def test_a_quoted_source_line_is_escaped():
    shown = render(error("E0001", "bad", Span("s.rules", 1, 1), "hint"), f"source s {ESC_TITLE}\n")
    assert "\x1b" not in shown and "\\u001b[8A" in shown


def test_diff_never_writes_an_escape_to_the_terminal(tmp_path):
    """The repro: a source title that rewrites the screen over a payout change. The spec is refused, and
    nothing of it reaches the terminal raw."""
    old = tmp_path / "old.rules"
    old.write_text(SPEC_TEXT, encoding="utf-8")
    new = tmp_path / "new.rules"
    new.write_text(SPEC_TEXT.replace('source ', 'source ', 1).replace('"Baccarat"', f'"Baccarat{ESC_TITLE}"', 1),
                   encoding="utf-8")
    done = in_child("diff", str(old), str(new), cwd=tmp_path)
    assert done.returncode == 2 and "E0006" in done.stderr, done.stderr
    assert "\x1b" not in done.stdout + done.stderr and "Traceback" not in done.stderr


# ---- 7, 16: case files validated like specs --------------------------------------------------------------------

CASE = '[[case]]\nid = "c1"\nsource = "000"\ntitle = "t"\ninput = { cards = "3S 2H 4D 2C 6H AS" }\nexpect = { outcome = "banker" }\n'


@pytest.mark.parametrize(("text", "needle"), [
    (CASE.replace('title = "t"', 'title = "\u202et"'), "U+202E"),
    (CASE.replace('title = "t"', 'title = "\x1b[2J"'), "U+001B"),
    ('case = "x"\n', "`case` must be a list of tables"),
    ("case = [1, 2]\n", "`case` must be a list of tables"),
    (CASE.replace('input = { cards = "3S 2H 4D 2C 6H AS" }', 'input = "string"'), "`input` must be a table"),
    (CASE.replace('expect = { outcome = "banker" }', "expect = { when = 2024-01-01 }"), "date or time"),
    (CASE + 'specs = "baccarat"\n', "`specs` must be a non-empty list"),
    ('also = "x"\n' + CASE, "`also` must be a list"),
    (CASE.replace('source = "000"', "source = 3"), "`source` must be text"),
    ("[[case]\n", "cannot read reference cases"),
])
def test_a_malformed_case_file_is_a_positioned_diagnostic(tmp_path, text, needle):
    path = tmp_path / "baccarat.toml"
    path.write_text(text, encoding="utf-8")
    cases, diags = load_case_file(path)
    assert cases == [] and diags and any(needle in d.message for d in diags), [d.message for d in diags]
    assert all(d.is_error and d.span.line >= 1 for d in diags)


def test_a_well_formed_case_file_still_loads(tmp_path):
    path = tmp_path / "baccarat.toml"
    path.write_text(CASE, encoding="utf-8")
    cases, diags = load_case_file(path)
    assert diags == [] and [c.id for c in cases] == ["c1"] and cases[0].specs == ("baccarat",)


# ---- 9, 11: request lines bounded, duplicate keys -----------------------------------------------------------------

class Recording(io.BytesIO):
    """A byte stream that remembers the largest read asked of it."""

    largest = 0

    def readline(self, size=-1):
        self.largest = max(self.largest, size)
        return super().readline(size)


def test_an_oversized_line_is_answered_without_being_held_whole():
    raw = Recording(b'{"cards": "' + b"AS " * 400_000 + b'"}\n{"cards": "3S 2H 4D 2C 6H AS"}\n')
    stream = io.TextIOWrapper(raw, encoding="utf-8")
    lines = list(bounded_lines(stream, 1000))
    assert lines == [None, '{"cards": "3S 2H 4D 2C 6H AS"}']
    assert raw.largest <= 1 << 16, "the oversized line is skipped in chunks, never read whole"


def test_play_jsonl_caps_a_line_and_the_option_raises_the_cap():
    big = json.dumps({"cards": "3S 2H 4D 2C 6H AS", "bets": {"banker": 1}, "pad": "x" * 1_100_000})
    done = in_child("play", str(BACCARAT), "--jsonl", stdin=big + '\n{"cards": "3S 2H 4D 2C 6H AS"}\n')
    answers = [json.loads(line) for line in done.stdout.splitlines()]
    assert "longer than 1,000,000 bytes" in answers[0]["error"] and "error" not in answers[1]
    raised = in_process("play", str(BACCARAT), "--jsonl", "--max-line-bytes", "2000000", stdin=big + "\n")
    assert "longer than" not in raised.stdout
    assert in_process("play", str(BACCARAT), "--jsonl", "--max-line-bytes", "0").returncode == 2


def test_a_key_given_twice_is_an_error_naming_it():
    done = in_process("play", str(BACCARAT), "--jsonl",
                      stdin='{"cards": "3S 2H 4D 2C 6H AS", "bets": {"banker": 100, "banker": 5}}\n')
    assert "'banker' is given twice" in json.loads(done.stdout)["error"]


# ---- 10: numbers read back without expanding an exponent ----------------------------------------------------------

def test_logged_numbers_are_read_under_bounds():
    start = time.monotonic()
    for value in ("1e999999999", Decimal("1e999999999"), "9" * 100, "1/0"):
        assert bounded_fraction(value) is None
        norm(value)
    assert norm({"a": "10.5", "b": 3}) == {"a": Decimal("10.5"), "b": 3}
    assert time.monotonic() - start < 5


def test_a_replayed_log_with_a_huge_exponent_is_a_mismatch(tmp_path):
    log = tmp_path / "log.jsonl"
    line = {"round": 1, "cards": ["3S", "2H", "4D", "2C", "6H", "AS"], "bets": {"b": {"banker": "1e999999999"}}}
    log.write_text(json.dumps(line) + "\n", encoding="utf-8")
    done = in_process("play", str(BACCARAT), "--replay", str(log), cwd=tmp_path)
    assert done.returncode == 1 and "line 1" in done.stdout


# ---- 13: scheduler addresses ------------------------------------------------------------------------------------

def test_a_bad_scheduler_address_fails_at_once_without_noise():
    for address in ("garbage", "tcp://[::1", "inproc://x"):
        done = in_process("simulate", str(BACCARAT), "--shoes", "1", "--scheduler", address)
        assert done.returncode == 2 and "scheduler address" in done.stderr, done.stderr
    start = time.monotonic()
    done = in_child("simulate", str(BACCARAT), "--shoes", "1", "--scheduler", "tls://127.0.0.1:1", timeout=60)
    assert done.returncode in (1, 2) and "Exception ignored" not in done.stderr and "Traceback" not in done.stderr
    assert "scheduler" in done.stderr and time.monotonic() - start < 30


# ---- 14, 18: the engine bounds its own arguments --------------------------------------------------------------

def test_the_engine_bounds_its_own_arguments(baccarat):
    start = time.monotonic()
    for decks in (10**6, 0, -1, True, 2.5, "8"):
        with pytest.raises(baccarat.InvalidTable):
            baccarat.Table(decks=decks)
    with pytest.raises(baccarat.InvalidTable):
        baccarat.Table(seed=1.5)
    assert time.monotonic() - start < 2
    r = baccarat.play(["3S", "2H", "4D", "2C", "6H", "AS"]) if hasattr(baccarat, "play") else None
    game = baccarat.game if hasattr(baccarat, "game") else baccarat
    for bad in ([["banker", 1]], "banker", 3):
        with pytest.raises(baccarat.InvalidBet):
            game.settle(r, bad)
        with pytest.raises(baccarat.InvalidBet):
            game.check_limits(next(iter(game.ROOMS), "none"), bad)


# ---- 15: checkpoints are sealed -----------------------------------------------------------------------------------

def _checkpoint(tmp_path: Path, env_cache: str | None = None) -> Path:
    path = tmp_path / "c.json"
    done = in_process("simulate", str(BACCARAT), "--shoes", "2", "--checkpoint", str(path), cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    return path


def test_a_consistently_edited_checkpoint_is_refused(tmp_path):
    path = _checkpoint(tmp_path)
    data = json.loads(path.read_text(encoding="utf-8"))
    outcomes = data["tally"]["outcomes"]
    first, second = sorted(outcomes)[:2]
    moved = min(outcomes[first], 5)
    outcomes[first] -= moved
    outcomes[second] += moved
    path.write_text(json.dumps(data), encoding="utf-8")
    done = in_process("simulate", str(BACCARAT), "--shoes", "3", "--resume", str(path), cwd=tmp_path)
    assert done.returncode == 2 and "seal does not match" in done.stderr, done.stderr


def test_an_inconsistent_checkpoint_with_a_recomputed_digest_is_a_message(tmp_path, monkeypatch):
    from croupier.tools import checkpoint

    monkeypatch.setenv("CROUPIER_CACHE", "off")
    path = _checkpoint(tmp_path)
    for edit in ({"rounds": 0}, {"net": {"banker": ["9" * 4000, 0, 0]}}):
        data = json.loads(path.read_text(encoding="utf-8"))
        assert "sha256" in data["seal"]
        data["tally"].update(edit)
        data["seal"] = checkpoint.seal(data)
        bad = tmp_path / "bad.json"
        bad.write_text(json.dumps(data), encoding="utf-8")
        done = in_process("simulate", str(BACCARAT), "--shoes", "3", "--resume", str(bad), cwd=tmp_path)
        assert done.returncode == 2 and "is not a checkpoint" in done.stderr, done.stderr
