"""Diagnostics: what every pass returns, and how they are shown.

A diagnostic has a code, a severity, a message, a span in a source file and a
hint. Passes return lists of them and never raise; the command renders them as
`file:line:col: error[E0203]: message`, the source line with a caret, and the
hint, or as JSON for editors.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field


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
    out = [f"{s.file}:{s.line}:{s.column}: {diag.severity}[{diag.code}]: {diag.message}"]
    if source_text is not None:
        lines = source_text.splitlines()
        if 1 <= s.line <= len(lines):
            text = lines[s.line - 1].replace("\t", " ")
            width = (s.end_column - s.column) if s.end_line == s.line else len(text) - s.column + 1
            width = max(1, min(width, max(1, len(text) - s.column + 1)))
            gutter = f"{s.line:>4} | "
            out.append(gutter + text)
            out.append(" " * (len(gutter) + s.column - 1) + "^" + "~" * (width - 1))
    if diag.hint:
        out.append(f"hint: {diag.hint}")
    out.extend(f"note: {n}" for n in diag.notes)
    return "\n".join(out)


def render_all(diags: list[Diagnostic], sources: dict[str, str]) -> str:
    """Render diagnostics sorted by file and position."""
    ordered = sorted(diags, key=lambda d: (d.span.file, d.span.line, d.span.column, d.code))
    return "\n\n".join(render(d, sources.get(d.span.file)) for d in ordered)


def to_json(diags: list[Diagnostic]) -> str:
    """Diagnostics as a JSON document for editors."""
    ordered = sorted(diags, key=lambda d: (d.span.file, d.span.line, d.span.column, d.code))
    return json.dumps({"diagnostics": [d.as_dict() for d in ordered]}, ensure_ascii=False, indent=2)
