"""Benchmark: `croupier build` of every spec in spec/, in-process and as a whole process.

Both build into a temporary folder (generated/ is never touched). In-process
times exclude interpreter start-up and imports after the first run; the process
time is what a user waits for. Target: under 1 s.

    python3 benchmarks/bench_build.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from compiler import pipeline  # noqa: E402 - after the path is set


def in_process(out: Path) -> float:
    start = time.perf_counter()
    results, _ = pipeline.compile_all(pipeline.default_specs())
    assert all(r.ok for r in results), "a spec has errors"
    pipeline.write_artefacts(results, out)
    return time.perf_counter() - start


def as_process(out: Path) -> float:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "compiler.cli", "build", "--out", str(out)], cwd=ROOT,
                          capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"croupier build failed:\n{proc.stderr}")
    return elapsed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    specs = pipeline.default_specs()
    with tempfile.TemporaryDirectory() as tmp:
        first = in_process(Path(tmp) / "first")
        warm = min(in_process(Path(tmp) / f"warm{i}") for i in range(args.repeat))
        proc = min(as_process(Path(tmp) / f"proc{i}") for i in range(args.repeat))
    print(f"specs:                     {len(specs)} ({', '.join(p.stem for p in specs)})")
    print(f"in-process, first build:   {first:.3f} s")
    print(f"in-process, best of {args.repeat}:     {warm:.3f} s")
    print(f"`croupier build`, best of {args.repeat}: {proc:.3f} s  (target < 1 s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
