"""Hand types of a seat game, checked over every hand the deck can make.

Every hand of 1..hand-size cards (within the copies the deck holds) is
evaluated by the game's rules, asked through a `HandOracle` (see `oracles`), wild cards
substituted as the engine does:
a hand that matches no type (E0501), a hand that two types both match (W0502:
only the listing order decides), a type no hand reaches (W0503), and, when the
settlement has no rule for tied hands, two distinct hands of one type that the
tie-break keys leave equal (W0504).

The survey is not hand by hand. Hands are grown one value class at a time
(`semantics.hand_classes`: cards no rule tells apart), each class with a
multiplicity; hands that agree on everything a hand type reads (count, total,
each card class's count, how many wild cards) and, when tied hands must be found,
on their top card, share a *signature*, kept with how many distinct rank
multisets it stands for and two of them to show. Each signature is evaluated
once (the engine's best substitution applied once to it), and the overlaps of
W0502 are looked for over every combination of the wild cards' distinct choices
(combinations with repetition, not the product), each substituted hand's facts
tested once. Once every hand type is reached and the settlement has a rule for tied hands, a
hand is no longer evaluated when one of its substitutions matches a type: the engine's
evaluation would give it a type (the best substitution's), and what type no longer matters
(nor its strength, which only the tie-break warning W0504 reads). The number of signatures grows polynomially with the hand size:
a 53-card deck with one wild card and hands of up to 13 cards has a few thousand. A deck that
makes too many (E0133) is refused while its signatures grow, as soon as a lower bound of the
substituted hands to test passes the limit, not after all of them are grown.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

from croupier.cache import cached
from croupier.checks.oracles import HandOracle
from croupier.diagnostics import Diagnostic, error, warning
from croupier.semantics import hand_classes as hc
from croupier.semantics.model import Game

MAX_SURVEY = 400_000  # signatures, or substituted hands to test, that `check` surveys at most
# Substitutions of one hand up to which, every hand type reached and ties settled, a hand some substitution of
# which matches a type is not evaluated again (an engine refuses a hand only beyond 20,000; see `_survey`)
FEW_TRIES = 1_000


def check(game: Game, oracle: HandOracle | None = None) -> list[Diagnostic]:
    """Exhaustive checks of the hand types over every hand the deck can make (by signature; none
    without an oracle)."""
    if not game.is_seat_game or game.shoe is None or game.hand_size is None or game.settlement is None:
        return []
    if oracle is None:
        return []
    result = cached("hand-survey", oracle.identity, lambda: _survey(game, oracle))
    if result[0] == "too many":
        wilds = f", wild cards standing for {len(game.wild.stands_for)} ranks" if game.wild else ""
        return [error("E0133", f"hands of up to {game.hand_size[1]} cards{wilds} make more than {MAX_SURVEY:,} "
                               "kinds of hand to survey", game.hand_size_span or game.span,
                      "lower the largest hand size (or the wild cards' choices)")]
    _ok, unmatched, unmatched_count, overlaps, reached, ties = result
    out: list[Diagnostic] = []
    for hand in unmatched[:5]:
        out.append(error("E0501", f"the hand {hand} matches no hand type", game.types[-1].span,
                         "every hand the deck can make needs a type; add one, or widen a `when`"))
    if unmatched_count > len(unmatched[:5]):
        out.append(error("E0501", f"{unmatched_count - len(unmatched[:5])} more hands match no hand type",
                         game.types[-1].span))
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


class _TooMany(Exception):
    """The survey would pass its bound."""


def _top_matters(game: Game) -> bool:
    return not _ties_settled(game) and any(k in ("high card", "high suit") for t in game.types for k in t.tiebreak)


def _within(cls: hc.ValueClass, k: int) -> tuple[int, list[tuple[str, ...]]]:
    """How many distinct rank multisets take k cards from a class, and the first two of them."""
    poly = [1]
    for _r, n in cls.ranks:
        poly = [sum(poly[i - j] for j in range(min(n, i) + 1) if i - j < len(poly)) for i in range(len(poly) + n)]
    count = poly[k] if k < len(poly) else 0
    firsts: list[tuple[str, ...]] = []
    names = [r for r, _n in cls.ranks]
    caps = dict(cls.ranks)
    for combo in itertools.combinations_with_replacement(names, k):
        if all(combo.count(r) <= caps[r] for r in set(combo)):
            firsts.append(combo)
            if len(firsts) == 2:
                break
    return count, firsts


def signatures(game: Game, by_top_card: bool) -> dict[tuple, list]:
    """Every hand of the allowed sizes by signature: {signature: [distinct rank multisets, first two]}.

    A signature is (count, total of the plain cards, each card class's count among them, wild cards,
    top): `top` is the top card's (strength, suit place) when `by_top_card`, else 0."""
    low, high = game.hand_size
    reader = hc.HandReader(game)
    classes = hc.value_classes(game, by_top_card)
    n_classes = len(game.classes)
    suit_place = {s: len(game.suit_order) - i for i, s in enumerate(game.suit_order)}
    # the wild cards still to be grown, while the bound of `_tries_at_least` holds (see there)
    choices = len(hc.distinct_choices(game))
    wild_ahead = 0 if by_top_card or not choices else sum(cls.copies for cls in classes if cls.wild)
    bound_at = 1024  # how many signatures grown before the bound is next computed (doubling: linear in all)
    # totals are grown as whole numbers over the deck's common denominator (exact, and cheaper to add and
    # hash than fractions), and made fractions again in the signatures returned
    states: dict[tuple, list] = {(0, 0, (0,) * n_classes, 0, (0, 0)): [1, [()]]}
    for cls in classes:
        options = [(k, *_within(cls, k)) for k in range(1, min(cls.copies, high) + 1)]
        value = 0 if cls.wild else int(cls.value * reader.scale)
        bounded = wild_ahead and not cls.wild
        nxt: dict[tuple, list] = {}
        for (count, total, members, wild, top), (mult, reps) in states.items():
            _add(nxt, (count, total, members, wild, top), mult, reps)
            for k, ways, firsts in options:
                if count + k > high:
                    break
                new_top = top
                if by_top_card:
                    codes = reader.card_codes(firsts[0])
                    suit = max(suit_place.get(c[-1], 0) if c not in game.shoe.jokers else 0 for c in codes)
                    new_top = max(top, (cls.strength, suit))
                key = (count + k, total + k * value,
                       tuple(m + k * b for m, b in zip(members, cls.member)) if not cls.wild else members,
                       wild + (k if cls.wild else 0), new_top)
                _add(nxt, key, mult * ways, [r + f for r in reps for f in firsts][:2])
            if bounded and len(nxt) >= bound_at:
                if _tries_at_least(nxt, low, high, wild_ahead, choices) > MAX_SURVEY:
                    raise _TooMany(len(nxt))
                bound_at = 2 * len(nxt)
        if len(nxt) > MAX_SURVEY:
            raise _TooMany(len(nxt))
        if cls.wild:
            wild_ahead = 0
        elif bounded and _tries_at_least(nxt, low, high, wild_ahead, choices) > MAX_SURVEY:
            raise _TooMany(len(nxt))
        states = nxt
    return {(count, Fraction(total, reader.scale), *rest): v for (count, total, *rest), v in states.items()
            if max(1, low) <= count <= high}


