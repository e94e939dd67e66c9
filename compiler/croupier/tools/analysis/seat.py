"""Exact analysis of seat games (hands drawn one card at a time under a threshold policy).

A hand is dealt the spec's minimum number of cards, then hits while its total is
below the threshold t (and it holds fewer than the maximum). Cards come from the
full deck without replacement; the hand's type and points are the engine's own
`evaluate(cards)` (wild substitution included). Hands are vectors of value
classes (`seat_deck`), and the law of final hands is exact, with integer weights.

Against another seat (the banker, or in a pairwise game one opponent following the
spec's policy), `seat_pairs` gives a seat's exact expected result for every
threshold of its own at once; the best threshold is the one that maximises it (the
lowest of equals). For a banker game the banker's edge against one player is that
result's opposite, and against k players it is k times as much: every player
settles with the banker alone, the pair (banker, any one player) has the law of
the first two hands dealt whatever the others drew, and with coins too many for a
cap to bind no payment depends on another (reported only when the settlement reads
`paid` nowhere but in a `coins(…) - paid(…)` cap, and the deck cannot run out).
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction

from croupier.cache import cached, from_data, recall
from croupier.figures import dec, pct
from croupier.tools.analysis.seat_deck import SeatDeck, falling
from croupier.tools.analysis.seat_facts import inputs_of, separable, stake_of
from croupier.tools.analysis.seat_pairs import UNIT_COINS, PairSettler
from croupier.tools.analysis.seat_removal import NotGiven, second_seat_results

__all__ = ["UNIT_COINS", "SeatAnalysis", "stake_of", "seat_report", "seat_figures", "cmd_seat", "recalled_seat",
           "separable"]


class SeatAnalysis:
    """Threshold-policy analysis of one seat game's engine."""

    def __init__(self, engine, default_threshold: Fraction | None, stake: str | None = None,
                 separable: bool = True) -> None:
        self.e = engine
        self.default = default_threshold
        self.stake = stake  # the table formula each player stakes (the model's `each player stakes`), if any
        self.separable = separable  # whether a player's settlement with the banker reads nobody else's
        self.deck = SeatDeck(engine)
        reads_top = any(k in ("high card", "high suit") for keys in engine.TIEBREAK.values() for k in keys)
        if reads_top and not self.deck.classes_are_intervals():
            self.deck = SeatDeck(engine, by_top=True)  # ranks apart: each class one rank of the card order
        self.pairs = not reads_top or (self.deck.classes_are_intervals() and PairSettler.top_keys_last(engine))
        self.banker_game = engine.SCHEME == "against-banker"
        self.settler = PairSettler(self.deck, self.banker_game, stake)
        self._against: dict[Fraction, dict] = {}
        self._hands: dict[tuple[int, ...], tuple[int, str, int, object]] = {}  # final hand -> `_hand_facts`
        self._points: list[Fraction] = []  # the totals final hands reach, numbered in the order met
        self._point_number: dict[Fraction, int] = {}
        self.missing: str | None = None  # why the results against the other seat are not given, if they are not

    def one_hand(self, t: Fraction) -> dict:
        """Exact distribution of types and totals of one hand, and its expected multiplier."""
        d = self.deck
        denominator = falling(d.cards, d.high)
        types: dict[str, int] = {}
        totals: dict[int, int] = {}  # by the number of the total in `self._points`
        shown: dict[int, object] = {}  # each total as the first hand met here gives it (an int, or an equal Fraction)
        for hand, v in d.finals(t).items():
            got = self._hands.get(hand)
            if got is None:
                got = self._hands[hand] = self._hand_facts(hand)
            weight, kind, total, points = got
            w = v * weight
            types[kind] = types.get(kind, 0) + w
            if total in totals:
                totals[total] += w
            else:
                totals[total] = w
                shown[total] = points
        types_p = {k: Fraction(types.get(k, 0), denominator) for k in self.e.TYPES}
        return {
            "threshold": t,
            "types": types_p,
            "totals": {k: Fraction(w, denominator) for k, w in sorted((shown[i], w) for i, w in totals.items())},
            "expected_multiplier": sum((p * self.e.MULTIPLIER[k] for k, p in types_p.items()), Fraction(0)),
        }

    def _hand_facts(self, hand: tuple[int, ...]) -> tuple[int, str, int, object]:
        """(orderings of the hand's cards and of the rest of a full hand, over the whole deck; its type; the
        number of its total in `self._points`; its total): what `one_hand` reads of a final hand, whatever
        the policy."""
        d = self.deck
        size = sum(hand)
        value = d.value(hand)
        total = self._point_number.get(value.points)
        if total is None:
            total = self._point_number[value.points] = len(self._points)
            self._points.append(value.points)
        return d.weight(hand) * falling(d.cards - size, d.high - size), value.type, total, value.points

    def thresholds(self) -> list[Fraction]:
        """Every threshold that can matter (see `SeatDeck.thresholds`)."""
        return self.deck.thresholds()

    def against(self, t_other: Fraction) -> dict[Fraction, dict]:
        """For every threshold t: a seat's exact expected net per unit staked, and its chances to win,
        lose and draw, against the banker (or one opponent) hitting below `t_other`."""
        got = self._against.get(t_other)
        if got is None and not self.pairs:
            return {}
        if got is None:
            got = self._against[t_other] = self._results(t_other, self.thresholds())
        return got

    def _results(self, t_other: Fraction, thresholds: list[Fraction]) -> dict[Fraction, dict]:
        """`second_seat_results`, or {} (and `self.missing` says why) beyond its bound of work."""
        try:
            return second_seat_results(self.deck, self.settler, t_other, thresholds)
        except NotGiven as exc:
            self.missing = f"not computed: {exc}"
            return {}

    def best_threshold(self, t_other: Fraction) -> Fraction:
        """The threshold that maximises a seat's expected result against the other (the lowest of equals);
        None when the pairs cannot be settled exactly (a ranking by top card over classes that interleave)."""
        results = self.against(t_other)
        return max(results, key=lambda t: (results[t]["net"], -t)) if results else None

    def banker_edge(self, t_banker: Fraction, t_player: Fraction) -> dict | None:
        """The banker's exact expected net per base bet against one player (None in a pairwise game)."""
        if not self.banker_game or not self.pairs:
            return None
        r = self.against(t_banker).get(t_player)
        if r is None:
            r = self._results(t_banker, [t_player]).get(t_player)
        if r is None:
            return None
        return {"banker_threshold": t_banker, "player_threshold": t_player, "banker_edge": -r["net"],
                "outcomes": {"banker": r["losses"], "player": r["wins"], "draw": r["draws"]}}

    def table_sizes(self, t: Fraction) -> list[int]:
        """How many players (1, 2, 3, within the seats) the banker's edge is reported for at threshold t:
        those whose hands, with the banker's, can never run the deck out."""
        low, high = self.e.SEATS
        out = []
        for players in (1, 2, 3):
            if players + 1 > high or (players > 1 and not self.separable):
                continue
            if players == 1 or self._cards_suffice(players + 1, t):
                out.append(players)
        return out

    def _cards_suffice(self, hands: int, t: Fraction) -> bool:
        """Whether `hands` hands hitting below t always find cards: each hand's cards but its last total
        less than t, so together they hold at most the cheapest cards worth less than hands * t, plus one
        card each (and never more than their largest sizes)."""
        d = self.deck
        largest = max((sum(h) for h in d.finals(t)), default=0)
        if hands * largest <= d.cards:
            return True
        e = self.e
        wild_least = min((Fraction(e.VALUE[r]) for r in e.WILD_CHOICES if r in e.VALUE), default=Fraction(0))
        cheap = sorted(wild_least if (r in e.WILD_RANKS or r in d.wild_cards) else Fraction(e.VALUE[r])
                       for ranks in d.classes for r in ranks for _ in range(d.copies[r]))
        if not cheap or cheap[0] <= 0:
            return False
        budget, count = Fraction(0), 0
        for v in cheap:
            if budget + v >= hands * t:
                break
            budget += v
            count += 1
        return count + hands <= d.cards


