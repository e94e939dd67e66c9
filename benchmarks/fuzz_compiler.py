"""Fuzz the compiler with 10,000+ inputs and print what happened.

Three streams, the strategies of tests/test_fuzz.py: specs generated from the grammar,
real specs mutated (parse, resolve, emit), small specs mutated (and checked
exhaustively). Counts inputs, clean specs, specs with errors, diagnostics, and
crashes (any exception, or a diagnostic without a position): crashes must be 0.

    python benchmarks/fuzz_compiler.py [--inputs 10000]
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

from hypothesis import HealthCheck, given, settings

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from test_fuzz import (  # noqa: E402 - after the path set-up
    REAL_SPECS,
    SMALL_SPECS,
    assert_positioned,
    compile_text,
    grammar_specs,
    mutated_spec,
)


def run(stream: str, strategy, checks: bool, n: int, counts: Counter, crashes: list) -> None:
    @settings(max_examples=n, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    @given(strategy)
    def one(case) -> None:
        path, text = case if isinstance(case, tuple) else ("spec/fuzz.rules", case)
        counts[f"{stream}: inputs"] += 1
        try:
            diags = compile_text(path, text, checks)
            assert_positioned(diags, path, text)
        except Exception:  # noqa: BLE001 - a crash is what we are counting
            counts[f"{stream}: crashes"] += 1
            if len(crashes) < 10:
                crashes.append((stream, text[:300], traceback.format_exc(limit=4)))
            return
        errors = sum(1 for d in diags if d.is_error)
        counts[f"{stream}: {'with errors' if errors else 'clean'}"] += 1
        counts[f"{stream}: diagnostics"] += len(diags)

    one()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--inputs", type=int, default=10_000, help="total inputs over the three streams")
    args = ap.parse_args()
    counts: Counter = Counter()
    crashes: list = []
    start = time.perf_counter()
    share = args.inputs // 10
    run("grammar", grammar_specs(), True, share * 4, counts, crashes)
    run("real specs mutated", mutated_spec(REAL_SPECS), False, share * 5, counts, crashes)
    run("small specs mutated + checks", mutated_spec(SMALL_SPECS), True, args.inputs - share * 9, counts, crashes)
    elapsed = time.perf_counter() - start
    total = sum(v for k, v in counts.items() if k.endswith(": inputs"))
    for key in sorted(counts):
        print(f"{key:45} {counts[key]:>8}")
    print(f"{'total inputs':45} {total:>8}")
    print(f"{'crashes':45} {len(crashes) and sum(v for k, v in counts.items() if k.endswith('crashes')):>8}")
    print(f"{'seconds':45} {elapsed:>8.1f}")
    for stream, text, tb in crashes:
        print(f"\n--- crash in {stream}: {text!r}\n{tb}")
    return 1 if crashes else 0


if __name__ == "__main__":
    raise SystemExit(main())
