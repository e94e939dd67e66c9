"""The rules of a game in sentences: one realisation per model construct, in a card language.

Where `words` says an expression, this module says a whole rule: the shoe, the deal, each
event, the stand rule, a draw table's caption, axes and rows ("When the Banker's total is
3, the Banker draws unless the value of the Player's third card is 8."), each outcome, a
bet's clauses and its odds with a worked amount, hand types and settlement clauses, rooms
and limits, the squeeze, valid bets, the cut card, the burn, the last round and void
rounds. Every sentence is a catalog message (marked `N_`, translated in the `.po` files);
values come from the model and the generated engine's arithmetic, never from code here.
"""

from __future__ import annotations

from fractions import Fraction
from types import ModuleType

from croupier.backends.cards.examples import SUIT_SYMBOLS, suit_short_name
from croupier.backends.cards.words import N_, ODDS, Phrases, Words, let_name
from croupier.semantics.expr import BoolOp, EventRef, TypeIs
from croupier.semantics.model import DrawTable, Game, Payout
from croupier.syntax.printer import number_text

LIST_SEMI = N_("%(first)s; %(last)s")

ROUNDING = {"half-up": N_("half up"), "half-even": N_("half to even"), "down": N_("down"), "up": N_("up")}
LAST_ROUND = {
    "one-more-after": N_("When the cut card comes out, one more round is dealt after the round in play, and "
                         "that round is the last of the shoe."),
    "at-cut": N_("When the cut card comes out, the round in play is the last of the shoe."),
}
SCHEMES = {
    "pairwise": N_("Players settle in pairs, the strongest hand first: it settles with every other player, then "
                   "the second strongest does, and so on; no two players settle twice."),
    "against-banker": N_("The banker settles with each player in turn."),
}
CLAUSES = {
    "draw": N_("Nobody pays when %(cond)s."),
    "banker-wins": N_("The banker wins when %(cond)s."),
    "player-wins": N_("The player wins when %(cond)s."),
}


def money(x: Fraction, unit: Fraction | None = None) -> str:
    """An amount as the card shows it: exact (19.5), or with the places of a currency unit (0.10 for a unit of 0.01)."""
    text = number_text(Fraction(x))
    if unit is None or Fraction(unit).denominator == 1:
        return text
    places = len(number_text(Fraction(unit)).partition(".")[2])
    whole, _, frac = text.partition(".")
    return f"{whole}.{frac.ljust(places, '0')}" if len(frac) <= places else text


