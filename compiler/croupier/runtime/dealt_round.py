"""A dealt round: deal, draw by the spec's tables, decide, settle bets; the game object of a dealt-round engine.

`DealtRound(...)` takes a game's data (its cards and values, hands, deal order, rules' texts,
rooms, shoe procedure, squeeze and valid-bet settings); `rules(...)` then gives it the functions
generated from the spec's rules (events, `stand_all`, the draw deciders, `outcome_of`, the bets,
the fast path `deal_at`…). Its methods and attributes are the engine's public API (`API`): an
engine module forwards every name it does not define itself to its `DealtRound`.
"""

from croupier.runtime.cards import HandReads
from croupier.runtime.errors import EngineError, InvalidBet, InvalidCards, MissingCell, NotEnoughCards, ShoeRanOut
from croupier.runtime.hand_reads import card_at, draw_decision, first_card, grid_table, last_card, third
from croupier.runtime.jsonl import JsonLinesGame
from croupier.runtime.numbers import amount_json, num_json
from croupier.runtime.requests import check_name, check_object, json_text, parse_money
from croupier.runtime.shoe import Shoe
from croupier.runtime.table import Table, TableRound, TableRules


class Round:
    """One adjudicated round: each hand's cards, the outcome, the cards used and the steps."""

    __slots__ = ("outcome", "cards_used", "steps")  # and, in the game's own subclass, a slot per hand

    def __init__(self):
        for hand in type(self).__slots__:  # the game's hands (a slot of its own subclass each)
            setattr(self, hand, [])
        self.outcome = None
        self.cards_used = 0
        self.steps = []


def pushed_test(clauses):
    """Whether a push decides a bet whose clauses are `clauses` ((kind, test(r)) in the order written): its
    first clause that holds is a push."""
    def pushed(r):
        for kind, test in clauses:
            if test(r):
                return kind == "push"
        return False
    return pushed


