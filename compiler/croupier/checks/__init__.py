"""Static checks: passes over a resolved game, each returning diagnostics.

Every pass returns a list of diagnostics and never raises; `run_checks` runs
them all in a fixed order. One module per family: `draw_tables`, `bets` and `clauses`
(over the enumerated rounds of `rounds`), `hand_types`, `translations`. The
passes that need the game as it runs ask an oracle (`oracles`) that the driver
supplies through `oracle_for`; without one they report nothing. The card
languages come in as data.
"""

from __future__ import annotations

from croupier.checks import bets, clauses, draw_tables, hand_types, translations
from croupier.checks.oracles import GameOracle, OracleFactory
from croupier.diagnostics import Diagnostic, Span, error
from croupier.project import DEFAULT_LANGUAGES
from croupier.semantics.model import Game

ORACLE_PASSES: list = [draw_tables.check, bets.check, clauses.check, hand_types.check]  # check(game, oracle)
DATA_PASSES: list = [translations.check]  # check(game, languages)
PASSES: list = ORACLE_PASSES + DATA_PASSES


def run_checks(game: Game, oracle_for: OracleFactory | None = None,
               languages: tuple[str, ...] = DEFAULT_LANGUAGES) -> list[Diagnostic]:
    """Run every registered pass; a pass that fails is reported, not raised.

    `oracle_for(game)` gives the game as it runs (None, or no factory: the exhaustive checks are
    skipped); `languages` are the card languages every label should have.
    """
    out: list[Diagnostic] = []
    oracle: GameOracle | None = None
    if oracle_for is not None:
        try:
            oracle = oracle_for(game)
        except Exception as exc:  # noqa: BLE001 - the other passes still run
            out.append(_internal(game, getattr(oracle_for, "__module__", "oracle"), exc))
    for check in PASSES:
        try:
            out.extend(check(game, oracle) if check in ORACLE_PASSES else check(game, languages))
        except Exception as exc:  # noqa: BLE001 - a bug in one pass must not hide the others
            out.append(_internal(game, check.__module__, exc))
    return out


def _internal(game: Game, where: str, exc: Exception) -> Diagnostic:
    return error("E0999", f"internal error in check {where}: {exc}", Span(game.path, 1, 1),
                 "please report this with the spec")