def _tries_at_least(states: dict[tuple, list], low: int, high: int, wild_ahead: int, choices: int) -> int:
    """A lower bound of the substituted hands `_survey` tests (its `tries`), from the signatures grown so
    far, none of them with a wild card yet (the top card not in them): every one stays a signature
    (taking no card of the classes still ahead), and so does every one with k of the `wild_ahead` wild
    cards added (k is in the signature, so no two of these are the same), each tried in
    C(choices + k - 1, k) substitutions. More than MAX_SURVEY here is more there: the same refusal, sooner."""
    weights: dict[int, int] = {}
    total = 0
    for count, *_rest in states:
        weight = weights.get(count)
        if weight is None:
            weight = weights[count] = sum(math.comb(choices + k - 1, k) for k in range(min(wild_ahead, high - count) + 1)
                                          if count + k >= max(1, low))
        total += weight
    return total


def _add(states: dict[tuple, list], key: tuple, mult: int, reps: list) -> None:
    entry = states.get(key)
    if entry is None:
        states[key] = [mult, list(reps[:2])]
    else:
        entry[0] += mult
        if len(entry[1]) < 2:
            entry[1].extend(r for r in reps if r not in entry[1])
            del entry[1][2:]


def _survey(game: Game, oracle: HandOracle) -> list:
    by_top = _top_matters(game)
    try:
        sigs = signatures(game, by_top)
    except _TooMany:
        return ["too many"]
    choices = hc.distinct_choices(game)
    reader = hc.HandReader(game)
    tries = sum(math.comb(len(choices) + w - 1, w) if w else 1 for (_c, _t, _m, w, _top) in sigs)
    if tries > MAX_SURVEY:
        return ["too many"]
    unmatched: list[str] = []
    unmatched_count = 0
    overlaps: dict[tuple[str, str], str] = {}
    reached: set[str] = set()
    strengths: dict[str, dict[tuple, str]] = {}
    ties: dict[str, tuple[str, str]] = {}
    tested: dict[tuple, bool] = {}  # facts key of a substituted hand -> whether it matches a hand type
    settled = _ties_settled(game)
    for (_count, _total, _members, n_wild, _top), (mult, reps) in sorted(sigs.items(), key=_order):
        shown = None  # the hand's cards, written out only where a finding shows them (most hands show nothing)
        plain = [r for r in reps[0] if not hc.is_wild(game, r)]
        typed = False  # whether a substitution of the hand matches a hand type
        for choice in itertools.combinations_with_replacement(choices, n_wild):
            subbed = plain + list(choice)
            key = reader.facts_key(subbed, n_wild > 0)
            matched = tested.get(key)
            if matched is None:
                matches = oracle.matching_types(subbed, n_wild > 0)
                matched = tested[key] = bool(matches)
                if len(matches) > 1:
                    shown = shown or " ".join(reader.card_codes(reps[0]))
                    overlaps.setdefault((matches[0], matches[1]), shown)
            typed = typed or matched
        if typed and settled and len(reached) == len(game.types) and \
                (math.comb(len(choices) + n_wild - 1, n_wild) if n_wild else 1) <= FEW_TRIES:
            continue  # it has a type, and which one tells nothing new
        codes = reader.card_codes(reps[0])
        shown = " ".join(codes)
        value = oracle.classify(codes)
        if value is None:
            unmatched.append(shown)
            unmatched_count += mult
            continue
        kind, strength = value
        reached.add(kind)
        if kind in ties:
            continue
        if mult > 1:
            ties[kind] = (shown, " ".join(reader.card_codes(reps[1])))
            continue
        other = strengths.setdefault(kind, {}).setdefault(strength, shown)
        if other != shown:
            ties[kind] = (other, shown)
    return ["ok", unmatched[:5], unmatched_count, overlaps, reached, ties]


def _order(item: tuple) -> tuple:
    """Smaller hands first, then by the first rank multiset (the order hands were listed in before)."""
    (count, *_rest), (_mult, reps) = item
    return count, reps[0]
