"""Engine runtime: a table dealing a shoe round by round, with squeeze, valid bets and voids.

Bets at a table are per bettor: `{bettor: {bet: stake}}`. Each round gives a
`TableRound`: its number, cards, the `Round`, every bettor's returns, the valid
bet amount per bettor (the spec's `valid bets` rules), and the squeeze schedule
(the spec's `squeeze` rule: who may squeeze which cards, in what order).
"""
# ruff: noqa: F821 - names such as SQUEEZE_BETS come from the engine's generated part and `table_parts`

# ---- engine ----

SCHEDULE_ORDER = tuple(SQUEEZE_ORDER) + tuple(h for h in HANDS if h not in SQUEEZE_ORDER)
FIRST_CARDS = {hand: DEAL_ORDER.count(hand) for hand in HANDS}
SCHEDULE = tuple((hand, FIRST_CARDS[hand]) for hand in SCHEDULE_ORDER)


def table_bets(bets, room=None):
    """Exact stakes per bettor from `{bettor: {bet: stake}}` (or one bettor's `{bet: stake}`)."""
    bets = check_object(bets, "bets (bettor to {bet: stake})", InvalidBet)
    if bets and not any(isinstance(v, dict) for v in bets.values()):
        bets = {"bettor": bets}
    out = {}
    for bettor, stakes in bets.items():
        check_name(bettor, "a bettor's name", InvalidBet)
        stakes = check_object(stakes, f"the bets of {json_text(bettor)} (bet name to stake)", InvalidBet, False)
        if room is not None:
            check_limits(room, stakes)
        exact = {}
        for name, stake in stakes.items():
            if name not in BETS:
                raise InvalidBet(f"unknown bet {json_text(name)!r}; this game's bets are {', '.join(BETS)}")
            amount = parse_money(stake, f"the stake of {bettor} on {name}")
            if amount:
                exact[name] = amount
        out[bettor] = exact
    return out


def squeeze_schedule(r, plan):
    """(phase, hand, cards, bettors) steps: each hand's dealt cards, then each drawn card, in order."""
    dealt, drawn = [], []
    for hand, first in SCHEDULE:
        cards = getattr(r, hand)
        dealt.append(("deal", hand, tuple(cards[:first]), plan[hand]))
        if len(cards) > first:
            drawn.append(("draw", hand, tuple(cards[first:]), plan[hand]))
    return tuple(dealt + drawn)


def settle_bettors(r, bets):
    """(every bettor's returns, every bettor's stakes not pushed) of a round: the same for every
    round of one settle key, so a table reuses them (whether a round counts valid bets at all is
    asked of every round: the spec's `valid bets none when` may read any of its facts)."""
    pushed = pushed_bets(r)
    return ({bettor: {name: BETS[name](r, s) for name, s in stakes.items()} for bettor, stakes in bets.items()},
            {bettor: sum(s for name, s in stakes.items() if name not in pushed) for bettor, stakes in bets.items()})


SETTLED = {}  # {frozen stakes: {settle key: settle_bettors(...)}}, shared by the tables taking those stakes


def settled_for(bets):
    """The settlements by settle key of exactly these stakes (`table_bets` output), kept for every
    table that takes them; at most 256 sets of stakes are kept."""
    frozen = tuple((bettor, tuple(stakes.items())) for bettor, stakes in bets.items())
    memo = SETTLED.get(frozen)
    if memo is None:
        if len(SETTLED) >= 256:
            SETTLED.clear()
        memo = SETTLED[frozen] = {}
    return memo


