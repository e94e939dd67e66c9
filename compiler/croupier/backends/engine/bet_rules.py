"""Engine back end, the bets of a dealt round: one function a bet, its clauses tried in the order written.

`bet_<name>(r, stake)` returns what a stake gets back, stake included: the first
clause whose condition holds decides (a win pays, a push returns the stake, a
loss keeps all or part of it); a payout table's clause decides only when one of
its rows applies (`pays_<name>_<i>(r, stake)`, None otherwise); a bet no clause
decides loses. `BET_CLAUSES` lists every clause's test in the same order (the
runtime reads from it whether a push decided a bet, for the valid-bet rules).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from croupier.backends.pywriter import PyWriter, literal, safe_text
from croupier.semantics.expr import Expr
from croupier.semantics.model import Bet, BetRule, Game, Payout, PayoutRow


def rule_text(text: str, cite: str | None) -> str:
    return f"{text} [{cite}]" if cite else text


def payout_code(p: Payout, number: Callable[[Fraction], str]) -> str:
    """Python of what a stake returns under a payout."""
    if p.style == "including" and p.commission is None:
        return f"stake * {number(p.ratio)}"
    ratio = p.ratio if p.style == "to" else p.ratio - 1
    return (f"pays_to(stake, {number(ratio)}, {number(p.commission or Fraction(0))}, "
            f"{number(p.unit) if p.unit else None}, {literal(p.rounding)})")


def row_test(row: PayoutRow, key: str, py: Callable[[Expr], str]) -> str:
    """Python of whether a payout-table row applies: its condition, or the key (Python text) among its values."""
    if row.condition is not None:
        return py(row.condition)
    return f"{key} == {row.low}" if row.low == row.high else f"{row.low} <= {key} <= {row.high}"


def table_function(w: PyWriter, bet: Bet, i: int, rule: BetRule, py: Callable[[Expr], str],
                   number: Callable[[Fraction], str]) -> None:
    """`pays_<bet>_<i>(r, stake)`: what the payout table's first applying row returns, or None."""
    with w.block(f"def pays_{bet.name}_{i}(r, stake):"):
        w.docstring(f"{bet.name}: {rule.describe()} (None when no row applies).")
        keyed = False
        for row in rule.table.rows:
            if row.condition is None and not keyed:
                w.line(f"key = {py(rule.table.key)}")
                keyed = True
            with w.block(f"if {row_test(row, 'key', py)}:  # " + safe_text(f"| {row.label()} | {row.payout.text} |")):
                w.line(f"return {payout_code(row.payout, number)}")
        w.line("return None")
    w.blank(2)


def bet_functions(game: Game, w: PyWriter, py: Callable[[Expr], str], number: Callable[[Fraction], str]) -> None:
    """Every bet's function and payout tables, then `BETS`."""
    for b in game.bets.values():
        for i, rule in enumerate(b.clauses, 1):
            if rule.table is not None:
                table_function(w, b, i, rule, py, number)
        with w.block(f"def bet_{b.name}(r, stake):"):
            w.docstring(f"{b.name}: what a stake returns, stake included.")
            for i, rule in enumerate(b.clauses, 1):
                w.comment(rule_text(rule.describe(), rule.cite))
                with w.block(f"if {py(rule.when)}:"):
                    if rule.table is not None:
                        w.line(f"paid = pays_{b.name}_{i}(r, stake)")
                        with w.block("if paid is not None:"):
                            w.line("return paid")
                    elif rule.kind == "push":
                        w.line("return stake")
                    elif rule.kind == "loses":
                        w.line("return 0" if rule.part == 1 else f"return loses(stake, {number(rule.part)})")
                    else:
                        w.line(f"return {payout_code(rule.payout, number)}")
            w.line("return 0")
        w.blank(2)
    w.line("BETS = {" + ", ".join(f"{literal(b)}: bet_{b}" for b in game.bets) + "}")
    w.blank(2)
    w.comment("(bet, kind: win, push or loses, index among the bet's clauses of that kind, whether it decides r)")
    w.line("BET_CLAUSES = (")
    for b in game.bets.values():
        counts: dict[str, int] = {}
        for i, rule in enumerate(b.clauses, 1):
            kind = {"wins": "win"}.get(rule.kind, rule.kind)
            test = clause_test(b, i, rule, py)
            w.line(f"    ({literal(b.name)}, {literal(kind)}, {counts.get(kind, 0)}, lambda r: {test}),")
            counts[kind] = counts.get(kind, 0) + 1
    w.line(")")
    w.blank(2)


def clause_test(bet: Bet, i: int, rule: BetRule, py: Callable[[Expr], str]) -> str:
    """Python of whether clause `i` (from 1) of a bet decides a finished round: its condition holds and,
    for a payout table, one of its rows applies."""
    test = py(rule.when)
    return f"{test} and pays_{bet.name}_{i}(r, 1) is not None" if rule.table is not None else test
