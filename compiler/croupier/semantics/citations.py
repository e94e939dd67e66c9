"""Citations: every `[…]` names a declared source, and (for `check --strict`) every rule cites one.

A citation's first word is the source's id (`[000 §15]` cites source "000"); the rest says
where in the source the rule stands, in the source's own words.
"""

from __future__ import annotations

from collections.abc import Iterable

from croupier.diagnostics import Diagnostic, Span, error, warning
from croupier.suggest import did_you_mean
from croupier.syntax import ast

# statements that state no rule of play, so need no citation: what the spec is and its sources, names
# given to hands, suits and jokers, assumptions (stated where the sources are silent), and the house's own
# settings (a simulated player's policy, a room's limits)
NOT_RULES = (ast.GameStmt, ast.SourceStmt, ast.VersionStmt, ast.EffectiveStmt, ast.AssumeStmt, ast.HandStmt,
             ast.SuitStmt, ast.JokerStmt, ast.PolicyStmt, ast.RoomStmt)


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


def uncited(spec: ast.SpecFile) -> list[Diagnostic]:
    """W0171 for each rule (a statement other than those of `NOT_RULES`) that cites no source, on it or
    on a clause of it: what `croupier check --strict` asks for besides the warnings."""
    cited = {span.line for _, span in spec.citations}
    starts = [stmt.span.line for stmt in spec.statements] + [len(spec.text.split("\n")) + 1]
    return [warning("W0171", f"this rule ({stmt.what if isinstance(stmt, ast.SeatsStmt) else stmt.kind}) cites no source", stmt.span,
                    "end the line with the source and its place, like [000 §15]")
            for stmt, end in zip(spec.statements, starts[1:])
            if not isinstance(stmt, NOT_RULES) and not any(stmt.span.line <= line < end for line in cited)]
