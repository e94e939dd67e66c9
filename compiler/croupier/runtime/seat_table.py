"""Seat games: read a table, settle it by the spec's scheme and formulas; the game object of a seat-game engine.

`SeatGame(...)` takes a game's data (cards and values, seats, hand types and their order, wild
cards, tie-breaks, the settlement scheme and what each seat must bring); `rules(...)` then gives it
the functions generated from the spec's rules (the hand-type tests, the table formulas, the settle
block's `verdict` and `payment`). Its methods and attributes are the engine's public API (`API`).
"""

from croupier.runtime.cards import CardGame
from croupier.runtime.errors import EngineError, InvalidTable
from croupier.runtime.jsonl import JsonLinesGame
from croupier.runtime.numbers import amount_json
from croupier.runtime.requests import check_name, check_object, json_text, parse_money
from croupier.runtime.seat_hands import SeatHands

BRINGS = {"every seat": "every seat", "players": "every player (the banker excepted)", "banker": "the banker"}


class SeatTable:
    """One table being settled: seats in order, their hands, stakes, coins and what they paid."""

    def __init__(self, game, seats, values, stakes, coins, banker):
        self.game = game
        self.seats = seats
        self.values = values
        self.stakes = stakes
        self.coins = coins
        self.banker = banker
        self.paid = {s: 0 for s in seats}
        self.received = {s: 0 for s in seats}
        self.players = len(seats)
        self.poorest = min(coins.values()) if coins else 0
        for name, formula in game.FORMULAS:
            setattr(self, "formula_" + name, formula(self))

    def stake(self, seat):
        return self.stakes[seat]

    def multiplier(self, seat):
        return self.game.MULTIPLIER[self.values[seat].type]

    def type_of(self, seat):
        return self.values[seat].type

    def transfer(self, loser, winner, amount, transfers):
        """The loser pays the winner `amount` (nothing when 0 or less), noted in `transfers`."""
        if amount > 0:
            self.paid[loser] += amount
            self.received[winner] += amount
            transfers.append({"from": loser, "to": winner, "amount": amount_json(amount)})


def seat_amounts(request, key, seats, banker, needed_from):
    """The amounts of `key` ("stakes" or "coins") given for the seats; those that `needed_from` names
    ("every seat", "players", "banker", or "" for none) must all be there."""
    given = check_object(request.get(key), f"\"{key}\" (player to amount)", InvalidTable)
    needed = (seats if needed_from == "every seat" else [s for s in seats if s != banker]
              if needed_from == "players" else [banker] if needed_from == "banker" else [])
    out = {}
    for seat in seats:
        if seat not in given:
            if seat in needed:
                what = key[:-1] if key.endswith("s") else key
                raise InvalidTable(f"missing {what} for {seat}: this game needs a {what} from "
                                   f"{BRINGS[needed_from]}")
            continue
        out[seat] = parse_money(given[seat], f"the {key} of {seat}")
    return out


