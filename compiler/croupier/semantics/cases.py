"""Reference cases: hand-written TOML files under tests/cases, loaded and validated.

See tests/cases/README.md for the format. A case applies to the spec named by
its file, plus those in the file's `also` list, unless it names its own `specs`.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from decimal import Decimal
from functools import lru_cache
from pathlib import Path

from croupier.diagnostics import Diagnostic, Span, error
from croupier.project import display_path

TOML_PLACE = re.compile(r"\s*\(at line (\d+), column (\d+)\)")  # where tomllib's message says the error is


@dataclass
class Case:
    """One reference case: input line, expected answer subset, and where it comes from."""

    id: str
    source: str
    title: str
    input: dict
    expect: dict
    specs: tuple[str, ...]
    example: bool
    file: str


def _plain(value):
    """TOML data with floats turned into exact decimal strings."""
    if isinstance(value, float):
        return str(Decimal(repr(value)))
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


@lru_cache(maxsize=64)
def _toml(text: str) -> dict:
    """A case file's data, parsed once per text (a build reads every case file for every spec); only read."""
    return tomllib.loads(text)


def load_case_file(path: Path) -> tuple[list[Case], list[Diagnostic]]:
    """Every case of one file, with diagnostics for malformed ones."""
    diags: list[Diagnostic] = []
    rel = display_path(path)
    try:
        data = _toml(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        where = TOML_PLACE.search(str(exc))
        line, column = (int(where.group(1)), int(where.group(2))) if where else (1, 1)
        message = TOML_PLACE.sub("", str(exc)).strip()
        return [], [error("E0900", f"cannot read reference cases: {message}", Span(rel, line, column),
                          "TOML: one `key = value` a line; an inline table { … } on one line")]
    except (OSError, UnicodeDecodeError) as exc:
        return [], [error("E0900", f"cannot read reference cases: {exc}", Span(rel, 1, 1))]
    default_specs = (path.stem, *data.get("also", []))
    cases: list[Case] = []
    seen: set[str] = set()
    for i, raw in enumerate(data.get("case", []), 1):
        cid = str(raw.get("id", f"#{i}"))
        if cid in seen:
            diags.append(error("E0901", f"duplicate case id {cid!r}", Span(rel, 1, 1)))
        seen.add(cid)
        missing = [k for k in ("id", "source", "input", "expect") if k not in raw]
        if missing:
            diags.append(error("E0902", f"case {cid!r} lacks {', '.join(missing)}", Span(rel, 1, 1)))
            continue
        cases.append(Case(cid, str(raw["source"]), str(raw.get("title", "")), _plain(raw["input"]),
                          _plain(raw["expect"]), tuple(raw.get("specs", default_specs)), bool(raw.get("example")),
                          rel))
    return cases, diags


def cases_for(game_name: str, cases_dir: Path) -> tuple[list[Case], list[Diagnostic]]:
    """The cases that apply to one game, from every case file, in file order."""
    out: list[Case] = []
    diags: list[Diagnostic] = []
    if not cases_dir.is_dir():
        return out, diags
    for path in sorted(cases_dir.glob("*.toml")):
        cases, more = load_case_file(path)
        diags.extend(more)
        out.extend(c for c in cases if game_name in c.specs)
    return out, diags
