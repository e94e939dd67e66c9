"""Engine runtime for dealt rounds: a draw table made from the spec's grid, a part.

Copied only into an engine whose rules draw by a table. (Apart from `dealt_round`, which
then has no parts; see `dealt_parts`.)
"""

# ---- engine ----

# ---- part grid_table if uses grid_table ----
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
# ---- end grid_table ----
