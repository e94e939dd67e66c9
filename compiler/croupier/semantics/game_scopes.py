"""The scopes of a game: what an expression may say at each place of a spec.

Each scope lists the names of its place with their types and the kind of
reference each resolves to (a hand, an event, a seat's role, …), the built-in
functions, and the subjects of `is` tests. How these become Python in an
engine is the engine back end's (`backends/engine/python_expr.py`).

A dealt round reads cards: a hand's cards by position (`card(h, i)`, `first`,
`last`, `third`), a card's `rank`, `suit` and `value`, counts of a class, suit or
rank in a hand, and, once the round is finished, its outcome and `cards_used`.
Ranks, suits and single cards are written as names (`K`, `H`, `KD`).
"""

from __future__ import annotations

from collections.abc import Sequence

from croupier.semantics import expr as ir
from croupier.semantics.expr import BET, BOOL, CARD, CARDS, CLASS, HAND, NUM, RANK, ROLE, SUIT, Function
from croupier.semantics.model import Game
from croupier.semantics.scopes import NUMERIC_FUNCS, Scope

SOME = f"{HAND}|{CARDS}"
AFTER = ("the outcome is decided once the draws are over: test it in a bet, in an event, or in a `let`; "
         "a rule of the deal, the draws or the outcome cannot read it")


def card_funcs(game: Game) -> dict[str, Function | tuple[Function, ...]]:
    """The functions over hands and cards of a dealt round."""
    funcs: dict[str, Function | tuple[Function, ...]] = {
        "total": Function("total", "total", (SOME,), NUM, "the hand's total"),
        "first2": Function("first2", "first2", (HAND,), CARDS, "the hand's first two cards"),
        "third": Function("third", "third", (HAND,), CARD, "the hand's third card"),
        "first": Function("first", "first", (SOME,), CARD, "the first card"),
        "last": Function("last", "last", (SOME,), CARD, "the last card"),
        "card": Function("card", "card", (SOME, NUM), CARD, "the card at a position, counted from 1"),
        "value": Function("value", "value", (CARD,), NUM, "the card's value"),
        "rank": Function("rank", "rank", (CARD,), RANK, "the card's rank"),
        "suit": Function("suit", "suit", (CARD,), SUIT, "the card's suit"),
        "drew": Function("drew", "drew", (HAND,), BOOL, "whether the hand drew a card after the deal"),
        "count": (
            Function("count", "count", (SOME,), NUM, "how many cards"),
            Function("count", "count_class", (SOME, CLASS), NUM, "how many cards of a class"),
            Function("count", "count_suit", (SOME, SUIT), NUM, "how many cards of a suit"),
            Function("count", "count_rank", (SOME, RANK), NUM, "how many cards of a rank"),
        ),
        "same_rank": Function("same_rank", "same_rank", (SOME,), BOOL, "whether the cards are all of one rank"),
        "same_suit": Function("same_suit", "same_suit", (SOME,), BOOL, "whether the cards are all of one suit"),
        **NUMERIC_FUNCS,
    }
    if game.soft is not None:
        funcs["soft"] = Function("soft", "soft", (SOME,), BOOL,
                                 "whether the total counts a card at its other value")
    return funcs


def card_constants(game: Game) -> dict[str, tuple[tuple[str, type[ir.Name], str], ...]]:
    """The ranks, suits and single cards of the shoe, as the names an expression writes them."""
    out: dict[str, list[tuple[str, type[ir.Name], str]]] = {}
    shoe = game.shoe
    if shoe is None:
        return {}
    for r in shoe.ranks + shoe.jokers:
        out.setdefault(r, []).append((RANK, ir.RankName, r))
    out.setdefault("T", []).extend([(RANK, ir.RankName, "10")] if "10" in shoe.ranks else [])
    for s in shoe.suits:
        out.setdefault(s, []).append((SUIT, ir.SuitName, s))
    for c in shoe.codes():
        if c not in shoe.jokers:
            out.setdefault(c, []).append((CARD, ir.CardName, c))
    return {k: tuple(v) for k, v in out.items() if v}


