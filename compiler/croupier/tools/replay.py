"""Round logs: write `play --jsonl` rounds as JSON Lines, and replay a log card by card.

A log line is a round record (`TableRound.record()` of the engine): round
number, the cards in dealing order, the bets per bettor, and what the table
said: hands, totals, events, outcome, returns, valid bets, squeeze schedule.
Replaying adjudicates each round again from its cards and bets and reports
every field where the log and the engine disagree, by round number — the
dispute check of source 003 (verify a round card by card against its number).
A `RoundLog` writes such a log atomically while a long run streams into it.
"""

from __future__ import annotations

import json
import os
import tempfile
from decimal import Decimal
from pathlib import Path

from croupier.runtime.jsonl import MAX_LINE_BYTES, bounded_lines, too_long
from croupier.runtime.numbers import bounded_fraction

# Fields that are the round's input, or notes about the shoe that one round cannot re-derive.
INPUT_FIELDS = ("round", "cards", "bets", "room", "void", "shoe", "cut_card", "last")


def norm(value):
    """A JSON value with every number as an exact Fraction, for comparison."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, (int, Decimal, str)):  # read under bounds: an exponent is never expanded
        exact = bounded_fraction(value)
        return ("not a number within bounds", str(value)[:40]) if exact is None and not isinstance(value, str) \
            else value if exact is None else exact
    if isinstance(value, list):
        return [norm(v) for v in value]
    if isinstance(value, dict):
        return {k: norm(v) for k, v in value.items()}
    return value


def shown(value) -> str:
    return json.dumps(value, ensure_ascii=False, default=str)


def differences(logged, actual, path: str) -> list[str]:
    """Where two JSON values differ: `path: log says X, the engine says Y`, card by card in lists."""
    if isinstance(logged, dict) and isinstance(actual, dict):
        out = []
        for key in list(actual) + [k for k in logged if k not in actual]:
            if key not in logged:
                out.append(f"{path}.{key}: missing from the log (the engine says {shown(actual[key])})")
            elif key not in actual:
                out.append(f"{path}.{key}: in the log ({shown(logged[key])}) but not in the engine's answer")
            else:
                out.extend(differences(logged[key], actual[key], f"{path}.{key}"))
        return out
    if isinstance(logged, list) and isinstance(actual, list):
        out = []
        for i in range(max(len(logged), len(actual))):
            a = logged[i] if i < len(logged) else "(none)"
            b = actual[i] if i < len(actual) else "(none)"
            out.extend(differences(a, b, f"{path}[{i + 1}]"))
        return out
    if norm(logged) != norm(actual):
        return [f"{path}: log says {shown(logged)}, the engine says {shown(actual)}"]
    return []


def replay_lines(engine, lines) -> tuple[int, list[str]]:
    """Adjudicate every logged round again; return (rounds checked, mismatches).

    One line's problem, even an unforeseen exception, is reported for that line and the replay goes on.
    """
    checked, problems, seen = 0, [], set()
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        found: list[str] = []
        try:
            checked += replay_line(engine, line, f"line {lineno}", seen, found)
        except engine.EngineError as exc:
            found.append(f"line {lineno}: {exc}")
        except Exception as exc:  # last resort: one line's problem, never the end of the replay
            found.append(f"line {lineno}: {engine.internal_error(exc)['error']}")
        problems.extend(printable(p) for p in found)
    return checked, problems


def printable(text: str) -> str:
    """A problem line that any UTF-8 output can take (a lone surrogate is shown as its escape)."""
    return text.encode("utf-8", "backslashreplace").decode("utf-8")


def replay_line(engine, line: str, where: str, seen: set, problems: list[str]) -> bool:
    """Append the mismatches of one logged round to `problems`; whether it could be adjudicated."""
    rec = engine.read_json(line)
    if not isinstance(rec, dict):
        raise engine.EngineError("a round record is a JSON object")
    # shoes are numbered from 0 in a log (as `simulate` seeds them), rounds from 1: each named as the log numbers it
    label = f"round {shown(rec.get('round'))}" + (f" of the shoe numbered {shown(rec['shoe'])}" if "shoe" in rec else "")
    where = f"{where}, {label}"
    key = (shown(rec.get("shoe")), shown(rec.get("round")))
    if rec.get("round") is None:
        problems.append(f"{where}: the record has no round number")
    elif key in seen:
        problems.append(f"{where}: this round number appears twice")
    seen.add(key)
    try:
        expected = engine.table_round(rec).record()
    except engine.EngineError as exc:
        problems.append(f"{where}: cannot adjudicate: {exc}")
        return False
    if norm(rec.get("cards")) != norm(expected["cards"]):
        problems.extend(f"{where}: {d}" for d in differences(rec.get("cards"), expected["cards"], "cards"))
    logged = {k: v for k, v in rec.items() if k not in INPUT_FIELDS}
    answer = {k: v for k, v in expected.items() if k not in INPUT_FIELDS}
    problems.extend(f"{where}: {d}" for d in differences(logged, answer, "round"))
    return True


def answer_and_log(engine, lines, write, log, max_line_bytes: int = MAX_LINE_BYTES) -> None:
    """`play --jsonl` with a log: answer each request; log each answered round as a round record. A line
    longer than `max_line_bytes` is answered with an error (never held whole) and not logged."""
    number = 0
    for line in bounded_lines(lines, max_line_bytes):
        if line is None:
            write(engine.encode_answer(too_long(max_line_bytes)) + "\n")
            continue
        answer = engine.answer(line)
        write(answer + "\n")
        if '"error"' in answer[:10]:
            continue
        number += 1
        try:
            request = engine.read_json(line)
            rec = {"round": number, "cards": request.get("cards"), "bets": request.get("bets") or {}}
            if request.get("room") is not None:
                rec["room"] = request["room"]
            log.write(engine.encode_answer(engine.table_round(rec).record()) + "\n")
        except Exception as exc:  # the answer went out; a round that cannot be logged is logged as such
            log.write(engine.encode_answer({"round": number, **engine.internal_error(exc)}) + "\n")


class RoundLog:
    """A JSON Lines log opened before a run and written as the run goes.

    The lines go to a temporary file beside the log, which replaces the log on
    `commit` (after a finished or an interrupted run: the writer only ever hands
    whole lines, so every line is complete) and is removed on `discard`. A path that
    exists but is no regular file (a pipe, /dev/stdout) is written directly.
    Opening raises OSError when the log cannot be written, before anything is run.
    """

    def __init__(self, path: str) -> None:
        self.path = Path(path)
        self.tmp: str | None = None
        self.error: OSError | None = None
        if self.path.exists() and not self.path.is_file():
            self.file = open(self.path, "w", encoding="utf-8")  # noqa: SIM115 - closed by commit/discard
            return
        if self.path.exists() and not os.access(self.path, os.W_OK):
            raise PermissionError(13, "Permission denied")
        fd, self.tmp = tempfile.mkstemp(dir=self.path.parent, prefix=f".{self.path.name}.", suffix=".part")
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(fd, 0o666 & ~umask)
        self.file = os.fdopen(fd, "w", encoding="utf-8")

    def write(self, text: str) -> None:
        """Append whole lines. A failed write (a full disk) is kept in `error`, not raised, and
        every later write is dropped: the run can stop cleanly and still report."""
        if self.error is not None:
            return
        try:
            self.file.write(text)
        except OSError as exc:
            self.error = exc

    def commit(self) -> None:
        """Close the log and put it in place; after an error, discard it instead."""
        if self.error is None:
            try:
                self.file.close()
                if self.tmp is not None:
                    os.replace(self.tmp, self.path)
                return
            except OSError as exc:
                self.error = exc
        self.discard()

    def discard(self) -> None:
        """Close and remove the unfinished log (the previous log at the path, if any, stays)."""
        try:
            self.file.close()
        except OSError:
            pass
        if self.tmp is not None and os.path.exists(self.tmp):
            os.unlink(self.tmp)
