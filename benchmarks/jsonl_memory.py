"""Peak memory of `croupier play spec/baccarat.rules --jsonl` on a 5 MB and a 50 MB stream.

Constant memory means the two peaks are about equal. Each stream mixes good rounds with a
few bad lines; the script checks that every line got an answer and prints, per size, the
lines, the errors, the seconds and the child's peak RSS (from os.wait4).

    python benchmarks/jsonl_memory.py [--sizes 5 50]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RANKS = ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
SUITS = ["S", "H", "C", "D"]
BAD = ["not json", '{"cards": ["ZZ"]}', "[]", '{"cards": ["3S", "2H"]}']


def write_stream(path: Path, megabytes: int, seed: int = 7) -> int:
    """Write about `megabytes` MB of requests; return the number of lines."""
    rng = random.Random(seed)
    target = megabytes * 1_000_000
    size = lines = 0
    with path.open("w", encoding="utf-8") as out:
        while size < target:
            if lines % 97 == 96:
                line = BAD[lines % len(BAD)]
            else:
                cards = [rng.choice(RANKS) + rng.choice(SUITS) for _ in range(6)]
                line = json.dumps({"cards": cards, "bets": {"banker": rng.randint(1, 500), "tie": "2.5"}})
            out.write(line + "\n")
            size += len(line) + 1
            lines += 1
    return lines


def run(path: Path) -> tuple[int, int, float, int]:
    """Stream the file through the command; return (answers, errors, seconds, peak RSS in kB)."""
    start = time.perf_counter()
    with path.open("rb") as stdin:
        proc = subprocess.Popen([sys.executable, "-m", "croupier.cli.main", "play", "spec/baccarat.rules", "--jsonl"],
                                stdin=stdin, stdout=subprocess.PIPE, cwd=ROOT)
        answers = errors = 0
        for line in proc.stdout:
            answers += 1
            errors += line.startswith(b'{"error"')
        _pid, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"the command failed with status {status}")
    return answers, errors, time.perf_counter() - start, usage.ru_maxrss


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--sizes", type=int, nargs="+", default=[5, 50], help="stream sizes in MB")
    args = ap.parse_args()
    print(f"{'MB':>4} {'lines':>9} {'answers':>9} {'errors':>7} {'seconds':>8} {'peak RSS MB':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        for mb in args.sizes:
            path = Path(tmp) / f"stream_{mb}.jsonl"
            lines = write_stream(path, mb)
            answers, errors, seconds, rss = run(path)
            print(f"{mb:>4} {lines:>9} {answers:>9} {errors:>7} {seconds:>8.1f} {rss / 1024:>12.1f}")
            if answers != lines:
                print(f"error: {lines - answers} lines got no answer")
                return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
