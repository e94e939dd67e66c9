"""Benchmark: rounds per second of `croupier simulate` vs a hand-written pure-Python loop.

Both deal the same seeded shoes by the same procedure (cut card 14–16 from the
end, burn by the first card, one more round after the cut card) and do what a
simulation tallies: each round's outcome and what one unit on each of the five
bets returns (exact Fractions), counted per bet. The script checks they agree on
every outcome count and every bet's count of each return, then prints rounds per
second per core for each (target: engine time <= 1.0x the hand-written loop).
Neither side builds the squeeze schedule or the valid bets: nothing a simulation
reports reads them (the engine builds them for `--log`). Then it times the full
target: 10,000 shoes on every core with `croupier simulate` (target: under 4 s
on 2 cores).

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


def handwritten_shoe(seed: str, returns: dict[str, Counter]) -> tuple[Counter, int]:
    """One shoe, written by hand: outcome counts and rounds; each bet's returns counted into `returns`."""
    cards = [r + s for r in RANKS for s in "SHCD" for _ in range(8)]
    rng = random.Random(seed)
    rng.shuffle(cards)
    cut = len(cards) - rng.randint(14, 16)
    pos = 1 + BURN[cards[0][:-1]]
    outcomes: Counter = Counter()
    rounds, last = 0, False
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
        outcome = "player" if pt > bt else "banker" if bt > pt else "tie"
        pairs = {"player_pair": p[0][:-1] == p[1][:-1], "banker_pair": b[0][:-1] == b[1][:-1]}
        for bet, pay in PAYS.items():
            won = pairs[bet] if bet in pairs else outcome == bet
            returns[bet][pay if won else (1 if outcome == "tie" and bet in ("banker", "player") else 0)] += 1
        outcomes[outcome] += 1
        rounds += 1
        if last or len(cards) - pos < 6:
            return outcomes, rounds
        if pos >= cut and start <= cut:
            last = True


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
