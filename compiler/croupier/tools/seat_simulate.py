"""Seat-game simulation: tables of N players following the spec's policy, settled by the engine.

Table `i` of a run shuffles the spec's deck with the seed `"<seed>/<i>"` (as a
shoe is shuffled) and gives each seat, in seat order, a packet of the largest hand
the spec allows, face down (the deal of source 004: five cards each, turned up one
by one). A seat starts with the smallest hand and turns up one more card while its
total (the engine's `evaluate`, wild cards at their best) is below the policy's
threshold, and the engine's `settle_table` settles the table. Every seat stakes
the same and holds the same coins at every table; in a banker game the first seat
is the banker. Because packets are exchangeable, every seat's hand has the law of
one hand drawn from the full deck, which `croupier analyze` computes exactly: the
report puts those figures next to the simulated ones.

The tally (tools/tally.py) keeps, per table, the hands of each type, each seat's net
result and the unit staked, as exact sums and sums of squares; intervals treat each
table as one sample.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from fractions import Fraction

from croupier.tools.simulate import interval_row, ratio_estimate, shoe_seed
from croupier.tools.tally import SeatTally


def seat_names(players: int) -> list[str]:
    """The seats of a table: p1, p2, …; p1 is the banker of a banker game."""
    return [f"p{i}" for i in range(1, players + 1)]


def players_problem(engine, players: int) -> str | None:
    """Why a table of `players` cannot be dealt with this engine, or None."""
    low, high = engine.SEATS
    if not low <= players <= high:
        return f"a table of this game seats {low} to {high} players, not {players}"
    cards = len(engine.shoe_cards(engine.DECKS))
    if players * engine.HAND_SIZE[1] > cards:
        return f"{players} hands of {engine.HAND_SIZE[1]} cards need more than the {cards} cards of the deck"
    return None


def deal_table(engine, job, index: int) -> dict:
    """The settlement request of table `index`: each seat's hand under the policy, stakes, coins, banker."""
    deck = engine.shoe_cards(engine.DECKS)
    random.Random(shoe_seed(job.seed, index)).shuffle(deck)
    low, high = engine.HAND_SIZE
    seats = seat_names(job.players)
    hands = {}
    for i, seat in enumerate(seats):
        packet = deck[i * high:(i + 1) * high]
        n = low
        while n < high and engine.evaluate(packet[:n]).points < job.threshold:
            n += 1
        hands[seat] = packet[:n]
    request: dict = {"hands": hands}
    if engine.NEEDS_BANKER:
        request["banker"] = seats[0]
    if engine.NEEDS_STAKES:
        request["stakes"] = dict.fromkeys(seats, job.stake)
    if engine.NEEDS_COINS:
        request["coins"] = dict.fromkeys(seats, job.coins)
    return request


def play_tables(engine, job, first: int, count: int, log: bool = False,
                stop: Callable[[], bool] | None = None) -> tuple[SeatTally, str]:
    """Play tables first..first+count-1; return (SeatTally, their records as JSON Lines when `log`).

    `stop()` is asked before each table. A record is `{"table", "request", "answer"}`: the
    request `play --jsonl` settles again, and the engine's answer.
    """
    seats = seat_names(job.players)
    tally = SeatTally()
    types = {t: [0, 0] for t in engine.TYPES}
    nets = {seat: [0, 0, 0] for seat in seats}
    lines: list[str] = []
    for index in range(first, first + count):
        if stop is not None and stop():
            break
        request = deal_table(engine, job, index)
        answer = engine.settle_table(request)
        if engine.NEEDS_STAKES:
            u = job.stake
        else:
            u = Fraction(str(answer[job.per])) if job.per else 1
        tally.tables += 1
        tally.unit[0] += u
        tally.unit[1] += u * u
        per_type = dict.fromkeys(types, 0)
        for hand in answer["hands"].values():
            per_type[hand["type"]] += 1
        for t, c in per_type.items():
            types[t][0] += c
            types[t][1] += c * c
        for seat in seats:
            net = Fraction(str(answer["net"][seat]))
            sums = nets[seat]
            sums[0] += net
            sums[1] += net * net
            sums[2] += net * u
        tally.results.update(answer.get("results", {}).values())
        if log:
            lines.append(json.dumps({"table": index, "request": request, "answer": answer}, ensure_ascii=False) + "\n")
    tally.types = types
    tally.net = nets
    return tally, "".join(lines)


