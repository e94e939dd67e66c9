"""The exact arithmetic a spec's rules may use: division, remainder, rounding to a unit, payouts, losses."""

from fractions import Fraction
from math import floor

from croupier.runtime.errors import EngineError


def exact_div(a, b):
    """Exact division for spec formulas."""
    if b == 0:
        raise EngineError("a formula divided by zero")
    return Fraction(a) / b


def exact_mod(a, b):
    """The remainder of an exact division for spec formulas (its sign is the divisor's)."""
    if b == 0:
        raise EngineError("a formula took a remainder modulo zero")
    if type(a) is int and type(b) is int:
        return a % b  # Python's own remainder of whole numbers has the divisor's sign too
    value = Fraction(a) % b
    return value.numerator if value.denominator == 1 else value


def round_to(amount, unit, mode):
    """Round an exact amount to a multiple of `unit` (down, up, half-up, half-even)."""
    if unit is None or mode is None:
        return amount
    q = Fraction(amount) / unit
    floor_q = floor(q)
    rest = q - floor_q
    if mode == "down":
        n = floor_q
    elif mode == "up":
        n = floor_q + (1 if rest else 0)
    elif mode == "half-up":
        n = floor_q + (1 if rest >= Fraction(1, 2) else 0)
    else:
        n = floor_q + (1 if rest > Fraction(1, 2) or (rest == Fraction(1, 2) and floor_q % 2) else 0)
    value = n * unit
    return value.numerator if isinstance(value, Fraction) and value.denominator == 1 else value


def pays_to(stake, ratio, commission, unit, rounding):
    """Stake back plus winnings at `ratio` to one, less a rounded commission on the win."""
    win = stake * ratio
    if commission:
        win -= round_to(win * commission, unit, rounding)
    value = stake + win
    return value.numerator if isinstance(value, Fraction) and value.denominator == 1 else value


def loses(stake, part):
    """What a stake returns when the bet loses `part` of it (1: all)."""
    value = stake * (1 - part)
    return value.numerator if isinstance(value, Fraction) and value.denominator == 1 else value
