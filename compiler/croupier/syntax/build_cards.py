"""The cards' part of building the syntax tree: decks, suits, the shoe, jokers, values, classes, wild
cards, the total rule and the card and suit orders.

`CardsBuilder` is a base of `build_ast.BuildAst`, a Lark transformer whose
methods take the rule's `meta` and children; it reports what is odd as a
diagnostic, never an exception.
"""

from __future__ import annotations

from fractions import Fraction

from croupier.diagnostics import error
from croupier.syntax import ast
from croupier.syntax.standalone_parser import Token, Transformer, v_args


def _num(text: str) -> Fraction:
    return Fraction(text)


@v_args(meta=True)
class CardsBuilder(Transformer):
    """Builds the card statements of `ast` (used by `BuildAst`)."""

    # ---- cards ---------------------------------------------------------------------
    def rank(self, meta, children):
        return self.ref(children[0])

    def rank_range(self, meta, children):
        return ("range", children[0], children[1])

    def rank_set(self, meta, children):
        parts = []
        for c in children:
            if isinstance(c, tuple) and c[0] == "range":
                parts.append((c[1], c[2]))
            else:
                parts.append((c, None))
        return ast.RankSet(parts, self.span(meta))

    def points(self, meta, children):
        value = _num(str(children[0]))
        if len(children) > 1:
            den = _num(str(children[1]))
            if den == 0:
                self.diagnostics.append(error("E0003", "a value cannot divide by zero", self.span(meta)))
                return ("points", Fraction(0))
            value = value / den
        return ("points", value)

    def value_item(self, meta, children):
        ranks = children[0]
        pts = children[1]
        points = None if isinstance(pts, Token) and pts.type == "PIP" else pts[1]
        return ast.ValueItem(ranks, points, self.span(meta))

    def value(self, meta, children):
        items = [c for c in children if isinstance(c, ast.ValueItem)]
        return ast.ValueStmt(self.span(meta), items=items, cite=self._cite(children))

    def jokers(self, meta, children):
        return ("jokers", list(children))

    def shoe(self, meta, children):
        count = self._tokens(children, "INT")[0]
        deck = self._tokens(children, "NAME")[0]
        jokers = next((c[1] for c in children if isinstance(c, tuple) and c[0] == "jokers"), [])
        return ast.ShoeStmt(self.span(meta), decks=int(count), decks_span=self.tspan(count), deck=str(deck),
                            deck_span=self.tspan(deck), jokers=jokers, cite=self._cite(children))

    def deck_named(self, meta, children):
        return ("base", self.ref(children[0]))

    def deck_product(self, meta, children):
        ranks = next(c for c in children if isinstance(c, ast.RankSet))
        return ("product", ranks, [self.ref(t) for t in self._tokens(children, "NAME")])

    def deck_cards(self, meta, children):
        return ("cards", [c for c in children if isinstance(c, ast.RankRef)])

    def deck_without(self, meta, children):
        return ("without", children[0])

    def deck_jokers(self, meta, children):
        return ("jokers", [c for c in children if isinstance(c, ast.RankRef)])

    def deck(self, meta, children):
        name = self._tokens(children, "NAME")[0]
        stmt = ast.DeckStmt(self.span(meta), name=str(name), name_span=self.tspan(name),
                            labels=self._labels(children), cite=self._cite(children))
        for c in children:
            if not isinstance(c, tuple):
                continue
            if c[0] == "base":
                stmt.base, stmt.base_span = c[1].text, c[1].span
            elif c[0] == "product":
                stmt.ranks, stmt.suits = c[1], c[2]
            elif c[0] == "cards":
                stmt.cards = c[1]
            elif c[0] == "without":
                stmt.without.append(c[1])
            elif c[0] == "jokers":
                stmt.jokers.extend(c[1])
        return stmt

    def suit(self, meta, children):
        name = self._tokens(children, "NAME")[0]
        return ast.SuitStmt(self.span(meta), name=str(name), name_span=self.tspan(name),
                            labels=self._labels(children), cite=self._cite(children))

    def joker(self, meta, children):
        rank = children[0]
        return ast.JokerStmt(self.span(meta), name=rank.text, name_span=rank.span, labels=self._labels(children),
                             cite=self._cite(children))

    def card_class(self, meta, children):
        name = self._tokens(children, "NAME")[0]
        ranks = next(c for c in children if isinstance(c, ast.RankSet))
        return ast.ClassStmt(self.span(meta), name=str(name), name_span=self.tspan(name),
                             labels=self._labels(children), ranks=ranks, cite=self._cite(children))

    def wild_key(self, meta, children):
        return ("wild_key", str(children[0]))

    def wild(self, meta, children):
        sets = [c for c in children if isinstance(c, ast.RankSet)]
        keys = [c[1] for c in children if isinstance(c, tuple) and c[0] == "wild_key"]
        return ast.WildStmt(self.span(meta), wilds=sets[0], stands_for=sets[1], best_by=keys,
                            cite=self._cite(children))

    def soft_rule(self, meta, children):
        ranks = next(c for c in children if isinstance(c, ast.RankSet))
        points = [c[1] for c in children if isinstance(c, tuple) and c[0] == "points"]
        limit = _num(str(self._tokens(children, "NUMBER")[-1]))
        return ("soft", ranks, (points[0], points[1]), limit, self.span(meta))

    def total(self, meta, children):
        ints = self._tokens(children, "INT")
        stmt = ast.TotalStmt(self.span(meta), modulus=int(ints[0]) if ints else None, cite=self._cite(children))
        soft = next((c for c in children if isinstance(c, tuple) and c[0] == "soft"), None)
        if soft is not None:
            _k, stmt.soft_ranks, stmt.soft_values, stmt.soft_limit, stmt.soft_span = soft
        return stmt

    def card_order(self, meta, children):
        items = [c for c in children if isinstance(c, ast.RankRef)]
        return ast.OrderStmt(self.span(meta), what="card", items=items, cite=self._cite(children))

    def suit_order(self, meta, children):
        items = [self.ref(t) for t in self._tokens(children, "NAME")]
        return ast.OrderStmt(self.span(meta), what="suit", items=items, cite=self._cite(children))
