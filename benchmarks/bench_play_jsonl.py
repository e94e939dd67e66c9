"""Benchmark: 100k rounds through `croupier play spec/baccarat.rules --jsonl` vs. a hand-written baseline.

Both run as whole processes reading the same seeded JSONL file on stdin and
writing one JSON answer per line; the script checks that they answer alike,
then prints both wall times and CPU times (user + system of the process, which a
loaded machine disturbs less), each the best of --repeat, and the ratios
engine/baseline. Target: ratio <= 1.0.

    python3 benchmarks/bench_play_jsonl.py [--rounds 100000] [--repeat 3] [--seed 2024]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("S", "H", "C", "D")
BETS = ("banker", "player", "tie", "banker_pair", "player_pair")
STAKES = (10, 25, 100, 500, "12.5", "0.10")


def rounds_jsonl(n: int, seed: int) -> str:
    """`n` request lines: six cards each from a seeded 8-deck shoe, one to three bets."""
    rng = random.Random(seed)
    shoe = [r + s for r in RANKS for s in SUITS] * 8
    rng.shuffle(shoe)
    pos = 0
    lines = []
    for _ in range(n):
        if pos + 6 > len(shoe):
            rng.shuffle(shoe)
            pos = 0
        cards = shoe[pos:pos + 6]
        pos += 6
        bets = {name: rng.choice(STAKES) for name in rng.sample(BETS, rng.randint(1, 3))}
        # stakes like "12.5" are written as JSON numbers, so they are parsed as Decimal
        body = ", ".join(f'"{k}": {v}' for k, v in bets.items())
        lines.append(json.dumps({"cards": cards}).rstrip("}") + ', "bets": {' + body + "}}")
    return "\n".join(lines) + "\n"


def cpu_of_children() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(cmd: list[str], data: Path) -> tuple[float, float, bytes]:
    """(wall time, CPU time, output) of one run."""
    with data.open("rb") as stdin:
        cpu = cpu_of_children()
        start = time.perf_counter()
        proc = subprocess.run(cmd, stdin=stdin, capture_output=True, check=False, cwd=ROOT)
        elapsed = time.perf_counter() - start
        cpu = cpu_of_children() - cpu
    if proc.returncode != 0:
        sys.exit(f"{' '.join(cmd)} failed ({proc.returncode}):\n{proc.stderr.decode(errors='replace')}")
    return elapsed, cpu, proc.stdout


def same_answers(a: bytes, b: bytes) -> int:
    """Count the lines where the two programs' JSON answers differ (numbers compared exactly)."""
    diff = 0
    for x, y in zip(a.splitlines(), b.splitlines(), strict=True):
        jx, jy = json.loads(x), json.loads(y)
        for j in (jx, jy):
            j["returns"] = {k: str(v) for k, v in j.get("returns", {}).items()}
        diff += jx != jy
    return diff


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=100_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--seed", type=int, default=2024)
    args = ap.parse_args()
    engine_cmd = [sys.executable, "-m", "croupier.cli.main", "play", "spec/baccarat.rules", "--jsonl"]
    baseline_cmd = [sys.executable, str(ROOT / "benchmarks" / "handwritten_baccarat.py")]
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "rounds.jsonl"
        data.write_text(rounds_jsonl(args.rounds, args.seed), encoding="utf-8")
        engine_times, baseline_times, engine_cpu, baseline_cpu = [], [], [], []
        for _ in range(args.repeat):
            t, c, engine_out = run(engine_cmd, data)
            engine_times.append(t)
            engine_cpu.append(c)
            t, c, baseline_out = run(baseline_cmd, data)
            baseline_times.append(t)
            baseline_cpu.append(c)
    differ = same_answers(engine_out, baseline_out)
    engine, baseline = min(engine_times), min(baseline_times)
    print(f"rounds:                 {args.rounds} (seed {args.seed}), best of {args.repeat}")
    print(f"croupier play --jsonl:  {engine:.3f} s  ({args.rounds / engine:,.0f} rounds/s), "
          f"CPU {min(engine_cpu):.3f} s")
    print(f"hand-written baseline:  {baseline:.3f} s  ({args.rounds / baseline:,.0f} rounds/s), "
          f"CPU {min(baseline_cpu):.3f} s")
    print(f"ratio engine/baseline:  {engine / baseline:.3f} wall, {min(engine_cpu) / min(baseline_cpu):.3f} CPU"
          "  (target <= 1.0)")
    print(f"answers that differ:    {differ}")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
