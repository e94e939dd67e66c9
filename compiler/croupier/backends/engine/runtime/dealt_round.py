"""Engine runtime for dealt rounds: deal, draw by the spec's tables, decide, settle bets."""
# ruff: noqa: F821 - names such as DEAL_ORDER come from the engine's generated part and `dealt_parts`

# ---- engine ----

CARD_VALUE = {code: CARD_VALUES.get(code, VALUE[RANK_OF[code]]) for code in CARD_CODES}


class MissingCell(EngineError):
    """A draw table has no cell for the key a round reaches (a gap in the spec's grid)."""

    def __init__(self, rule, key):
        super().__init__(f"the table {rule!r} has no cell for {key}")
        self.rule = rule
        self.key = key


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