class DealtRound(JsonLinesGame, TableRules, HandReads):
    """A dealt-round game: its data, then (`rules`) the functions generated from its rules."""

    # the engine's public calls besides its rule functions, in the order its `__all__` lists them
    API = ("EngineError", "InvalidCards", "InvalidBet", "InvalidTable", "MissingCell", "NotEnoughCards",
           "ShoeRanOut", "shoe_cards", "parse_card", "parse_cards", "check_copies", "kind_of", "json_text",
           "check_name", "check_object", "parse_money", "num_json", "amount_json", "Round", "play", "settle", "record",
           "read_request", "adjudicate", "check_limits", "drawing_steps", "total", "best_total", "is_soft",
           "third", "first_card", "last_card", "card_at", "card_value", "card_rank", "card_suit", "same_rank",
           "same_suit", "count_class", "count_suit", "count_rank", "grid_table", "draw_decision", "round_max_cards", "Shoe",
           "table_bets", "squeeze_sides", "squeeze_plan", "squeeze_schedule", "pushed_bets", "settle_bettors",
           "settled_for", "void_round", "TableRound", "Table", "deal_shoe", "table_round", "read_json",
           "internal_error", "encode_answer", "answer", "run_jsonl")
    third = staticmethod(third)
    first_card = staticmethod(first_card)
    last_card = staticmethod(last_card)
    card_at = staticmethod(card_at)
    grid_table = staticmethod(grid_table)
    draw_decision = staticmethod(draw_decision)

    def __init__(self, game, decks, deck, jokers, values, hands, deal_order, card_values=None, modulus=0, soft=None,
                 card_classes=None, repeats=(), deal_rule="", stand_rule="", outcome_rules=None, rooms=None,
                 shoe_procedure=None, squeeze=None, valid_pushed_none=False, void_returns_stakes=False):
        super().__init__(game, decks, deck, jokers, values, card_values, modulus, soft, card_classes)
        self.HANDS = hands
        self.DEAL_ORDER = deal_order
        self.DEALT = {h: deal_order.count(h) for h in hands}
        self.REPEATS = repeats
        self.DEAL_RULE = deal_rule
        self.STAND_RULE = stand_rule
        self.OUTCOME_RULES = outcome_rules or {}
        self.ROOMS = rooms or {}
        self.SHOE_PROCEDURE = shoe_procedure or {"cut_low": None, "cut_high": None, "burn_reveal": 0,
                                                 "burn_values": {}, "last_round": "at-cut"}
        self.SQUEEZE_BETS, self.SQUEEZE_TIES_TO, self.SQUEEZE_ORDER = squeeze or ((), None, ())
        self.VALID_PUSHED_NONE = valid_pushed_none
        self.VOID_RETURNS_STAKES = void_returns_stakes
        self.SCHEDULE_ORDER = tuple(self.SQUEEZE_ORDER) + tuple(h for h in hands if h not in self.SQUEEZE_ORDER)
        self.SCHEDULE = tuple((hand, self.DEALT[hand]) for hand in self.SCHEDULE_ORDER)
        self.SETTLED = {}  # {frozen stakes: {settle key: settle_bettors(...)}}, shared by the game's tables
        # the classes of this game: a round holds a slot per hand, and a shoe or a table deals for the game
        self.Round = type("Round", (Round,), {"__slots__": tuple(hands), "__doc__": Round.__doc__})
        self.Shoe = type("Shoe", (Shoe,), {"game": self, "__doc__": Shoe.__doc__})
        self.TableRound = type("TableRound", (TableRound,), {"__slots__": (), "game": self,
                                                             "__doc__": TableRound.__doc__})
        self.Table = type("Table", (Table,), {"game": self, "__doc__": Table.__doc__})

    def rules(self, stand_all, drawers, outcome_of, events, bets, bet_clauses, deal_at, no_valid_bets):
        """Give the game the functions generated from its rules: `stand_all(r)`, `drawers` ((hand,
        decide(r) -> (rule, key, draws)) in order), `outcome_of(r)`, `events` ((name, test(r))…), `bets`
        ({name: bet(r, stake)}), `bet_clauses` ((bet, kind, index, test(r)) of every clause in the order
        written), the fast path `deal_at(cards, start, settle_key=False)` and `no_valid_bets(r, bets)`."""
        self.stand_all = stand_all
        self.DRAWERS = drawers
        self.outcome_of = outcome_of
        self.EVENTS = events
        self.BETS = bets
        self.deal_at = deal_at
        self.no_valid_bets = no_valid_bets
        clauses = {}
        for bet, kind, _i, test in bet_clauses:
            clauses.setdefault(bet, []).append((kind, test))
        # {bet: whether a push decided it in a round}, for each bet with a push clause
        self.PUSHED = {bet: pushed_test(tests) for bet, tests in clauses.items() if any(k == "push" for k, _ in tests)}

    # ---- one round ---------------------------------------------------------------------
    def drawing_steps(self, r):
        """(hand, decide) for each draw decision of a round, in order; a hand that draws while a condition
        holds (REPEATS) is asked again after every card it draws, until it stands."""
        if not self.REPEATS:
            return self.DRAWERS
        return self._repeated_steps(r)

    def _repeated_steps(self, r):
        for hand, decide in self.DRAWERS:
            if hand not in self.REPEATS:
                yield hand, decide
                continue
            while True:
                held = len(getattr(r, hand))
                yield hand, decide
                if len(getattr(r, hand)) == held:
                    break

    def round_max_cards(self):
        """The fewest cards a shoe keeps for a round: the deal and one card per drawing hand.

        A hand that draws while a condition holds is counted once: a round the rest of a shoe cannot finish is
        dealt from a fresh shoe instead (see `Shoe`).
        """
        return len(self.DEAL_ORDER) + len(self.DRAWERS)

    def play(self, cards, explain=False, observe=None):
        """Adjudicate one round from cards in dealing order; unused cards are left over.

        With `explain`, `Round.steps` lists every deal and decision with the rule behind it.
        With `observe`, `observe(hand, r)` is called before each draw decision with the round so far,
        and a table's missing cell makes the hand stand instead of stopping the round: a tool that
        surveys every round (`croupier check`) then sees every such cell, reading which table applies
        and its key from `DECISION_TABLES`.
        """
        codes = self.parse_cards(cards)
        self.check_copies(codes)
        deal_order = self.DEAL_ORDER
        if not explain and observe is None and len(codes) >= len(deal_order):
            try:
                return self.deal_at(codes, 0)  # the rules inlined; nothing to trace
            except ShoeRanOut:
                pass  # the cards ran out: the traced path below says where
        r = self.Round()
        n = len(codes)
        if n < len(deal_order):
            raise InvalidCards(f"not enough cards: the deal needs {len(deal_order)}, got {n}")
        for pos, hand in enumerate(deal_order):
            getattr(r, hand).append(codes[pos])
        pos = len(deal_order)
        if explain:
            for i, hand in enumerate(deal_order):
                r.steps.append({"step": "deal", "hand": hand, "card": codes[i], "rule": self.DEAL_RULE})
        if self.stand_all(r):
            if explain:
                r.steps.append({"step": "stand all", "rule": self.STAND_RULE})
        else:
            for hand, decide in self.drawing_steps(r):
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
        r.outcome = self.outcome_of(r)
        r.cards_used = pos
        if explain:
            r.steps.append({"step": "outcome", "outcome": r.outcome, "rule": self.OUTCOME_RULES[r.outcome]})
        return r

    def settle(self, r, bets):
        """What each bet returns, stake included (0 when lost), for an adjudicated round."""
        known = self.BETS
        out = {}
        for name, stake in check_object(bets, "bets (bet name to stake)", InvalidBet, False).items():
            pay = known.get(name) if isinstance(name, str) else None
            if pay is None:
                raise InvalidBet(f"unknown bet {json_text(name)!r}; this game's bets are {', '.join(known)}")
            out[name] = pay(r, parse_money(stake, f"the stake on {name}"))
        return out

    def record(self, r):
        """The round as the JSON record of the `play --jsonl` contract."""
        out = {}
        hands = self.HANDS
        for hand in hands:
            out[hand] = getattr(r, hand)
        for hand in hands:
            out[hand + "_total"] = num_json(self.total(getattr(r, hand)))
        for name, test in self.EVENTS:
            out[name] = test(r)
        out["outcome"] = r.outcome
        out["cards_used"] = r.cards_used
        return out

    def read_request(self, request):
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

    def adjudicate(self, request):
        """Answer one `play --jsonl` request: {"cards": [...], "bets": {...}[, "room": name]}."""
        cards, bets, room = self.read_request(request)
        if room is not None:
            self.check_limits(room, bets)
        r = self.play(cards)
        out = self.record(r)
        out["returns"] = {name: amount_json(v) for name, v in self.settle(r, bets).items()}
        return out

    def check_limits(self, room, bets):
        """Reject a stake outside the room's limits, naming the room and the limit (any room, for a game
        whose spec has no rooms)."""
        limits = self.ROOMS.get(check_name(room, "the room", InvalidBet))
        if limits is None:
            known = ", ".join(self.ROOMS) or "none"
            raise InvalidBet(f"unknown room {json_text(room)!r}; rooms: {known}")
        for name, stake in check_object(bets, "bets (bet name to stake)", InvalidBet, False).items():
            limit = limits.get(name)
            if limit is None:  # the room sets no limit on this bet (`no limit`)
                continue
            low, high = limit
            amount = parse_money(stake, f"the stake on {name}")
            if not low <= amount <= high:
                raise InvalidBet(f"the stake {num_json(amount)} on {name} is outside the limit of room "
                                 f"{room}: {num_json(low)} to {num_json(high)}")
