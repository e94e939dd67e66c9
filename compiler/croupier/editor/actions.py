"""Code actions: the one fix a diagnostic carries, as an edit of the document.

A diagnostic's fix is read, in this order, from a `fix` (a replacement text, or an object with one
as `text` or `replacement`) or `suggestion` attribute of the compiler's diagnostic, from a hint that
reads "did you mean `NAME`", or, for a citation of an undeclared source, a `source` line added
after the spec's last one (or after its `game` line). The server keeps what it found in the LSP
diagnostic's `data`, so that the action needs only what the client sends back.
"""

from __future__ import annotations

import re

from croupier.diagnostics import Diagnostic
from croupier.editor.diagnose import UNDECLARED, UNDECLARED_CODE

DID_YOU_MEAN = re.compile(r"did you mean `([^`]+)`", re.IGNORECASE)


def replacement(d: Diagnostic) -> str | None:
    """The text a diagnostic's one fix puts in place of its range, or None when it has no single fix."""
    for name in ("fix", "suggestion"):
        value = getattr(d, name, None)
        if isinstance(value, str) and value:
            return value
        for attr in ("text", "replacement"):
            inner = getattr(value, attr, None) if value is not None else None
            if isinstance(inner, str) and inner:
                return inner
        if isinstance(value, (list, tuple)) and len(value) == 1 and isinstance(value[0], str):
            return value[0]
    found = DID_YOU_MEAN.findall(" ".join((d.hint, d.message)))
    return found[0] if len(set(found)) == 1 else None


def source_line_at(text: str) -> int:
    """The 0-based line a new `source` line goes on: after the last `source` statement, else after `game`."""
    lines = text.splitlines()
    after = None
    for i, line in enumerate(lines):
        word = line.split(maxsplit=1)[0] if line.strip() else ""
        if word in ("source", "game"):
            after = i
            while after + 1 < len(lines) and (lines[after].rstrip().endswith("\\") or
                                              lines[after + 1].startswith((" ", "\t")) and lines[after + 1].strip()):
                after += 1
    return 0 if after is None else after + 1


def fix_data(d: Diagnostic) -> dict | None:
    """What the server keeps with an LSP diagnostic for its code action, or None when it has no single fix."""
    if d.code in (UNDECLARED, UNDECLARED_CODE):  # a citation of a source no `source` line declares
        ident = d.message.split("`")[1]
        return {"title": f'Declare source "{ident}"', "insert": f'source "{ident}" "Its title"\n'}
    text = replacement(d)
    return {"title": f"Replace with `{text}`", "replace": text} if text is not None else None
