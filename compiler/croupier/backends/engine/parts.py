"""Engine back end, runtime parts: which pieces of `runtime/` a generated module carries.

A runtime module (`runtime/<module>.py`) is ordinary Python, linted and tested like
the rest of the compiler. The text below its marker line (`# ---- engine ----`, or
`# ---- companion ----` for the analysis companion's part) is copied into generated
modules; the imports above it are for linters only. Inside that text a *part* is
marked, as a section is in Lark's standalone generator:

    # ---- part NAME if CONDITION ----
    ...
    # ---- end NAME ----

and copied only when its condition holds for the game: `FEATURE` (a construct the
spec uses, see `features`), `not FEATURE` (an alternative: a short stand-in with the
same name and the same behaviour for a game without the feature), or `uses NAME`
(the code generated from the spec's rules calls NAME). Parts do not nest. In the
generated module every copied module and part is marked where it begins and ends,
the module with its source file named:

    # ---- runtime: table_parts (begin) ---- croupier/backends/engine/runtime/table_parts.py
    # ---- runtime: table_parts.squeeze (begin) ---- if squeeze
    # ---- runtime: table_parts.squeeze (end) ----
    # ---- runtime: table_parts (end) ----
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from croupier.backends.engine.code_reading import names_read
from croupier.backends.engine.runtime_files import (  # noqa: F401 - RUNTIME and SOURCE: for the modules that import them from here
    BEGIN,
    COMPANION_MARKER,
    END,
    ENGINE_MARKER,
    RUNTIME,
    SOURCE,
    framed,
    runtime_text,
)
from croupier.semantics.model import Game

CONDITION = re.compile(r"^(?:(not|uses) )?([\w-]+)$")


@dataclass(frozen=True)
class Copied:
    """One runtime module as copied into a generated module: its marked text and which parts it holds."""

    module: str
    text: str
    included: tuple[str, ...]
    left_out: tuple[str, ...]


def features(game: Game, rules_code: str) -> frozenset[str]:
    """What the game uses, in the words of the parts' conditions: the constructs of its spec and
    `uses NAME` for every name the code generated from its rules reads."""
    out: set[str] = set()
    if game.is_dealt_round:
        if game.rooms:
            out.add("rooms")
        if game.squeeze is not None:
            out.add("squeeze")
        if game.void_returns_stakes:
            out.add("void")
        if game.valid_bets_pushed_none:
            out.add("pushed-stakes")
        if game.repeats:
            out.add("repeats")
        if game.soft is not None:
            out.add("soft")
    if game.is_seat_game:
        if game.wild is not None:
            out.add("wild")
        out.add(game.settlement.scheme)
    return frozenset(out | {f"uses {n}" for n in names_read(rules_code)})


def holds(condition: str, have: frozenset[str]) -> bool:
    """Whether a part's condition holds for a game with the features `have`."""
    m = CONDITION.match(condition)
    if m is None:
        raise ValueError(f"a runtime part's condition reads `FEATURE`, `not FEATURE` or `uses NAME`, not {condition!r}")
    word, name = m.groups()
    if word == "uses":
        return f"uses {name}" in have
    return (name in have) != (word == "not")


def copy_module(module: str, have: frozenset[str], marker: str = ENGINE_MARKER) -> Copied:
    """One runtime module with the parts whose condition holds, every piece marked where it begins and ends."""
    out = []
    included: list[str] = []
    left_out: list[str] = []
    part: tuple[str, str, bool] | None = None  # (name, indent, copied)
    for line in runtime_text(module, marker).splitlines():
        if "# ---- " not in line:  # most lines: no marker (read without the two patterns)
            if part is None or part[2]:
                out.append(line)
            continue
        begin, end = BEGIN.match(line), END.match(line)
        if begin:
            if part is not None:
                raise ValueError(f"runtime/{module}.py: part {begin[2]} begins inside part {part[0]}")
            indent, name, condition = begin.groups()
            part = (name, indent, holds(condition, have))
            (included if part[2] else left_out).append(name)
            if part[2]:
                out.append(f"{indent}# ---- runtime: {module}.{name} (begin) ---- if {condition}")
        elif end:
            if part is None or part[0] != end[2]:
                raise ValueError(f"runtime/{module}.py: `end {end[2]}` closes no open part of that name")
            if part[2]:
                out.append(f"{part[1]}# ---- runtime: {module}.{part[0]} (end) ----")
            part = None
        elif part is None or part[2]:
            out.append(line)
    if part is not None:
        raise ValueError(f"runtime/{module}.py: part {part[0]} never ends")
    return Copied(module, framed(module, out), tuple(included), tuple(left_out))


def parts_summary(copied: list[Copied]) -> list[str]:
    """The runtime parts of a generated module, for its docstring: the modules with the parts
    they hold, then the parts left out."""
    held = ", ".join(c.module + (f" ({', '.join(c.included)})" if c.included else "") for c in copied)
    lines = [f"Runtime parts: {held}."]
    gone = [f"{c.module}.{p}" for c in copied for p in c.left_out]
    if gone:
        lines.append(f"Left out for this spec: {', '.join(gone)}.")
    return lines