class Sentences:
    """The sentences of one game's card in one language (`engine`: the generated engine, for its arithmetic)."""

    def __init__(self, game: Game, lang: str, engine: ModuleType | None = None) -> None:
        self.game = game
        self.lang = lang
        self.words = Words(game, lang)
        self.p: Phrases = self.words.p
        self.engine = engine

    def say(self, msgid: str, **values) -> str:
        return self.p.say(msgid, **values)

    def cond(self, e, negated: bool = False) -> str:
        return self.words.say(e, negated)

    def hand(self, name: str) -> str:
        g = self.game
        return g.hands[name].label(self.lang) if name in g.hands else name

    def bet(self, name: str) -> str:
        g = self.game
        return g.bets[name].label(self.lang) if name in g.bets else name

    # ---- cards ------------------------------------------------------------------------------------------------
    def shoe(self) -> str:
        s = self.game.shoe
        if s is None:
            return ""
        cards = s.decks * (len(s.cards) if s.cards else len(s.ranks) * len(s.suits) + len(s.jokers))
        if s.kind == "standard52":
            text = self.p.ngettext("The shoe holds %(n)s standard deck of 52 cards",
                                   "The shoe holds %(n)s standard decks of 52 cards", s.decks)
        elif s.kind in self.game.decks:  # a deck the spec declares, named by its label
            deck = self.game.decks[s.kind]
            per_deck = len(s.cards) if s.cards else len(deck.cards)
            text = self.p.ngettext("The shoe holds %(n)s %(deck)s of %(size)s cards",
                                   "The shoe holds %(n)s decks of the %(deck)s, %(size)s cards each", s.decks,
                                   deck=deck.label(self.lang), size=per_deck)
        else:
            raise NotImplementedError(f"no words for a deck of kind `{s.kind}`")
        if s.jokers:
            names = [self.game.joker_labels[j].get(self.lang, j) if j in self.game.joker_labels else j
                     for j in s.jokers]
            text = self.say(N_("%(shoe)s, with the jokers %(jokers)s"), shoe=text, jokers=self.p.nouns(names))
        return self.say(N_("%(shoe)s: %(cards)s cards in all."), shoe=text, cards=cards)

    def wild(self) -> str:
        w = self.game.wild
        if w is None:
            return ""
        names = [self.game.joker_labels[j].get(self.lang, j) if j in self.game.joker_labels else j for j in w.ranks]
        names += [self.card_name(c) for c in w.cards]
        keys = {"type": N_("the best hand type"), "total": N_("the highest total")}
        best = self.p.clauses([self.say(keys[k]) for k in w.best_by], N_("%(first)s, then %(last)s"))
        if len(names) == 1:
            return self.say(N_("The wild card (%(w)s) stands for any one of %(s)s, whichever gives %(b)s."),
                            w=names[0], s=" ".join(w.stands_for), b=best)
        return self.say(N_("Wild cards (%(w)s) stand for any one of %(s)s, whichever gives %(b)s."),
                        w=self.p.nouns(names), s=" ".join(w.stands_for), b=best)

    def card_name(self, code: str) -> str:
        """One card by its rank and its suit's name where the spec names its suits (`K of Coins (denari)`),
        else by its rank and the French suit symbol (`K♦`)."""
        g = self.game
        rank, suit = code[:-1], code[-1:]
        if suit in g.suit_labels:
            return self.say(N_("%(rank)s of %(suit)s"), rank=rank, suit=suit_short_name(g, suit, self.lang))
        return rank + SUIT_SYMBOLS.get(suit, suit)

    def turn(self) -> list[str]:
        """How a seat game's round is played, one sentence a step; what the spec leaves out is said to be
        unstated (a seat game's card never hides that the house has not said how cards are dealt)."""
        g, say = self.game, self.say
        t = g.turn
        if not g.is_seat_game:
            return []
        if t is None:
            return [say(N_("The house has not stated how the cards are dealt, how a player takes a card, or the "
                           "order of play."))]
        out = []
        if t.deal is not None and t.up is not None:
            out.append(self.p.ngettext("Each hand is dealt %(n)s card; %(up)s of them face up.",
                          "Each hand is dealt %(n)s cards: %(up)s face up, the others face down.", t.deal, up=t.up)
                       if t.up else self.p.ngettext("Each hand is dealt %(n)s card, face down.",
                                       "Each hand is dealt %(n)s cards, face down.", t.deal))
        elif t.deal is not None:
            out.append(self.p.ngettext("Each hand is dealt %(n)s card.", "Each hand is dealt %(n)s cards.", t.deal))
        else:
            out.append(say(N_("The house has not stated how many cards each hand is dealt.")))
        orders = {"seat-order": N_("Players play in seat order."),
                  "banker-first": N_("The banker plays first, then each player in seat order."),
                  "banker-last": N_("Each player plays in seat order; the banker plays last.")}
        out.append(say(orders[t.order]) if t.order else say(N_("The house has not stated the order of play.")))
        if not t.hit:
            out.append(say(N_("The house has not stated how a player takes a card.")))
        if t.hit == "reveals":
            out.append(say(N_("A player who asks for a card (a hit) turns one of their face-down cards face up.")))
        elif t.hit == "draws":
            out.append(say(N_("A player who asks for a card (a hit) is dealt the next card of the deck.")))
        if t.hit:
            out.append(say(N_("A player takes cards one at a time and may stand at any time; a bust hand takes "
                              "no more cards.")))
        if t.limit is not None:
            out.append(self.p.ngettext("A player takes at most %(n)s card this way.", "A player takes at most %(n)s cards this way.",
                          t.limit))
        if t.timer:
            out.append(self.p.ngettext("A player has %(n)s second to ask for cards; when it runs out, the hand stands.",
                          "A player has %(n)s seconds to ask for cards; when they run out, the hand stands.", t.timer))
        elif t.timer == 0:
            out.append(say(N_("When the table's timer runs out, every hand still taking cards stands (the house "
                              "has not stated the timer's length).")))
        out.append(say(N_("When every hand stands, the hands are compared and settled.")))
        return out

    def total(self) -> str:
        """How a hand's points add up (the sum, or its last digit)."""
        if self.game.modulus:
            return self.say(N_("A hand's total is the sum of its card values, keeping only the last digit "
                               "(sum mod %(m)s)."), m=self.game.modulus)
        return self.say(N_("A hand's total is the sum of its card values."))

    def policy(self) -> str:
        """The policy the mathematics section assumes for a seat game's hands."""
        t = self.game.policy_threshold
        return self.say(N_("The figures assume a hand takes cards while its total is below %(t)s."),
                        t=number_text(t)) if t is not None else ""

    def hand_type(self, t) -> str:
        """A hand type: its label, its condition and its multiplier."""
        return self.say(N_("%(label)s: %(cond)s; multiplier %(m)s."), label=t.label(self.lang),
                        cond=self.cond(t.when) if t.when is not None else "—", m=number_text(t.multiplier))

    def soft(self) -> str:
        """A card that counts one of two values: `A counts 1 or 11`, the best total not over the limit."""
        soft = self.game.soft
        if soft is None:
            return ""
        return self.say(N_("%(ranks)s counts %(low)s or %(high)s: a hand takes the highest total not over "
                           "%(limit)s, and the lowest when every choice is over it."),
                        ranks=self.p.nouns(list(soft.ranks)), low=number_text(soft.low), high=number_text(soft.high),
                        limit=number_text(soft.limit))

    def draw_while(self, rep) -> str:
        """`draw HAND while …`: the hand draws one card after another while the condition holds."""
        return self.say(N_("The %(hand)s draws one card after another while %(cond)s, then stands."),
                        hand=self.hand(rep.hand), cond=self.cond(rep.when))

    def ranks(self, ranks: list[str]) -> str:
        """Ranks as the card shows them: a run of three or more in the shoe's order as a range ("2–10")."""
        order = list(self.game.shoe.ranks) if self.game.shoe else []
        pos = [order.index(r) if r in order else -1 for r in ranks]
        if len(ranks) >= 3 and all(r.isdigit() for r in ranks) and pos == list(range(pos[0], pos[0] + len(pos))):
            return f"{ranks[0]}–{ranks[-1]}"
        return " ".join(ranks)

    # ---- the round --------------------------------------------------------------------------------------------
    def deal(self) -> str:
        return self.say(N_("The cards are dealt one at a time in this order: %(order)s."),
                        order=" → ".join(self.hand(h) for h in self.game.deal_order)) if self.game.deal_order else ""

    def event(self, ev) -> str:
        return self.say(N_("%(label)s: %(cond)s."), label=ev.label(self.lang), cond=self.cond(ev.when))

    def stand(self) -> str:
        g = self.game
        return self.say(N_("No hand draws a card when %(cond)s."), cond=self.cond(g.stand_when)) if g.stand_when else ""

    def number(self, t: DrawTable) -> int:
        return next(i for i, x in enumerate(self.game.draws, 1) if x is t)

    def draw_rule(self, t: DrawTable) -> str:
        if t.when is None:
            return self.say(N_("The %(hand)s draws or stands by table %(n)s."), hand=self.hand(t.hand), n=self.number(t))
        return self.say(N_("When %(cond)s, the %(hand)s draws or stands by table %(n)s."),
                        cond=self.cond(t.when), hand=self.hand(t.hand), n=self.number(t))

    def table_title(self, t: DrawTable) -> str:
        if t.when is None:
            return self.say(N_("Table %(n)s: %(hand)s"), n=self.number(t), hand=self.hand(t.hand))
        return self.say(N_("Table %(n)s: %(hand)s, when %(cond)s"), n=self.number(t), hand=self.hand(t.hand),
                        cond=self.cond(t.when))

    def axes(self, t: DrawTable) -> tuple[str, str]:
        """(what the rows are, what the columns are) of a grid; a one-key grid has only columns."""
        if t.col_key is None:
            return "", self.say(N_("Columns: %(x)s"), x=self.cond(t.row_key))
        return (self.say(N_("Rows: %(x)s"), x=self.cond(t.row_key)),
                self.say(N_("Columns: %(x)s"), x=self.cond(t.col_key)))

    def rows(self, t: DrawTable) -> list[str]:
        """One sentence per row of the grid, in words."""
        who, key = self.hand(t.hand), self.cond(t.row_key)
        if t.col_key is None:
            draws = [r for r in t.rows if t.cells.get((r, None))]
            stands = [r for r in t.rows if t.cells.get((r, None)) is False]
            return [self._split(who, key, draws, stands)]
        col = self.cond(t.col_key)
        out = []
        for r in t.rows:
            draws = [c for c in t.cols if t.cells.get((r, c))]
            stands = [c for c in t.cols if t.cells.get((r, c)) is False]
            value = number_text(Fraction(r))
            if not stands:
                out.append(self.say(N_("When %(key)s is %(value)s, the %(hand)s always draws."),
                                    key=key, value=value, hand=who))
            elif not draws:
                out.append(self.say(N_("When %(key)s is %(value)s, the %(hand)s always stands."),
                                    key=key, value=value, hand=who))
            elif len(stands) < len(draws):
                out.append(self.say(N_("When %(key)s is %(value)s, the %(hand)s draws unless %(col)s is %(set)s."),
                                    key=key, value=value, hand=who, col=col, set=self.p.values(stands)))
            else:
                out.append(self.say(N_("When %(key)s is %(value)s, the %(hand)s draws only when %(col)s is %(set)s, "
                                       "and otherwise stands."),
                                    key=key, value=value, hand=who, col=col, set=self.p.values(draws)))
        return [(x) for x in out]

    def _split(self, who: str, key: str, draws: list, stands: list) -> str:
        if not stands:
            return (self.say(N_("The %(hand)s always draws."), hand=who))
        if not draws:
            return (self.say(N_("The %(hand)s always stands."), hand=who))
        return (self.say(N_("The %(hand)s draws when %(key)s is %(draw)s, and stands when it is %(stand)s."),
                                    hand=who, key=key, draw=self.p.values(draws), stand=self.p.values(stands)))

    def outcome(self, o) -> str:
        return self.say(N_("%(label)s when %(cond)s."), label=o.label(self.lang), cond=self.cond(o.when))

    # ---- bets and payouts ---------------------------------------------------------------------------------------
    def wins(self, when) -> str:
        return self.say(N_("Wins when %(cond)s."), cond=self.cond(when))

    def push(self, when) -> str:
        return self.say(N_("The stake is returned when %(cond)s."), cond=self.cond(when))

    def loses(self, when, part: Fraction, stake: int = 100) -> str:
        """A losing rule: all the stake, or a part of it (the rest returned, with a worked amount)."""
        if part == 1:
            return self.say(N_("The bet loses when %(cond)s."), cond=self.cond(when))
        back = money(stake - stake * part)
        if part == Fraction(1, 2):
            return self.say(N_("The bet loses half the stake when %(cond)s: a stake of %(stake)s returns %(back)s."),
                            cond=self.cond(when), stake=stake, back=back)
        return self.say(N_("The bet loses %(part)s of the stake when %(cond)s: a stake of %(stake)s returns "
                           "%(back)s."), part=number_text(part), cond=self.cond(when), stake=stake, back=back)

    def table_head(self, when, key) -> str:
        """A payout table's clause: when it wins, and what its rows are keyed by."""
        return self.say(N_("Wins when %(cond)s, and pays by %(key)s: the first row that applies."),
                        cond=self.cond(when), key=self.words.say(key))

    def table_key(self, key) -> str:
        """The head of a payout table's first column: what its rows are keyed by."""
        return self.p.sentence(self.words.say(key))

    def table_cell(self, row) -> str:
        """A payout table row's own cell: a value of the key, a range of them, or a condition (an event by its
        name)."""
        if isinstance(row.condition, EventRef):
            return self.game.events[row.condition.name].label(self.lang)
        if row.condition is not None:
            return self.p.sentence(self.cond(row.condition))
        return str(row.low) if row.low == row.high else self.say(N_("%(low)s to %(high)s"), low=row.low, high=row.high)

    def table_row(self, when, key, row) -> str:
        """One row of a payout table: the clause's condition and the row's (a condition, or a value of the key)."""
        if row.condition is not None:
            return self.say(N_("Wins when %(cond)s and %(row)s."), cond=self.cond(when), row=self.cond(row.condition))
        value = str(row.low) if row.low == row.high else \
            self.say(N_("%(low)s to %(high)s"), low=row.low, high=row.high)
        return self.say(N_("Wins when %(cond)s and %(key)s is %(value)s."), cond=self.cond(when),
                        key=self.words.say(key), value=value)

    def odds(self, p: Payout) -> str:
        """The payout in the one odds convention of the language ("0.95 to 1", "1赔0.95"), and its commission."""
        odds = self.say(ODDS, x=money(p.gross_multiple() - 1))
        if p.commission:
            return self.say(N_("%(odds)s, less %(pct)s commission on the win"), odds=odds,
                            pct=number_text(p.commission * 100) + "%")
        return odds

    def returns(self, p: Payout, stake: Fraction) -> Fraction:
        """What a winning stake returns, stake included: by the engine's arithmetic when there is one."""
        to_one = p.gross_multiple() - 1
        if self.engine is not None and hasattr(self.engine, "pays_to"):
            return Fraction(self.engine.pays_to(Fraction(stake), to_one, p.commission, p.unit, p.rounding))
        win = stake * to_one
        return stake + win - win * (p.commission or 0)

    def payout(self, p: Payout, stake: int) -> str:
        """A worked amount of the payout (with the commission taken, when the payout takes one)."""
        back = self.returns(p, Fraction(stake))
        if not p.commission:
            return self.say(N_("A stake of %(stake)s wins %(win)s and returns %(back)s with the stake."),
                            stake=stake, win=money(back - stake), back=money(back))
        gross = stake * (p.gross_multiple() - 1)
        return self.say(N_("A stake of %(stake)s wins %(gross)s, less %(cut)s commission, and returns %(back)s with "
                           "the stake."), stake=stake, gross=money(gross), cut=money(stake + gross - back),
                        back=money(back))

    def rounding(self, p: Payout) -> str:
        """How the commission is rounded, with the smallest stake whose commission the rounding changes."""
        if not (p.commission and p.rounding and p.unit):
            return ""
        to_one = p.gross_multiple() - 1
        # the smallest stake (up to 1000 units) whose commission falls half way between two units (the rounding
        # rule decides), else the smallest whose commission is not a whole number of units, else one unit
        half = uneven = None
        for k in range(1, 1001):
            st = p.unit * k
            f = (st * to_one * p.commission / p.unit) % 1
            if f == Fraction(1, 2):
                half = st
                break
            if f and uneven is None:
                uneven = st
        stake = half if half is not None else uneven if uneven is not None else p.unit
        back = self.returns(p, stake)
        exact = stake * to_one * p.commission
        return self.say(N_("The commission is rounded %(mode)s to %(unit)s: on a stake of %(stake)s it is %(exact)s, "
                           "rounded to %(cut)s, and the stake returns %(back)s."),
                        mode=self.say(ROUNDING[p.rounding]), unit=money(p.unit), stake=money(stake, p.unit),
                        exact=money(exact), cut=money(stake + stake * to_one - back, p.unit), back=money(back, p.unit))

    # ---- seat games ---------------------------------------------------------------------------------------------
    def seats(self) -> str:
        g = self.game
        if not g.seats:
            return ""
        text = self.say(N_("%(lo)s to %(hi)s players."), lo=g.seats[0], hi=g.seats[1])
        if g.hand_size:
            text = self.p.sentences([text, self.say(N_("A hand holds %(a)s to %(b)s cards."), a=g.hand_size[0],
                                                    b=g.hand_size[1])])
        return text

    def scheme(self) -> str:
        s = self.game.settlement
        return self.say(SCHEMES[s.scheme]) if s is not None else ""

    def stake_line(self) -> str:
        s = self.game.settlement
        if s is None or not s.stake:
            return ""
        f = self.game.formulas.get(s.stake)
        label = f.label(self.lang) if f is not None else s.stake
        return self.say(N_("Each player stakes the %(x)s against the banker."), x=label)

    def clause(self, c) -> str:
        if c.kind == "let":
            return self.say(N_("Let %(name)s be %(value)s."), name=let_name(c.name), value=self.cond(c.expr))
        if c.kind == "pay":
            if c.unless is not None:
                return self.say(N_("The loser pays the winner %(value)s, unless %(cond)s."),
                                value=self.cond(c.expr), cond=self.cond(c.unless))
            return self.say(N_("The loser pays the winner %(value)s."), value=self.cond(c.expr))
        if c.kind not in CLAUSES:
            raise NotImplementedError(f"no words for a settlement clause `{c.kind}`")
        both = self.both_hands(c.expr)
        if c.kind == "draw" and both is not None:  # `winner is bust and loser is bust`: as a player says it
            return self.say(N_("Nobody pays when both hands are “%(type)s”."), type=both)
        return self.say(CLAUSES[c.kind], cond=self.cond(c.expr))

    def both_hands(self, e) -> str | None:
        """The hand type's label when `e` says both hands of a pair are of that type, else None."""
        if not (isinstance(e, BoolOp) and e.op == "and" and len(e.operands) == 2
                and all(isinstance(x, TypeIs) for x in e.operands)):
            return None
        a, b = e.operands
        t = self.game.type_named(a.what)
        if a.what != b.what or a.subject == b.subject or t is None:
            return None
        return t.label(self.lang)

    def formula(self, f) -> str:
        return self.say(N_("%(label)s: %(value)s."), label=f.label(self.lang), value=self.cond(f.expr))

    # ---- the table ----------------------------------------------------------------------------------------------
    def squeeze(self) -> list[str]:
        q = self.game.squeeze
        if q is None:
            return []
        order = [self.hand(h) if h in self.game.hands else self.bet(h) for h in q.order]
        return [
            self.say(N_("Only stakes on %(bets)s may squeeze (turn the cards over slowly); other bets never do."),
                     bets=self.p.nouns([self.bet(b) for b in q.bets])),
            self.say(N_("A bettor with stakes on more than one of them squeezes only the side of the larger stake; "
                        "on equal stakes, the side of %(bet)s."), bet=self.bet(q.ties_to)),
            self.say(N_("Squeeze order: %(order)s, for the first cards and again for each card drawn."),
                     order=" → ".join(order)),
        ]

    def valid_bets(self) -> list[str]:
        g = self.game
        out = []
        if g.valid_bets_none_when is not None:
            out.append(self.say(N_("In a round where %(cond)s, none of that bettor's stakes count as valid bets."),
                                cond=self.cond(g.valid_bets_none_when)))
        if g.valid_bets_pushed_none:
            out.append(self.say(N_("A stake returned by a push never counts as a valid bet.")))
        if out:
            out.append(self.say(N_("Otherwise every amount staked counts as a valid bet.")))
        return out

    def procedure(self) -> list[str]:
        g = self.game
        p = g.procedure
        out = []
        if p.shuffle_each_round:
            out.append(self.say(N_("The cards are shuffled before each round: every round is dealt from a full "
                                   "shoe, so no round depends on the cards of the rounds before it.")))
        if p.cut_low is not None:
            out.append(self.say(N_("A cut card is placed %(low)s to %(high)s cards from the end of the shoe."),
                                low=p.cut_low, high=p.cut_high))
        if p.burn_reveal:
            groups: dict[str, list[str]] = {}
            for rank, n in p.burn_values.items():
                pip = rank.isdigit() and int(rank) == n
                groups.setdefault("pip" if pip else str(n), []).append(rank)
            parts = [self.say(N_("%(ranks)s: as many as the card's number"), ranks=self.ranks(rs)) if k == "pip" else
                     self.say(N_("%(ranks)s: %(n)s"), ranks=self.ranks(rs), n=k) for k, rs in groups.items()]
            most = p.burn_reveal + max(p.burn_values.values(), default=0)
            out.append(self.p.ngettext(
                "At the start of a shoe the first card is shown, then cards are burned (set aside unseen) by its "
                "value — %(values)s; at most %(n)s card in all.",
                "At the start of a shoe the first card is shown, then cards are burned (set aside unseen) by its "
                "value — %(values)s; at most %(n)s cards in all.", most, values=self.p.clauses(parts, LIST_SEMI, LIST_SEMI)))
        if p.last_round in LAST_ROUND:
            out.append(self.say(LAST_ROUND[p.last_round]))
        if g.is_dealt_round and (p.cut_low is not None or p.burn_reveal):
            most = len(g.deal_order) + len(g.hand_draws())
            out.append(self.say(N_("A shoe also ends when fewer cards are left than a round can use (%(n)s)."), n=most))
        if g.void_returns_stakes:
            out.append(self.say(N_("A round declared void is not settled: every stake on it is returned, and none "
                                   "counts as a valid bet.")))
        return out