TABLES_WHY = ("k players: k times one player, exactly: each settles with the banker alone, and any banker and "
              "player are dealt like the first two hands, the deck never running out")


def seat_report(sa: SeatAnalysis, t: Fraction) -> dict:
    """The JSON report: one hand at threshold t, every threshold's expected multiplier and expected result
    against the banker (or one opponent) hitting below t, the best threshold, and the banker's edge."""
    one = sa.one_hand(t)
    table = [sa.one_hand(x) for x in sa.thresholds()]
    against = sa.against(t)
    out = {
        "threshold": dec(t),
        "types": {k: dec(p) for k, p in one["types"].items()},
        "totals": {dec(k): dec(p) for k, p in one["totals"].items()},
        "expected_multiplier": dec(one["expected_multiplier"]),
        "policies": {dec(r["threshold"]): dec(r["expected_multiplier"]) for r in table},
        "against": "the banker" if sa.banker_game else "one opponent",
        "expected_result": {dec(x): dec(r["net"]) for x, r in against.items()},
        "best_threshold": dec(sa.best_threshold(t)) if against else None,
        **({"missing": sa.missing} if not against and sa.missing else {}),
    }
    edge = sa.banker_edge(t, t)
    if edge is not None:
        e = edge["banker_edge"]
        out["banker_game"] = {
            "banker_threshold": dec(t), "player_threshold": dec(t), "exact": True,
            "banker_edge": dec(e), "banker_edge_exact": f"{e.numerator}/{e.denominator}",
            "results": {k: dec(p) for k, p in edge["outcomes"].items()},
            "tables_why": TABLES_WHY,
            "tables": {str(k): {"banker_net": dec(k * e), "banker_net_exact": f"{(k * e).numerator}/{(k * e).denominator}"}
                       for k in sa.table_sizes(t)},
        }
    return out


