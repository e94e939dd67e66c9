"""What a seat game's analysis reads of its model besides the engine: the policy, the stake, separability.

The seat analysis (`seat`) works on the engine; of the game model it reads only the
threshold of `policy hit while total < T`, the table formula each player stakes
against the banker and whether a player's settlement reads nobody else's. The
driver keeps these with the engine's facts (`seat_inputs`, plain JSON data), so
that `croupier analyze` of a seat game can be answered from the disk cache without
parsing the spec again, as a dealt round's is.
"""

from __future__ import annotations

from fractions import Fraction

__all__ = ["stake_of", "separable", "seat_inputs", "inputs_of"]


def stake_of(game) -> str | None:
    """The table formula every player stakes against the banker, as the spec declares it (or None)."""
    return game.settlement.stake if game.settlement is not None else None


def separable(game) -> bool:
    """Whether a player's settlement with the banker reads nothing of the others': `paid` appears only in a
    `coins(X) - paid(X)` cap (which coins too many to bind leave open)."""
    from croupier.semantics.expr import expr_text

    s = game.settlement
    if s is None:
        return False
    for cl in s.clauses:
        for e in (cl.expr, cl.unless):
            text = expr_text(e) if e is not None else ""
            capped = sum(text.count(f"coins({r}) - paid({r})") for r in ("winner", "loser", "banker", "player"))
            if text.count("paid(") > capped:
                return False
    return True


def seat_inputs(game) -> dict:
    """The model's part of a seat game's analysis, as JSON data: {"threshold": the policy's T as "n/d" text
    (or None), "stake": the staked formula (or None), "separable": bool}."""
    t = game.policy_threshold
    return {"threshold": None if t is None else str(t), "stake": stake_of(game), "separable": separable(game)}


def inputs_of(facts: dict) -> tuple[Fraction | None, str | None, bool] | None:
    """(threshold, stake, separable) from a game's facts (`seat_inputs`), or None when they are not there
    in that shape."""
    seat = facts.get("seat")
    if not isinstance(seat, dict):
        return None
    t, stake, sep = seat.get("threshold"), seat.get("stake"), seat.get("separable")
    if not (t is None or isinstance(t, str)) or not (stake is None or isinstance(stake, str)) \
            or not isinstance(sep, bool):
        return None
    try:
        return (None if t is None else Fraction(t)), stake, sep
    except (ValueError, ZeroDivisionError):
        return None
