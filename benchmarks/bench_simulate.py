"""Benchmark: rounds per second of `croupier simulate` vs a hand-written pure-Python loop.

Both deal the same seeded shoes by the same procedure (cut card 14–16 from the
end, burn by the first card, one more round after the cut card) and do what a
simulation tallies: each round's outcome and what one unit on each of the five
bets returns (exact Fractions), counted per bet. The script checks they agree on
every outcome count and every bet's count of each return, then prints rounds per
second per core for each (target: engine time <= 1.0x the hand-written loop).
A second comparison times whole table rounds, as `simulate --log` and a game
server build them: the engine's `deal_shoe(seed, bets)` against a hand-written
table loop, two bettors with fixed stakes, each round's returns, valid bets and
squeeze schedule built on both sides and checked equal round for round (target:
engine time <= 1.0x). Then it times the full target: 10,000 shoes on every core
with `croupier simulate` (target: under 4 s on 2 cores).

    python3 benchmarks/bench_simulate.py [--shoes 1000] [--full 10000] [--workers N] [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from fractions import Fraction
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from croupier.cli.simulate import game_engine  # noqa: E402
from croupier.tools import simulate as sim  # noqa: E402

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
VALUE = {r: (i + 1) % 10 if i < 9 else 0 for i, r in enumerate(RANKS)}
BURN = {r: (i + 1 if i < 9 else 10) for i, r in enumerate(RANKS)}
PAYS = {"banker": Fraction(39, 20), "player": 2, "tie": 9, "banker_pair": 12, "player_pair": 12}


def banker_draws(b: int, third: int | None) -> bool:
    if third is None:
        return b <= 5
    return b <= 2 or (b == 3 and third != 8) or (b == 4 and 2 <= third <= 7) or (
        b == 5 and 4 <= third <= 7) or (b == 6 and 6 <= third <= 7)


def handwritten_rounds(seed: str):
    """One shoe dealt by hand: (player cards, banker cards, outcome) of each round."""
    cards = [r + s for r in RANKS for s in "SHCD" for _ in range(8)]
    rng = random.Random(seed)
    rng.shuffle(cards)
    cut = len(cards) - rng.randint(14, 16)
    pos = 1 + BURN[cards[0][:-1]]
    last = False
    while True:
        start = pos
        p, b = [cards[pos], cards[pos + 2]], [cards[pos + 1], cards[pos + 3]]
        pos += 4
        pt, bt = (VALUE[p[0][:-1]] + VALUE[p[1][:-1]]) % 10, (VALUE[b[0][:-1]] + VALUE[b[1][:-1]]) % 10
        if pt < 8 and bt < 8:
            third = None
            if pt <= 5:
                p.append(cards[pos])
                third = VALUE[cards[pos][:-1]]
                pt = (pt + third) % 10
                pos += 1
            if banker_draws(bt, third):
                b.append(cards[pos])
                bt = (bt + VALUE[cards[pos][:-1]]) % 10
                pos += 1
        yield p, b, "player" if pt > bt else "banker" if bt > pt else "tie"
        if last or len(cards) - pos < 6:
            return
        if pos >= cut and start <= cut:
            last = True


def handwritten_shoe(seed: str, returns: dict[str, Counter]) -> tuple[Counter, int]:
    """One shoe, written by hand: outcome counts and rounds; each bet's returns counted into `returns`."""
    outcomes: Counter = Counter()
    rounds = 0
    for p, b, outcome in handwritten_rounds(seed):
        pairs = {"player_pair": p[0][:-1] == p[1][:-1], "banker_pair": b[0][:-1] == b[1][:-1]}
        for bet, pay in PAYS.items():
            won = pairs[bet] if bet in pairs else outcome == bet
            returns[bet][pay if won else (1 if outcome == "tie" and bet in ("banker", "player") else 0)] += 1
        outcomes[outcome] += 1
        rounds += 1
    return outcomes, rounds


# The table of the round-for-round comparison: bettor b squeezes player (the larger stake), and
# backing both sides counts no valid bet (000 §22); a tie pushes banker and player (000 §20).
TABLE = {"a": {"banker": 100, "tie": 10, "player_pair": 5}, "b": {"player": 50, "banker": 20}}
SQUEEZE = ("banker", "player")  # the bets that squeeze; the larger stake's side, banker when equal
ORDER = ("player", "banker")  # the squeeze order


def squeeze_plan(bets: dict) -> dict:
    sides = {}
    for bettor, stakes in bets.items():
        placed = {b: stakes[b] for b in SQUEEZE if b in stakes}
        if placed:
            top = max(placed.values())
            sides[bettor] = "banker" if placed.get("banker") == top else "player"
    return {hand: tuple(b for b, side in sides.items() if side == hand) for hand in ORDER}


