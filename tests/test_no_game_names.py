"""No game lives in the compiler: no spec's file name or `game` identifier appears anywhere in compiler/croupier/
(its code, grammar, templates, message catalogs), whatever the letter case."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAME_LINE = re.compile(r"^game\s+([A-Za-z_][A-Za-z0-9_]*)", re.MULTILINE)


def game_names() -> set[str]:
    """Every spec's file stem and the identifier on its `game` line."""
    names = set()
    for spec in (ROOT / "spec").glob("*.rules"):
        names.add(spec.stem)
        names.update(GAME_LINE.findall(spec.read_text(encoding="utf-8")))
    return names


def test_the_specs_name_their_games() -> None:
    names = game_names()
    assert {"dragon_tiger", "ez_baccarat", "dragon_bonus"} <= names and len(names) >= 8


def test_no_game_name_appears_in_the_compiler() -> None:
    names = sorted(game_names())
    found = []
    for path in sorted((ROOT / "compiler" / "croupier").rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts:
            continue
        try:
            text = path.read_text(encoding="utf-8").lower()
        except UnicodeDecodeError:
            continue
        found += [f"{path.relative_to(ROOT)}: {name}" for name in names if name.lower() in text]
    assert found == []
