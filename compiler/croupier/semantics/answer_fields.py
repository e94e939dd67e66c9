"""The fields of an engine's answers, declared once: the names a spec's own names may not take.

An engine answers `play --jsonl` requests (and `play --json`, and the log of
`simulate`) with JSON objects whose keys are partly fixed (`error`, `returns`,
…) and partly spec names (each hand, `<hand>_total`, each event and formula).
The resolver refuses a spec name that would write a fixed field or that two
spec names would share (E0116), and a spec name whose Python identifier in the
engine the engine already uses (E0117). The engine's runtime and the tools
that add to its answers write exactly these fields: a test reads their source
and holds them to this declaration, so that nothing here depends on a later
stage's files.
"""

from __future__ import annotations

# Every fixed key written into an answer, a log record or a note merged into one, by where it is written.
ANSWER_KEYS: frozenset[str] = frozenset({
    "error",  # any request the engine refuses (runtime/jsonl.py)
    "outcome", "cards_used", "returns",  # a dealt round (runtime/dealt_round.py)
    "round", "cards", "bets", "room", "squeeze", "cut_card", "last", "ran_out", "valid", "void",  # a table round (table.py)
    "type", "points", "substitution", "wild",  # a seat game's hand (runtime/seat_hands.py)
    "hands", "order", "results", "transfers", "net", "label",  # a seat game's table (runtime/seat_table.py)
    "steps", "rules",  # `play --json` explains a round and names its rules (tools/explain.py); the log adds
    # round, cards, bets, room (replay.py)
})
# Suffixes added to a spec name to make a key (`out[hand + "_total"]`).
ANSWER_SUFFIXES: tuple[str, ...] = ("_total",)
# The engine's `Round` fields besides the hands (a hand is an attribute of `Round`).
ROUND_FIELDS: frozenset[str] = frozenset({"outcome", "cards_used", "steps"})
# The engine's own top-level names of the shapes spec names take there (`decide_<hand>`, `DRAW_<HAND>`, `event_`,
# `bet_`, `formula_`, `type_<name>`): none, so that no spec name can collide with the runtime.
ENGINE_GLOBALS: frozenset[str] = frozenset()
# The shapes those identifiers take (a test holds the runtime to ENGINE_GLOBALS with these).
SPEC_IDENTIFIER_PREFIXES: tuple[str, ...] = ("decide_", "DRAW_", "event_", "bet_", "formula_", "type_")


def reserved_for(kind: str) -> frozenset[str]:
    """Names a declared hand, event or formula may not take: the engine writes them as answer fields
    (a hand is also an attribute of the engine's `Round`)."""
    if kind == "hand":
        return ANSWER_KEYS | ROUND_FIELDS
    if kind in ("event", "formula"):
        return ANSWER_KEYS
    return frozenset()
