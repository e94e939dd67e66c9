"""Engine runtime for dealt rounds: deal, draw by the spec's tables, decide, settle bets."""
# ruff: noqa: F821, F811 - names such as DEAL_ORDER come from the engine's generated part; alternative parts share a name

from fractions import Fraction

# ---- engine ----

CARD_VALUE = {code: CARD_VALUES.get(code, VALUE[RANK_OF[code]]) for code in CARD_CODES}


# ---- part plain_total if not soft ----
def total(cards):
    """The total of some cards, by the spec's values."""
    s = 0
    for c in cards:
        s += CARD_VALUE[c]
    return s % MODULUS if MODULUS else s
# ---- end plain_total ----


# ---- part soft_sum if soft ----
def total(cards):
    """The total of some cards, by the spec's values: the best of their totals (see best_total)."""
    return best_total(cards)[0]
# ---- end soft_sum ----


# ---- part third if uses third ----
def third(cards):
    """The third card of a hand, or None when it has only two."""
    return cards[2] if len(cards) > 2 else None
# ---- end third ----


# ---- part card_value if uses card_value ----
def card_value(card):
    """The value of one card; asking for a card that was not dealt is an error."""
    if card is None:
        raise EngineError("a rule asked for a card that was not dealt")
    return CARD_VALUE[card]
# ---- end card_value ----


# ---- part same_rank if uses same_rank ----
def same_rank(cards):
    """Whether all the cards are of one rank (a pair, for two cards)."""
    if len(cards) < 2:
        return False
    rank = RANK_OF[cards[0]]
    for c in cards:
        if RANK_OF[c] != rank:
            return False
    return True
# ---- end same_rank ----


# ---- part grid_table if uses grid_table ----
def grid_table(columns, rows):
    """A draw table from its grid: {row key: "D S …"} (or {(keys…): "D S …"} for one key).

    Cells are D (draw) or S (stand); the result maps a key, or a (row, column)
    pair, to True for draw and False for stand.
    """
    table = {}
    for row, cells in rows.items():
        marks = cells.split()
        if columns is None:
            table.update({key: mark == "D" for key, mark in zip(row, marks) if mark in "DS"})
        else:
            table.update({(row, col): mark == "D" for col, mark in zip(columns, marks) if mark in "DS"})
    return table
# ---- end grid_table ----


class MissingCell(EngineError):
    """A draw table has no cell for the key a round reaches (a gap in the spec's grid)."""

    def __init__(self, rule, key):
        super().__init__(f"the table {rule!r} has no cell for {key}")
        self.rule = rule
        self.key = key


# ---- part repeats if repeats ----
def drawing_steps(r):
    """(hand, decide) for each draw decision of a round, in order; a hand that draws while a condition
    holds (REPEATS) is asked again after every card it draws, until it stands."""
    for hand, decide in DRAWERS:
        if hand not in REPEATS:
            yield hand, decide
            continue
        while True:
            held = len(getattr(r, hand))
            yield hand, decide
            if len(getattr(r, hand)) == held:
                break
# ---- end repeats ----


# ---- part no_repeats if not repeats ----
def drawing_steps(r):
    """(hand, decide) for each draw decision of a round, in order: each hand decides once."""
    return DRAWERS
# ---- end no_repeats ----


class NotEnoughCards(InvalidCards):
    """The cards given ran out before the round was over (a hand still had to draw)."""


class Round:
    """One adjudicated round: each hand's cards, the outcome, the cards used and the steps."""

    __slots__ = HANDS + ("outcome", "cards_used", "steps")

    def __init__(self):
        for hand in HANDS:
            setattr(self, hand, [])
        self.outcome = None
        self.cards_used = 0
        self.steps = []


