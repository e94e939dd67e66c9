"""Reference cases: hand-written TOML files under tests/cases, loaded and validated.

See tests/cases/README.md for the format. A case applies to the spec named by
its file, plus those in the file's `also` list, unless it names its own `specs`.
A case file is validated like a spec: only a regular file is read, with a spec's bound and character
rules (E0006: no control or bidirectional character anywhere, no invisible one in a value), and every
malformed value gets a positioned diagnostic (E0900-E0903), never an exception or a silent no-op.
"""

from __future__ import annotations

import datetime
import re
import tomllib
from dataclasses import dataclass
from decimal import Decimal
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
