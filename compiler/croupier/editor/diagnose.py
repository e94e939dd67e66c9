"""The diagnostics of a text as an editor holds it: a spec's, in two steps, or a reference-case file's.

`resolve_text` is quick (parse and resolve, with the spec's bases read beside it, and the
checks that need no enumeration): it runs after each pause in typing. `full_checks` runs every
static check, as `croupier check` does, on the game `resolve_text` gave (it plays every round
and may take a second or two on a large spec): the server runs it in a worker thread and
publishes its diagnostics when the text has not changed since. Nothing is written into the
project; the round enumeration's results go to the cache outside it (`croupier.paths`).

Besides the compiler's codes, the editor points at a citation whose source no `source` line of
the spec or its bases declares (`UNDECLARED`), so that a code action can add the line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from croupier.diagnostics import Diagnostic, Span, warning
from croupier.editor.index import CITE, masked_strings
from croupier.project import Project, project_of
from croupier.semantics.model import Game

UNDECLARED = "undeclared-source"  # the editor's own, for a text the compiler cannot resolve far enough
UNDECLARED_CODE = "E0170"  # the compiler's: a citation of an undeclared source


@dataclass
class Resolved:
    """A spec's text resolved: its game (None when it does not resolve), diagnostics and the shown path."""

    path: Path
    shown: str
    project: Project | None
    game: Game | None
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.game is not None and not any(d.is_error for d in self.diagnostics)

    @property
    def languages(self) -> tuple[str, ...]:
        from croupier.driver.compile import languages_of

        return languages_of(self.project)


def resolve_text(path: Path, text: str) -> Resolved:
    """Parse and resolve a spec's text (its bases from disk, beside it), with the checks that play no round."""
    from croupier.checks import DATA_PASSES
    from croupier.driver.compile import resolve_text as resolve

    project = project_of(path)
    c = resolve(path, text, project)
    out = Resolved(path, c.spec, project, c.game, c.diagnostics)
    if out.ok:
        for check in DATA_PASSES:
            out.diagnostics.extend(check(c.game, out.languages))
    return out


def full_checks(resolved: Resolved) -> list[Diagnostic]:
    """Every static check of `croupier check` on a resolved game (run in the worker thread)."""
    from croupier.backends.engine.oracle import engine_oracle
    from croupier.checks import run_checks

    if not resolved.ok:
        return []
    return run_checks(resolved.game, engine_oracle, resolved.languages)


def undeclared_citations(text: str, shown: str, declared: set[str]) -> list[Diagnostic]:
    """A warning on each citation whose source id is not among those the spec and its bases declare."""
    out = []
    for no, line in enumerate(text.splitlines(), 1):
        if line.lstrip().startswith("#"):
            continue
        for m in CITE.finditer(masked_strings(line.split(" #")[0])):
            inner = line[m.start(1):m.end(1)]
            parts = inner.split()
            if parts and parts[0] not in declared:
                col = m.start(1) + inner.find(parts[0]) + 1
                out.append(warning(UNDECLARED, f"the citation names source `{parts[0]}`, which no `source` line "
                                   "declares", Span(shown, no, col, no, col + len(parts[0])),
                                   f'declare it: source "{parts[0]}" "Its title"'))
    return out


TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)")


def case_file_diagnostics(path: Path, text: str) -> list[Diagnostic]:
    """The diagnostics `croupier check` gives for a reference-case file's text; a TOML error is placed where
    the TOML reader says it is."""
    from dataclasses import replace

    from croupier.semantics.cases import load_case_text

    _cases, diags = load_case_text(text, path)
    out = []
    for d in diags:
        m = TOML_AT.search(d.message)
        if m is not None:
            line, col = int(m.group(1)), int(m.group(2))
            d = replace(d, span=Span(d.span.file, line, col))
        out.append(d)
    return out