def round_scope(game: Game, *, with_outcome: bool, with_events: bool = True,
                formulas: Sequence[str] | None = None, where: str | None = None) -> Scope:
    """Scope of a dealt round: hands, events, the round's formulas (`let`), the card functions, and once the
    round is finished (`with_outcome`) its outcome and the cards it used."""
    names: dict[str, tuple[str, type[ir.Name]]] = {h: (HAND, ir.HandRef) for h in game.hands}
    names.update({c: (CLASS, ir.ClassRef) for c in game.classes})
    if with_events:
        names.update({e: (BOOL, ir.EventRef) for e in game.events})
    for f in (game.formulas if formulas is None else formulas):
        formula = game.formulas.get(f)
        if formula is not None:
            names[f] = (formula.expr.type if formula.expr is not None and formula.expr.type else NUM,
                        ir.RoundFormulaRef)
    subjects: dict[str, tuple[frozenset[str], str, type[ir.IsTest]]] = {}
    unavailable: dict[str, str] = {}
    if with_outcome:
        subjects["outcome"] = (frozenset(game.outcomes), "outcome", ir.OutcomeIs)
        names["cards_used"] = (NUM, ir.RoundFact)
    else:
        unavailable = {"outcome": AFTER, "cards_used": AFTER.replace("the outcome is", "the cards a round used are")}
    where = where or ("a bet" if with_outcome else "a rule of the round")
    return Scope(where, names, card_funcs(game), subjects, card_constants(game), unavailable)


def type_scope(game: Game) -> Scope:
    """Scope of a hand-type predicate: facts of one (substituted) hand."""
    names: dict[str, tuple[str, type[ir.Name]]] = {
        "count": (NUM, ir.HandFact),
        "total": (NUM, ir.HandFact),
        "wild": (BOOL, ir.HandFact),
    }
    names.update({c: (CLASS, ir.ClassRef) for c in game.classes})
    funcs = {
        "count": Function("count", "class_count", (CLASS,), NUM, "how many cards of a class"),
        **NUMERIC_FUNCS,
    }
    return Scope("a hand type", names, funcs, {})


def _role_funcs() -> dict[str, Function | tuple[Function, ...]]:
    return {
        "stake": Function("stake", "stake", (ROLE,), NUM, "the seat's stake"),
        "multiplier": Function("multiplier", "multiplier", (ROLE,), NUM, "the multiplier of the seat's hand type"),
        "paid": Function("paid", "paid", (ROLE,), NUM, "what the seat has paid so far this round"),
        "coins": Function("coins", "coins", (ROLE,), NUM, "the seat's coins at the start of the round"),
        **NUMERIC_FUNCS,
    }


def settle_scope(game: Game, lets: list[str], *, with_result: bool) -> Scope:
    """Scope of a settlement clause: the two seats, formulas, earlier `let`s."""
    if game.settlement is not None and game.settlement.scheme == "against-banker":
        roles = ["banker", "player"] + (["winner", "loser"] if with_result else [])
    else:
        roles = ["winner", "loser"]
    names: dict[str, tuple[str, type[ir.Name]]] = {r: (ROLE, ir.RoleRef) for r in roles}
    names["tied"] = (BOOL, ir.PairFact)
    names.update({f: (NUM, ir.FormulaRef) for f in game.formulas})
    names.update({v: (NUM, ir.LetRef) for v in lets})
    types = frozenset(t.name for t in game.types)
    subjects: dict[str, tuple[frozenset[str], str, type[ir.IsTest]]] = {
        r: (types, "hand type", ir.TypeIs) for r in roles}
    return Scope("a settlement formula", names, _role_funcs(), subjects)


def table_scope(game: Game) -> Scope:
    """Scope of a table formula (a top-level `let NAME = …`): the seated players' coins."""
    names: dict[str, tuple[str, type[ir.Name]]] = {
        "poorest": (NUM, ir.TableFact),
        "players": (NUM, ir.TableFact),
        "banker": (ROLE, ir.TableFact),
    }
    return Scope("a table formula", names, _role_funcs(), {})


def valid_bet_scope(game: Game) -> Scope:
    """Scope of the valid-bet rule: which bets one bettor placed, and the outcome."""
    names: dict[str, tuple[str, type[ir.Name]]] = {b: (BET, ir.BetRef) for b in game.bets}
    funcs = {
        "placed": Function("placed", "placed", (BET,), BOOL, "whether the bettor placed this bet"),
        **NUMERIC_FUNCS,
    }
    subjects: dict[str, tuple[frozenset[str], str, type[ir.IsTest]]] = {
        "outcome": (frozenset(game.outcomes), "outcome", ir.OutcomeIs)}
    return Scope("the valid-bet rule", names, funcs, subjects)
