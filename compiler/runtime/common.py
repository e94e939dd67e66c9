"""Engine runtime: errors, card notation, exact money and JSON numbers."""
# ruff: noqa: F821 - names such as RANKS come from the generated part of the engine

from decimal import Decimal
from fractions import Fraction

# ---- engine ----


class EngineError(ValueError):
    """Base of every error this engine raises for bad input; the message says what is wrong."""


class InvalidCards(EngineError):
    """A card that is not in the deck, too few cards, or a card seen too often."""


class InvalidBet(EngineError):
    """An unknown bet, or a stake that is not a non-negative amount, or outside the table limits."""


class InvalidTable(EngineError):
    """A table that cannot be settled: wrong number of players, missing stakes or coins."""


SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♣": "C", "♦": "D"}
CARD_CODES = {r + s: r + s for r in RANKS for s in SUITS}
CARD_CODES.update({j: j for j in JOKERS})
RANK_OF = {code: code[:-1] for code in CARD_CODES}
RANK_OF.update({j: j for j in JOKERS})


def parse_card(text):
    """The canonical code of a card written as `10S`, `ts`, `A♠` or `BJ`."""
    if not isinstance(text, str):
        raise InvalidCards(f"a card is written as text like \"AS\", not {type(text).__name__}")
    code = CARD_CODES.get(text)
    if code is not None:
        return code
    t = text.strip().upper()
    for symbol, letter in SUIT_SYMBOLS.items():
        t = t.replace(symbol, letter)
    if t[:1] == "T":
        t = "10" + t[1:]
    code = CARD_CODES.get(t)
    if code is None:
        shown = text if len(text) <= 12 else text[:12] + "…"
        raise InvalidCards(f"unknown card {shown!r}")
    return code


def parse_cards(cards):
    """Card codes from a list of card texts or one space-separated string."""
    if isinstance(cards, str):
        cards = cards.replace(",", " ").split()
    if not isinstance(cards, (list, tuple)):
        raise InvalidCards("cards come as a list like [\"3S\", \"2H\"]")
    return [parse_card(c) for c in cards]


def check_copies(codes):
    """Reject a card seen more often than the shoe holds it."""
    if len(codes) <= DECKS:
        return
    seen = {}
    for code in codes:
        seen[code] = seen.get(code, 0) + 1
        if seen[code] > DECKS:
            if DECKS == 1:
                raise InvalidCards(f"card {code} appears twice, but the deck holds it once")
            raise InvalidCards(f"card {code} appears {seen[code]} times, but the shoe holds it {DECKS} times")


def exact_div(a, b):
    """Exact division for spec formulas."""
    if b == 0:
        raise EngineError("a formula divided by zero")
    return Fraction(a) / b


MAX_EXPONENT = 30  # a stake beyond 10**30 (or below 10**-30) is not money, and exact arithmetic on it would not end


def parse_money(value, what):
    """An exact, non-negative amount from JSON (int, Decimal or numeric string)."""
    if isinstance(value, bool) or value is None:
        raise InvalidBet(f"{what} must be a number, not {json_text(value)}")
    if isinstance(value, int):
        amount = value
    elif isinstance(value, (Decimal, float, str)):
        try:
            number = value
            if not isinstance(number, Decimal) and "e" in str(number).lower():
                number = Decimal(str(number).strip())
            if isinstance(number, Decimal) and (not number.is_finite() or abs(number.adjusted()) > MAX_EXPONENT):
                raise ValueError(number)
            amount = Fraction(number) if isinstance(number, Decimal) else Fraction(str(number).strip())
        except (ValueError, ZeroDivisionError, ArithmeticError):
            raise InvalidBet(f"{what} must be a number, not {json_text(value)}") from None
        if amount.denominator == 1:
            amount = amount.numerator
    else:
        raise InvalidBet(f"{what} must be a number, not {type(value).__name__}")
    if amount < 0:
        raise InvalidBet(f"{what} must not be negative ({json_text(value)})")
    return amount


def json_text(value):
    text = str(value)
    return text if len(text) <= 20 else text[:20] + "…"


def num_json(x):
    """An exact number for JSON: an int when whole, else a decimal string, else "n/d"."""
    if isinstance(x, int):
        return x
    if x.denominator == 1:
        return x.numerator
    d = x.denominator
    while d % 2 == 0:
        d //= 2
    while d % 5 == 0:
        d //= 5
    if d != 1:
        return f"{x.numerator}/{x.denominator}"
    digits = 0
    v = x
    while v.denominator != 1:
        v *= 10
        digits += 1
    sign = "-" if v < 0 else ""
    s = str(abs(v.numerator)).rjust(digits + 1, "0")
    return f"{sign}{s[:-digits]}.{s[-digits:]}"


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
