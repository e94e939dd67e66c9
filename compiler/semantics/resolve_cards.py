"""Resolver, the cards: the shoe and its jokers, card values, card classes, wild cards, the total
rule, and the card and suit orders."""

from __future__ import annotations

from fractions import Fraction

from croupier.semantics import model
from croupier.semantics.resolve_context import Context, Handlers
from croupier.syntax import ast

DECK_KINDS = {"standard52": (model.STANDARD_RANKS, model.STANDARD_SUITS)}


def shoe(cx: Context, stmt: ast.ShoeStmt) -> None:
    if not cx.singleton(stmt, "shoe", cx.game.shoe is not None):
        return
    kind = DECK_KINDS.get(stmt.deck)
    if kind is None:
        cx.err("E0120", f"unknown deck kind `{stmt.deck}`", stmt.deck_span,
               f"deck kinds: {', '.join(DECK_KINDS)}")
        kind = DECK_KINDS["standard52"]
    if not 1 <= stmt.decks <= 16:
        cx.err("E0121", f"a shoe of {stmt.decks} decks is outside 1–16", stmt.decks_span,
               "regulators allow 6 to 8 decks for baccarat; a hand game uses 1")
    jokers = tuple(cx.norm_rank(j.text) for j in stmt.jokers)
    for j in stmt.jokers:
        if cx.norm_rank(j.text) in kind[0]:
            cx.err("E0122", f"joker `{j.text}` has the name of a rank", j.span, "name jokers BJ and SJ")
    if len(set(jokers)) != len(jokers):
        cx.err("E0103", "a joker is named twice", stmt.span)
    cx.game.shoe = model.Shoe(stmt.decks, stmt.deck, kind[0], kind[1], jokers, stmt.span, stmt.cite)


def joker(cx: Context, stmt: ast.JokerStmt) -> None:
    cx.game.joker_labels[cx.norm_rank(stmt.name)] = cx.labels(stmt.labels)


def values(cx: Context, stmt: ast.ValueStmt) -> None:
    g = cx.game
    if not cx.singleton(stmt, "value", bool(g.values)):
        return
    g.values = {}
    g.value_cite = stmt.cite
    for item in stmt.items:
        for r in cx.ranks(item.ranks, cx.universe(), "a value"):
            if r in g.values:
                cx.err("E0103", f"rank {r} is given two values", item.span, "give each rank one value")
            if item.points is None:
                if not r.isdigit():
                    cx.err("E0123", f"rank {r} has no pip value", item.span, "give it a number")
                    continue
                g.values[r] = Fraction(int(r))
            else:
                g.values[r] = item.points
    cx.value_span = stmt.span


def card_class(cx: Context, stmt: ast.ClassStmt) -> None:
    g = cx.game
    if cx.replace_check(stmt, stmt.name in g.classes, "class", stmt.name):
        g.classes[stmt.name] = cx.item(model.CardClass, stmt, ranks=cx.ranks(stmt.ranks, cx.universe(), "a card class"))


def wild(cx: Context, stmt: ast.WildStmt) -> None:
    """`wild BJ SJ as …` (whole ranks) or `wild KD as …` (one card: the king of diamonds), or both."""
    g = cx.game
    if not cx.singleton(stmt, "wild", g.wild is not None):
        return
    universe = cx.universe()
    suits = g.shoe.suits if g.shoe else model.STANDARD_SUITS
    cards: list[str] = []
    rank_parts = []
    for first, last in stmt.wilds.parts:
        text = cx.norm_rank(first.text)
        rank, suit = cx.norm_rank(text[:-1]), text[-1:]
        if last is None and text not in universe and rank in universe and suit in suits:
            if rank + suit in cards:
                cx.err("E0103", f"the wild card {first.text} is named twice", first.span)
            cards.append(rank + suit)
        else:
            rank_parts.append((first, last))
    ranks = cx.ranks(ast.RankSet(rank_parts, stmt.wilds.span), universe, "the wild cards")
    for card in cards:
        if card[:-1] in ranks:
            cx.err("E0103", f"the wild card {card} belongs to a rank that is wild already", stmt.wilds.span)
    g.wild = model.Wild(ranks, cx.ranks(stmt.stands_for, universe, "what a wild stands for"),
                        tuple(stmt.best_by) or ("type", "total"), stmt.span, stmt.cite, tuple(cards))


def total(cx: Context, stmt: ast.TotalStmt) -> None:
    g = cx.game
    if cx.singleton(stmt, "total", g.modulus is not None or g.total_cite is not None):
        g.modulus, g.total_cite = stmt.modulus, stmt.cite or ""


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
    ast.ShoeStmt: shoe,
    ast.JokerStmt: joker,
    ast.ValueStmt: values,
    ast.ClassStmt: card_class,
    ast.WildStmt: wild,
    ast.TotalStmt: total,
    ast.OrderStmt: order,
}