def play(cards, explain=False, observe=None):
    """Adjudicate one round from cards in dealing order; unused cards are left over.

    With `explain`, `Round.steps` lists every deal and decision with the rule behind it.
    With `observe`, `observe(hand, r)` is called before each draw decision with the round so far,
    and a table's missing cell makes the hand stand instead of stopping the round: a tool that
    surveys every round (`croupier check`) then sees every such cell, reading which table applies
    and its key from `DECISION_TABLES`.
    """
    codes = parse_cards(cards)
    check_copies(codes)
    if not explain and observe is None and len(codes) >= len(DEAL_ORDER):
        try:
            return deal_at(codes, 0)  # the rules inlined; nothing to trace
        except ShoeRanOut:
            pass  # the cards ran out: the traced path below says where
    r = Round()
    n = len(codes)
    if n < len(DEAL_ORDER):
        raise InvalidCards(f"not enough cards: the deal needs {len(DEAL_ORDER)}, got {n}")
    for pos, hand in enumerate(DEAL_ORDER):
        getattr(r, hand).append(codes[pos])
    pos = len(DEAL_ORDER)
    if explain:
        for i, hand in enumerate(DEAL_ORDER):
            r.steps.append({"step": "deal", "hand": hand, "card": codes[i], "rule": DEAL_RULE})
    if stand_all(r):
        if explain:
            r.steps.append({"step": "stand all", "rule": STAND_RULE})
    else:
        for hand, decide in drawing_steps(r):
            if observe is None:
                rule, key, draws = decide(r)
            else:
                observe(hand, r)
                try:
                    rule, key, draws = decide(r)
                except MissingCell as gap:
                    rule, key, draws = gap.rule, gap.key, False
            if draws:
                if pos >= n:
                    raise NotEnoughCards(f"not enough cards: {hand} draws, but the cards ran out after {n}")
                getattr(r, hand).append(codes[pos])
                pos += 1
            if explain:
                step = {"step": "draw" if draws else "stand", "hand": hand, "rule": rule, "key": key}
                if draws:
                    step["card"] = codes[pos - 1]
                r.steps.append(step)
    r.outcome = outcome_of(r)
    r.cards_used = pos
    if explain:
        r.steps.append({"step": "outcome", "outcome": r.outcome, "rule": OUTCOME_RULES[r.outcome]})
    return r


def settle(r, bets):
    """What each bet returns, stake included (0 when lost), for an adjudicated round."""
    out = {}
    for name, stake in bets.items():
        pay = BETS.get(name) if isinstance(name, str) else None
        if pay is None:
            raise InvalidBet(f"unknown bet {json_text(name)!r}; this game's bets are {', '.join(BETS)}")
        out[name] = pay(r, parse_money(stake, f"the stake on {name}"))
    return out


# ---- part pays_to if uses pays_to ----
def pays_to(stake, ratio, commission, unit, rounding):
    """Stake back plus winnings at `ratio` to one, less a rounded commission on the win."""
    win = stake * ratio
    if commission:
        win -= round_to(win * commission, unit, rounding)
    value = stake + win
    return value.numerator if isinstance(value, Fraction) and value.denominator == 1 else value
# ---- end pays_to ----


def record(r):
    """The round as the JSON record of the `play --jsonl` contract."""
    out = {}
    for hand in HANDS:
        out[hand] = getattr(r, hand)
    for hand in HANDS:
        out[hand + "_total"] = num_json(total(getattr(r, hand)))
    for name, test in EVENTS:
        out[name] = test(r)
    out["outcome"] = r.outcome
    out["cards_used"] = r.cards_used
    return out


def read_request(request):
    """(cards, bets, room) of a `play --jsonl` request, every field's type checked."""
    if not isinstance(request, dict):
        raise EngineError("a request is a JSON object like {\"cards\": [...], \"bets\": {...}}")
    cards = request.get("cards")
    if cards is None:
        raise InvalidCards("the request has no \"cards\"")
    bets = check_object(request.get("bets"), "\"bets\" (bet name to stake)", InvalidBet)
    room = request.get("room")
    if room is not None:
        check_name(room, "\"room\"", InvalidBet)
    return cards, bets, room


def adjudicate(request):
    """Answer one `play --jsonl` request: {"cards": [...], "bets": {...}[, "room": name]}."""
    cards, bets, room = read_request(request)
    if room is not None:
        check_limits(room, bets)
    r = play(cards)
    out = record(r)
    out["returns"] = {name: num_json(v) for name, v in settle(r, bets).items()}
    return out


# ---- part rooms if rooms ----
def check_limits(room, bets):
    """Reject a stake outside the room's limits, naming the room and the limit."""
    limits = ROOMS.get(check_name(room, "the room", InvalidBet))
    if limits is None:
        known = ", ".join(ROOMS) or "none"
        raise InvalidBet(f"unknown room {json_text(room)!r}; rooms: {known}")
    for name, stake in bets.items():
        if name not in limits:
            continue
        low, high = limits[name]
        amount = parse_money(stake, f"the stake on {name}")
        if not low <= amount <= high:
            raise InvalidBet(f"the stake {num_json(amount)} on {name} is outside the limit of room "
                             f"{room}: {num_json(low)} to {num_json(high)}")
# ---- end rooms ----


# ---- part no_rooms if not rooms ----
def check_limits(room, bets):
    """Reject any room: this game's spec has no rooms (so no table limits)."""
    check_name(room, "the room", InvalidBet)
    raise InvalidBet(f"unknown room {json_text(room)!r}; rooms: none")
# ---- end no_rooms ----
