"""Exact analysis of seat games (hands drawn one card at a time under a threshold policy).

A hand is dealt the spec's minimum number of cards, then hits while its total is
below the threshold t (and it holds fewer than the maximum). Cards come from the
full deck without replacement; the hand's type and points are the engine's own
`evaluate(cards)` (wild substitution included). Ranks that no rule can tell apart
(same value, same classes, not wild) are merged into one class, and the draw is a
dynamic programme over the multiset of classes drawn, with integer weights.

For a game settled against a banker, the banker's edge against one player, both
following threshold policies, is exact: the banker's hand first (dealing starts
from the banker; with policies that read only their own hand the order does not
change the joint law), then the player's from what is left, every pair settled
by the engine's `settle_table`. That needs the ranking to read no high card or
suit (true of the banker spec); otherwise the edge is not reported.
"""

from __future__ import annotations

import json
import sys
from fractions import Fraction

from croupier.tools.analysis.report import dec, pct

UNIT_COINS = 10**9  # coins so large that no cap binds; the declared stake is then a fixed amount


class SeatAnalysis:
    """Threshold-policy analysis of one seat game's engine."""

    def __init__(self, engine, default_threshold: Fraction | None, stake: str | None = None) -> None:
        self.e = engine
        self.default = default_threshold
        self.stake = stake  # the table formula each player stakes (the model's `each player stakes`), if any
        self.low, self.high = engine.HAND_SIZE
        groups: dict[tuple, list[str]] = {}
        for rank in tuple(engine.RANKS) + tuple(engine.JOKERS):
            if rank not in engine.VALUE and rank not in engine.WILD_RANKS:
                continue
            classes = tuple(name for name, members in engine.CLASSES.items() if rank in members)
            key = (engine.VALUE.get(rank), classes, rank in engine.WILD_RANKS)
            groups.setdefault(key, []).append(rank)
        self.classes = list(groups.values())  # each: the ranks of one class
        copies = {}
        for code in engine.shoe_cards(engine.DECKS):
            copies[engine.RANK_OF[code]] = copies.get(engine.RANK_OF[code], 0) + 1
        self.counts = [sum(copies[r] for r in ranks) for ranks in self.classes]
        self.copies = copies
        self.cards = sum(self.counts)
        self.values: dict[tuple[int, ...], object] = {}

    # ---- one hand ------------------------------------------------------------------------
    def codes(self, multiset: tuple[int, ...]) -> list[str]:
        """Representative card codes for a multiset of classes (distinct cards where the deck allows)."""
        used: dict[str, int] = {}
        out = []
        for c in multiset:
            for rank in self.classes[c]:
                k = used.get(rank, 0)
                if k < self.copies[rank]:
                    used[rank] = k + 1
                    codes = [c for c in self.e.CARD_CODES if self.e.RANK_OF[c] == rank]
                    out.append(codes[k % len(codes)])
                    break
            else:
                raise ValueError(f"the deck has no more cards of class {self.classes[c]}")
        return out

    def value(self, multiset: tuple[int, ...]):
        v = self.values.get(multiset)
        if v is None:
            v = self.values[multiset] = self.e.evaluate(self.codes(multiset))
        return v

    def hands(self, t: Fraction, removed: tuple[int, ...] = ()) -> tuple[dict[tuple[int, ...], int], int]:
        """Final hands under threshold t from the deck less `removed`: ({multiset: weight}, denominator)."""
        counts = list(self.counts)
        for c in removed:
            counts[c] -= 1
        n = sum(counts)
        fill = [1] * (self.high + 1)
        for k in range(self.high - 1, -1, -1):
            fill[k] = fill[k + 1] * (n - k)
        layer = {(): 1}
        final: dict[tuple[int, ...], int] = {}
        for size in range(1, self.high + 1):
            nxt: dict[tuple[int, ...], int] = {}
            for ms, w in layer.items():
                for c, total in enumerate(counts):
                    left = total - ms.count(c)
                    if left <= 0:
                        continue
                    hand = tuple(sorted(ms + (c,)))
                    weight = w * left
                    if size >= self.high or (size >= self.low and self.value(hand).points >= t):
                        final[hand] = final.get(hand, 0) + weight * fill[size]
                    else:
                        nxt[hand] = nxt.get(hand, 0) + weight
            layer = nxt
        return final, fill[0]

    def one_hand(self, t: Fraction) -> dict:
        """Exact distribution of types and totals of one hand, and its expected multiplier."""
        final, d = self.hands(t)
        types: dict[str, int] = {}
        totals: dict[Fraction, int] = {}
        for ms, w in final.items():
            v = self.value(ms)
            types[v.type] = types.get(v.type, 0) + w
            totals[v.points] = totals.get(v.points, 0) + w
        types_p = {k: Fraction(types.get(k, 0), d) for k in self.e.TYPES}
        return {
            "threshold": t,
            "types": types_p,
            "totals": {k: Fraction(w, d) for k, w in sorted(totals.items())},
            "expected_multiplier": sum((p * self.e.MULTIPLIER[k] for k, p in types_p.items()), Fraction(0)),
        }

    def thresholds(self) -> list[Fraction]:
        """Every threshold that can matter: steps of the smallest card value, up to one step past
        the highest total of two cards whose type is not the lowest."""
        values = [Fraction(v) for v in self.e.VALUE.values() if v]
        step = min(values)
        for v in values:
            while (v / step).denominator != 1:
                step /= 2
        top = max((self.value(tuple(sorted((a, b)))).points
                   for a in range(len(self.classes)) for b in range(len(self.classes))
                   if self.value(tuple(sorted((a, b)))).type != self.e.TYPES[-1]), default=step)
        return [step * k for k in range(1, int(top / step) + 2)]

    # ---- the banker game ---------------------------------------------------------------------
    def banker_edge(self, t_banker: Fraction, t_player: Fraction) -> dict | None:
        """The banker's exact expected net per base bet against one player, or None if not tractable."""
        if self.e.SCHEME != "against-banker" or any(
                k in ("high card", "high suit") for keys in self.e.TIEBREAK.values() for k in keys):
            return None
        bankers, d_b = self.hands(t_banker)
        ids: dict[tuple, int] = {}  # hands alike for the settlement: same type and strength
        id_of: dict[tuple[int, ...], int] = {}
        settle_memo: dict[tuple[int, int], tuple[Fraction, str]] = {}
        total = Fraction(0)
        outcomes = {"banker": Fraction(0), "player": Fraction(0), "draw": Fraction(0)}

        def hand_id(ms: tuple[int, ...]) -> int:
            i = id_of.get(ms)
            if i is None:
                v = self.value(ms)
                i = id_of[ms] = ids.setdefault((v.type, v.strength), len(ids))
            return i

        for b_ms, w_b in bankers.items():
            players, d_p = self.hands(t_player, b_ms)
            acc: dict[int, list] = {}  # id -> [weight, a hand of that id drawn after this banker's]
            for p_ms, w_p in players.items():
                i = hand_id(p_ms)
                a = acc.get(i)
                if a is None:
                    acc[i] = [w_p, p_ms]
                else:
                    a[0] += w_p
            b = hand_id(b_ms)
            p_b = Fraction(w_b, d_b * d_p)
            for i, (w, p_ms) in acc.items():
                got = settle_memo.get((b, i))
                if got is None:
                    got = settle_memo[(b, i)] = self.settle(b_ms, p_ms)
                net, who = got
                total += p_b * net * w
                outcomes[who] += p_b * w
        return {"banker_threshold": t_banker, "player_threshold": t_player, "banker_edge": total,
                "outcomes": outcomes}

    def settle(self, b_ms, p_ms) -> tuple[Fraction, str]:
        """The banker's net in base bets for one pair of hands, and who won, by the engine's settlement."""
        codes_b = self.codes(b_ms)
        codes_p = self.codes(p_ms)
        coins = {"banker": UNIT_COINS, "player": UNIT_COINS}
        request = {"hands": {"banker": codes_b, "player": codes_p}, "banker": "banker",
                   "stakes": {"banker": 1, "player": 1}, "coins": coins}
        try:
            out = self.e.settle_table(request)
        except self.e.EngineError:
            # the two representative hands may share a card; draw the player's from other copies
            request["hands"]["player"] = self.codes(tuple(b_ms) + tuple(p_ms))[len(b_ms):]
            out = self.e.settle_table(request)
        # the unit: the declared stake formula's value, else the stake of 1 this request gives each seat
        base = Fraction(out[self.stake]) if self.stake is not None else Fraction(1)
        net = Fraction(out["net"]["banker"]) / base
        return net, out["results"]["player"]


