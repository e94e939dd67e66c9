"""Changing one cell of the banker grid changes the engine on exactly the rounds that reach that cell.

A copy of spec/baccarat.rules with one cell flipped is compiled from a temporary
folder (resolved and emitted: the static checks are tested on their own, in test_checks.py); the two engines then play every constructed situation (player two-card
total × banker two-card total × player third-card value) and must differ on
exactly the situations whose banker decision is that cell.
"""

from __future__ import annotations

import re

import pytest
from conftest import BACCARAT, card, compile_engine, two_cards

GRID_ROW = re.compile(r"^(\s*\|\s*)(\d)(\s*\|)([DS ]+)(\|.*)$")


def flip_cell(text: str, row: int, col: int) -> tuple[str, str]:
    """The spec text with banker-grid cell (row, col) flipped, and the cell's new mark."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = GRID_ROW.match(line)
        if m and int(m.group(2)) == row and len(m.group(4).split()) == 10:
            marks = m.group(4).split()
            marks[col] = "S" if marks[col] == "D" else "D"
            lines[i] = f"{m.group(1)}{m.group(2)}{m.group(3)} {' '.join(marks)} {m.group(5)}"
            return "\n".join(lines), marks[col]
    raise AssertionError(f"no grid row {row} in the spec")


def situations():
    """Every (player total, banker total, player third value) round, as card lists, with its key."""
    for p in range(10):
        for b in range(10):
            for v in range(10):
                p1, p2 = two_cards(p, v)
                b1, b2 = two_cards(b, v + 1)
                yield (p, b, v), [p1, b1, p2, b2, card(v, 2), card(7, 3)]


CELLS = [(3, 8), (0, 0), (4, 1), (6, 7), (7, 9), (5, 4)]


@pytest.mark.parametrize(("row", "col"), CELLS, ids=[f"cell-{r}x{c}" for r, c in CELLS])
def test_one_cell_changes_exactly_its_rounds(baccarat, tmp_path, row, col):
    mutated_text, mark = flip_cell(BACCARAT.read_text(encoding="utf-8"), row, col)
    spec = tmp_path / "baccarat.rules"
    spec.write_text(mutated_text, encoding="utf-8")
    mutated = compile_engine(spec, checks=False)  # the engine is under test here, not the checks
    assert mutated.DRAW_BANKER_2[(row, col)] is (mark == "D")

    differing = set()
    for key, cards in situations():
        before = baccarat.record(baccarat.play(cards))
        after = mutated.record(mutated.play(cards))
        if before != after:
            differing.add(key)
            assert len(after["banker"]) == (3 if mark == "D" else 2)
    # Rounds that reach the cell: the player draws (0–5, so no natural is possible with a banker 0–7),
    # the banker's two cards total `row`, the player's third card is worth `col`.
    reaching = {(p, row, col) for p in range(6)}
    assert differing == reaching


def test_a_variant_in_the_same_folder_inherits_the_mutated_grid(tmp_path):
    """A variant looks up its base next to itself: a mutated base changes the variant too."""
    mutated_text, _ = flip_cell(BACCARAT.read_text(encoding="utf-8"), 3, 8)
    (tmp_path / "baccarat.rules").write_text(mutated_text, encoding="utf-8")
    variant = BACCARAT.with_name("baccarat_commission.rules")
    (tmp_path / variant.name).write_text(variant.read_text(encoding="utf-8"), encoding="utf-8")
    engine = compile_engine(tmp_path / variant.name, checks=False)
    p1, p2 = two_cards(2)
    b1, b2 = two_cards(3, 1)
    r = engine.play([p1, b1, p2, b2, card(8), card(1)])
    assert len(r.banker) == 3, "banker 3 against a player third card of 8 now draws"
