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
