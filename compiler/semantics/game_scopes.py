"""The scopes of a game: what an expression may say at each place of a spec.

Each scope lists the names of its place with their types and the kind of
reference each resolves to (a hand, an event, a seat's role, …), the built-in
functions, and the subjects of `is` tests. How these become Python in an
engine is the engine back end's (`backends/engine/python_expr.py`).
"""

from __future__ import annotations

from croupier.semantics import expr as ir
from croupier.semantics.expr import BET, BOOL, CARD, CARDS, CLASS, HAND, NUM, ROLE, Function
from croupier.semantics.model import Game
from croupier.semantics.scopes import NUMERIC_FUNCS, Scope


def round_scope(game: Game, *, with_outcome: bool, with_events: bool = True) -> Scope:
    """Scope of a dealt round: hands, events, outcome (once decided)."""
    names: dict[str, tuple[str, type[ir.Name]]] = {h: (HAND, ir.HandRef) for h in game.hands}
    if with_events:
        names.update({e: (BOOL, ir.EventRef) for e in game.events})
    funcs = {
        "total": Function("total", "total", (f"{HAND}|{CARDS}",), NUM, "the hand's total"),
        "first2": Function("first2", "first2", (HAND,), CARDS, "the hand's first two cards"),
        "third": Function("third", "third", (HAND,), CARD, "the hand's third card"),
        "value": Function("value", "value", (CARD,), NUM, "the card's value"),
        "drew": Function("drew", "drew", (HAND,), BOOL, "whether the hand drew a card after the deal"),
        "count": Function("count", "count", (f"{HAND}|{CARDS}",), NUM, "how many cards"),
        "same_rank": Function("same_rank", "same_rank", (f"{HAND}|{CARDS}",), BOOL,
                              "whether the cards are all of one rank"),
        **NUMERIC_FUNCS,
    }
    subjects: dict[str, tuple[frozenset[str], str, type[ir.IsTest]]] = {}
    if with_outcome:
        subjects["outcome"] = (frozenset(game.outcomes), "outcome", ir.OutcomeIs)
    where = "a bet" if with_outcome else "a rule of the round"
    return Scope(where, names, funcs, subjects)


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


def _role_funcs() -> dict[str, Function]:
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
