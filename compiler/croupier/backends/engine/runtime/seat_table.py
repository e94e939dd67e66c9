"""Engine runtime for seat games: read a table, settle it by the spec's scheme and formulas."""
# ruff: noqa: F821 - names such as SCHEME come from the engine's generated part and `seat_table_parts`

# ---- engine ----

class Table:
    """One table being settled: seats in order, their hands, stakes, coins and what they paid."""

    def __init__(self, seats, values, stakes, coins, banker):
        self.seats = seats
        self.values = values
        self.stakes = stakes
        self.coins = coins
        self.banker = banker
        self.paid = {s: 0 for s in seats}
        self.received = {s: 0 for s in seats}
        self.players = len(seats)
        self.poorest = min(coins.values()) if coins else 0
        for name, formula in FORMULAS:
            setattr(self, "formula_" + name, formula(self))

    def stake(self, seat):
        return self.stakes[seat]

    def multiplier(self, seat):
        return MULTIPLIER[self.values[seat].type]

    def type_of(self, seat):
        return self.values[seat].type


BRINGS = {"every seat": "every seat", "players": "every player (the banker excepted)", "banker": "the banker"}


def _amounts(request, key, seats, banker, needed_from):
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


def read_table(request):
    """Validate a table request and evaluate every hand."""
    hands = request.get("hands")
    if not isinstance(hands, dict):
        raise InvalidTable("a table has \"hands\": an object of player to cards")
    seats = list(hands)
    low, high = SEATS
    if not low <= len(seats) <= high:
        raise InvalidTable(f"a table seats {low} to {high} players, not {len(seats)}")
    values = {}
    for seat in seats:
        check_name(seat, "a player's name", InvalidTable)
        try:
            values[seat] = evaluate(hands[seat])
        except EngineError as exc:
            raise type(exc)(f"{seat}: {exc}") from None
    check_copies([c for v in values.values() for c in v.cards])
    banker = None
    if NEEDS_BANKER:
        banker = check_name(request.get("banker"), "\"banker\" (the banker's name)", InvalidTable)
        if banker not in hands:
            raise InvalidTable(f"the banker {json_text(banker)!r} is not seated at the table")
    stakes = _amounts(request, "stakes", seats, banker, STAKES_FROM)
    coins = _amounts(request, "coins", seats, banker, COINS_FROM)
    return Table(seats, values, stakes, coins, banker)


def _transfer(t, loser, winner, amount, transfers):
    if amount > 0:
        t.paid[loser] += amount
        t.received[winner] += amount
        transfers.append({"from": loser, "to": winner, "amount": num_json(amount)})


def settle_table(request):
    """Settle one table: hands, order or results, transfers in order, and nets."""
    t = read_table(request)
    transfers = []
    out = {"hands": {s: t.values[s].as_json() for s in t.seats}}
    for name, _formula in FORMULAS:
        out[name] = num_json(getattr(t, "formula_" + name))
    settle_seats(t, out, transfers)
    out["transfers"] = transfers
    out["net"] = {s: num_json(t.received[s] - t.paid[s]) for s in t.seats}
    return out


def adjudicate(request):
    """Answer one `play --jsonl` request: a table, or {"hand": [...]} for one hand."""
    if not isinstance(request, dict):
        raise EngineError("a request is a JSON object: {\"hands\": …} or {\"hand\": […]}")
    if "hand" in request:
        value = evaluate(request["hand"])
        out = value.as_json(with_substitution=True)
        out["label"] = TYPE_LABELS.get(value.type, value.type)
        return out
    return settle_table(request)
