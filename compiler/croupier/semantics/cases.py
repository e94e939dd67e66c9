"""Reference cases: hand-written TOML files under tests/cases, loaded and validated.

See tests/cases/README.md for the format. A case applies to the spec named by
its file, plus those in the file's `also` list, unless it names its own `specs`.
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from croupier.diagnostics import Diagnostic, Span, error


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
    titles: dict[str, str] = field(default_factory=dict)  # the title in other languages, by language tag


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
    rel = str(path)
    try:
        data = _toml(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
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
                          rel, _titles(raw.get("titles"))))
    return cases, diags


def _titles(raw) -> dict[str, str]:
    """A case's `titles = { zh-Hans = "…", zh-Hant = "…" }`: its title in other languages (text values only)."""
    if not isinstance(raw, dict):
        return {}
    return {str(k): str(v) for k, v in raw.items() if isinstance(v, str)}


def untitled(case: Case, langs: tuple[str, ...], source_lang: str = "en") -> list[str]:
    """The card languages an example case has a title but no translation of it in."""
    if not case.example or not case.title:
        return []
    return [lang for lang in langs if lang != source_lang and lang not in case.titles]


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


def _exact(value) -> Fraction | None:
    """A number or numeric string as an exact Fraction (`97.5`, `"97.5"` and `"195/2"` are equal); else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        return Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        return None


def disagreements(expected, actual, where: str = "") -> list[tuple[str, object, object]]:
    """(field, expected, actual) for every key written in `expected` that `actual` does not match, as the
    conformance tests compare them: tables compare only the keys written, lists item by item, numbers exactly."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [(where or "answer", expected, actual)]
        out = []
        for key, value in expected.items():
            field = f"{where}.{key}" if where else str(key)
            if key not in actual:
                out.append((field, value, None))
            else:
                out.extend(disagreements(value, actual[key], field))
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [(where, expected, actual)]
        return [d for i, (e, a) in enumerate(zip(expected, actual)) for d in disagreements(e, a, f"{where}[{i}]")]
    e, a = _exact(expected), _exact(actual)
    if e is not None and a is not None:
        return [] if e == a else [(where, expected, actual)]
    return [] if expected == actual else [(where, expected, actual)]


def case_line(case: Case) -> int:
    """The line of a case's `id = ...` in its file (1 when the file cannot be read)."""
    try:
        lines = Path(case.file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return 1
    wanted = (f'id = "{case.id}"', f"id = '{case.id}'")
    return next((i for i, line in enumerate(lines, 1) if line.strip().startswith(wanted)), 1)


def shown(value) -> str:
    """A value of a case or an answer as JSON text (`null` for a field the answer lacks)."""
    return json.dumps(value, ensure_ascii=False)


def engine_check(case: Case, answer: Callable[[str], str]) -> tuple[dict, list[Diagnostic]]:
    """The engine's answer to a case (`answer`: the engine's JSON Lines entry point) and an error for every
    field where it disagrees with the case's expectation, naming the case, the field and both values."""
    got = json.loads(answer(json.dumps(case.input, ensure_ascii=False)))
    span = Span(case.file, case_line(case), 1)
    if "error" in case.expect:
        wanted = str(case.expect["error"]).lower()
        if "error" in got and wanted in str(got["error"]).lower():
            return got, []
        return got, [error("E0910", f"case {case.id!r}: the case expects an error containing "
                            f"{shown(case.expect['error'])}; the engine answers {shown(got.get('error', got))}",
                           span, "correct the case (it is worked out by hand from its source) or the spec")]
    if "error" in got:
        return got, [error("E0910", f"case {case.id!r}: the engine refuses the case's input: {got['error']}", span,
                           "correct the case's input or the spec")]
    return got, [error("E0910", f"case {case.id!r}: field {field}: the case expects {shown(want)}, "
                                f"the engine answers {shown(have)}", span,
                       "correct the case (it is worked out by hand from its source) or the spec")
                 for field, want, have in disagreements(case.expect, got)]
