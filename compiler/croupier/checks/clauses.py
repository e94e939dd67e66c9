"""Bet clauses that can never decide, and dealt rounds the exact analysis cannot enumerate.

A bet's clauses are tried in the order written and the first that applies
decides, so a clause that an earlier one always covers never decides (E0407,
naming both). "Always covers" is decided exactly: syntactically when the earlier
condition is implied by the later one (the same condition, or a part of its
`and`), and otherwise by the exact analysis, which evaluates every clause on every
round the shoe can deal (a clause that holds in some round while an earlier one
holds in every round it does). A payout table's clause covers a later one only
where one of its rows applies, which the analysis knows.

When a game's exact analysis cannot be done, a note (N0701) says why at the
construct that makes it so; `croupier analyze` and the rule card say the same.
"""

from __future__ import annotations

from croupier.checks.oracles import RoundOracle
from croupier.checks.rounds import round_space
from croupier.diagnostics import Diagnostic, error, note
from croupier.semantics import expr as ir
from croupier.semantics.card_reads import finest_rule
from croupier.semantics.expr import expr_text
from croupier.semantics.model import BetRule, Game


def conjuncts(e: ir.Expr | None) -> frozenset[str]:
    """The parts of an `and` (a condition that is no `and` is its own one part), as written."""
    if e is None:
        return frozenset()
    if isinstance(e, ir.BoolOp) and e.op == "and":
        return frozenset(x for o in e.operands for x in conjuncts(o))
    return frozenset({expr_text(e)})


def implied_cover(clauses: list[BetRule], j: int) -> int | None:
    """The earlier clause whose condition clause j's condition implies as written, or None."""
    later = conjuncts(clauses[j].when)
    for i in range(j):
        rule = clauses[i]
        if rule.table is None and rule.when is not None and conjuncts(rule.when) <= later:
            return i
    return None


def check(game: Game, oracle: RoundOracle | None = None) -> list[Diagnostic]:
    """E0407 for every clause an earlier clause always covers; N0701 when the exact analysis is missing."""
    if not game.is_dealt_round:
        return []
    space = round_space(game, oracle)
    exact = space.covered if space is not None else {}
    out: list[Diagnostic] = []
    for bet in game.bets.values():
        for j, rule in enumerate(bet.clauses):
            i = implied_cover(bet.clauses, j)
            if i is None:
                i = exact.get(bet.name, {}).get(j)
            if i is None:
                continue
            earlier = bet.clauses[i]
            out.append(error(
                "E0407", f"bet `{bet.name}`: `{rule.describe()}` never decides, because the earlier "
                         f"`{earlier.describe()}` (line {earlier.span.line}) applies to every round it does",
                rule.span, "the first clause that applies decides: put the narrower clause first, or remove "
                           "the one that never decides"))
    if space is not None and space.analysis_missing:
        out.append(note("N0701", f"the exact analysis cannot enumerate this game: {space.analysis_missing}",
                        *construct(game)))
    return out


def construct(game: Game) -> tuple:
    """(span, hint) of what makes a game's enumeration too large: a hand drawing while a condition holds,
    else the rule that makes the cards told apart one by one, else the shoe."""
    finest = finest_rule(game)
    for rule in game.repeats.values():
        apart = (f", and `{expr_text(finest)}` makes every card a class of its own or tells ranks apart (a rule "
                 "that reads values groups the cards in fewer classes)") if finest is not None else ""
        return rule.span, (f"`{rule.describe()}` lets a round run long{apart}; `croupier analyze` and the rule card "
                           "say the analysis is missing")
    if finest is not None:
        return finest.span, (f"`{expr_text(finest)}` makes the analysis tell cards apart one by one; "
                             "`croupier analyze` and the rule card say the analysis is missing")
    span = game.shoe.span if game.shoe is not None else game.span
    return span, "`croupier analyze` and the rule card say the analysis is missing"
