"""Examples on a rule card: hands found by the engine, and the reference cases shown as worked examples.

An example hand of each hand type is found by enumerating the deck's rank
multisets (smallest hands first) and asking the generated engine which type
each hand is, so the card shows exactly what the engine would decide. Worked
examples are the reference cases marked `example = true`: their input and
expected answer, with card lists shown as cards and names shown by their labels.
"""

from __future__ import annotations

from itertools import combinations_with_replacement
from types import ModuleType
from weakref import WeakKeyDictionary

from croupier.cache import cached
from croupier.semantics.hand_classes import HandReader
from croupier.semantics.model import Game

SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
RED_SUITS = ("H", "D")
SEARCH_LIMIT = 50_000  # hands tried before giving up on the rarer types
_FOUND: WeakKeyDictionary = WeakKeyDictionary()  # engine module → its example hands (one search per build)


def card_chip(game: Game, code: str, lang: str) -> dict:
    """One card for display: rank, suit symbol, colour; a joker by its label."""
    if game.shoe is not None and code in game.shoe.jokers:
        label = game.joker_labels[code].get(lang, code) if code in game.joker_labels else code
        return {"code": code, "rank": label, "suit": "", "red": code.startswith("B"), "joker": True}
    rank, suit = code[:-1], code[-1:]
    if suit in game.suit_labels:  # a deck of the spec's own suits: the suit by its name, never a French symbol
        return {"code": code, "rank": rank, "suit": "\u2009" + suit_short_name(game, suit, lang), "red": False,
                "joker": False}
    return {"code": code, "rank": rank, "suit": SUIT_SYMBOLS.get(suit, suit), "red": suit in RED_SUITS,
            "joker": False}


def suit_short_name(game: Game, suit: str, lang: str) -> str:
    """A suit the spec names, by its label in `lang` without the label's parenthesis: `Coins (denari)` → Coins."""
    label = game.suit_labels[suit].get(lang, suit)
    return label.split(" (")[0].split("（")[0]


def _hands(game: Game):
    """Candidate hands, smallest first: rank multisets within the shoe's copies, suits dealt in order."""
    shoe = game.shoe
    lo, hi = game.hand_size or (1, 5)
    kinds = list(shoe.ranks) + list(shoe.jokers)
    copies = {k: shoe.rank_copies(k) for k in kinds}
    codes_of = {k: shoe.codes_of(k) for k in kinds}
    for size in range(max(lo, 1), hi + 1):
        for combo in combinations_with_replacement(kinds, size):
            seen: dict[str, int] = {}
            hand = []
            for k in combo:
                n = seen.get(k, 0)
                seen[k] = n + 1
                if n >= copies[k]:
                    break
                codes = codes_of[k]
                hand.append(codes[n % len(codes)])
            else:
                yield hand


def example_hands(game: Game, engine: ModuleType | None) -> dict[str, list[str]]:
    """Hand type name → the first hand (fewest cards) the engine classifies as that type."""
    if engine is None or not game.types or game.shoe is None or not hasattr(engine, "adjudicate"):
        return {}
    if engine not in _FOUND:
        digest = getattr(engine, "SOURCE_DIGEST", None)  # set by engine_loader; other modules are not cached
        _FOUND[engine] = (cached("example-hands", digest, lambda: _search(game, engine)) if digest
                          else _search(game, engine))
    return _FOUND[engine]


def _search(game: Game, engine: ModuleType) -> dict[str, list[str]]:
    wanted = {t.name for t in game.types}
    found: dict[str, list[str]] = {}
    asked: set[tuple] = set()  # hands alike for every hand type (`hand_classes.facts_key`) are asked once
    wild = (set(game.wild.ranks), set(game.wild.cards)) if game.wild else (set(), set())
    reader = HandReader(game)
    plain_rank: dict[str, str | None] = {}  # card code -> its rank, None for a wild card

    def plain_rank_of(code: str) -> str | None:
        rank = game.shoe.rank_of(code)
        got = plain_rank[code] = None if code in wild[1] or rank in wild[0] else rank
        return got

    for tried, hand in enumerate(_hands(game)):
        if tried >= SEARCH_LIMIT or len(found) == len(wanted):
            break
        plain = [r for c in hand if (r := plain_rank[c] if c in plain_rank else plain_rank_of(c)) is not None]
        key = (reader.facts_key(plain, False), len(hand) - len(plain))
        if key in asked:
            continue
        asked.add(key)
        try:
            answer = engine.adjudicate({"hand": hand})
        except Exception:  # noqa: BLE001 - an engine that refuses a hand just gives no example
            continue
        kind = answer.get("type") if isinstance(answer, dict) else None
        if kind in wanted and kind not in found:
            found[kind] = hand
    return found


