"""Exact numbers as text: the one formatter of the compiler's texts and the engines' JSON answers."""

from fractions import Fraction


def number_text(value: Fraction | int) -> str:
    """An exact number as the spec would write it: 3, 10.5, -0.25, 1/3 (a decimal when it has one)."""
    if isinstance(value, int):
        return str(value)
    if value.denominator == 1:
        return str(value.numerator)
    d = value.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d != 1:
        return f"{value.numerator}/{value.denominator}"
    digits = 0
    v = value
    while v.denominator != 1:
        v *= 10
        digits += 1
    sign = "-" if v < 0 else ""
    s = str(abs(v.numerator)).rjust(digits + 1, "0")
    return f"{sign}{s[:-digits]}.{s[-digits:]}"


def amount_json(x: Fraction | int) -> str:
    """An amount of money for JSON, always a string holding its exact text ("200", "29.25", else "n/d"): one
    type for every stake, return, transfer and net of every answer, whole or not."""
    return number_text(x)


def num_json(x: Fraction | int) -> int | str:
    """An exact number for JSON: an int when whole, else its text (`number_text`: a decimal, else "n/d")."""
    if isinstance(x, int):
        return x
    if x.denominator == 1:
        return x.numerator
    return number_text(x)


MAX_NUMBER_DIGITS = 40  # digits of a number read back from a log or a reference case (no exponent is expanded)
NUMBER_TEXT = None  # the compiled pattern of `bounded_fraction`, built on first use


def bounded_fraction(value):
    """An exact number read back (a logged or expected value): an int, a Decimal or a text such as `-12`,
    `10.5` or `1/3` with at most MAX_NUMBER_DIGITS digits in each part, as a Fraction; None for anything else.

    No exponent is expanded: `"1e999999999"` (or a Decimal of that size) is not a number here, so reading it
    cannot hang on a power of ten of a billion digits.
    """
    global NUMBER_TEXT
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return Fraction(value) if abs(value) < 10 ** MAX_NUMBER_DIGITS else None
    if not isinstance(value, str):
        if type(value).__name__ != "Decimal" or not value.is_finite():
            return None
        if abs(value.adjusted()) > MAX_NUMBER_DIGITS or len(value.as_tuple().digits) > 2 * MAX_NUMBER_DIGITS:
            return None
        return Fraction(value)
    if NUMBER_TEXT is None:
        import re

        d = f"[0-9]{{1,{MAX_NUMBER_DIGITS}}}"
        NUMBER_TEXT = re.compile(rf"-?{d}(?:\.{d}|/{d})?")
    if len(value) > 3 * MAX_NUMBER_DIGITS or NUMBER_TEXT.fullmatch(value) is None:
        return None
    try:
        return Fraction(value)
    except ZeroDivisionError:
        return None
