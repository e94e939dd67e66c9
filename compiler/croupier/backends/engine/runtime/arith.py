"""Engine runtime: the exact arithmetic that a spec's rules may use, each piece a part.

Each piece is a part, copied only into an engine whose rules use it (the module is left
out whole when none is): division in a formula, rounding a payout to its unit, and what a
stake returns at a ratio less a rounded commission. They
live apart from `common` so that `common` has no parts: a module without parts is copied
whole into every engine, and loading an engine in process then runs it from the package's
bytecode (`runtime_files`) instead of compiling its copy.
"""
# ruff: noqa: F821 - EngineError comes from `common`, copied before this module

from fractions import Fraction

# ---- engine ----

# ---- part exact_div if uses exact_div ----
def exact_div(a, b):
    """Exact division for spec formulas."""
    if b == 0:
        raise EngineError("a formula divided by zero")
    return Fraction(a) / b
# ---- end exact_div ----


# ---- part round_to if uses pays_to ----
def round_to(amount, unit, mode):
    """Round an exact amount to a multiple of `unit` (down, up, half-up, half-even)."""
    if unit is None or mode is None:
        return amount
    q = Fraction(amount) / unit
    floor_q = q.numerator // q.denominator
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
# ---- end round_to ----


# ---- part pays_to if uses pays_to ----
def pays_to(stake, ratio, commission, unit, rounding):
    """Stake back plus winnings at `ratio` to one, less a rounded commission on the win."""
    win = stake * ratio
    if commission:
        win -= round_to(win * commission, unit, rounding)
    value = stake + win
    return value.numerator if isinstance(value, Fraction) and value.denominator == 1 else value
# ---- end pays_to ----
