"""Silent faults found in review (issue 12), each pinned by a test that fails without its fix.

1. A verdict the settlement scheme has no role for (`banker-wins` in `settle pairwise`) was accepted,
   counted as a tie rule by the hand-type check and ignored by the engine: now an error (E0150).
2. The seat analysis, `explain` and the card found the banker game's stake by the name one spec chose
   for its formula: now the spec declares it (`each player stakes NAME`) and they read the model.
3. `drew(hand)` meant "holds more than two cards": now "holds more cards than the deal gave it".
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from pathlib import Path

import pytest
from conftest import ROOT

from croupier.backends.cards.render import render_markdown
from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.cli.main import main
from croupier.diagnostics import render
from croupier.driver.compile import Level, card_mathematics, compile_spec
from croupier.figures import pct
from croupier.semantics.resolve import Loader

BANKER_SPEC = ROOT / "spec" / "ten_and_a_half_banker.rules"
# the banker's exact edge per stake, both hitting below 8 (tests/test_analysis_seat.py checks it by simulation)
BANKER_EDGE = Fraction(2213696206811, 12563624414250)

SEAT_HEAD = """game s "S" zh-Hans "S" zh-Hant "S"
shoe 1 deck of standard52
value A = 1, 2..10 = pip, J Q K = 1/2
total sum
seats 2..4
hand size 1..3
type good "Good" zh-Hans "Good" zh-Hant "Good"
    when total <= 10.5
    multiplier 2
type bust "Bust" zh-Hans "Bust" zh-Hant "Bust"
    when total > 10.5
    multiplier 1
order within good, bust by total, count
"""


def load(path: Path):
    game, diags = Loader().load(str(path))
    return game, diags


def diagnostics(tmp_path: Path, text: str) -> list:
    path = tmp_path / "s.rules"
    path.write_text(text, encoding="utf-8")
    return [d for d in compile_spec(path, Level.CHECKED).diagnostics if d.is_error]


# ---- 1. a verdict the scheme has no role for ----------------------------------------------------------------

@pytest.mark.parametrize("verdict", ["banker-wins", "player-wins"])
def test_pairwise_rejects_a_verdict_with_no_role(tmp_path, verdict):
    text = SEAT_HEAD + f"""settle pairwise "P" zh-Hans "P" zh-Hant "P"
    {verdict} when tied
    pay stake(loser) * multiplier(winner)
"""
    errs = diagnostics(tmp_path, text)
    assert [d.code for d in errs] == ["E0150"]
    d = errs[0]
    assert (d.span.line, d.span.column) == (15, 5) and verdict in d.message and "draw when" in d.hint
    shown = render(d, text)
    assert f"{verdict} when tied" in shown and "^" in shown and "hint:" in shown


def test_pairwise_with_draw_when_tied_is_accepted(tmp_path):
    text = SEAT_HEAD + """settle pairwise "P" zh-Hans "P" zh-Hant "P"
    draw when tied
    pay stake(loser) * multiplier(winner)