class TableRound:
    """One round at a table: number, cards, the round, returns, valid bets, squeeze schedule."""

    __slots__ = ("number", "cards", "round", "bets", "returns", "valid", "squeeze", "void", "room", "shoe_note")

    def __init__(self, number, cards, r, bets, plan, room=None, settled=None):
        self.number = number
        self.cards = cards
        self.round = r
        self.bets = bets
        if settled is None:
            settled = settle_bettors(r, bets)
        returns, counted = settled
        self.returns = {bettor: dict(mine) for bettor, mine in returns.items()}
        # the valid bet amount per bettor, by the spec's `valid bets` rules
        self.valid = {bettor: 0 if not stakes or no_valid_bets(r, stakes) else counted[bettor]
                      for bettor, stakes in bets.items()}
        self.squeeze = squeeze_schedule(r, plan)
        self.void = None
        self.room = room
        self.shoe_note = None

    def record(self):
        """The round as a JSON record (the log line of `play --jsonl --log` and `simulate --log`)."""
        out = {"round": self.number, "cards": list(self.cards)}
        if self.room is not None:
            out["room"] = self.room
        out["bets"] = {b: {k: num_json(v) for k, v in s.items()} for b, s in self.bets.items()}
        out.update(record(self.round))
        if self.void is not None:
            out["void"] = self.void
            out["outcome"] = None
        out["returns"] = {b: {k: num_json(v) for k, v in s.items()} for b, s in self.returns.items()}
        out["valid"] = {b: num_json(v) for b, v in self.valid.items()}
        out["squeeze"] = [{"phase": p, "hand": h, "cards": list(c), "bettors": list(who)}
                          for p, h, c, who in self.squeeze]
        if self.shoe_note:
            out.update(self.shoe_note)
        return out


class Table:
    """A table dealing one shoe: `deal(bets)` plays the next round; `rounds(bets)` plays them all."""

    def __init__(self, seed=None, room=None, decks=None):
        if room is not None and check_name(room, "the room", InvalidBet) not in ROOMS:
            raise InvalidBet(f"unknown room {json_text(room)!r}; rooms: {', '.join(ROOMS) or 'none'}")
        self.shoe = Shoe(seed, decks)
        self.room = room
        self.number = 0

    @property
    def finished(self):
        return self.shoe.finished

    def deal(self, bets, plan=None, settled=None):
        """Play the next round with `{bettor: {bet: stake}}`; `plan` is a cached `squeeze_plan`, and
        `settled` the `settled_for` these same bets (the returns of each settle key, kept across rounds)."""
        if plan is None:
            bets = table_bets(bets, self.room)
            plan = squeeze_plan(bets)
            settled = settled_for(bets)
        shoe = self.shoe
        cut_before = shoe.cut_out
        if settled is None:
            r, start = shoe.next_round()
            known = None
        else:
            r, key, start = shoe.next_keyed_round()
            known = settled.get(key)
            if known is None:
                known = settled[key] = settle_bettors(r, bets)
        self.number += 1
        tr = TableRound(self.number, shoe.cards[start:shoe.position], r, bets, plan, self.room, known)
        if shoe.cut_out != cut_before or shoe.finished:
            note = {}
            if shoe.cut_out != cut_before:
                note["cut_card"] = shoe.cut_out
            if shoe.finished:
                note["last"] = True
            tr.shoe_note = note
        return tr

    def rounds(self, bets):
        """Every round until the shoe ends, each with the same bets (checked once)."""
        bets = table_bets(bets, self.room)
        plan = squeeze_plan(bets)
        settled = settled_for(bets)
        while not self.shoe.finished:
            yield self.deal(bets, plan, settled)


def deal_shoe(seed, bets, room=None):
    """All the rounds of one shoe dealt from `seed`, with the same bets every round."""
    return list(Table(seed, room).rounds(bets))


def table_round(request):
    """Adjudicate one logged round again: {"round", "cards", "bets", ["room"], ["void"]} -> TableRound."""
    if not isinstance(request, dict):
        raise EngineError("a round record is a JSON object")
    codes = parse_cards(request.get("cards") or [])
    check_copies(codes)
    if len(codes) < round_max_cards():
        codes = codes + [None] * (round_max_cards() - len(codes))
    try:
        r = deal_at(codes, 0)
    except (TypeError, KeyError):
        raise InvalidCards("not enough cards for the round") from None
    room = request.get("room")
    bets = table_bets(request.get("bets"), room)
    number = request.get("round")
    if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
        raise EngineError(f"a round number is a whole number, not {kind_of(number)}")
    tr = TableRound(number, [c for c in codes[:r.cards_used]], r, bets, squeeze_plan(bets), room)
    void = request.get("void")
    if void:
        void_round(tr, check_name(void, "\"void\" (the reason)", InvalidTable) if void is not True else "void")
    return tr
