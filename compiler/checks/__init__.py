"""Static checks: passes over a resolved game, each returning diagnostics.

Every pass has the signature `check(game) -> list[Diagnostic]` and never
raises; `run_checks` runs them all in a fixed order. One module per family:
`draw_tables` and `bets` (over the enumerated rounds of `rounds`), `hand_types`.
"""

from __future__ import annotations

from croupier.checks import bets, clauses, draw_tables, hand_types, translations
from croupier.diagnostics import Diagnostic, Span, error
from croupier.project import DEFAULT_LANGUAGES
from croupier.semantics.model import Game

PASSES: list = [draw_tables.check, bets.check, clauses.check, hand_types.check, translations.check]


def run_checks(game: Game, languages: tuple[str, ...] = DEFAULT_LANGUAGES) -> list[Diagnostic]:
    """Run every registered pass (the translations pass against the project's card `languages`);
    a pass that fails is reported, not raised."""
    out: list[Diagnostic] = []
    for check in PASSES:
        try:
            out.extend(check(game, languages) if check is translations.check else check(game))
        except Exception as exc:  # noqa: BLE001 - a bug in one pass must not hide the others
            out.append(error("E0999", f"internal error in check {check.__module__}: {exc}", Span(game.path, 1, 1),
                             "please report this with the spec"))
    return out
