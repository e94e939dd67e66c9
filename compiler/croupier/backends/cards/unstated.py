"""What a card must say the house has not stated: the rules a spec leaves out that a player or a regulator
expects to read (how a seat game's round is played). Each is a warning of the card build (`croupier check
--strict` fails on it), and the card says in words that the house has not stated it."""

from __future__ import annotations

from croupier.diagnostics import Diagnostic, Span, warning
from croupier.semantics.model import Game


def unstated(game: Game) -> list[Diagnostic]:
    """A warning for each rule the card says the house has not stated."""
    out: list[Diagnostic] = []
    where = Span(game.path, game.span.line if game.span else 1, 1)
    t = game.turn
    if game.is_seat_game:
        if t is None:
            out.append(warning("W0801", "the spec does not say how a round is played: the card says the house has "
                                        "not stated it", where,
                               "add: turn deal 5 cards, 1 face up, hit reveals, at most 4 hits, timer, seat-order"))
        elif t.deal is None or t.hit is None or t.order is None:
            missing = [w for w, v in (("deal N cards", t.deal), ("hit reveals|draws", t.hit),
                                      ("seat-order|banker-first|banker-last", t.order)) if v is None]
            out.append(warning("W0801", f"the `turn` statement leaves out {', '.join(missing)}: the card says the "
                                        "house has not stated it", t.span, "add the missing parts to `turn`"))
    return out