class SeatGame(JsonLinesGame, SeatHands, CardGame):
    """A seat game: its data, then (`rules`) the functions generated from its rules."""

    # the engine's public calls besides its rule functions, in the order its `__all__` lists them
    API = ("EngineError", "InvalidCards", "InvalidBet", "InvalidTable", "shoe_cards", "parse_card", "parse_cards",
           "check_copies", "kind_of", "json_text", "check_name", "check_object", "parse_money", "num_json",
           "amount_json", "HandFacts", "HandValue", "substitution_json", "classify", "top_card", "strength",
           "evaluate", "is_wild",
           "wild_substitutions", "Table", "read_table", "settle_table", "adjudicate", "settle_seats", "read_json",
           "internal_error", "encode_answer", "answer", "run_jsonl")
    Table = SeatTable

    def __init__(self, game, decks, deck, jokers, values, seats, hand_size, classes, types, multiplier, tiebreak,
                 scheme, card_order=(), suit_order=(), wild=None, type_labels=None, stakes_from="", coins_from=""):
        super().__init__(game, decks, deck, jokers, values)
        self.SEATS = seats
        self.HAND_SIZE = hand_size
        self.CLASSES = classes
        self.TYPES = types
        self.MULTIPLIER = multiplier
        self.TIEBREAK = tiebreak
        self.SCHEME = scheme
        self.NEEDS_BANKER = scheme == "against-banker"
        self.CARD_ORDER = card_order
        self.SUIT_ORDER = suit_order
        self.WILD_RANKS, self.WILD_CARDS, self.WILD_CHOICES, self.WILD_BEST_BY = wild or ((), (), (), ())
        self.TYPE_LABELS = type_labels or {}
        self.STAKES_FROM = stakes_from
        self.COINS_FROM = coins_from
        self.hand_tables()

    def rules(self, type_tests, formulas, verdict, payment):
        """Give the game the functions generated from its rules: `type_tests` ((type, test(h))… highest
        first), `formulas` ((name, formula(t))…), `verdict(t, …, tied)` and `payment(t, …)`."""
        self.TYPE_TESTS = type_tests
        self.FORMULAS = formulas
        self.verdict = verdict
        self.payment = payment

    def read_table(self, request):
        """Validate a table request and evaluate every hand."""
        hands = request.get("hands")
        if not isinstance(hands, dict):
            raise InvalidTable("a table has \"hands\": an object of player to cards")
        seats = list(hands)
        low, high = self.SEATS
        if not low <= len(seats) <= high:
            raise InvalidTable(f"a table seats {low} to {high} players, not {len(seats)}")
        values = {}
        for seat in seats:
            check_name(seat, "a player's name", InvalidTable)
            try:
                values[seat] = self.evaluate(hands[seat])
            except EngineError as exc:
                raise type(exc)(f"{seat}: {exc}") from None
        self.check_copies([c for v in values.values() for c in v.cards])
        banker = None
        if self.NEEDS_BANKER:
            banker = check_name(request.get("banker"), "\"banker\" (the banker's name)", InvalidTable)
            if banker not in hands:
                raise InvalidTable(f"the banker {json_text(banker)!r} is not seated at the table")
        stakes = seat_amounts(request, "stakes", seats, banker, self.STAKES_FROM)
        coins = seat_amounts(request, "coins", seats, banker, self.COINS_FROM)
        return SeatTable(self, seats, values, stakes, coins, banker)

    def settle_table(self, request):
        """Settle one table: hands, order or results, transfers in order, and nets."""
        t = self.read_table(request)
        transfers = []
        out = {"hands": {s: t.values[s].as_json() for s in t.seats}}
        for name, _formula in self.FORMULAS:
            out[name] = amount_json(getattr(t, "formula_" + name))
        self.settle_seats(t, out, transfers)
        out["transfers"] = transfers
        out["net"] = {s: amount_json(t.received[s] - t.paid[s]) for s in t.seats}
        return out

    def settle_seats(self, t, out, transfers):
        """Pairwise: every seat settles with every weaker seat, strongest first (`out["order"]` the order);
        against the banker: every player settles with the banker (`out["results"]` who won each)."""
        if self.NEEDS_BANKER:
            self.settle_with_banker(t, out, transfers)
            return
        order = sorted(t.seats, key=lambda s: t.values[s].strength, reverse=True)
        out["order"] = order
        for i, winner in enumerate(order):
            for loser in order[i + 1:]:
                tied = t.values[winner].strength == t.values[loser].strength
                if self.verdict(t, winner, loser, tied) == "draw":
                    continue
                t.transfer(loser, winner, self.payment(t, winner, loser), transfers)

    def settle_with_banker(self, t, out, transfers):
        """Against the banker: every player settles with the banker; `out["results"]` who won each."""
        banker = t.banker
        results = {}
        for player in t.seats:
            if player == banker:
                continue
            tied = t.values[player].strength == t.values[banker].strength
            who = self.verdict(t, banker, player, tied)
            if who == "draw":
                results[player] = "draw"
                continue
            if who is None:
                who = "player" if t.values[player].strength > t.values[banker].strength else "banker"
            results[player] = who
            winner, loser = (player, banker) if who == "player" else (banker, player)
            t.transfer(loser, winner, self.payment(t, banker, player, winner, loser), transfers)
        out["results"] = results

    def adjudicate(self, request):
        """Answer one `play --jsonl` request: a table, or {"hand": [...]} for one hand."""
        if not isinstance(request, dict):
            raise EngineError("a request is a JSON object: {\"hands\": …} or {\"hand\": […]}")
        if "hand" in request:
            value = self.evaluate(request["hand"])
            out = value.as_json(with_substitution=True)
            out["label"] = self.TYPE_LABELS.get(value.type, value.type)
            return out
        return self.settle_table(request)
