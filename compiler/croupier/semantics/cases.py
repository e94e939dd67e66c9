"""Reference cases: hand-written TOML files under tests/cases, loaded and validated.

See tests/cases/README.md for the format. A case applies to the spec named by
its file, plus those in the file's `also` list, unless it names its own `specs`.
A case file is validated like a spec: only a regular file is read, with a spec's bound and character
rules (E0006: no control or bidirectional character anywhere, no invisible one in a value), and every
malformed value gets a positioned diagnostic (E0900-E0903), never an exception or a silent no-op.
"""

from __future__ import annotations

import datetime
import json
import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from functools import lru_cache
from pathlib import Path

from croupier.diagnostics import Diagnostic, Span, error
from croupier.project import display_path
from croupier.reading import read_regular
from croupier.syntax.parser import check_text


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


MAX_CASE_FILE_BYTES = 1_000_000  # a reference-case file (a spec's bound)
CASE_HEADER = re.compile(r"^[ \t]*\[\[[ \t]*case[ \t]*\]\]")
TOML_POSITION = re.compile(r"\(at line (\d+), column (\d+)\)")
DATES = (datetime.date, datetime.time)  # TOML dates and times: no case value is one


def _where(text: str, rel: str, case: int | None = None, key: str | None = None) -> Span:
    """The position of `key` in the `case`-th `[[case]]` table (1-based), or at the top level when `case` is
    None; the table's header, or the file's first line, when the key is not written on a line of its own."""
    lines = text.split("\n")
    start, end = 0, len(lines)
    if case is not None:
        headers = [n for n, line in enumerate(lines) if CASE_HEADER.match(line)]
        if len(headers) >= case:
            start = headers[case - 1]
            end = headers[case] if len(headers) > case else len(lines)
    elif key is not None:
        end = next((n for n, line in enumerate(lines) if line.lstrip().startswith("[")), len(lines))
    if key is not None:
        pattern = re.compile(rf"^[ \t]*\"?{re.escape(key)}\"?[ \t]*[=.]")
        for n in range(start, end):
            if pattern.match(lines[n]):
                return Span(rel, n + 1, len(lines[n]) - len(lines[n].lstrip()) + 1)
    return Span(rel, start + 1, 1)


def _dated(value) -> bool:
    """Whether a TOML value holds a date or a time anywhere."""
    if isinstance(value, DATES):
        return True
    if isinstance(value, dict):
        return any(_dated(v) for v in value.values())
    if isinstance(value, list):
        return any(_dated(v) for v in value)
    return False


def _names(value) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) and v for v in value)


def _read(path: Path, rel: str) -> tuple[str | None, list[Diagnostic]]:
    """The text of a case file, checked like a spec's (size, lines, characters), or the diagnostics why not."""
    try:
        data = read_regular(path, MAX_CASE_FILE_BYTES)
        text = data.decode("utf-8-sig")
    except OSError as exc:
        return None, [error("E0900", f"cannot read reference cases: {exc.strerror or exc}", Span(rel, 1, 1))]
    except UnicodeDecodeError as exc:
        return None, [error("E0900", f"cannot read reference cases: not UTF-8 ({exc.reason} at byte {exc.start})",
                            Span(rel, 1, 1))]
    return text, []


def load_case_file(path: Path) -> tuple[list[Case], list[Diagnostic]]:
    """Every case of one file, with positioned diagnostics for malformed ones (never an exception): the file
    is read like a spec (only a regular file, its size bounded, the spec character rules), and every value
    has the type the format gives it."""
    text, diags = _read(path, display_path(path))
    if text is None:
        return [], diags
    return load_case_text(text, path)


def load_case_text(text: str, path: Path) -> tuple[list[Case], list[Diagnostic]]:
    """Every case of one case file's text (as read from `path`, or as an editor holds it), with positioned
    diagnostics (paths as the project shows them): the spec character rules, then the format's types."""
    rel = display_path(path)
    diags = check_text(text, rel)
    if diags:
        return [], diags
    try:
        data = _toml(text)
    except tomllib.TOMLDecodeError as exc:
        m = TOML_POSITION.search(str(exc))
        span = Span(rel, int(m.group(1)), int(m.group(2))) if m else Span(rel, 1, 1)
        return [], [error("E0900", f"cannot read reference cases: {TOML_POSITION.sub('', str(exc)).strip()}", span,
                          "see tests/cases/README.md for the format")]

    def bad(message: str, span: Span, hint: str = "") -> None:
        diags.append(error("E0903", message, span, hint or "see tests/cases/README.md for the format"))

    also = data.get("also", [])
    if not _names(also):
        bad("`also` must be a list of spec names, e.g. also = [\"other_game\"]", _where(text, rel, None, "also"))
        return [], diags
    raw_cases = data.get("case", [])
    if not isinstance(raw_cases, list) or not all(isinstance(c, dict) for c in raw_cases):
        bad("`case` must be a list of tables, each written under a [[case]] line", _where(text, rel, None, "case"))
        return [], diags
    if not raw_cases:
        bad("this file holds no case: write each under a [[case]] line", Span(rel, 1, 1))
    default_specs = (path.stem, *also)
    cases: list[Case] = []
    seen: set[str] = set()
    for i, raw in enumerate(raw_cases, 1):
        cid = str(raw.get("id", f"#{i}"))
        if cid in seen:
            diags.append(error("E0901", f"duplicate case id {cid!r}", _where(text, rel, i, "id")))
        seen.add(cid)
        missing = [k for k in ("id", "source", "input", "expect") if k not in raw]
        if missing:
            diags.append(error("E0902", f"case {cid!r} lacks {', '.join(missing)}", _where(text, rel, i)))
            continue
        problems = len(diags)
        for key in ("id", "source", "title"):
            if key in raw and not isinstance(raw[key], str):
                bad(f"case {cid!r}: `{key}` must be text", _where(text, rel, i, key))
        for key in ("input", "expect"):
            if not isinstance(raw[key], dict):
                bad(f"case {cid!r}: `{key}` must be a table (a JSON object of the request or the answer), "
                    f"e.g. {key} = {{ cards = \"…\" }}", _where(text, rel, i, key))
            elif _dated(raw[key]):
                bad(f"case {cid!r}: `{key}` holds a TOML date or time, which no request or answer holds; "
                    "write it as text", _where(text, rel, i, key))
        if "specs" in raw and not (_names(raw["specs"]) and raw["specs"]):
            bad(f"case {cid!r}: `specs` must be a non-empty list of spec names, e.g. specs = [\"{path.stem}\"]",
                _where(text, rel, i, "specs"))
        if "example" in raw and not isinstance(raw["example"], bool):
            bad(f"case {cid!r}: `example` must be true or false", _where(text, rel, i, "example"))
        if len(diags) > problems:
            continue
        cases.append(Case(cid, raw["source"], raw.get("title", ""), _plain(raw["input"]),
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
