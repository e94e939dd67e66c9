"""Benchmark: `croupier build` of every spec in spec/, as a whole process and in-process.

Every build writes into a temporary folder (generated/ is never touched) and
uses a fresh, private disk cache (CROUPIER_CACHE): the first process build is
cold (exhaustive checks, exact analyses and example searches all computed), the
later ones are warm (their results read back, keyed by engine source and
compiler code). The process time is what a user waits for. Targets: cold under
3 s (issue 16), warm under 1 s. A process build compiles the specs in one worker
per core (`--jobs`, default); the cold build is also timed in one process
(`--jobs 1`) for comparison. The machine's load average is printed: the cores are
shared, so a busy machine slows the parallel build most.

    python3 benchmarks/bench_build.py [--repeat 3]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
CACHE = tempfile.mkdtemp(prefix="croupier-bench-cache-")
os.environ["CROUPIER_CACHE"] = CACHE

from croupier.driver import pipeline  # noqa: E402 - after the path is set
from croupier.project import find_project  # noqa: E402

PROJECT = find_project(ROOT)


def in_process(out: Path) -> float:
    start = time.perf_counter()
    results, _ = pipeline.compile_all(pipeline.default_specs(PROJECT))
    assert all(r.ok for r in results), "a spec has errors"
    pipeline.write_artefacts(results, out)
    return time.perf_counter() - start


def as_process(out: Path, cache: str = CACHE, jobs: list[str] | None = None) -> float:
    start = time.perf_counter()
    proc = subprocess.run([sys.executable, "-m", "croupier.cli.main", "build", "--out", str(out), *(jobs or [])],
                          cwd=ROOT,
                          capture_output=True, text=True, check=False, env={**os.environ, "CROUPIER_CACHE": cache})
    elapsed = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"croupier build failed:\n{proc.stderr}")
    return elapsed


def cold_build(out: Path, jobs: list[str] | None = None) -> float:
    """A process build with an empty cache of its own, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="croupier-bench-cold-") as cache:
        return as_process(out, cache, jobs)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    specs = pipeline.default_specs(PROJECT)
    with tempfile.TemporaryDirectory() as tmp:
        # every cold build starts from an empty cache; the last one's fills the shared cache for the warm runs
        serial = min(cold_build(Path(tmp) / f"serial{i}", ["--jobs", "1"]) for i in range(args.repeat))
        cold = min([cold_build(Path(tmp) / f"cold{i}") for i in range(args.repeat - 1)]
                   + [as_process(Path(tmp) / "cold")])
        proc = min(as_process(Path(tmp) / f"proc{i}") for i in range(args.repeat))
        warm = min(in_process(Path(tmp) / f"warm{i}") for i in range(args.repeat))
    print(f"specs:                                 {len(specs)} ({', '.join(p.stem for p in specs)})")
    print(f"`croupier build`, cold, best of {args.repeat}:     {cold:.3f} s  (checks, analyses and searches computed; "
          "target < 3 s)")
    print(f"  the same in one process (--jobs 1):  {serial:.3f} s")
    print(f"`croupier build`, warm, best of {args.repeat}:     {proc:.3f} s  (target < 1 s)")
    print(f"in-process, warm, best of {args.repeat}:           {warm:.3f} s")
    print(f"cores: {os.cpu_count()}, load average (1, 5, 15 min): {', '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
