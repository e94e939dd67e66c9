"""Citations: every `[…]` names a declared source, and (for `check --strict`) every rule cites one.

A citation's first word is the source's id (`[000 §15]` cites source "000"); the rest says
where in the source the rule stands, in the source's own words.
"""

from __future__ import annotations

from collections.abc import Iterable

from croupier.diagnostics import Diagnostic, Span, error, warning
from croupier.suggest import did_you_mean
from croupier.syntax import ast

# statements that state no rule of play, so need no citation: what the spec is, and its sources
NOT_RULES = (ast.GameStmt, ast.SourceStmt, ast.VersionStmt, ast.EffectiveStmt)


def source_id(citation: str) -> str:
    """The id of the source a citation names: its first word (`000 §15` → `000`)."""
    words = citation.split()
    return words[0].rstrip(",;") if words else ""


def undeclared_sources(spec: ast.SpecFile, sources: Iterable) -> list[Diagnostic]:
    """E0170 for each citation naming a source no `source` statement declares (this spec's or its base's)."""
    declared = [s.ident for s in sources]
    out = []
    for text, span in spec.citations:
        ident = source_id(text)
        if ident and ident not in declared:
            guess, fix = did_you_mean(ident, declared)
            where = Span(span.file, span.line, span.column + 1, span.line, span.column + 1 + len(ident))
            out.append(error("E0170", f"the citation names source `{ident}`, which this spec does not declare",
                             where, f"{guess} declare it: source \"{ident}\" \"its title\"" if not guess else
                             f"{guess} or declare it: source \"{ident}\" \"its title\"", fix))
    return out


def _cites(node: object) -> bool:
    """Whether a statement, or any clause within it, carries a citation."""
    if getattr(node, "cite", None):
        return True
    for value in vars(node).values() if hasattr(node, "__dict__") else ():
        items = value if isinstance(value, (list, tuple)) else [value]
        if any(hasattr(i, "cite") and _cites(i) for i in items):
            return True
    return False


def uncited(spec: ast.SpecFile) -> list[Diagnostic]:
    """W0171 for each rule (a statement other than `game`, `source`, `version`, `effective`) that cites no
    source, on it or on a clause of it: what `croupier check --strict` asks for besides the warnings."""
    return [warning("W0171", f"this {stmt.kind} cites no source", stmt.span,
                    "end the line with the source and its place, like [000 §15]")
            for stmt in spec.statements if not isinstance(stmt, NOT_RULES) and not _cites(stmt)]
