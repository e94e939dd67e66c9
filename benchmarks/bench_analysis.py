"""Benchmark: the full exact analysis against a hand-written enumerator, both as whole processes.

Times `croupier analyze spec/baccarat.rules --json` (compile the spec, generate
and load the engine, enumerate every deal, every bet) against
`benchmarks/handwritten_enumerator.py` (the three outcome probabilities only),
each run REPEAT times as a fresh process; prints the best and median wall times
and the ratio of the best times. Target: ratio <= 1.5.

    python benchmarks/bench_analysis.py [REPEAT]
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.5


def run(cmd: list[str]) -> float:
    start = time.perf_counter()
    subprocess.run(cmd, cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
    return time.perf_counter() - start


def main() -> int:
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    commands = {
        "croupier analyze": [sys.executable, "-m", "compiler.cli", "analyze", "spec/baccarat.rules", "--json"],
        "hand-written": [sys.executable, "benchmarks/handwritten_enumerator.py"],
    }
    times: dict[str, list[float]] = {name: [] for name in commands}
    for _ in range(repeat):  # interleaved, so a busy moment hits both
        for name, cmd in commands.items():
            times[name].append(run(cmd))
    for name, ts in times.items():
        print(f"{name:<18} best {min(ts):.3f} s   median {statistics.median(ts):.3f} s   ({repeat} runs)")
    ratio = min(times["croupier analyze"]) / min(times["hand-written"])
    median_ratio = statistics.median(times["croupier analyze"]) / statistics.median(times["hand-written"])
    print(f"ratio (best/best) {ratio:.2f}   ratio (median/median) {median_ratio:.2f}   target <= {TARGET}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