def stake_of(game) -> str | None:
    """The table formula every player stakes against the banker, as the spec declares it (or None)."""
    return game.settlement.stake if game.settlement is not None else None


def seat_report(sa: SeatAnalysis, t: Fraction) -> dict:
    """The JSON report: one hand at threshold t, every threshold's expected multiplier, the banker edge."""
    one = sa.one_hand(t)
    table = [sa.one_hand(x) for x in sa.thresholds()]
    best = max(table, key=lambda r: (r["expected_multiplier"], -r["threshold"]))
    out = {
        "threshold": dec(t),
        "types": {k: dec(p) for k, p in one["types"].items()},
        "totals": {dec(k): dec(p) for k, p in one["totals"].items()},
        "expected_multiplier": dec(one["expected_multiplier"]),
        "policies": {dec(r["threshold"]): dec(r["expected_multiplier"]) for r in table},
        "best_threshold": dec(best["threshold"]),
    }
    edge = sa.banker_edge(t, t)
    if edge is not None:
        out["banker_game"] = {
            "banker_threshold": dec(t), "player_threshold": dec(t), "exact": True,
            "banker_edge": dec(edge["banker_edge"]),
            "banker_edge_exact": f"{edge['banker_edge'].numerator}/{edge['banker_edge'].denominator}",
            "results": {k: dec(p) for k, p in edge["outcomes"].items()},
        }
    return out