def seat_key(t: Fraction, stake: str | None, separable: bool, identity: str) -> str:
    """The cache key of a seat game's report: everything it is computed from. The engine's identity
    (`loader.engine_identity`) covers the deck (its DECKS, PER_DECK and card codes), the values, hand
    types, rankings and settlement; the threshold, the staked formula and separability come from the model."""
    return json.dumps([str(t), stake, separable, identity])


def _figures(data) -> dict:
    """A cached seat report read back (`from_data`), refused (a miss) unless of the shape `seat_figures` keeps."""
    value = from_data(data)
    if not isinstance(value["report"], dict) or not (value["missing"] is None or isinstance(value["missing"], str)):
        raise TypeError("not a seat report")
    return value


def seat_figures(engine, t: Fraction, stake: str | None, separable: bool) -> dict:
    """{"report": `seat_report` at threshold t, "missing": why the results against the other seat are not
    given, or None}, kept in the cache (data only) under `seat_key`: a second `analyze` of an unchanged
    game computes nothing. A module the engine loader did not load (no SOURCE_DIGEST) is not cached."""
    def compute() -> dict:
        sa = SeatAnalysis(engine, t, stake, separable)  # the report reads only the threshold it is asked for
        report = seat_report(sa, t)
        return {"report": report, "missing": sa.missing}

    digest = getattr(engine, "SOURCE_DIGEST", None)
    if digest is None:
        return compute()
    return cached("seat-report", seat_key(t, stake, separable, digest), compute, decode=_figures)


def threshold_asked(args, default: Fraction | None) -> Fraction | str:
    """The threshold `--threshold` names, else the spec's policy; or why there is none (a message)."""
    if args.threshold is not None:
        try:
            asked = Fraction(args.threshold)
        except (ValueError, ZeroDivisionError):
            return f"--threshold must be a number, not {args.threshold!r}"
        if asked <= 0:
            return f"--threshold must be more than 0 (a hand hits while its total is below it), not {args.threshold}"
        return asked
    if default is None:
        return "the spec states no `policy hit while total < T`; give --threshold"
    return default


