"""Worked examples on a card: the reference cases marked `example = true`, told in the card's language.

A case is hand-written (tests/cases/*.toml): its input is shown as it is, and every result the
card prints is the engine's answer to that input (never the case's hand-written expectation:
`croupier check` fails where the two disagree). What this module adds is words: each line is a catalog message
with the case's cards as card chips, names shown by their labels, seats as "Seat 1", "Seat 2"
in the order the case lists them, transfers as "Seat 2 pays Seat 1 200". The case's own
title is prose written with the case, in English and, by language tag, in the other card
languages (`titles`); the citation is shortened to its source id and sections on those cards.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import replace
from types import ModuleType

from croupier.backends.cards import i18n
from croupier.backends.cards.examples import card_chip
from croupier.backends.cards.words import N_, Phrases
from croupier.semantics.cases import Case, engine_check
from croupier.semantics.model import Game

_CITE_ID = re.compile(r"^[^\s:;,]+(?: (?:§[\d§\-–, ]*\d|[A-Z]{1,4}-?\d+[a-z]?))*")  # any source id, its sections
SEAT = N_("Seat %(n)s")


def short_source(source: str) -> str:
    """The source id (and sections) at the head of a case's `source` text: `003 BCR-002`, `000 §16`, `H1 §2 §4`,
    `WOO-DT` (of `WOO-DT rules: …`)."""
    m = _CITE_ID.match(source.strip())
    return m.group(0) if m else source.split(" ")[0]


def text(value: str) -> dict:
    return {"text": value}


class Teller:
    """Tells the cases of one game in one language."""

    def __init__(self, game: Game, lang: str) -> None:
        self.game = game
        self.lang = lang
        self.p = Phrases(lang)

    def chips(self, codes) -> dict:
        return {"cards": [card_chip(self.game, str(c).upper(), self.lang) for c in codes]}

    def label(self, name: str, group: dict | None = None) -> str:
        """A name by its label: in `group` when given, else a hand type's or a formula's."""
        g = self.game
        if group is not None:
            return group[name].label(self.lang) if name in group else name
        if name in g.formulas:
            return g.formulas[name].label(self.lang)
        t = g.type_named(name)
        return t.label(self.lang) if t is not None else name

    def amounts(self, data: dict, names: dict) -> str:
        return self.p.nouns([self.p.say(N_("%(who)s %(amount)s"), who=names.get(k, k), amount=v)
                             for k, v in data.items()], "list")

    def bet_names(self) -> dict[str, str]:
        return {name: b.label(self.lang) for name, b in self.game.bets.items()}

    # ---- a dealt round ------------------------------------------------------------------------------------
    def dealt(self, c: Case) -> list[list[dict]]:
        g, x, say = self.game, c.expect, self.p.say
        lines: list[list[dict]] = []
        if "cards" in c.input:
            lines.append([text(say(N_("Cards in dealing order:"))), *self.dealt_cards(c)])
        if c.input.get("bets"):
            lines.append([text(say(N_("Stakes: %(x)s."), x=self.amounts(c.input["bets"], self.bet_names())))])
        for hand in g.hands:
            if hand not in x and f"{hand}_total" not in x:
                continue
            line = [text(say(N_("%(hand)s:"), hand=g.hands[hand].label(self.lang)))]
            cards = x.get(hand)
            if isinstance(cards, list):
                dealt = g.deal_order.count(hand)
                line.append(self.chips(cards[:dealt]))
                if cards[dealt:]:
                    line += [text(say(N_("draws"))), self.chips(cards[dealt:])]
                else:
                    line.append(text(say(N_("stands"))))
            if f"{hand}_total" in x:
                line.append(text(say(N_("— total %(n)s"), n=x[f"{hand}_total"])))
            lines.append(line)
        happened = [g.events[e].label(self.lang) for e in g.events if x.get(e) is True]
        if happened:
            lines.append([text(say(N_("Also: %(x)s."), x=self.p.nouns(happened)))])
        said = []
        if "outcome" in x:
            said.append(say(N_("Result: %(x)s."), x=self.label(str(x["outcome"]), g.outcomes)))
        if isinstance(x.get("returns"), dict) and x["returns"]:
            said.append(say(N_("Returns, stake included: %(x)s."), x=self.amounts(x["returns"], self.bet_names())))
        if said:
            lines.append([text(self.p.sentences(said))])
        return lines

    def dealt_cards(self, c: Case) -> list[dict]:
        """The case's cards in dealing order; those the round leaves over (after the `cards_used` the case
        expects) shown as not used, and counted in words."""
        cards = c.input["cards"]
        used = c.expect.get("cards_used")
        if not isinstance(used, int) or used >= len(cards):
            return [self.chips(cards)]
        rest = self.chips(cards[used:])
        for chip in rest["cards"]:
            chip["unused"] = True
        n = len(cards) - used
        return [self.chips(cards[:used]), rest,
                text(self.p.ngettext("(the last card is not used)", "(the last %(n)s cards are not used)", n))]

    def dealt_row(self, c: Case) -> dict:
        """A dealt round as one row of the examples table: cards, each hand, the result, stakes and returns."""
        g, x, say = self.game, c.expect, self.p.say
        hands = []
        for hand in g.hands:
            cell: list[dict] = []
            cards = x.get(hand)
            if isinstance(cards, list):
                dealt = g.deal_order.count(hand)
                cell.append(self.chips(cards[:dealt]))
                if cards[dealt:]:
                    cell += [text(say(N_("draws"))), self.chips(cards[dealt:])]
            if f"{hand}_total" in x:
                cell.append(text(say(N_("— total %(n)s"), n=x[f"{hand}_total"])))
            hands.append(spaced(cell))
        result = self.label(str(x["outcome"]), g.outcomes) if "outcome" in x else ""
        happened = [g.events[e].label(self.lang) for e in g.events if x.get(e) is True]
        if happened:
            result = say(N_("%(result)s (%(events)s)"), result=result, events=self.p.nouns(happened))
        bets, back = c.input.get("bets") or {}, x.get("returns") or {}
        names = self.bet_names()
        money = self.p.nouns([say(N_("%(bet)s %(stake)s → %(back)s"), bet=names.get(b, b), stake=v,
                                  back=back.get(b, "?")) for b, v in bets.items()], "list")
        return {"cards": spaced(self.dealt_cards(c)) if isinstance(c.input.get("cards"), list) else None,
                "hands": hands, "result": result, "money": money}

    # ---- a seat game ---------------------------------------------------------------------------------------
    def seat_names(self, c: Case) -> dict[str, str]:
        order = list(c.input.get("hands", {}))
        return {s: self.p.say(SEAT, n=i) for i, s in enumerate(order, 1)}

    def hand_result(self, info: dict) -> str:
        say = self.p.say
        parts = [self.label(str(info["type"]))] if "type" in info else []
        if "points" in info:
            parts.append(say(N_("%(n)s points"), n=info["points"]))
        if info.get("wild") is True:
            parts.append(say(N_("holds a wild card")))
        return self.p.nouns(parts, "list")

    def seats(self, c: Case) -> list[list[dict]]:
        say, x, inp = self.p.say, c.expect, c.input
        lines: list[list[dict]] = []
        if "hand" in inp:
            lines.append([text(say(N_("Hand:"))), self.chips(inp["hand"])])
            lines.append([text(say(N_("Result: %(x)s."), x=self.hand_result(x)))])
            subs = x.get("substitution") or {}
            if subs:
                said = [say(N_("%(card)s stands for %(rank)s"), card=chip_text(card_chip(self.game, k, self.lang)),
                            rank=v)
                        for k, v in subs.items()]
                lines.append([text(say(N_("Wild cards: %(x)s."), x=self.p.nouns(said)))])
            return lines
        names = self.seat_names(c)
        banker = inp.get("banker")
        for seat, cards in inp.get("hands", {}).items():
            line = [text(names[seat] + (say(N_(" (banker)")) if seat == banker else "")), self.chips(cards)]
            extra = []
            if seat in inp.get("stakes", {}):
                extra.append(say(N_("stake %(n)s"), n=inp["stakes"][seat]))
            if seat in inp.get("coins", {}):
                extra.append(say(N_("%(n)s coins"), n=inp["coins"][seat]))
            if extra:
                line.append(text(self.p.nouns(extra, "list")))
            if seat in x.get("hands", {}):
                line.append(text(say(N_("→ %(x)s"), x=self.hand_result(x["hands"][seat]))))
            lines.append(line)
        for name in self.game.formulas:
            if name in x:
                lines.append([text(say(N_("%(label)s: %(value)s."), label=self.label(name), value=x[name]))])
        if x.get("order"):
            lines.append([text(say(N_("Order, strongest first: %(x)s."),
                                   x=" > ".join(names.get(s, s) for s in x["order"])))])
        for seat, who in (x.get("results") or {}).items():
            role = say(N_("the banker wins")) if who == "banker" else say(N_("the player wins"))
            lines.append([text(say(N_("%(seat)s against the banker: %(who)s."), seat=names.get(seat, seat), who=role))])
        transfers = x.get("transfers")
        if isinstance(transfers, list):
            paid = [say(N_("%(payer)s pays %(payee)s %(amount)s"), payer=names.get(t["from"], t["from"]),
                        payee=names.get(t["to"], t["to"]), amount=t["amount"]) for t in transfers]
            lines.append([text(say(N_("Payments: %(x)s."), x=self.p.clauses(paid, N_("%(first)s, then %(last)s"))
                                   if paid else say(N_("none"))))])
        if isinstance(x.get("net"), dict):
            net = [say(N_("%(who)s: %(amount)s"), who=names.get(k, k), amount=signed(v)) for k, v in x["net"].items()]
            lines.append([text(say(N_("Net: %(x)s."), x=self.p.nouns(net, "list")))])
        return lines


def chip_text(chip: dict) -> str:
    """A card chip as plain text: its rank and suit (`K♦`, `K Coins`), or a joker's label."""
    return chip["rank"] + chip["suit"]