def cmd_seat(game, engine, args) -> int:
    """`croupier analyze` for a seat game."""
    t = game.policy_threshold
    if args.threshold is not None:
        try:
            t = Fraction(args.threshold)
        except (ValueError, ZeroDivisionError):
            print(f"croupier: --threshold must be a number, not {args.threshold!r}", file=sys.stderr)
            return 2
    if t is None:
        print("croupier: the spec states no `policy hit while total < T`; give --threshold", file=sys.stderr)
        return 2
    sa = SeatAnalysis(engine, game.policy_threshold, stake_of(game))
    data = {"game": game.name, **seat_report(sa, t)}
    if args.json:
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    lines = [f"{game.labels.get('en', game.name)}: one hand, hitting while the total is below {data['threshold']}"]
    lines += [f"  {k:<16} {pct(Fraction(p)):>12}" for k, p in data["types"].items()]
    lines += ["", "Totals"] + [f"  {k:>5} {pct(Fraction(p)):>12}" for k, p in data["totals"].items()]
    lines += ["", f"Expected multiplier: {data['expected_multiplier'][:10]}", "", "By threshold (expected multiplier)"]
    lines += [f"  < {k:>5}  {v[:10]}" for k, v in data["policies"].items()]
    lines.append(f"Best threshold: {data['best_threshold']}")
    if "banker_game" in data:
        bg = data["banker_game"]
        lines += ["", f"Banker against one player, both hitting below {data['threshold']} (exact):",
                  f"  banker's edge per base bet: {pct(Fraction(bg['banker_edge']))}"]
        lines += [f"  {k} wins: {pct(Fraction(p))}" for k, p in bg["results"].items()]
    print("\n".join(lines))
    return 0
