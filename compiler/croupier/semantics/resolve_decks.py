"""Resolver, decks as data: `deck` declarations, the suits' names, and what a rank set names (ranks or cards).

A deck is a known deck with ranks or single cards removed and jokers added
(`deck short = standard52 without 8 9 10`), ranks by suits
(`deck italian40 = ranks A 2..7 J Q K, suits C D S B`), or a list of cards
(`deck tiny = cards AS KS QH`). A card is written as its rank then the one-letter
name of its suit (`KD`, `10S`), so a suit is named by one letter; `suit C "Cups"`
gives it display names. The one built-in deck is `standard52`.
"""

from __future__ import annotations

from croupier.semantics import model
from croupier.semantics.resolve_context import Context, Handlers, split_card
from croupier.syntax import ast

STANDARD52 = "standard52"


def builtin_decks() -> dict[str, model.Deck]:
    """The decks every spec knows without declaring them."""
    from croupier.diagnostics import Span

    deck = model.Deck(STANDARD52, model.Labels({"en": "Standard 52-card deck"}), Span("<built-in>", 1, 1),
                      ranks=model.STANDARD_RANKS, suits=model.STANDARD_SUITS,
                      cards=tuple(model.card_code(r, s) for r in model.STANDARD_RANKS for s in model.STANDARD_SUITS))
    return {STANDARD52: deck}


def known_decks(g: model.Game) -> dict[str, model.Deck]:
    return {**builtin_decks(), **g.decks}


def deck(cx: Context, stmt: ast.DeckStmt) -> None:
    g = cx.game
    decks = known_decks(g)
    if stmt.name == STANDARD52:
        cx.err("E0103", f"`{STANDARD52}` is the built-in deck", stmt.name_span or stmt.span, "give the deck another name")
        return
    if not cx.replace_check(stmt, stmt.name in g.decks, "deck", stmt.name):
        return
    ranks: list[str] = []
    suits: list[str] = []
    cards: list[str] = []
    jokers: list[str] = []
    if stmt.base is not None:
        base = decks.get(stmt.base)
        if base is None:
            cx.err("E0120", f"unknown deck `{stmt.base}`", stmt.base_span or stmt.span,
                   f"decks: {', '.join(decks)} (declare a deck before the deck or shoe that uses it)")
            return
        ranks, suits, cards, jokers = list(base.ranks), list(base.suits), [c for c in base.cards if c not in base.jokers], \
            list(base.jokers)
    elif stmt.ranks is not None:
        ranks = deck_ranks(cx, stmt.ranks)
        for ref in stmt.suits:
            suit = ref.text.upper()
            if len(suit) != 1 or not suit.isalpha() or not suit.isascii():
                cx.err("E0134", f"suit `{ref.text}` is not one letter", ref.span,
                       "a card is written as its rank then one letter for its suit (KD); name suits S H C D, or "
                       "give a suit its full name with: suit C \"Cups\"")
                continue
            if suit in suits:
                cx.err("E0103", f"suit {suit} is named twice", ref.span)
                continue
            suits.append(suit)
        cards = [model.card_code(r, s) for r in ranks for s in suits]
    else:
        for ref in stmt.cards:
            parts = split_card(ref.text)
            if parts is None or not parts[0]:
                cx.err("E0134", f"`{ref.text}` is not a card: write its rank, then one letter for its suit", ref.span,
                       "for example KD (king of D) or 10S; add jokers with: + jokers JK")
                continue
            rank, suit = parts
            ranks += [rank] if rank not in ranks else []
            suits += [suit] if suit not in suits else []
            cards.append(model.card_code(rank, suit))
    for removed in stmt.without:
        gone_ranks, gone_cards = cx.names_in(removed, tuple(ranks), tuple(cards), "the cards removed")
        cards = [c for c in cards if c not in gone_cards and c[:-1] not in gone_ranks]
        jokers = [j for j in jokers if j not in gone_ranks]
        ranks = [r for r in ranks if any(c[:-1] == r for c in cards)]
        suits = [s for s in suits if any(c[-1] == s for c in cards)]
    for ref in stmt.jokers:
        j = cx.norm_rank(ref.text)
        if j in ranks or j in cards or j in jokers:
            cx.err("E0122", f"joker `{ref.text}` has the name of a rank, a card or another joker", ref.span,
                   "name jokers BJ and SJ, or JK")
            continue
        jokers.append(j)
    if not cards and not jokers:
        cx.err("E0135", f"deck `{stmt.name}` holds no card", stmt.span, "keep at least one rank and one suit")
    g.decks[stmt.name] = cx.item(model.Deck, stmt, ranks=tuple(ranks), suits=tuple(suits),
                                 cards=tuple(cards) + tuple(jokers), jokers=tuple(jokers))


def deck_ranks(cx: Context, rs: ast.RankSet) -> list[str]:
    """The ranks a deck declares, in order; a range runs between whole numbers (`2..7`)."""
    out: list[str] = []
    for first, last in rs.parts:
        a = cx.norm_rank(first.text)
        names = [a]
        if last is not None:
            b = cx.norm_rank(last.text)
            if not (a.isdigit() and b.isdigit()):
                cx.err("E0107", f"the range {first.text}..{last.text} of a deck's ranks is not between numbers",
                       first.span, "list the ranks one by one, or give a range of numbers such as 2..7")
                continue
            if int(b) < int(a):
                cx.err("E0107", f"the range {first.text}..{last.text} runs backwards", first.span,
                       f"write {last.text}..{first.text}")
                continue
            names = [str(n) for n in range(int(a), int(b) + 1)]
        for r in names:
            if r in out:
                cx.err("E0103", f"rank {r} is named twice in the deck", first.span)
            else:
                out.append(r)
    return out


def suit(cx: Context, stmt: ast.SuitStmt) -> None:
    g = cx.game
    name = stmt.name.upper()
    suits = g.shoe.suits if g.shoe is not None else ()
    if g.shoe is not None and name not in suits:
        cx.err("E0106", f"unknown suit `{stmt.name}`", stmt.name_span or stmt.span, f"suits: {' '.join(suits)}")
    g.suit_labels[name] = cx.labels(stmt.labels)


STATEMENTS: Handlers = {
    ast.DeckStmt: deck,
    ast.SuitStmt: suit,
}
