"""Exact figures as text: decimal strings, fractions and percentages, for reports and cards.

An analysis computes exact Fractions; what shows them (the `analyze` and `diff` reports, a rule
card's Mathematics section) writes them with these, so that a figure reads the same everywhere:
a decimal string exact when the expansion ends (else 20 significant digits), "n/d", a square
root to 20 significant digits, a percentage rounded half-even from the exact value.
"""

from __future__ import annotations

from decimal import Decimal, localcontext
from fractions import Fraction

DIGITS = 20


def dec(x: Fraction | int) -> str:
    """A decimal string: exact when it terminates within 24 places, else 20 significant digits."""
    x = Fraction(x)
    d = x.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    with localcontext() as ctx:
        ctx.prec = 60 if d == 1 else DIGITS
        value = Decimal(x.numerator) / Decimal(x.denominator)
    if d == 1:
        text = format(value.normalize(), "f")
        if len(text.replace("-", "").replace(".", "").lstrip("0")) <= 24:
            return text
    with localcontext() as ctx:
        ctx.prec = DIGITS
        return format(Decimal(x.numerator) / Decimal(x.denominator), "f")


def frac(x: Fraction | int) -> str:
    """An exact number as "n/d"."""
    x = Fraction(x)
    return f"{x.numerator}/{x.denominator}"


def sqrt_dec(x: Fraction) -> str:
    """The square root of an exact non-negative number, to 20 significant digits."""
    with localcontext() as ctx:
        ctx.prec = DIGITS + 10
        root = (Decimal(x.numerator) / Decimal(x.denominator)).sqrt()
        ctx.prec = DIGITS
        return format(+root, "f")


def pct(x: Fraction, places: int = 4) -> str:
    """A percentage for display, rounded half-even from the exact value."""
    with localcontext() as ctx:
        ctx.prec = 40
        value = Decimal(x.numerator) * 100 / Decimal(x.denominator)
    return f"{value.quantize(Decimal(1).scaleb(-places))} %"
