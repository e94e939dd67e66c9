"""Benchmark: the full exact analysis against a hand-written enumerator, both as whole processes.

Times `croupier analyze spec/baccarat.rules --json` (enumerate every deal, every
bet, and print the JSON report) against `benchmarks/handwritten_enumerator.py` (the
three outcome probabilities only), each run REPEAT times as a fresh process, and
prints the best and median wall times and the ratios. Targets: cold ratio <= 2.5 (a guard
against regress, issue 29), warm ratio <= 1.0.

`analyze` is timed three ways:
- warm: the disk cache (a fresh folder, filled by one untimed run first) holds
  the spec's engine source and its exact analysis, as it does whenever the command
  runs again on a spec and compiler that have not changed (or after a `check` or
  `build`): nothing is compiled or enumerated, the analysis is read and printed;
- warm engine: the same folder with the analyses removed before each run: the
  engine and its companion come from the cache (no parsing) and are compiled, and
  the enumeration runs in full, as for a deck count not analysed before;
- cold: CROUPIER_CACHE=off, so every run also parses, resolves and emits the spec,
  as the first run after an edit does.

Both run with the compiler's bytecode present, as after an ordinary install: the
benchmark byte-compiles `compiler/croupier/` first (`compileall`, into the `__pycache__`
folders git ignores), since PYTHONDONTWRITEBYTECODE would otherwise leave every
run compiling the compiler's own source. It compiles every file again (`force`):
`compileall` takes a bytecode file as fresh when it names the source's modification
time in whole seconds, while an import also compares the source's size, so a file
edited within the second of its last compiling would otherwise be compiled by every
timed run.

Each run's CPU time (user and system, from the operating system) is printed too: on a machine
shared with other work, wall times wait for the processor; the CPU ratio is the steadier one. The
system share is mostly the kernel filling the pages a process first touches: it grows with the
modules imported and the memory used, not with the work done.

It also times the enumeration alone, in-process (`exact.analyse(engine, 8)`, with
`exact` the engine's analysis companion), and the hand-written enumerator's, to
separate the enumerator from start-up and compile.

    python benchmarks/bench_analysis.py [REPEAT]
"""

from __future__ import annotations

import compileall
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGETS = {"analyze (warm)": 1.0, "analyze (warm engine)": 1.0, "analyze (cold)": 2.5}  # ratio to the hand-written enumerator


def run(cmd: list[str], env: dict[str, str], before=None) -> tuple[float, tuple[float, float]]:
    """(wall time, (user CPU, system CPU)) of one run of `cmd` as a fresh process (after `before()`, untimed)."""
    if before is not None:
        before()
    start = time.perf_counter()
    child = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, env=env)
    _pid, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status) != 0:
        raise subprocess.CalledProcessError(os.waitstatus_to_exitcode(status), cmd)
    return wall, (usage.ru_utime, usage.ru_stime)


def best_of(repeat: int, work) -> float:
    """The best wall time of `work()` over `repeat` calls."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return best


def in_process(repeat: int) -> float:
    """Best time of the generated engine's whole analysis (all bets), compile excluded."""
    sys.path.insert(0, str(ROOT))
    from croupier.backends.engine.loader import load_engine
    from croupier.driver.compile import compile_spec

    c = compile_spec(ROOT / "spec" / "baccarat.rules")
    exact = load_engine(c.facts["analysis"], f"{c.facts['name']}_analysis")
    return best_of(repeat, lambda: exact.analyse(c.engine, 8))


def in_process_handwritten(repeat: int) -> float:
    sys.path.insert(0, str(ROOT / "benchmarks"))
    from handwritten_enumerator import enumerate_outcomes

    return best_of(repeat, lambda: enumerate_outcomes(8))


def main() -> int:
    repeat = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    compileall.compile_dir(ROOT / "compiler" / "croupier", quiet=1, force=True)  # bytecode present, as after an install
    analyze = [sys.executable, "-m", "croupier.cli.main", "analyze", "spec/baccarat.rules", "--json"]
    with tempfile.TemporaryDirectory() as cache:
        warm = {**os.environ, "CROUPIER_CACHE": cache}
        analyses = Path(cache) / "v2" / "analysis"
        commands = {
            "analyze (warm)": (analyze, warm, None),
            "analyze (warm engine)": (analyze, warm, lambda: shutil.rmtree(analyses, ignore_errors=True)),
            "analyze (cold)": (analyze, {**os.environ, "CROUPIER_CACHE": "off"}, None),
            "hand-written": ([sys.executable, "benchmarks/handwritten_enumerator.py"], dict(os.environ), None),
        }
        run(analyze, warm)  # fills the cache: the engine and the analysis
        assert analyses.is_dir(), "the analysis is kept in the cache"
        times: dict[str, list[float]] = {name: [] for name in commands}
        cpu: dict[str, list[float]] = {name: [] for name in commands}
        split: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
        for _ in range(repeat):  # interleaved, so a busy moment hits all
            for name, (cmd, env, before) in commands.items():
                wall, used = run(cmd, env, before)
                times[name].append(wall)
                cpu[name].append(sum(used))
                split[name].append(used)
    for name, ts in times.items():
        print(f"{name:<22} best {min(ts):.3f} s   median {statistics.median(ts):.3f} s   "
              f"CPU best {min(cpu[name]):.3f} s (user {min(split[name], key=sum)[0]:.3f} + system "
              f"{min(split[name], key=sum)[1]:.3f})   ({repeat} runs)")
    base = times["hand-written"]
    print(f"in-process, best of {repeat}: exact.analyse(engine, 8) {in_process(repeat) * 1000:.1f} ms   "
          f"hand-written enumerate_outcomes(8) {in_process_handwritten(repeat) * 1000:.1f} ms")
    for name, target in TARGETS.items():
        ratio = min(times[name]) / min(base)
        median_ratio = statistics.median(times[name]) / statistics.median(base)
        cpu_ratio = min(cpu[name]) / min(cpu["hand-written"])
        print(f"{name}: ratio (best/best) {ratio:.2f}   ratio (median/median) {median_ratio:.2f}   "
              f"CPU ratio (best/best) {cpu_ratio:.2f}   target <= {target}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
