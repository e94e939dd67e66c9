"""Engine back end, a generated module's public face: its docstring, imports and `__all__`.

`assemble` puts a generated module (an engine, or its analysis companion) together
from its pieces. The public calls are read from the pieces themselves (every
module-level function and class whose name does not start with `_`), so `__all__`
and the list of calls in the docstring can never drift from the code: each call is
listed with its signature and the first line of its docstring, under the piece it
comes from. The imports are the standard-library names the code uses, no more.
`checked_module` proves the result compiles and reads no name it does not define.
"""

from __future__ import annotations

import builtins
import textwrap
from collections.abc import Callable
from dataclasses import dataclass

from croupier.backends.engine.code_reading import Call, names_read, public_calls, symbols
from croupier.backends.engine.loader import compile_engine
from croupier.backends.pywriter import literal, safe_text
from croupier.diagnostics import SpecError, error
from croupier.semantics.model import Game

# (name the code uses, the import that binds it), in the order they are written
IMPORTS = (
    ("itertools", "import itertools"),
    ("json", "import json"),
    ("math", "import math"),
    ("operator", "import operator"),
    ("random", "import random"),
    ("sys", "import sys"),
    ("weakref", "import weakref"),
    ("Decimal", "from decimal import Decimal"),
    ("Fraction", "from fractions import Fraction"),
)
WIDTH = 118  # the docstring's lines
SIGNATURE = 30  # the width of the signature column


@dataclass(frozen=True)
class Piece:
    """A stretch of a generated module's code; its public calls are listed under `heading` (None: not listed)."""

    text: str
    heading: str | None = None


def call_lines(calls: list[Call]) -> list[str]:
    """Each call's signature, then its description (made inert), wrapped under the description column."""
    out = []
    pad = " " * (SIGNATURE + 4)
    for c in calls:
        sig = "  " + safe_text(c.signature)
        summary = safe_text(c.summary)
        if len(sig) > SIGNATURE + 2:
            out.append(sig)
            first = pad
        else:
            first = f"{sig:<{SIGNATURE + 4}}"
        if _fits(summary, WIDTH - len(first)):
            out.append(first + summary)  # what `textwrap.wrap` gives a text that fits on the first line
        else:
            out.extend(textwrap.wrap(summary, WIDTH, initial_indent=first, subsequent_indent=pad) or [sig])
    return out


_TEXTWRAP_WHITESPACE = frozenset("\t\n\x0b\x0c\r")  # what `textwrap` turns into spaces


def _fits(text: str, width: int) -> bool:
    """Whether `textwrap.wrap` would give `text` back whole on one line of `width` characters: it fits,
    has something to show, no blank at either end (dropped) and no whitespace textwrap would replace."""
    return (0 < len(text) <= width and not text[0].isspace() and not text[-1].isspace()
            and not _TEXTWRAP_WHITESPACE.intersection(text))


def wrapped(lines: list[str]) -> list[str]:
    """Prose lines wrapped to the docstring's width (each made inert by `safe_text`)."""
    out = []
    for line in lines:
        text = safe_text(line)
        out.extend(([text] if _fits(text, WIDTH) else textwrap.wrap(text, WIDTH, break_on_hyphens=False))
                   if line else [""])
    return out


def assemble(first_line: str, intro: list[str], pieces: list[Piece], trailer: str = "") -> str:
    """A generated module: the `# @generated` line, a docstring of `intro` and the public calls by
    piece, the imports the code needs, `__all__`, the pieces, then `trailer`."""
    body = "\n\n".join(p.text.rstrip("\n") + "\n" for p in pieces)
    if trailer:
        body += "\n\n" + trailer
    seen: dict[str, tuple[str, Call]] = {}
    for p in pieces:
        if p.heading is not None:
            for call in public_calls(p.text):
                seen.pop(call.name, None)  # a later definition replaces an earlier one
                seen[call.name] = (p.heading, call)
    doc = ['"""' + safe_text(intro[0]), *wrapped(intro[1:]), "", "Public calls (`__all__`), by part:"]
    heading = None
    for head, call in seen.values():
        if head != heading:
            doc += ["", safe_text(head) + ":"]
            heading = head
        doc += call_lines([call])
    doc.append('"""')
    used = set(names_read(trailer)) if trailer else set()  # the names of the body, piece by piece
    for p in pieces:
        used |= names_read(p.text)
    imports = [stmt for name, stmt in IMPORTS if name in used or (name == "math" and "floor" in used)]
    if "floor" in used:
        imports += ["", "floor = math.floor"]
    names = [literal(n) for n in seen]
    # a long name stays whole on its line: a literal broken in two would not compile
    all_lines = textwrap.wrap(", ".join(names), WIDTH - 4, break_on_hyphens=False, break_long_words=False)
    head = [f"# {safe_text(first_line)}", *doc, "", *imports, "", "__all__ = [", *("    " + x for x in all_lines), "]"]
    source = "\n".join(head) + "\n\n\n" + body
    if len(_ASSEMBLED) > 64:
        _ASSEMBLED.clear()
    _ASSEMBLED[source] = ("\n".join(head), *(p.text for p in pieces), trailer)
    return source


# an assembled module's source -> its parts (the head, each piece, the trailer), each of which parses alone:
# `undefined_names` reads them one by one, so the runtime's pieces, alike in every module, are parsed once
_ASSEMBLED: dict[str, tuple[str, ...]] = {}


def undefined_names(source: str) -> set[str]:
    """Names the code reads that nothing in it binds, nor Python's builtins (loosely: a name bound
    anywhere counts as bound everywhere). An engine missing a runtime part it calls shows here."""
    bound = set(dir(builtins))
    read: set[str] = set()
    for part in _ASSEMBLED.get(source, (source,)):
        part_read, part_bound, _ = symbols(part)
        read |= part_read
        bound |= part_bound
    return read - bound


def checked_module(build: Callable[[], str], game: Game, what: str) -> str:
    """The source `build()` writes, proven to compile and to read only names it binds. A failure
    anywhere on the way is a compiler bug, reported as internal error E0998 against the spec (never
    the spec's fault), not as a traceback."""
    try:
        source = build()
        compile_engine(source, game.name)
        missing = undefined_names(source)
        if missing:
            raise ValueError(f"it reads names it never defines: {', '.join(sorted(missing))}")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
        raise SpecError([error(
            "E0998", f"internal error: the {what} generated for this spec does not compile ({type(exc).__name__}: "
            f"{getattr(exc, 'msg', exc)})", game.span,
            "this is a bug of croupier, not of the spec; please report it with the spec")],
            {game.path: game.source_text}) from None
    return source