def exact_figures(engine, job) -> dict:
    """The exact law of one hand under the policy ({"types"}) and, for a banker game whose coins are
    too many for a cap to bind, the banker's edge per unit against one player ({"banker_edge"}); kept
    in the cache under the engine's source digest and what of the job they depend on."""
    from croupier.cache import cached
    from croupier.tools.analysis.seat import UNIT_COINS, SeatAnalysis

    edge_counts = engine.SCHEME == "against-banker" and job.coins >= UNIT_COINS

    def compute() -> dict:
        sa = SeatAnalysis(engine, job.threshold, job.per)
        out: dict = {"types": sa.one_hand(job.threshold)["types"]}
        if edge_counts:
            edge = sa.banker_edge(job.threshold, job.threshold)
            if edge is not None:
                out["banker_edge"] = edge["banker_edge"]
        return out

    digest = getattr(engine, "SOURCE_DIGEST", None)  # set by the engine loader; another module is not cached
    if digest is None:
        return compute()
    return cached("seat-figures", json.dumps([str(job.threshold), job.per, edge_counts, digest]), compute)


def seat_summary(tally: SeatTally, job, exact: dict | None = None) -> dict:
    """The report of a seat simulation as JSON-ready data: decimals as strings, counts as ints."""
    from croupier.tools.simulate import dec

    exact = exact or {}
    k, players = tally.tables, job.players
    out: dict = {"tables": k, "players": players, "threshold": dec(job.threshold, 2), "types": {}, "seats": {}}
    if not k:
        return out
    for name, (c, c2) in tally.types.items():
        mean, h = ratio_estimate(Fraction(c), Fraction(c2), Fraction(c * players), Fraction(k * players),
                                 Fraction(k * players * players), k)
        row = interval_row(mean, h, exact.get("types", {}).get(name))
        out["types"][name] = {"hands": c, "frequency": row.pop("value"), **row}
    u, u2 = (Fraction(x) for x in tally.unit)
    out["unit_per_table"] = dec(u / k, 2)
    for seat, (s, s2, su) in tally.net.items():
        mean, h = ratio_estimate(Fraction(s), Fraction(s2), Fraction(su), u, u2, k)
        row = interval_row(mean, h, None)
        out["seats"][seat] = {"net": str(Fraction(s)), "net_per_unit": row.pop("value"), **row}
    if tally.results:
        hands = sum(tally.results.values())
        out["results"] = {who: {"count": n, "frequency": dec(Fraction(n, hands))}
                          for who, n in sorted(tally.results.items())}
        s, s2, su = (Fraction(x) for x in tally.net["p1"])
        mean, h = ratio_estimate(s, s2, su, u, u2, k)
        per = players - 1
        row = interval_row(mean / per, None if h is None else h / per, exact.get("banker_edge"))
        out["banker_edge"] = {"per_player_per_unit": row.pop("value"), **row}
    return out


def seat_text_report(r: dict) -> str:
    """The report of a seat simulation for a person."""
    def ci(row: dict) -> str:
        extra = ""
        if "exact" in row:
            where = {True: "inside", False: "OUTSIDE", None: "with no interval to compare"}[row["exact_in_ci"]]
            extra = f"  exact {row['exact']} {where}" + (" the interval" if row["exact_in_ci"] is not None else "")
        shown = "95 % CI n/a: an interval needs at least two tables" if row["ci95"] is None else \
            f"95 % CI {row['ci95'][0]} .. {row['ci95'][1]}"
        return f"({shown}){extra}"

    lines = [f"{r['tables']} tables of {r['players']} players hitting below {r['threshold']} in {r['seconds']} s "
             f"(seed {r['seed']}, {r['workers']} worker{'' if r['workers'] == 1 else 's'})", "hand types (per hand):"]
    lines += [f"  {name:<16} {t['frequency']}  {ci(t)}" for name, t in r["types"].items()]
    if r["seats"]:
        lines.append(f"net per unit staked, per table (unit {r['unit_per_table']}):")
        lines += [f"  {seat:<6} {s['net_per_unit']}  {ci(s)}" for seat, s in r["seats"].items()]
    if "banker_edge" in r:
        lines.append("banker p1 against each player: " + ", ".join(
            f"{who} {row['frequency']}" for who, row in r["results"].items()))
        b = r["banker_edge"]
        lines.append(f"  banker's net per player per unit {b['per_player_per_unit']}  {ci(b)}")
    return "\n".join(lines)
