"""Bets, checked over every round the game can deal (exact, from the round space).

A push clause that never applies (E0404: a push on an outcome that cannot
happen), a win clause whose condition is never true (E0405), and a bet whose
expected return per unit staked is above 1 (W0406: the house loses money on
it). Payouts of zero or less are caught by the resolver (E0401). Expected
returns come from the game's exact analysis when the oracle offers one, else
from the enumeration (exact for everything the cards' values decide).
"""

from __future__ import annotations

from fractions import Fraction

from croupier.checks.oracles import RoundOracle
from croupier.checks.rounds import round_space
from croupier.diagnostics import Diagnostic, error, warning
from croupier.semantics.expr import expr_text
from croupier.semantics.model import Game


def check(game: Game, oracle: RoundOracle | None = None) -> list[Diagnostic]:
    """Bet clauses that can never apply, and bets that favour the player (none without an oracle)."""
    space = round_space(game, oracle)
    if space is None or not space.complete:
        return []
    out: list[Diagnostic] = []
    for bet in game.bets.values():
        for i, rule in enumerate(bet.wins):
            if not space.facts.get(("win", bet.name, i)):
                out.append(error("E0405", f"bet `{bet.name}` can never win by `{expr_text(rule.when)}`: "
                                 "no round makes it true", rule.when.span,
                                 "check the condition against the outcomes and events of the game"))
        for i, push in enumerate(bet.pushes):
            if not space.facts.get(("push", bet.name, i)):
                out.append(error("E0404", f"bet `{bet.name}` pushes when `{expr_text(push)}`, "
                                 "which no round makes true", push.span,
                                 "a push must name an outcome that can happen"))
        ev = space.returns.get(bet.name)
        if ev is not None and ev > 1:
            out.append(warning("W0406", f"bet `{bet.name}` returns {_decimal(ev)} per unit staked on average: "
                               "more than the stake, so the house loses on it", bet.span,
                               "check the payout; a bet that favours the player is rarely intended"))
    return out


def _decimal(x: Fraction) -> str:
    """Four decimal places, rounded half up, computed exactly."""
    scaled = (x * 10000 + Fraction(1, 2)).__floor__()
    return f"{scaled // 10000}.{scaled % 10000:04d}"