def handwritten_table_shoe(seed: str, bets: dict) -> list:
    """One shoe at a table, by hand: per round (outcome, returns, valid bets, squeeze schedule)."""
    plan = squeeze_plan(bets)
    rounds = []
    for p, b, outcome in handwritten_rounds(seed):
        won = {"player_pair": p[0][:-1] == p[1][:-1], "banker_pair": b[0][:-1] == b[1][:-1],
               "banker": outcome == "banker", "player": outcome == "player", "tie": outcome == "tie"}
        returns, valid = {}, {}
        for bettor, stakes in bets.items():
            mine, counted = {}, 0
            for bet, stake in stakes.items():
                pushed = outcome == "tie" and bet in ("banker", "player")
                mine[bet] = stake * PAYS[bet] if won[bet] else stake if pushed else 0
                counted += 0 if pushed else stake
            returns[bettor] = mine
            valid[bettor] = 0 if "banker" in stakes and "player" in stakes else counted
        hands = {"player": p, "banker": b}
        squeeze = tuple(("deal", h, tuple(hands[h][:2]), plan[h]) for h in ORDER) + tuple(
            ("draw", h, tuple(hands[h][2:]), plan[h]) for h in ORDER if len(hands[h]) > 2)
        rounds.append((outcome, returns, valid, squeeze))
    return rounds


def compare_tables(engine, shoes: int, repeat: int) -> int:
    """Time table rounds (returns, valid bets, squeeze) on both sides; 1 when they disagree."""
    seeds = [sim.shoe_seed(0, i) for i in range(shoes)]
    engine_times, hand_times = [], []
    for _ in range(repeat):  # each shoe's rounds are built in full and dropped, as a server would
        t0 = time.process_time()
        for seed in seeds:
            engine.deal_shoe(seed, TABLE)
        engine_times.append(time.process_time() - t0)
        t0 = time.process_time()
        for seed in seeds:
            handwritten_table_shoe(seed, TABLE)
        hand_times.append(time.process_time() - t0)
    rounds = 0
    for i, seed in enumerate(seeds):  # not timed: the two sides' rounds, compared
        theirs = handwritten_table_shoe(seed, TABLE)
        got = [(tr.round.outcome, tr.returns, tr.valid, tr.squeeze) for tr in engine.deal_shoe(seed, TABLE)]
        if got != theirs:
            print(f"MISMATCH at table shoe {i}: engine {got[:2]}… hand-written {theirs[:2]}…")
            return 1
        rounds += len(got)
    engine_s, hand_s = min(engine_times), min(hand_times)
    print(f"{shoes} shoes at a table of two bettors, {rounds} rounds, one core, CPU time, best of {repeat} "
          "(returns, valid bets and squeeze schedules agree round for round):")
    print(f"  generated engine  {rounds / engine_s:>9,.0f} rounds/s  ({engine_s:.2f} s)")
    print(f"  hand-written loop {rounds / hand_s:>9,.0f} rounds/s  ({hand_s:.2f} s)")
    print(f"  ratio engine/hand-written time: {engine_s / hand_s:.2f}  (target <= 1.0)")
    return 0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--shoes", type=int, default=1000, help="shoes for the per-core comparison")
    ap.add_argument("--full", type=int, default=10000, help="shoes for the full run on every core")
    ap.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--repeat", type=int, default=3, help="runs of the per-core comparison (the best counts)")
    args = ap.parse_args()
    game, source, engine = game_engine(str(ROOT / "spec" / "baccarat.rules"))

    engine_times, hand_times = [], []
    for _ in range(args.repeat):
        t0 = time.process_time()
        tally, _ = sim.play_shoes(source, game.name, 0, 0, args.shoes)
        engine_times.append(time.process_time() - t0)
        t0 = time.process_time()
        hand, hand_returns = Counter(), {bet: Counter() for bet in PAYS}
        hand_rounds = 0
        for i in range(args.shoes):
            counts, n = handwritten_shoe(sim.shoe_seed(0, i), hand_returns)
            hand.update(counts)
            hand_rounds += n
        hand_times.append(time.process_time() - t0)
    if hand != tally.outcomes or hand_rounds != tally.rounds or hand_returns != tally.returns:
        print(f"MISMATCH: engine {dict(tally.outcomes)} {tally.returns} in {tally.rounds} rounds, "
              f"hand-written {dict(hand)} {hand_returns}")
        return 1
    engine_s, hand_s = min(engine_times), min(hand_times)
    print(f"{args.shoes} shoes, {tally.rounds} rounds, one core, CPU time, best of {args.repeat} "
          "(outcomes and returns agree):")
    print(f"  generated engine  {tally.rounds / engine_s:>9,.0f} rounds/s  ({engine_s:.2f} s)")
    print(f"  hand-written loop {hand_rounds / hand_s:>9,.0f} rounds/s  ({hand_s:.2f} s)")
    print(f"  ratio engine/hand-written time: {engine_s / hand_s:.2f}  (target <= 1.0)")
    if compare_tables(engine, args.shoes, args.repeat):
        return 1
    if not args.full:
        return 0

    load = os.getloadavg()[0]
    t0 = time.perf_counter()
    full, _ = sim.simulate(source, game.name, args.full, seed=0, workers=args.workers)
    full_s = time.perf_counter() - t0
    verdict = "PASS" if full_s < 4 else "FAIL"
    print(f"full run: {args.full} shoes, {full.rounds} rounds on {args.workers} workers in {full_s:.2f} s "
          f"({full.rounds / full_s:,.0f} rounds/s; target < 4 s: {verdict}; load average before: {load:.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
