"""What a spec's rules read of a hand that needs no game data: a card by position, a draw table's grid and cell."""

from croupier.runtime.errors import EngineError, MissingCell


def third(cards):
    """The third card of a hand, or None when it has only two."""
    return cards[2] if len(cards) > 2 else None


def first_card(cards):
    """The first card of a hand, or None when it holds none."""
    return cards[0] if cards else None


def last_card(cards):
    """The last card of a hand, or None when it holds none."""
    return cards[-1] if cards else None


def card_at(cards, position):
    """The card at a position of a hand, counted from 1; None when the hand holds no such card."""
    if position != int(position):
        raise EngineError(f"a card's position is a whole number, not {position}")
    position = int(position)
    return cards[position - 1] if 1 <= position <= len(cards) else None


def grid_table(columns, rows):
    """A draw table from its grid: {row key: "D S …"} (or {(keys…): "D S …"} for one key).

    Cells are D (draw) or S (stand); the result maps a key, or a (row, column)
    pair, to True for draw and False for stand.
    """
    table = {}
    for row, cells in rows.items():
        marks = cells.split()
        if columns is None:
            table.update({key: mark == "D" for key, mark in zip(row, marks) if mark in "DS"})
        else:
            table.update({(row, col): mark == "D" for col, mark in zip(columns, marks) if mark in "DS"})
    return table


def draw_decision(table, rule, key):
    """(rule, key, draws) of a hand deciding by a draw table (`grid_table`) at `key`; MissingCell when the
    table has no cell there."""
    draws = table.get(key)
    if draws is None:
        raise MissingCell(rule, key)
    return rule, key, draws
