"""A table dealing a shoe round by round, with squeeze, valid bets and voids.

Bets at a table are per bettor: `{bettor: {bet: stake}}`. Each round gives a
`TableRound`: its number, cards, the `Round`, every bettor's returns, the valid
bet amount per bettor (the spec's `valid bets` rules), and the squeeze schedule
(the spec's `squeeze` rule: who may squeeze which cards, in what order).
`TableRules` holds what a `DealtRound` does at a table; `TableRound` and
`Table` have a subclass per game, whose `game` is that `DealtRound`.
"""

from croupier.runtime.errors import EngineError, InvalidBet, InvalidCards, InvalidTable
from croupier.runtime.numbers import amount_json
from croupier.runtime.requests import check_name, check_object, json_text, kind_of, parse_money

MAX_DECKS = 64  # decks a table's shoe may hold (`Table(decks=…)`): the bound of an exact analysis too
MAX_SEED_CHARS = 1000  # a text seed's length (a whole number seed is any int)
MAX_SETTLED = 256  # sets of stakes whose settlements by settle key a game keeps (`settled_for`)


class TableRules:
    """The table operations of a dealt-round game (a mixin of `DealtRound`)."""

    def table_bets(self, bets, room=None):
        """Exact stakes per bettor from `{bettor: {bet: stake}}` (or one bettor's `{bet: stake}`)."""
        bets = check_object(bets, "bets (bettor to {bet: stake})", InvalidBet)
        if bets and not any(isinstance(v, dict) for v in bets.values()):
            bets = {"bettor": bets}
        known = self.BETS
        out = {}
        for bettor, stakes in bets.items():
            check_name(bettor, "a bettor's name", InvalidBet)
            stakes = check_object(stakes, f"the bets of {json_text(bettor)} (bet name to stake)", InvalidBet, False)
            if room is not None:
                self.check_limits(room, stakes)
            exact = {}
            for name, stake in stakes.items():
                if name not in known:
                    raise InvalidBet(f"unknown bet {json_text(name)!r}; this game's bets are {', '.join(known)}")
                amount = parse_money(stake, f"the stake of {bettor} on {name}")
                if amount:
                    exact[name] = amount
            out[bettor] = exact
        return out

    def squeeze_sides(self, bets):
        """The hand each bettor may squeeze: the squeezing bet with the larger stake, ties as the spec says
        (none without a squeeze rule)."""
        sides = {}
        ties_to = self.SQUEEZE_TIES_TO
        for bettor, stakes in bets.items():
            placed = [(stakes[b], b) for b in self.SQUEEZE_BETS if b in stakes]
            if not placed:
                continue
            top = max(s for s, _ in placed)
            best = [b for s, b in placed if s == top]
            sides[bettor] = ties_to if ties_to in best else best[0]
        return sides

    def squeeze_plan(self, bets):
        """{hand: (bettors…)} for every hand, in the squeeze order (nobody squeezes without a squeeze rule)."""
        sides = self.squeeze_sides(bets)
        return {hand: tuple(b for b, side in sides.items() if side == hand) for hand in self.SCHEDULE_ORDER}

    def squeeze_schedule(self, r, plan):
        """(phase, hand, cards, bettors) steps: each hand's dealt cards, then each drawn card, in order."""
        dealt, drawn = [], []
        for hand, first in self.SCHEDULE:
            cards = getattr(r, hand)
            dealt.append(("deal", hand, tuple(cards[:first]), plan[hand]))
            if len(cards) > first:
                drawn.append(("draw", hand, tuple(cards[first:]), plan[hand]))
        return tuple(dealt + drawn)

    def pushed_bets(self, r):
        """The bets whose stakes come back by their push rule this round, when pushes count no valid bet
        (none when the spec counts a pushed stake as a valid bet)."""
        if not self.VALID_PUSHED_NONE:
            return frozenset()
        return {name for name, test in self.PUSHED.items() if test(r)}

    def settle_bettors(self, r, bets):
        """(every bettor's returns, every bettor's stakes not pushed) of a round: the same for every
        round of one settle key, so a table reuses them (whether a round counts valid bets at all is
        asked of every round: the spec's `valid bets none when` may read any of its facts)."""
        pushed = self.pushed_bets(r)
        pays = self.BETS
        return ({bettor: {name: pays[name](r, s) for name, s in stakes.items()} for bettor, stakes in bets.items()},
                {bettor: sum(s for name, s in stakes.items() if name not in pushed) for bettor, stakes in bets.items()})

    def settled_for(self, bets):
        """The settlements by settle key of exactly these stakes (`table_bets` output), kept for every
        table of the game that takes them; at most MAX_SETTLED sets of stakes are kept."""
        frozen = tuple((bettor, tuple(stakes.items())) for bettor, stakes in bets.items())
        settled = self.SETTLED
        memo = settled.get(frozen)
        if memo is None:
            if len(settled) >= MAX_SETTLED:
                settled.clear()
            memo = settled[frozen] = {}
        return memo

    def void_round(self, tr, reason):
        """Void a round (a misdeal): every stake comes back and no valid bet counts (refused without
        the spec's void rule)."""
        if not self.VOID_RETURNS_STAKES:
            raise InvalidTable("this game's spec has no void rule (`void returns stakes`)")
        tr.void = str(reason) if reason else "void"
        tr.returns = {bettor: dict(stakes) for bettor, stakes in tr.bets.items()}
        tr.valid = {bettor: 0 for bettor in tr.bets}
        return tr

    def deal_shoe(self, seed, bets, room=None):
        """All the rounds of one shoe dealt from `seed`, with the same bets every round."""
        return list(self.Table(seed, room).rounds(bets))

    def table_round(self, request):
        """Adjudicate one logged round again: {"round", "cards", "bets", ["room"], ["void"]} -> TableRound."""
        if not isinstance(request, dict):
            raise EngineError("a round record is a JSON object")
        codes = self.parse_cards(request.get("cards") or [])
        self.check_copies(codes)
        most = self.round_max_cards()
        if len(codes) < most:
            codes = codes + [None] * (most - len(codes))
        try:
            r = self.deal_at(codes, 0)
        except (TypeError, KeyError):
            raise InvalidCards("not enough cards for the round") from None
        room = request.get("room")
        bets = self.table_bets(request.get("bets"), room)
        number = request.get("round")
        if number is not None and (isinstance(number, bool) or not isinstance(number, int)):
            raise EngineError(f"a round number is a whole number, not {kind_of(number)}")
        tr = self.TableRound(number, [c for c in codes[:r.cards_used]], r, bets, self.squeeze_plan(bets), room)
        void = request.get("void")
        if void:
            self.void_round(tr, check_name(void, "\"void\" (the reason)", InvalidTable) if void is not True else "void")
        return tr


