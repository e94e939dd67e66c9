"""Resolver, the cards: the shoe and its jokers, card values, card classes, wild cards, the total
rule, and the card and suit orders."""

from __future__ import annotations

from fractions import Fraction

from croupier.semantics import model, resolve_decks
from croupier.semantics.resolve_context import Context, Handlers
from croupier.semantics.resolve_decks import STANDARD52, known_decks
from croupier.syntax import ast


def shoe(cx: Context, stmt: ast.ShoeStmt) -> None:
    if not cx.singleton(stmt, "shoe", cx.game.shoe is not None):
        return
    decks = known_decks(cx.game)
    kind = decks.get(stmt.deck)
    if kind is None:
        cx.err("E0120", f"unknown deck kind `{stmt.deck}`", stmt.deck_span,
               f"deck kinds: {', '.join(decks)} (declare a deck with `deck NAME = …` before the shoe)")
        kind = decks[STANDARD52]
    if not 1 <= stmt.decks <= 16:
        cx.err("E0121", f"a shoe of {stmt.decks} decks is outside 1–16", stmt.decks_span,
               "a shoe holds from 1 to 16 decks")
    jokers = tuple(cx.norm_rank(j.text) for j in stmt.jokers)
    for j in stmt.jokers:
        if cx.norm_rank(j.text) in kind.ranks or cx.norm_rank(j.text) in kind.cards:
            cx.err("E0122", f"joker `{j.text}` has the name of a rank", j.span, "name jokers BJ and SJ")
    if len(set(jokers + kind.jokers)) != len(jokers) + len(kind.jokers):
        cx.err("E0103", "a joker is named twice", stmt.span)
    cx.game.shoe = model.Shoe(stmt.decks, stmt.deck, kind.ranks, kind.suits, kind.jokers + jokers, stmt.span,
                              stmt.cite, cards=kind.cards + jokers)


def joker(cx: Context, stmt: ast.JokerStmt) -> None:
    cx.game.joker_labels[cx.norm_rank(stmt.name)] = cx.labels(stmt.labels)


def values(cx: Context, stmt: ast.ValueStmt) -> None:
    g = cx.game
    if not cx.singleton(stmt, "value", bool(g.values)):
        return
    g.values = {}
    g.card_values = {}
    g.value_cite = stmt.cite
    for item in stmt.items:
        ranks, cards = cx.ranks_or_cards(item.ranks, "a value")
        for r in ranks:
            if r in g.values:
                cx.err("E0103", f"rank {r} is given two values", item.span, "give each rank one value")
            if item.points is None:
                if not r.isdigit():
                    cx.err("E0123", f"rank {r} has no pip value", item.span, "give it a number")
                    continue
                g.values[r] = Fraction(int(r))
            else:
                g.values[r] = item.points
        for c in cards:
            if c in g.card_values:
                cx.err("E0103", f"card {c} is given two values", item.span, "give each card one value")
            rank = g.shoe.rank_of(c) if g.shoe is not None else c[:-1]
            if item.points is None and not rank.isdigit():
                cx.err("E0123", f"card {c} has no pip value", item.span, "give it a number")
                continue
            g.card_values[c] = Fraction(int(rank)) if item.points is None else item.points
    cx.value_span = stmt.span


def card_class(cx: Context, stmt: ast.ClassStmt) -> None:
    g = cx.game
    if cx.replace_check(stmt, stmt.name in g.classes, "class", stmt.name):
        ranks, cards = cx.ranks_or_cards(stmt.ranks, "a card class")
        g.classes[stmt.name] = cx.item(model.CardClass, stmt, ranks=ranks, cards=cards)


def single_card(cx: Context, card: str, span, where: str) -> None:
    cx.err("E0138", f"{where} names the single card {card}; here only whole ranks can be named", span,
           f"name its rank ({card[:-1]}); single cards are named in values, in `wild`, in the card classes of "
           "a dealt round and in its conditions")


def wild(cx: Context, stmt: ast.WildStmt) -> None:
    """`wild BJ SJ as …` (whole ranks) or `wild KD as …` (one card: its rank's other cards stay plain), or both."""
    g = cx.game
    if not cx.singleton(stmt, "wild", g.wild is not None):
        return
    ranks, cards = cx.ranks_or_cards(stmt.wilds, "the wild cards")
    if len(set(cards)) != len(cards):
        cx.err("E0103", "a wild card is named twice", stmt.wilds.span)
    for card in cards:
        if g.shoe is not None and g.shoe.rank_of(card) in ranks:
            cx.err("E0103", f"the wild card {card} belongs to a rank that is wild already", stmt.wilds.span)
    g.wild = model.Wild(ranks, cx.ranks(stmt.stands_for, cx.universe(), "what a wild stands for"),
                        tuple(stmt.best_by) or ("type", "total"), stmt.span, stmt.cite, tuple(cards))


def total(cx: Context, stmt: ast.TotalStmt) -> None:
    g = cx.game
    if cx.singleton(stmt, "total", g.modulus is not None or g.total_cite is not None):
        g.modulus, g.total_cite = stmt.modulus, stmt.cite or ""
        g.soft = None
        if stmt.soft_ranks is not None:
            low, high = stmt.soft_values
            span = stmt.soft_span or stmt.span
            if stmt.modulus is not None:
                cx.err("E0136", "a total modulo a number takes no best of two values", span,
                       "drop `mod`, or drop the cards that count one of two values")
            elif high <= low:
                cx.err("E0136", "a card counts its value or a higher one: write the lower value first", span,
                       f"for example: counts {high} or {low}" if high < low else "give two different values")
            else:
                ranks = cx.ranks(stmt.soft_ranks, cx.universe(), "the total rule")
                g.soft = model.Soft(ranks, low, high, stmt.soft_limit, span)


def order(cx: Context, stmt: ast.OrderStmt) -> None:
    key = f"{stmt.what} order"
    g = cx.game
    if not cx.singleton(stmt, key, bool(g.card_order if stmt.what == "card" else g.suit_order)):
        return
    items = tuple(cx.norm_rank(i.text) for i in stmt.items)
    if len(set(items)) != len(items):
        cx.err("E0103", f"the {key} names a card twice", stmt.span)
    if stmt.what == "card":
        universe = cx.universe()
        for i in stmt.items:
            if g.shoe is not None and cx.norm_rank(i.text) not in universe and i.text.upper() in g.shoe.cards:
                single_card(cx, i.text.upper(), i.span, "the card order")
                return
            if cx.norm_rank(i.text) not in universe:
                cx.err("E0106", f"unknown rank `{i.text}` in the card order", i.span)
        missing = [r for r in universe if r not in items]
        if missing:
            cx.err("E0124", f"the card order leaves out {' '.join(missing)}", stmt.span,
                   "list every rank of the shoe, highest first")
        g.card_order = items
    else:
        suits = g.shoe.suits if g.shoe else model.STANDARD_SUITS
        for i in stmt.items:
            if i.text.upper() not in suits:
                cx.err("E0106", f"unknown suit `{i.text}`", i.span, f"suits: {' '.join(suits)}")
        missing = [s for s in suits if s not in items]
        if missing:
            cx.err("E0124", f"the suit order leaves out {' '.join(missing)}", stmt.span)
        g.suit_order = tuple(i.upper() for i in items)


STATEMENTS: Handlers = {
    **resolve_decks.STATEMENTS,
    ast.ShoeStmt: shoe,
    ast.JokerStmt: joker,
    ast.ValueStmt: values,
    ast.ClassStmt: card_class,
    ast.WildStmt: wild,
    ast.TotalStmt: total,
    ast.OrderStmt: order,
}
