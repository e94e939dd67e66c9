"""Benchmark: `croupier check` of each spec cold, one process each: wall time, CPU time and peak memory.

Each spec is checked by a `croupier check SPEC --jobs 1` process of its own with a fresh, private disk cache
(CROUPIER_CACHE), so every exhaustive check, exact analysis and card is computed. The specs of spec/ are
checked in the project (their generated files compared too); the benchmark specs of benchmarks/specs/ (a
Pair Plus-style game whose rules tell every card apart) and the games of GAMES below (written here: a one-deck
game whose hand draws until a rank matches, up to 51 cards) are copied into a folder of no project.
Targets (issue 30): every spec of spec/ under 10 s cold and under 1 GB; the card-by-card poker-style game
under 3 s; a game the analysis cannot cover refused in seconds, not minutes. The cores are shared: the CPU
time is the steadier figure, and the machine's load average is printed.

    python3 benchmarks/bench_check_specs.py [SPEC…]
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

GAMES = {
    "rank_match": """game rank_match "Rank match" zh-Hant "點數相配" zh-Hans "点数相配"
shoe 1 deck of standard52
value A = 1, 2..10 = pip, J = 11, Q = 12, K = 13
total sum
hand p "P" zh-Hant "P" zh-Hans "P"
hand d "D" zh-Hant "D" zh-Hans "D"
deal p, d
draw d while rank(last(d)) != rank(first(p))
outcome short "Short" zh-Hant "短" zh-Hans "短" when count(d) <= 5
outcome long "Long" zh-Hant "長" zh-Hans "长" when count(d) > 5
bet short "Short" zh-Hant "短" zh-Hans "短"
    wins when outcome is short, pays 1 to 1
""",
}


def check(spec: Path, cwd: Path) -> tuple[float, float, int, int, str]:
    """(wall seconds, CPU seconds, peak RSS in MB, exit code, last line of output) of one cold check."""
    env = dict(os.environ, CROUPIER_CACHE=tempfile.mkdtemp(prefix="croupier-bench-cache-"),
               PYTHONPATH=str(ROOT / "compiler"))
    with tempfile.TemporaryFile("w+", encoding="utf-8") as out:
        start = time.perf_counter()
        proc = subprocess.Popen([sys.executable, "-m", "croupier.cli.main", "check", str(spec), "--jobs", "1"],
                                cwd=cwd, env=env, stdout=out, stderr=subprocess.STDOUT)
        _pid, status, usage = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - start
        proc.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        lines = [line for line in out.read().splitlines() if line.strip()]
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss // 1024, proc.returncode, lines[-1] if lines else ""


def main(argv: list[str]) -> int:
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    loose = Path(tempfile.mkdtemp(prefix="croupier-bench-specs-"))
    for name, text in GAMES.items():
        (loose / f"{name}.rules").write_text(text, encoding="utf-8")
    for p in (ROOT / "benchmarks" / "specs").glob("*.rules"):
        (loose / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    specs = [(p, ROOT, "spec/") for p in sorted((ROOT / "spec").glob("*.rules"))]
    specs += [(p, loose, "loose") for p in sorted(loose.glob("*.rules"))]
    if argv:
        specs = [s for s in specs if s[0].stem in argv]
    print(f"{'spec':28} {'where':6} {'wall s':>7} {'cpu s':>7} {'peak MB':>8}  result")
    for spec, cwd, where in specs:
        wall, cpu, peak, code, last = check(spec, cwd)
        print(f"{spec.stem:28} {where:6} {wall:7.2f} {cpu:7.2f} {peak:8d}  exit {code}: {last[:70]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
