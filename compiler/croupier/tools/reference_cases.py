"""Reference cases against a spec: their names checked (`croupier check`) and their answers compared
(`croupier test`), with the engine's own answers and no test framework.

A case's input names bets; its expectation names fields of the answer and, under `returns`, bets. A
misspelt name (`retruns`, a bet `dealr`) is a diagnostic at the case's line with the nearest name
suggested; a case whose answer differs is a list of mismatches, each with its path in the answer.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

from croupier.diagnostics import Diagnostic, Span, error
from croupier.semantics.cases import Case
from croupier.suggest import did_you_mean


def _exact(value) -> Fraction | None:
    """A JSON number or numeric string as an exact Fraction, else None (as the conformance tests compare)."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return None
    try:
        return Fraction(str(value))
    except (ValueError, ZeroDivisionError):
        return None


def mismatches(actual, expected, where: str) -> list[str]:
    """Every way `actual` differs from `expected` (only the keys `expected` writes; numbers exactly)."""
    if isinstance(expected, dict):
        if not isinstance(actual, dict):
            return [f"{where}: expected an object, got {actual!r}"]
        out = []
        for key, value in expected.items():
            if key not in actual:
                out.append(f"{where}.{key}: the answer has no {key!r}")
            else:
                out += mismatches(actual[key], value, f"{where}.{key}")
        return out
    if isinstance(expected, list):
        if not isinstance(actual, list) or len(actual) != len(expected):
            return [f"{where}: expected {expected!r}, got {actual!r}"]
        return [m for i, (a, e) in enumerate(zip(actual, expected)) for m in mismatches(a, e, f"{where}[{i}]")]
    if _exact(expected) is not None and _exact(actual) is not None:
        return [] if _exact(actual) == _exact(expected) else [f"{where}: expected {expected!r}, got {actual!r}"]
    return [] if actual == expected else [f"{where}: expected {expected!r}, got {actual!r}"]


def answer_of(engine, case: Case) -> dict:
    """The engine's answer to a case's input line."""
    return json.loads(engine.answer(json.dumps(case.input, ensure_ascii=False)))


def run_case(engine, case: Case) -> list[str]:
    """What is wrong with a case's answer (nothing when it passes), as the conformance tests judge it."""
    answer = answer_of(engine, case)
    expected = dict(case.expect)
    if "error" in expected:
        if "error" not in answer:
            return [f"{case.id}: expected an error, got {answer!r}"]
        if str(expected["error"]).lower() not in str(answer["error"]).lower():
            return [f"{case.id}.error: expected {expected['error']!r} in {answer['error']!r}"]
        return []
    if "error" in answer:
        return [f"{case.id}: the engine refused the input: {answer['error']}"]
    return mismatches(answer, expected, case.id)


def _where(case: Case, word: str, lines: list[str]) -> Span:
    """The place of `word` in the case's block of its file (the case's `id` line when it is not found)."""
    start = next((i for i, line in enumerate(lines) if "id" in line and f'"{case.id}"' in line), 0)
    for i in range(start, len(lines)):
        if i > start and lines[i].startswith("[[case]]"):
            break
        column = lines[i].find(word)
        if column >= 0 and (column == 0 or not (lines[i][column - 1].isalnum() or lines[i][column - 1] == "_")):
            return Span(case.file, i + 1, column + 1, i + 1, column + 1 + len(word))
    return Span(case.file, start + 1, 1)


def case_name_diagnostics(bets, engine, cases: list[Case], cases_dir: Path) -> list[Diagnostic]:
    """E0903 for each name a case writes that the spec has not: a bet in the input or in `returns`, a field
    of the expected answer (the engine's answer to the case's input shows the fields). The case files
    are read from `cases_dir` (for the lines to point at)."""
    out: list[Diagnostic] = []
    texts: dict[str, list[str]] = {}
    for case in cases:
        if "error" in case.expect:
            continue  # a case about a refused input names what the spec lacks on purpose
        if case.file not in texts:
            try:
                texts[case.file] = (cases_dir / Path(case.file).name).read_text(encoding="utf-8").split("\n")
            except (OSError, UnicodeDecodeError):
                texts[case.file] = []
        lines = texts[case.file]

        def report(what: str, word: str, known, case=case, lines=lines) -> None:
            guess, fix = did_you_mean(word, known)
            out.append(error("E0903", f"case {case.id!r}: {what} `{word}`", _where(case, word, lines),
                             guess or f"known: {', '.join(sorted(known)) or 'none'}", fix))

        stakes = case.input.get("bets") if isinstance(case.input, dict) else None
        unknown_bet = False
        for name in stakes if isinstance(stakes, dict) else ():
            if name not in bets:
                report("the spec has no bet", name, bets)
                unknown_bet = True
        returns = case.expect.get("returns") if isinstance(case.expect, dict) else None
        for name in returns if isinstance(returns, dict) else ():
            if name not in bets:
                report("the spec has no bet", name, bets)
        if unknown_bet:
            continue
        try:
            answer = answer_of(engine, case)
        except Exception:  # noqa: BLE001 - a case the engine cannot answer is for `croupier test` to report
            continue
        if "error" in answer:
            continue
        for key in case.expect:
            if key not in answer:
                report("the answer has no field", key, answer)
    return out
