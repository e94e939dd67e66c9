"""A plain, hand-written Python baccarat (house rules of spec/baccarat.rules): the benchmark baseline.

It does the same JSON work as `croupier play spec/baccarat.rules --jsonl`: one
JSON request per input line (floats as Decimal), cards parsed from the usual
notation, the round adjudicated by the standard third-card rule, bets settled
with exact Fractions, one JSON answer per line. It is written the way a
developer would write it by hand: idiomatic, direct, nothing generated. It is
used only by `benchmarks/bench_play_jsonl.py`; nothing else depends on it.
"""

from __future__ import annotations

import json
import sys
from decimal import Decimal
from fractions import Fraction

DECKS = 8
RANK_VALUES = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9,
               "10": 0, "J": 0, "Q": 0, "K": 0}
SUITS = "SHCD"
SUIT_SYMBOLS = {"♠": "S", "♥": "H", "♣": "C", "♦": "D"}

# What a winning stake returns, stake included (1:1.95, 1:2, 1:9, 1:12, 1:12).
PAYS = {
    "banker": Fraction(39, 20),
    "player": Fraction(2),
    "tie": Fraction(9),
    "banker_pair": Fraction(12),
    "player_pair": Fraction(12),
}


class BadRequest(ValueError):
    """Anything wrong with a request line."""


def parse_card(text: object) -> str:
    if not isinstance(text, str):
        raise BadRequest(f"a card is written as text like \"AS\", not {type(text).__name__}")
    t = text.strip().upper()
    for symbol, letter in SUIT_SYMBOLS.items():
        t = t.replace(symbol, letter)
    if t.startswith("T"):
        t = "10" + t[1:]
    rank, suit = t[:-1], t[-1:]
    if rank not in RANK_VALUES or suit not in SUITS or not suit:
        raise BadRequest(f"unknown card {text!r}")
    return rank + suit


def value(card: str) -> int:
    return RANK_VALUES[card[:-1]]


def hand_total(cards: list[str]) -> int:
    return sum(value(c) for c in cards) % 10


def banker_draws(banker_total: int, player_third: int | None) -> bool:
    """The standard banker rule."""
    if player_third is None:
        return banker_total <= 5
    if banker_total <= 2:
        return True
    if banker_total == 3:
        return player_third != 8
    if banker_total == 4:
        return 2 <= player_third <= 7
    if banker_total == 5:
        return 4 <= player_third <= 7
    if banker_total == 6:
        return 6 <= player_third <= 7
    return False


def play_round(cards: list[str]) -> dict:
    if len(cards) < 4:
        raise BadRequest(f"not enough cards: the deal needs 4, got {len(cards)}")
    counts: dict[str, int] = {}
    for c in cards:
        counts[c] = counts.get(c, 0) + 1
        if counts[c] > DECKS:
            raise BadRequest(f"card {c} appears {counts[c]} times, but the shoe holds it {DECKS} times")
    player = [cards[0], cards[2]]
    banker = [cards[1], cards[3]]
    used = 4
    natural = hand_total(player) >= 8 or hand_total(banker) >= 8
    if not natural:
        player_third = None
        if hand_total(player) <= 5:
            if used >= len(cards):
                raise BadRequest("not enough cards: player draws")
            player.append(cards[used])
            player_third = value(cards[used])
            used += 1
        if banker_draws(hand_total(banker), player_third):
            if used >= len(cards):
                raise BadRequest("not enough cards: banker draws")
            banker.append(cards[used])
            used += 1
    pt, bt = hand_total(player), hand_total(banker)
    outcome = "player" if pt > bt else "banker" if bt > pt else "tie"
    return {
        "player": player,
        "banker": banker,
        "player_total": pt,
        "banker_total": bt,
        "natural": natural,
        "player_pair": player[0][:-1] == player[1][:-1],
        "banker_pair": banker[0][:-1] == banker[1][:-1],
        "outcome": outcome,
        "cards_used": used,
    }


def parse_stake(name: str, stake: object) -> Fraction:
    if isinstance(stake, bool) or not isinstance(stake, (int, Decimal, str)):
        raise BadRequest(f"the stake on {name} must be a number")
    try:
        amount = Fraction(stake.strip()) if isinstance(stake, str) else Fraction(stake)
    except (ValueError, ZeroDivisionError):
        raise BadRequest(f"the stake on {name} must be a number") from None
    if amount < 0:
        raise BadRequest(f"the stake on {name} must not be negative")
    return amount


def returned(round_: dict, bet: str, stake: Fraction) -> Fraction:
    outcome = round_["outcome"]
    if bet in ("banker", "player"):
        if outcome == bet:
            return stake * PAYS[bet]
        return stake if outcome == "tie" else Fraction(0)
    if bet == "tie":
        return stake * PAYS["tie"] if outcome == "tie" else Fraction(0)
    return stake * PAYS[bet] if round_[bet] else Fraction(0)


def as_json_number(x: Fraction) -> int | str:
    """An int when whole, else an exact decimal string (every payout here is a finite decimal)."""
    if x.denominator == 1:
        return x.numerator
    return str(Decimal(x.numerator) / Decimal(x.denominator))


def answer(line: str) -> str:
    try:
        request = json.loads(line, parse_float=Decimal)
        if not isinstance(request, dict):
            raise BadRequest("a request is a JSON object")
        cards = request.get("cards")
        if not isinstance(cards, list):
            raise BadRequest("the request has no \"cards\" list")
        bets = request.get("bets") or {}
        if not isinstance(bets, dict):
            raise BadRequest("\"bets\" is an object of bet name to stake")
        round_ = play_round([parse_card(c) for c in cards])
        returns = {}
        for name, stake in bets.items():
            if name not in PAYS:
                raise BadRequest(f"unknown bet {name!r}")
            returns[name] = as_json_number(returned(round_, name, parse_stake(name, stake)))
        round_["returns"] = returns
        return json.dumps(round_, ensure_ascii=False)
    except ValueError as exc:  # BadRequest and json.JSONDecodeError
        return json.dumps({"error": str(exc)})


def main() -> None:
    write = sys.stdout.write
    for line in sys.stdin:
        write(answer(line.rstrip("\n")) + "\n")


if __name__ == "__main__":
    main()
