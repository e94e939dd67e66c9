"""Diagnostics: what every pass returns, and how they are shown.

A diagnostic has a code, a severity, a message, a span in a source file and a
hint. Passes return lists of them and never raise; the command renders them as
`file:line:col: error[E0203]: message`, the source line with a caret, and the
hint, or as JSON for editors.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

# what a terminal must never receive raw: C0 controls but tab and line feed, DEL, C1 controls, the
# bidirectional controls (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and the zero-width
# and invisible characters (U+200B-U+200D, U+2060-U+2064, U+FEFF, U+180E, U+00AD)
UNSAFE_FOR_TERMINAL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u00ad\u061c\u180e\u200b-\u200f\u202a-\u202e"
                                 "\u2060-\u2064\u2066-\u2069\ufeff]")


def _escaped(match: re.Match) -> str:
    return f"\\u{ord(match.group()):04x}"


def terminal_text(text: str) -> str:
    """`text` as it may reach a terminal: every control, bidirectional or invisible character written as
    its `\\uXXXX` escape (tab and line feed kept), so that nothing a spec, a case or a request holds can
    move the cursor, clear the screen or reorder what is shown. The escape is also JSON's own, so JSON
    output keeps its meaning. The one escaping function of every text written to a terminal."""
    if UNSAFE_FOR_TERMINAL.search(text) is None:
        return text
    return UNSAFE_FOR_TERMINAL.sub(_escaped, text)


class TerminalStream:
    """A text stream that writes everything through `terminal_text` (the command installs it over stdout
    and stderr); any other attribute is the wrapped stream's."""

    def __init__(self, stream) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(terminal_text(text))
        return len(text)

    def writelines(self, lines) -> None:
        for line in lines:
            self.write(line)

    def __getattr__(self, name: str):
        return getattr(self.stream, name)


@dataclass(frozen=True)
class Span:
    """A range in a spec file: 1-based line and column, end exclusive."""

    file: str
    line: int
    column: int
    end_line: int = 0
    end_column: int = 0

    def __post_init__(self) -> None:
        if not self.end_line:
            object.__setattr__(self, "end_line", self.line)
        if not self.end_column:
            object.__setattr__(self, "end_column", self.column + 1)


@dataclass(frozen=True)
class Diagnostic:
    """One problem found in a spec, with where it is and how to fix it."""

    code: str
    severity: str  # "error", "warning" or "note"
    message: str
    span: Span
    hint: str = ""
    notes: tuple[str, ...] = field(default=())
    suggestion: str = ""  # the text to put in the span's place, when the fix is that plain (did you mean …?)

    @property
    def is_error(self) -> bool:
        return self.severity == "error"

    def as_dict(self) -> dict:
        return {
            "file": self.span.file,
            "line": self.span.line,
            "column": self.span.column,
            "end_line": self.span.end_line,
            "end_column": self.span.end_column,
            "severity": self.severity,
            "code": self.code,
            "message": self.message,
            "hint": self.hint,
            "suggestion": self.suggestion or None,
            "notes": list(self.notes),
        }


def error(code: str, message: str, span: Span, hint: str = "", suggestion: str = "") -> Diagnostic:
    """Make an error diagnostic."""
    return Diagnostic(code, "error", message, span, hint, suggestion=suggestion)


def note(code: str, message: str, span: Span, hint: str = "", suggestion: str = "") -> Diagnostic:
    """A diagnostic that informs and fails nothing, not even `check --strict`."""
    return Diagnostic(code, "note", message, span, hint, suggestion=suggestion)


def warning(code: str, message: str, span: Span, hint: str = "", suggestion: str = "") -> Diagnostic:
    """Make a warning diagnostic."""
    return Diagnostic(code, "warning", message, span, hint, suggestion=suggestion)


class SpecError(Exception):
    """Raised inside a pass to abandon it with diagnostics already gathered."""

    def __init__(self, diagnostics: list[Diagnostic], sources: dict[str, str] | None = None) -> None:
        super().__init__("; ".join(d.message for d in diagnostics))
        self.diagnostics = diagnostics
        self.sources = sources or {}  # the text of the files the diagnostics point into, to show their lines


def render(diag: Diagnostic, source_text: str | None) -> str:
    """Render one diagnostic as text: header, source line with caret, hint."""
    s = diag.span
    out = [terminal_text(f"{s.file}:{s.line}:{s.column}: {diag.severity}[{diag.code}]: {diag.message}")]
    if source_text is not None:
        lines = source_text.splitlines()
        if 1 <= s.line <= len(lines):
            text = terminal_text(lines[s.line - 1].replace("\t", " "))
            width = (s.end_column - s.column) if s.end_line == s.line else len(text) - s.column + 1
            width = max(1, min(width, max(1, len(text) - s.column + 1)))
            gutter = f"{s.line:>4} | "
            out.append(gutter + text)
            out.append(" " * (len(gutter) + s.column - 1) + "^" + "~" * (width - 1))
    if diag.hint:
        out.append(terminal_text(f"hint: {diag.hint}"))
    out.extend(terminal_text(f"note: {n}") for n in diag.notes)
    return "\n".join(out)


def render_all(diags: list[Diagnostic], sources: dict[str, str]) -> str:
    """Render diagnostics sorted by file and position."""
    ordered = sorted(diags, key=lambda d: (d.span.file, d.span.line, d.span.column, d.code))
    return "\n\n".join(render(d, sources.get(d.span.file)) for d in ordered)


def to_json(diags: list[Diagnostic]) -> str:
    """Diagnostics as a JSON document for editors."""
    ordered = sorted(diags, key=lambda d: (d.span.file, d.span.line, d.span.column, d.code))
    return json.dumps({"diagnostics": [d.as_dict() for d in ordered]}, ensure_ascii=False, indent=2)
