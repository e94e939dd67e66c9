"""Hand types of a seat game, checked over every hand the deck can make.

Every multiset of ranks of 1..hand-size cards (within the copies the deck
holds) is evaluated by the spec's own engine, wild cards substituted as the
engine does: a hand that matches no type (E0501), a hand that two types both
match (W0502: only the listing order decides), a type no hand reaches (W0503),
and, when the settlement has no rule for tied hands, two distinct hands of one
type that the tie-break keys leave equal (W0504).
"""

from __future__ import annotations

import itertools

from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.cache import cached
from croupier.diagnostics import Diagnostic, error, warning
from croupier.semantics.model import Game

MAX_SURVEY_HANDS = 250_000  # hands (a wild card's every choice counted) that `check` surveys for hand types


def survey_size(g: Game) -> int:
    """How many hands the hand-type survey of `check` evaluates: every multiset of ranks of each allowed
    size that the shoe holds, times the choices of its wild cards (a product of per-rank polynomials)."""
    low, high = g.hand_size
    shoe = g.shoe
    wild = set(g.wild.ranks) if g.wild else set()
    choices = len(g.wild.stands_for) if g.wild else 1
    poly = [1] + [0] * high
    for r in shoe.ranks + shoe.jokers:
        copies = shoe.rank_copies(r)
        weight = choices if r in wild else 1
        new = [0] * (high + 1)
        for i, a in enumerate(poly):
            if a:
                for k in range(min(copies, high - i) + 1):
                    new[i + k] += a * weight ** k
        poly = new
    return sum(poly[max(1, low):])


def check(game: Game) -> list[Diagnostic]:
    """Exhaustive checks of the hand types over the deck's rank multisets."""
    if not game.is_seat_game or game.shoe is None or game.hand_size is None or game.settlement is None:
        return []
    size = survey_size(game)
    if size > MAX_SURVEY_HANDS:
        wilds = f", wild cards standing for {len(game.wild.stands_for)} ranks" if game.wild else ""
        return [error("E0133", f"hands of up to {game.hand_size[1]} cards{wilds} make {size:,} hands to survey; "
                               f"the bound is {MAX_SURVEY_HANDS:,}", game.hand_size_span or game.span,
                      "lower the largest hand size (or the wild cards' choices)")]
    try:
        source = emit_engine(game, game.path)
    except (OSError, SyntaxError, KeyError, ValueError):
        return []
    unmatched, overlaps, reached, ties = cached(
        "hand-survey", source, lambda: _survey(game, load_engine(source, f"check_{game.name}")))
    out: list[Diagnostic] = []
    for hand in unmatched[:5]:
        out.append(error("E0501", f"the hand {hand} matches no hand type", game.types[-1].span,
                         "every hand the deck can make needs a type; add one, or widen a `when`"))
    if len(unmatched) > 5:
        out.append(error("E0501", f"{len(unmatched) - 5} more hands match no hand type", game.types[-1].span))
    for (first, second), hand in sorted(overlaps.items()):
        t = game.type_named(second)
        out.append(warning("W0502", f"the hand {hand} matches both `{first}` and `{second}`; only the listing order "
                           f"ranks `{first}` first", t.span, "make the `when` conditions exclusive"))
    for t in game.types:
        if t.name not in reached:
            out.append(warning("W0503", f"no hand the deck can make is of type `{t.name}`", t.span,
                               "check its `when` condition against the hand size and the card values"))
    if not _ties_settled(game):
        for name, (a, b) in sorted(ties.items()):
            t = game.type_named(name)
            out.append(warning("W0504", f"the tie-break of `{name}` leaves {a} and {b} equal, and the settlement "
                               "has no rule for tied hands", t.span,
                               "add a tie-break key, or a `draw when tied` / `banker-wins when tied` line"))
    return out


def _ties_settled(game: Game) -> bool:
    from croupier.semantics.expr import expr_text

    for clause in game.settlement.clauses:
        if clause.kind in ("draw", "banker-wins", "player-wins") and "tied" in expr_text(clause.expr).split():
            return True
    return False


def _survey(game: Game, engine) -> list:
    shoe = game.shoe
    ranks = list(shoe.ranks) + list(shoe.jokers)
    copies = {r: shoe.rank_copies(r) for r in ranks}
    low, high = game.hand_size
    unmatched: list[str] = []
    overlaps: dict[tuple[str, str], str] = {}
    reached: set[str] = set()
    strengths: dict[str, dict[tuple, str]] = {}
    ties: dict[str, tuple[str, str]] = {}
    wild = set(engine.WILD_RANKS)
    for size in range(max(1, low), high + 1):
        for combo in itertools.combinations_with_replacement(ranks, size):
            if any(combo.count(r) > copies[r] for r in set(combo)):
                continue
            codes = _codes(combo, shoe)
            shown = " ".join(codes)
            choices = itertools.product(engine.WILD_CHOICES, repeat=sum(1 for r in combo if r in wild))
            for choice in choices:
                subbed, it = [], iter(choice)
                for r in combo:
                    subbed.append(next(it) if r in wild else r)
                facts = engine.HandFacts(subbed, len(choice) > 0)
                matches = [name for name, test in engine.TYPE_TESTS if test(facts)]
                if len(matches) > 1:
                    overlaps.setdefault((matches[0], matches[1]), shown)
            try:
                value = engine.evaluate(codes)
            except engine.EngineError:
                unmatched.append(shown)
                continue
            reached.add(value.type)
            seen = strengths.setdefault(value.type, {})
            other = seen.setdefault(value.strength, shown)
            if other != shown and value.type not in ties:
                ties[value.type] = (other, shown)
    return [unmatched, overlaps, reached, ties]


def _codes(combo: tuple[str, ...], shoe) -> list[str]:
    """Card codes for a rank multiset: each repeat of a rank takes the next suit."""
    seen: dict[str, int] = {}
    out = []
    for r in combo:
        n = seen.get(r, 0)
        seen[r] = n + 1
        codes = shoe.codes_of(r)
        out.append(codes[n % len(codes)])
    return out
