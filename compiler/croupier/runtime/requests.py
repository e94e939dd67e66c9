"""The input layer: what each field of a request may be (names, objects, amounts), checked in one place."""

from decimal import Decimal
from fractions import Fraction

from croupier.runtime.errors import EngineError, InvalidBet

STAKE_DIGITS = 15  # digits before the point: 10**15 - 1 exceeds any real stake, even in a currency's minor unit
STAKE_PLACES = 6   # digits after the point: finer than any currency's minor unit (ISO 4217 uses at most 4)
STAKE_RULE = (f"an amount is a whole or decimal number in ASCII digits, at most {STAKE_DIGITS} digits before "
              f"the point and {STAKE_PLACES} after, like 100 or 25.5")
STAKE_LIMIT = 10 ** STAKE_DIGITS
MAX_NAME = 200     # characters in a room, bettor, seat or banker name


def kind_of(value):
    """How a JSON value is called in an error message."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true/false"
    if isinstance(value, float):
        return "a float (amounts are exact: an int, a Decimal or a decimal text)"
    if isinstance(value, (int, Decimal, Fraction)):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def json_text(value):
    """A value shown in a message: short, one line, and only characters any output can encode."""
    if isinstance(value, str):
        text = value
    elif isinstance(value, Decimal) or isinstance(value, int) and -10 ** 20 < value < 10 ** 20:
        text = str(value)
    else:
        text = kind_of(value)
    if len(text) > 20:
        text = text[:20] + "…"
    return text if text.isprintable() else ascii(text)[1:-1]


def check_name(value, what, error=EngineError):
    """A name from a request (room, bettor, seat, banker): printable text of at most MAX_NAME characters.

    Printable excludes control characters and lone surrogates (`"\\ud800"` in JSON), so
    every answer that repeats the name can be written out.
    """
    if not isinstance(value, str):
        raise error(f"{what} must be text, not {kind_of(value)}")
    if len(value) > MAX_NAME:
        raise error(f"{what} is longer than {MAX_NAME} characters")
    if not value.isprintable():
        raise error(f"{what} {json_text(value)!r} holds a control character or a lone surrogate")
    return value


def check_object(value, what, error=EngineError, missing_ok=True):
    """A JSON object field; null or absent reads as {} when `missing_ok`."""
    if value is None and missing_ok:
        return {}
    if not isinstance(value, dict):
        raise error(f"{what} is an object, not {kind_of(value)}")
    return value


def _bad_amount(what, value):
    return InvalidBet(f"{what} must be a number, not {json_text(value)!r}: {STAKE_RULE}")


def _digits_amount(negative, whole, places, what, value):
    """The exact amount of `whole` digits followed by `places` digits after the point, within the bounds."""
    whole = whole.lstrip("0")
    places = places.rstrip("0")
    if len(whole) > STAKE_DIGITS or len(places) > STAKE_PLACES:
        raise InvalidBet(f"{what} has too many digits ({json_text(value)}): {STAKE_RULE}")
    amount = Fraction(int(whole + places or "0"), 10 ** len(places))
    if negative and amount:
        raise InvalidBet(f"{what} must not be negative ({json_text(value)})")
    return amount.numerator if amount.denominator == 1 else amount


def parse_money(value, what):
    """An exact, non-negative amount (stake, coins) from a JSON int, a JSON number or a decimal text.

    The one amount parser of every engine: ASCII digits only (no "1/3", "+5", "1_0", "١٠٠"),
    at most STAKE_DIGITS before the point and STAKE_PLACES after; true/false is not an amount.
    """
    if type(value) is int and 0 <= value < STAKE_LIMIT:  # the common case first: a whole stake in range
        return value
    if isinstance(value, bool) or not isinstance(value, (int, Decimal, str)):
        raise InvalidBet(f"{what} must be a number, not {kind_of(value)}: {STAKE_RULE}")
    if isinstance(value, int):
        if not -10 ** STAKE_DIGITS < value < 10 ** STAKE_DIGITS:
            raise InvalidBet(f"{what} has too many digits: {STAKE_RULE}")
        if value < 0:
            raise InvalidBet(f"{what} must not be negative ({value})")
        return value
    if isinstance(value, str):
        negative = value[:1] == "-"
        whole, dot, places = value[negative:].partition(".")
        if not (value.isascii() and whole.isdigit() and (places.isdigit() or not dot)):
            raise _bad_amount(what, value)
        return _digits_amount(negative, whole, places, what, value)
    if not value.is_finite():
        raise _bad_amount(what, value)
    sign, digits, exponent = value.as_tuple()
    text = "".join(map(str, digits)).rstrip("0")
    if not text:
        return 0
    exponent += len(digits) - len(text)
    if value.adjusted() >= STAKE_DIGITS or exponent < -STAKE_PLACES:
        raise InvalidBet(f"{what} has too many digits ({json_text(value)}): {STAKE_RULE}")
    if sign:
        raise InvalidBet(f"{what} must not be negative ({json_text(value)})")
    amount = Fraction(int(text) * 10 ** max(exponent, 0), 10 ** max(-exponent, 0))
    return amount.numerator if amount.denominator == 1 else amount
