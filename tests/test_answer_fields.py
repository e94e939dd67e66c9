"""The declared answer fields (`semantics/answer_fields.py`) are exactly what the engines write.

The resolver refuses spec names that clash with an engine's answer fields or its
own identifiers (E0116, E0117) from a declaration, not from reading the later
stages' files. This test reads those files (never runs them) and holds them to
the declaration: every fixed key written into an answer (`out["error"] = …`,
`{"error": …}`), every suffix added to a spec name (`out[hand + "_total"]`), the
`Round`'s own `__slots__`, and no top-level name of the runtime or of a
generated engine in the shape of a spec-derived identifier unless declared.
"""

from __future__ import annotations

import ast as pyast
import re
from pathlib import Path

import pytest

from croupier.semantics.answer_fields import (
    ANSWER_KEYS,
    ANSWER_SUFFIXES,
    ENGINE_GLOBALS,
    ROUND_FIELDS,
    SPEC_IDENTIFIER_PREFIXES,
    reserved_for,
)
from croupier.semantics.resolve import Loader
from croupier.semantics.resolve_checks import draw_ident

ROOT = Path(__file__).resolve().parent.parent
RUNTIME = ROOT / "compiler" / "croupier" / "runtime"
WRITERS = [ROOT / "compiler" / "croupier" / "tools" / name for name in ("explain.py", "replay.py")]  # add to an answer
ANSWER_VARS = ("out", "note", "result", "record", "rec")  # variables holding an answer or a record
NOT_ANSWERS = ("analysis_round.py", "analysis_general.py", "analysis_summary.py", "analysis_weights.py",
               "__init__.py")  # the exact analysis nests spec names one level down
SPEC_SHAPED = re.compile("^(" + "|".join(re.escape(p) for p in SPEC_IDENTIFIER_PREFIXES) + ")")


def _str(node: pyast.AST) -> str | None:
    return node.value if isinstance(node, pyast.Constant) and isinstance(node.value, str) else None


def scan() -> tuple[set[str], set[str], set[str], set[str]]:
    """(answer keys, suffixes, Round fields, runtime top-level names) read from the source files."""
    keys: set[str] = set()
    suffixes: set[str] = set()
    fields: set[str] = set()
    top: set[str] = set()
    for path in sorted(RUNTIME.glob("*.py")) + WRITERS:
        tree = pyast.parse(path.read_text(encoding="utf-8"))
        for node in tree.body if path.parent == RUNTIME else ():
            if isinstance(node, (pyast.FunctionDef, pyast.ClassDef)):
                top.add(node.name)
            elif isinstance(node, pyast.Assign):
                top.update(t.id for t in node.targets if isinstance(t, pyast.Name))
        for node in pyast.walk(tree):
            if isinstance(node, pyast.ClassDef) and node.name == "Round":
                for item in pyast.walk(node):
                    if isinstance(item, pyast.Assign) and any(
                            isinstance(t, pyast.Name) and t.id == "__slots__" for t in item.targets):
                        fields.update(s for c in pyast.walk(item.value) if (s := _str(c)) is not None)
            if path.name in NOT_ANSWERS:
                continue
            if isinstance(node, pyast.Assign):
                for t in node.targets:
                    if isinstance(t, pyast.Subscript) and isinstance(t.value, pyast.Name) and t.value.id in ANSWER_VARS:
                        if (s := _str(t.slice)) is not None:
                            keys.add(s)
                        elif isinstance(t.slice, pyast.BinOp) and (s := _str(t.slice.right)) is not None:
                            suffixes.add(s)
                    if isinstance(t, pyast.Name) and t.id in ANSWER_VARS and isinstance(node.value, pyast.Dict):
                        keys.update(s for k in node.value.keys if k is not None and (s := _str(k)) is not None)
            if isinstance(node, pyast.Call) and getattr(node.func, "attr", None) == "dumps":
                for arg in node.args:
                    if isinstance(arg, pyast.Dict):
                        keys.update(s for k in arg.keys if k is not None and (s := _str(k)) is not None)
    return keys, suffixes, fields, top


def test_the_declaration_is_what_the_runtime_writes() -> None:
    keys, suffixes, fields, top = scan()
    assert keys == ANSWER_KEYS
    assert suffixes == set(ANSWER_SUFFIXES)
    assert fields == ROUND_FIELDS
    assert {name for name in top if SPEC_SHAPED.match(name)} <= ENGINE_GLOBALS


def test_a_scan_finds_the_fields_it_should() -> None:
    """The scan itself works: fields every engine answer has by the contract in README are found."""
    keys, suffixes, fields, top = scan()
    assert {"error", "returns", "cards_used", "outcome", "hands", "order", "transfers", "net", "results"} <= keys
    assert "_total" in suffixes and "steps" in fields and {"DealtRound", "Round", "EngineError"} <= top


# every engine (an analysis companion names no spec shape: it has no spec of its own name)
ENGINES = sorted(p for p in (ROOT / "generated" / "engines").glob("*.py") if (ROOT / "spec" / f"{p.stem}.rules").exists())


@pytest.mark.parametrize("engine", ENGINES, ids=lambda p: p.stem)
def test_a_generated_engine_names_nothing_in_the_spec_shapes_but_the_specs_names(engine: Path) -> None:
    game, _diags = Loader().load(str(ROOT / "spec" / f"{engine.stem}.rules"))
    spec_names = {f"{prefix}_{name}" for prefix, group in (("event", game.events), ("bet", game.bets),
                                                          ("formula", game.formulas)) for name in group}
    spec_names |= {f"type_{t.name}" for t in game.types}
    for hand, tables in game.hand_draws():
        spec_names.add(f"decide_{hand}")
        for i, _t in enumerate(tables, 1):
            spec_names |= {draw_ident(hand, i, len(tables)), draw_ident(hand, i, len(tables)) + "_RULE"}
    tree = pyast.parse(engine.read_text(encoding="utf-8"))
    top = {n.name for n in tree.body if isinstance(n, (pyast.FunctionDef, pyast.ClassDef))}
    top |= {t.id for n in tree.body if isinstance(n, pyast.Assign) for t in n.targets if isinstance(t, pyast.Name)}
    assert {name for name in top if SPEC_SHAPED.match(name)} - spec_names <= ENGINE_GLOBALS


def test_reserved_names_by_kind() -> None:
    assert "steps" in reserved_for("hand") and "steps" in reserved_for("event")
    assert "cards_used" in reserved_for("hand") and reserved_for("bet") == frozenset()
