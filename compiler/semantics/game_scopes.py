"""The scopes of a game: what an expression may say at each place of a spec.

Each scope also fixes how the names translate into the generated engine, so
this module and the engine's runtime agree on a small set of Python names.
"""

from __future__ import annotations

from croupier.semantics.model import Game
from croupier.semantics.scopes import BOOL, CARD, CARDS, CLASS, HAND, NUM, NUMERIC_FUNCS, ROLE, Func, Scope


def round_scope(game: Game, *, with_outcome: bool, with_events: bool = True) -> Scope:
    """Scope of a dealt round: hands, events, outcome (once decided)."""
    names: dict[str, tuple[str, str]] = {h: (HAND, f"r.{h}") for h in game.hands}
    if with_events:
        names.update({e: (BOOL, f"event_{e}(r)") for e in game.events})
    funcs = {
        "total": Func((f"{HAND}|{CARDS}",), NUM, "total({0})", "the hand's total"),
        "first2": Func((HAND,), CARDS, "{0}[:2]", "the hand's first two cards"),
        "third": Func((HAND,), CARD, "third({0})", "the hand's third card"),
        "value": Func((CARD,), NUM, "card_value({0})", "the card's value"),
        "drew": Func((HAND,), BOOL, "(len({0}) > DEALT[{names[0]!r}])",
                     "whether the hand drew a card after the deal"),
        "count": Func((f"{HAND}|{CARDS}",), NUM, "len({0})", "how many cards"),
        "same_rank": Func((f"{HAND}|{CARDS}",), BOOL, "same_rank({0})", "whether the cards are all of one rank"),
        **NUMERIC_FUNCS,
    }
    subjects = {}
    if with_outcome:
        subjects["outcome"] = (frozenset(game.outcomes), "(r.outcome == {what})", "outcome")
    where = "a bet" if with_outcome else "a rule of the round"
    return Scope(where, names, funcs, subjects)


def type_scope(game: Game) -> Scope:
    """Scope of a hand-type predicate: facts of one (substituted) hand."""
    names = {
        "count": (NUM, "h.count"),
        "total": (NUM, "h.total"),
        "wild": (BOOL, "h.wild"),
    }
    names.update({c: (CLASS, repr(c)) for c in game.classes})
    funcs = {
        "count": Func((CLASS,), NUM, "h.classes[{0}]", "how many cards of a class"),
        **NUMERIC_FUNCS,
    }
    return Scope("a hand type", names, funcs, {})


def _role_funcs() -> dict[str, Func]:
    return {
        "stake": Func((ROLE,), NUM, "t.stake({0})", "the seat's stake"),
        "multiplier": Func((ROLE,), NUM, "t.multiplier({0})", "the multiplier of the seat's hand type"),
        "paid": Func((ROLE,), NUM, "t.paid[{0}]", "what the seat has paid so far this round"),
        "coins": Func((ROLE,), NUM, "t.coins[{0}]", "the seat's coins at the start of the round"),
        **NUMERIC_FUNCS,
    }


def settle_scope(game: Game, lets: list[str], *, with_result: bool) -> Scope:
    """Scope of a settlement clause: the two seats, formulas, earlier `let`s."""
    if game.settlement is not None and game.settlement.scheme == "against-banker":
        roles = ["banker", "player"] + (["winner", "loser"] if with_result else [])
    else:
        roles = ["winner", "loser"]
    names: dict[str, tuple[str, str]] = {r: (ROLE, r) for r in roles}
    names["tied"] = (BOOL, "tied")
    names.update({f: (NUM, f"t.formula_{f}") for f in game.formulas})
    names.update({v: (NUM, f"v_{v}") for v in lets})
    types = frozenset(t.name for t in game.types)
    subjects = {r: (types, "(t.type_of({subject}) == {what})", "hand type") for r in roles}
    return Scope("a settlement formula", names, _role_funcs(), subjects)


def table_scope(game: Game) -> Scope:
    """Scope of a table formula (a top-level `let NAME = …`): the seated players' coins."""
    names = {
        "poorest": (NUM, "t.poorest"),
        "players": (NUM, "t.players"),
        "banker": (ROLE, "t.banker"),
    }
    return Scope("a table formula", names, _role_funcs(), {})


def valid_bet_scope(game: Game) -> Scope:
    """Scope of the valid-bet rule: which bets one bettor placed, and the outcome."""
    names = {b: ("bet", repr(b)) for b in game.bets}
    funcs = {
        "placed": Func(("bet",), BOOL, "({0} in bets)", "whether the bettor placed this bet"),
        **NUMERIC_FUNCS,
    }
    subjects = {"outcome": (frozenset(game.outcomes), "(r.outcome == {what})", "outcome")}
    return Scope("the valid-bet rule", names, funcs, subjects)