"""
    assert diagnostics(tmp_path, text) == []


def test_every_settlement_code_has_a_golden_file():
    # resolve_checks.py is not among the modules test_errors_golden scans; cover this block's codes here
    codes = set(re.findall(r'"(E015\d)"', (ROOT / "compiler" / "croupier" / "semantics" / "resolve_checks.py").read_text(encoding="utf-8")))
    assert codes == {"E0150", "E0151", "E0152", "E0153", "E0154"}
    goldens = {p.name[:5] for p in (ROOT / "tests" / "errors").glob("E015*.rules")}
    assert codes <= goldens


# ---- 2. the stake is declared, not found by name ---------------------------------------------------------

def renamed_spec(tmp_path: Path, new: str = "table_unit") -> Path:
    text = BANKER_SPEC.read_text(encoding="utf-8")
    assert text.count("base_bet") == 3  # the let, the stake line and the pay line
    path = tmp_path / "renamed_banker.rules"
    path.write_text(text.replace("base_bet", new), encoding="utf-8")
    return path


def test_the_compiler_names_no_formula_of_a_spec():
    hits = [str(p.relative_to(ROOT)) for p in (ROOT / "compiler" / "croupier").rglob("*")
            if p.is_file() and "__pycache__" not in p.parts and "base_bet" in p.read_text(encoding="utf-8", errors="replace")]
    assert hits == []


def test_the_model_records_the_declared_stake():
    game, diags = load(BANKER_SPEC)
    assert not any(d.is_error for d in diags)
    assert game.settlement.stake == "base_bet" and game.settlement.stake_lines[0].cite == "004 底注規則"


def test_renaming_the_stake_formula_leaves_the_banker_edge_unchanged(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CROUPIER_CACHE", "off")
    path = renamed_spec(tmp_path)
    assert main(["analyze", str(path), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert Fraction(data["banker_game"]["banker_edge_exact"]) == BANKER_EDGE


def test_explain_and_card_read_the_declared_stake(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("CROUPIER_CACHE", "off")
    path = renamed_spec(tmp_path)
    table = {"banker": "p1", "hands": {"p1": ["9S", "AH"], "p2": ["10S"]}, "coins": {"p1": 1500, "p2": 1500}}
    assert main(["play", str(path), "--table", json.dumps(table)]) == 0
    out = capsys.readouterr().out
    assert "base bet (table_unit): 100" in out  # 1500 / 15 with two players
    game, _ = load(path)
    card = render_markdown(game, "en", [], card_mathematics(game, "en"))
    label = game.formulas["table_unit"].label("en")  # the card names the declared stake by its label, in words
    assert f"Each player stakes the {label} against the banker." in card
    assert f"the banker's edge is {pct(BANKER_EDGE)} of the base bet" in card


def test_removing_the_stake_line_is_an_error_not_a_wrong_figure(tmp_path):
    text = BANKER_SPEC.read_text(encoding="utf-8")
    text = "\n".join(line for line in text.splitlines() if "each player stakes" not in line) + "\n"
    errs = diagnostics(tmp_path, text)
    assert [d.code for d in errs] == ["E0153"]


# ---- 3. drew() counts the cards after the deal -------------------------------------------------------------

DEALT_SPEC = """game d "D" zh-Hans "D" zh-Hant "D"
shoe 1 deck of standard52
value A = 1, 2..9 = pip, 10 J Q K = 0
total sum mod 10
hand player "Player" zh-Hans "P" zh-Hant "P"
hand banker "Banker" zh-Hans "B" zh-Hant "B"
deal {deal}
draw player by total(player)
    | 0 1 2 3 4 5 6 7 8 9 |
    | D D D D D D S S S S |
draw banker when drew(player) by total(banker)
    | 0 1 2 3 4 5 6 7 8 9 |
    | D D D D D D D D D D |
draw banker when not drew(player) by total(banker)
    | 0 1 2 3 4 5 6 7 8 9 |
    | S S S S S S S S S S |
outcome player "Player" zh-Hans "P" zh-Hant "P" when total(player) > total(banker)
outcome banker "Banker" zh-Hans "B" zh-Hant "B" when total(banker) > total(player)
outcome tie "Tie" zh-Hans "T" zh-Hant "T" when total(player) = total(banker)
"""


def engine_for(tmp_path: Path, deal: str):
    path = tmp_path / "d.rules"
    path.write_text(DEALT_SPEC.format(deal=deal), encoding="utf-8")
    game, diags = load(path)
    assert game is not None and not any(d.is_error for d in diags), [d.message for d in diags]
    return load_engine(emit_engine(game, "d.rules"), "silent_drew")


def banker_step(engine, cards: str) -> dict:
    r = engine.play(cards, explain=True)
    return next(s for s in r.steps if s.get("hand") == "banker" and s["step"] in ("draw", "stand"))


def test_drew_is_false_for_a_hand_dealt_three_cards_that_stands(tmp_path):
    engine = engine_for(tmp_path, "player, banker, player, player, banker")
    # player 2+4+10 = 6 stands with three dealt cards; the banker must take `not drew(player)` and stand
    step = banker_step(engine, "2S 3H 4D 10C 5S 9D")
    assert step["step"] == "stand" and "not drew(player)" in step["rule"]
    # player 2+A+10 = 3 draws 9D; now drew(player) holds and the banker draws
    step = banker_step(engine, "2S 3H AD 10C 5S 9D 8C")
    assert step["step"] == "draw" and "not drew" not in step["rule"] and step["card"] == "8C"


def test_drew_is_true_for_a_hand_dealt_one_card_that_draws(tmp_path):
    engine = engine_for(tmp_path, "player, banker, banker")
    # player 2 draws 4D (two cards in all), which is a draw after a one-card deal
    step = banker_step(engine, "2S 3H 4C 4D 9S")
    assert step["step"] == "draw" and "not drew" not in step["rule"]
    r = engine.play("7S 3H 4C 9S")  # player 7 stands on its one card
    assert r.player == ["7S"] and r.banker == ["3H", "4C"]
