"""Did-you-mean: the known name nearest a misspelt one, for diagnostics to suggest.

A suggestion is data on the diagnostic (`Diagnostic.suggestion`, the text to put in the
span's place), so that an editor can offer it as a fix, and words in its hint.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable


def nearest(word: str, known: Iterable[str]) -> str | None:
    """The known name most like `word` (difflib's ratio, at least 0.6; case ignored), or None."""
    options = {k.lower(): k for k in known if k and k != word}
    found = difflib.get_close_matches(word.lower(), list(options), n=1, cutoff=0.6)
    return options[found[0]] if found else None


def did_you_mean(word: str, known: Iterable[str]) -> tuple[str, str]:
    """(hint, suggestion): "did you mean `tie`?" and "tie" for the nearest known name, or two empty texts."""
    found = nearest(word, known)
    return (f"did you mean `{found}`?", found) if found else ("", "")
