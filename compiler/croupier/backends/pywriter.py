"""A small writer of Python source: lines, indentation, safe literals and comments.

Text from a spec or from a file name reaches generated Python in exactly two ways:
as a string constant through `literal` (Python's own `repr`), or as prose in a
comment or docstring through `safe_text`. No emitter pastes such text any other way.
"""

from __future__ import annotations

import unicodedata
from contextlib import contextmanager
from fractions import Fraction


def safe_text(text: str) -> str:
    """Text made inert for a comment line or a triple-quoted docstring: every control, format,
    surrogate or separator character (line breaks included) becomes a space, a double quote
    becomes a single one and a backslash a slash, so the text can neither end the comment's
    line nor close or escape out of the docstring it sits in."""
    text = str(text)
    if text.isascii():  # the usual case, in one pass: ASCII's only such characters are its controls
        return text.translate(_ASCII_INERT).strip()
    return inert_by_character(text)


def inert_by_character(text: str) -> str:
    """`safe_text` read character by character: its path for text beyond ASCII (and the reference
    its one-pass ASCII path is tested against)."""
    out = []
    for ch in text:
        if ch == '"':
            out.append("'")
        elif ch == "\\":
            out.append("/")
        elif ch != " " and unicodedata.category(ch)[0] in "CZ":
            out.append(" ")
        else:
            out.append(ch)
    return "".join(out).strip()


# `safe_text` of each ASCII character that it changes: the quote, the backslash, the controls (category Cc)
_ASCII_INERT = str.maketrans({'"': "'", "\\": "/", **{chr(c): " " for c in (*range(32), 127)}})


def literal(value) -> str:
    """A Python literal for spec data: only str, int, bool, None, Fraction, tuples and dicts."""
    if isinstance(value, bool) or value is None:
        return repr(value)
    if isinstance(value, int):
        return repr(value)
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"Fraction({value.numerator}, {value.denominator})"
    if isinstance(value, str):
        return repr(value)
    if isinstance(value, tuple):
        inner = ", ".join(literal(v) for v in value)
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{literal(k)}: {literal(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no literal for {type(value).__name__}")


class PyWriter:
    """Accumulates Python source with indentation, like Jinja's code generator."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.level = 0

    def line(self, text: str = "") -> None:
        self.lines.append(("    " * self.level + text) if text else "")

    def assign(self, name: str, value) -> None:
        """`NAME = literal`, with a long dict written one entry per line."""
        text = f"{name} = {literal(value)}"
        if len(text) + 4 * self.level <= 118 or not isinstance(value, dict):
            self.line(text)
            return
        self.line(f"{name} = {{")
        for k, v in value.items():
            self.line(f"    {literal(k)}: {literal(v)},")
        self.line("}")

    def comment(self, text: str) -> None:
        """One comment line holding `text` (made inert by `safe_text`)."""
        self.line("# " + safe_text(text))

    def docstring(self, text: str) -> None:
        """A one-line docstring holding `text` (made inert by `safe_text`)."""
        self.line(f'"""{safe_text(text)}"""')

    def blank(self, n: int = 1) -> None:
        for _ in range(n):
            self.line()

    @contextmanager
    def block(self, header: str):
        self.line(header)
        self.level += 1
        yield
        self.level -= 1

    def text(self) -> str:
        out: list[str] = []
        for ln in self.lines:
            if ln == "" and len(out) >= 2 and out[-1] == "" and out[-2] == "":
                continue
            out.append(ln)
        while out and out[-1] == "":
            out.pop()
        return "\n".join(out) + "\n"