class TableRound:
    """One round at a table: number, cards, the round, returns, valid bets, squeeze schedule."""

    __slots__ = ("number", "cards", "round", "bets", "returns", "valid", "squeeze", "void", "room", "shoe_note")
    game = None  # the DealtRound of the game's own subclass

    def __init__(self, number, cards, r, bets, plan, room=None, settled=None):
        game = self.game
        self.number = number
        self.cards = cards
        self.round = r
        self.bets = bets
        if settled is None:
            settled = game.settle_bettors(r, bets)
        returns, counted = settled
        self.returns = {bettor: dict(mine) for bettor, mine in returns.items()}
        # the valid bet amount per bettor, by the spec's `valid bets` rules
        no_valid_bets = game.no_valid_bets
        self.valid = {bettor: 0 if not stakes or no_valid_bets(r, stakes) else counted[bettor]
                      for bettor, stakes in bets.items()}
        self.squeeze = game.squeeze_schedule(r, plan)
        self.void = None
        self.room = room
        self.shoe_note = None

    def record(self):
        """The round as a JSON record (the log line of `play --jsonl --log` and `simulate --log`)."""
        out = {"round": self.number, "cards": list(self.cards)}
        if self.room is not None:
            out["room"] = self.room
        out["bets"] = {b: {k: amount_json(v) for k, v in s.items()} for b, s in self.bets.items()}
        out.update(self.game.record(self.round))
        if self.void is not None:
            out["void"] = self.void
            out["outcome"] = None
        out["returns"] = {b: {k: amount_json(v) for k, v in s.items()} for b, s in self.returns.items()}
        out["valid"] = {b: amount_json(v) for b, v in self.valid.items()}
        out["squeeze"] = [{"phase": p, "hand": h, "cards": list(c), "bettors": list(who)}
                          for p, h, c, who in self.squeeze]
        if self.shoe_note:
            out.update(self.shoe_note)
        return out


class Table:
    """A table dealing one shoe: `deal(bets)` plays the next round; `rounds(bets)` plays them all."""

    game = None  # the DealtRound of the game's own subclass

    def __init__(self, seed=None, room=None, decks=None):
        game = self.game
        if decks is not None and (type(decks) is not int or not 1 <= decks <= MAX_DECKS):
            raise InvalidTable(f"decks must be a whole number from 1 to {MAX_DECKS}, not {json_text(decks)}")
        if isinstance(seed, bool) or seed is not None and not isinstance(seed, (int, str, bytes)):
            raise InvalidTable(f"a seed is a whole number or a text, not {kind_of(seed)}")
        if isinstance(seed, (str, bytes)) and len(seed) > MAX_SEED_CHARS:
            raise InvalidTable(f"a seed is at most {MAX_SEED_CHARS} characters long")
        if room is not None and check_name(room, "the room", InvalidBet) not in game.ROOMS:
            raise InvalidBet(f"unknown room {json_text(room)!r}; rooms: {', '.join(game.ROOMS) or 'none'}")
        self.shoe = game.Shoe(seed, decks)
        self.room = room
        self.number = 0
        self.game = game  # on the instance too: read every round, found there first
        self._table_round = game.TableRound

    @property
    def finished(self):
        return self.shoe.finished

    def deal(self, bets, plan=None, settled=None):
        """Play the next round with `{bettor: {bet: stake}}`; `plan` is a cached `squeeze_plan`, and
        `settled` the `settled_for` these same bets (the returns of each settle key, kept across rounds)."""
        game = self.game
        if plan is None:
            bets = game.table_bets(bets, self.room)
            plan = game.squeeze_plan(bets)
            settled = game.settled_for(bets)
        shoe = self.shoe
        cut_before = shoe.cut_out
        if settled is None:
            r, start = shoe.next_round()
            known = None
        else:
            r, key, start = shoe.next_keyed_round()
            known = settled.get(key)
            if known is None:
                known = settled[key] = game.settle_bettors(r, bets)
        self.number += 1
        tr = self._table_round(self.number, shoe.cards[start:shoe.position], r, bets, plan, self.room, known)
        if shoe.cut_out != cut_before or shoe.finished:
            note = {}
            if shoe.cut_out != cut_before:
                note["cut_card"] = shoe.cut_out
            if shoe.finished:
                note["last"] = True
                if shoe.ran_out:  # the rest of the shoe could not finish the next round
                    note["ran_out"] = True
            tr.shoe_note = note
        return tr

    def rounds(self, bets):
        """Every round until the shoe ends, each with the same bets (checked once)."""
        game = self.game
        bets = game.table_bets(bets, self.room)
        plan = game.squeeze_plan(bets)
        settled = game.settled_for(bets)
        while not self.shoe.finished:
            yield self.deal(bets, plan, settled)
