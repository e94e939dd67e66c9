"""Engine back end, table operations: the spec's squeeze, valid-bet and void rules.

Writes the data the runtime's table reads (SQUEEZE_*, VALID_PUSHED_NONE,
VOID_RETURNS_STAKES) and the function generated from the spec's rule
`valid bets none when …`: `no_valid_bets(r, bets)`.
"""

from __future__ import annotations

from croupier.backends.pywriter import PyWriter, literal
from croupier.semantics.expr import expr_text
from croupier.semantics.model import Game


def rule_text(text: str, cite: str | None) -> str:
    return f"{text} [{cite}]" if cite else text


def table_data(game: Game, w: PyWriter) -> None:
    """The table-operation constants of a dealt-round game."""
    s = game.squeeze
    if s is not None:
        w.comment(rule_text(f"squeeze {' '.join(s.bets)} by larger stake ties to {s.ties_to} "
                            f"order {' '.join(s.order)}", s.cite))
    w.line(f"SQUEEZE_BETS, SQUEEZE_TIES_TO, SQUEEZE_ORDER = {literal(tuple(s.bets) if s else ())}, "
           f"{literal(s.ties_to if s else None)}, {literal(tuple(s.order) if s else ())}")
    if game.valid_bets_pushed_none:
        w.comment(rule_text("valid bets none for pushed stakes", game.valid_bets_pushed_cite))
    w.line(f"VALID_PUSHED_NONE = {literal(game.valid_bets_pushed_none)}")
    if game.void_returns_stakes:
        w.comment(rule_text("void returns stakes", game.void_cite))
    w.line(f"VOID_RETURNS_STAKES = {literal(game.void_returns_stakes)}")


def table_functions(game: Game, w: PyWriter, py) -> None:
    """`no_valid_bets`; `py(expr)` translates an expression. (Whether a push decided a bet the runtime reads
    from `BET_CLAUSES`.)"""
    rule = game.valid_bets_none_when
    with w.block("def no_valid_bets(r, bets):"):
        if rule is None:
            w.line('"""Whether a bettor\'s round counts no valid bet: the spec has no such rule."""')
            w.line("return False")
        else:
            text = rule_text(f"valid bets none when {expr_text(rule)}", game.valid_bets_cite)
            w.line('"""Whether a bettor\'s round counts no valid bet (`bets` holds the bets placed)."""')
            w.comment(text)
            w.line(f"return {py(rule)}")
    w.blank(2)