def signed(value) -> str:
    """A net amount with its sign: +200, −200, 0."""
    v = str(value)
    return v.replace("-", "−") if v.startswith("-") else (v if v in ("0", "0.0") else f"+{v}")


def spaced(line: list[dict]) -> list[dict]:
    """The parts of a line, each marked whether a space goes before it (none next to full-width punctuation)."""
    out = []
    prev = ""
    for part in line:
        if not part:
            continue
        first = part.get("text", "x")[:1]
        part = {**part, "space": bool(out) and not (_wide_punct(prev[-1:]) or _wide_punct(first))}
        out.append(part)
        prev = part.get("text", "x")
    return out


def _wide_punct(ch: str) -> bool:
    return bool(ch) and unicodedata.category(ch).startswith("P") and unicodedata.east_asian_width(ch) in "WF"


def worked_examples(game: Game, lang: str, cases: list[Case], engine: ModuleType | None = None) -> list[dict]:
    """The reference cases marked as examples, told in the card's language with the engine's answers
    (without an engine, as a Markdown card for a test is built, the case's own expectation)."""
    teller = Teller(game, lang)
    english = lang == i18n.SOURCE_LANG
    out = []
    for c in cases:
        if engine is not None:
            c = replace(c, expect=engine_check(c, engine.answer)[0])
        lines = teller.dealt(c) if game.is_dealt_round else teller.seats(c)
        out.append({"id": c.id, "source": c.source if english else short_source(c.source),
                    "title": c.title if english else c.titles.get(lang, ""), "lines": [spaced(line) for line in lines],
                    "row": teller.dealt_row(c) if game.is_dealt_round else None, "situations": []})
    return out