def recalled_seat(args, facts: dict, source: str) -> int | None:
    """Print the seat report that the disk cache holds for this engine's source and what the command asks,
    without analysing anything; None, having printed nothing, when there is none (or the options are bad:
    `cmd_seat` says why)."""
    from croupier.backends.engine.loader import engine_identity

    inputs = inputs_of(facts)
    if inputs is None:
        return None
    default, stake, sep = inputs
    t = threshold_asked(args, default)
    if isinstance(t, str):
        return None
    got = recall("seat-report", seat_key(t, stake, sep, engine_identity(source)), decode=_figures)
    return None if got is None else print_seat(args, facts, got)


def cmd_seat(args, engine, facts: dict) -> int:
    """`croupier analyze` for a seat game, from its engine and its facts (`seat_facts.seat_inputs` among them)."""
    default, stake, sep = inputs_of(facts)
    t = threshold_asked(args, default)
    if isinstance(t, str):
        print(f"croupier: {t}", file=sys.stderr)
        return 2
    top = SeatDeck(engine).thresholds()[-1]
    if t > top:  # every hand already hits to its limit below `top`: a higher threshold is the same policy
        asked = "--threshold" if args.threshold is not None else "the spec's `policy hit while total <`"
        print(f"croupier: {asked} {dec(t)} is beyond the thresholds that can matter, which run up to "
              f"{dec(top)}: hitting below {dec(top)} or below anything higher is the same policy", file=sys.stderr)
        return 2
    try:
        figures = seat_figures(engine, t, stake, sep)
    except engine.EngineError as exc:
        print(f"croupier: cannot analyse {facts['name']}: {exc} (`croupier check` reports such hands)",
              file=sys.stderr)
        return 1
    return print_seat(args, facts, figures)


def print_seat(args, facts: dict, figures: dict) -> int:
    """Print a seat report (`seat_figures`) as text or JSON."""
    data = {"game": facts["name"], **figures["report"]}
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    lines = [f"{facts['label']}: one hand, hitting while the total is below {data['threshold']}"]
    lines += [f"  {k:<16} {pct(Fraction(p)):>12}" for k, p in data["types"].items()]
    lines += ["", "Totals"] + [f"  {k:>5} {pct(Fraction(p)):>12}" for k, p in data["totals"].items()]
    lines += ["", f"Expected multiplier: {data['expected_multiplier'][:10]}", "", "By threshold (expected multiplier)"]
    lines += [f"  < {k:>5}  {v[:10]}" for k, v in data["policies"].items()]
    if data["expected_result"]:
        lines += ["", f"Expected result per unit staked against {data['against']} hitting below {data['threshold']}"]
        lines += [f"  < {k:>5}  {pct(Fraction(v)):>12}" for k, v in data["expected_result"].items()]
        lines.append(f"Best threshold (highest expected result against {data['against']}): "
                     f"{data['best_threshold']}")
    elif figures["missing"]:
        lines += ["", f"Results against {data['against']} and the best threshold: {figures['missing']}"]
    else:
        lines += ["", f"Results against {data['against']} and the best threshold: not computed, a ranking by the "
                  "top card over classes that interleave cannot be settled class by class"]
    if "banker_game" in data:
        bg = data["banker_game"]
        lines += ["", f"Banker against one player, both hitting below {data['threshold']} (exact):",
                  f"  banker's edge per base bet: {pct(Fraction(bg['banker_edge']))}"]
        lines += [f"  {'a draw' if k == 'draw' else k + ' wins'}: {pct(Fraction(p))}" for k, p in bg["results"].items()]
        lines += [f"  banker's net per base bet against {k} player{'s' if k != '1' else ''}: "
                  f"{pct(Fraction(v['banker_net']))}" for k, v in bg["tables"].items()]
        if len(bg["tables"]) > 1:
            lines.append(f"  ({TABLES_WHY})")
    print("\n".join(lines))
    return 0
