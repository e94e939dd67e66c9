"""Events and `let`s read each other (in any order of the spec, never in a cycle), and the engine, the exact
analysis and a brute-force enumeration through the engine's own `play` agree on what they say."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from conftest import analyze_output, compile_engine
from enumerate_play import event_probabilities

# A small shoe (12 cards), so that every deal can be listed. `e` reads a boolean `let` written after it and an
# event written after it; a draw rule reads `e`.
SPEC = """game h "H"
deck short = ranks A 2 3 4, suits S H C
shoe 1 deck of short
value A = 1, 2..4 = pip
total sum mod 10
hand p "P"
hand b "B"
deal p, b, p, b
event e "E" when not big and f
let big "Big" = total(p) > 5
event f "F" when total(b) > 2
draw p when e by total(p)
    | 0 1 2 3 4 5 6 7 8 9 |
    | D D D D D D S S S S |
outcome pw "P" when total(p) > total(b)
outcome bw "B" when total(b) > total(p)
outcome t "T" when total(p) = total(b)
bet pb "PB"
    wins when e, pays 2 including stake
"""


def spec_file(tmp_path: Path) -> Path:
    path = tmp_path / "h.rules"
    path.write_text(SPEC, encoding="utf-8")
    return path


def test_an_event_reads_a_let_and_another_event_written_after_it(tmp_path):
    engine = compile_engine(spec_file(tmp_path), checks=False)
    low = engine.record(engine.play("AS 2H AC 2C 3H"))  # P A+A = 2, B 2+2 = 4: not big and f, so P draws the 3
    assert (low["e"], low["f"], low["p"]) == (True, True, ["AS", "AC", "3H"])
    drew_high = engine.record(engine.play("AS 2H 3S 2C 4H"))  # P draws to 8: an event is read on the final round
    assert (drew_high["e"], drew_high["p"]) == (False, ["AS", "3S", "4H"])
    high = engine.record(engine.play("4S 2H 3C 2C"))  # P 7: big
    assert (high["e"], high["f"], high["p"]) == (False, True, ["4S", "3C"])


def test_the_exact_analysis_of_such_events_is_the_engines_own(tmp_path):
    spec = spec_file(tmp_path)
    engine = compile_engine(spec, checks=False)
    shoe = [f"{rank}{suit}" for rank in "A234" for suit in "SHC"]
    truth = event_probabilities(engine, shoe)
    analysed = json.loads(analyze_output(str(spec), "--json"))["events"]
    assert {k: Fraction(v).limit_denominator(10**12) for k, v in analysed.items()} == truth
    assert truth["e"] not in (0, 1)
