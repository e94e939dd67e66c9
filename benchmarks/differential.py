"""The differential tests of tests/test_differential.py, run long: many generated specs, each exact figure checked
against every ordered deal played through the engine's own `play` and `settle`. Prints how many specs and deals it
checked, and every spec whose figures disagree (there must be none).

    python benchmarks/differential.py [--specs 300] [--diffs 100] [--seed 0]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

import differential_specs as ds  # noqa: E402 - after the path set-up

from croupier.tools.diff.rounds import compare_rounds  # noqa: E402


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--specs", type=int, default=300, help="generated specs whose exact analysis is checked")
    ap.add_argument("--diffs", type=int, default=100, help="generated pairs of versions whose diff is checked")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    counts = {"specs": 0, "deals": 0, "refused": 0, "wrong": 0, "pairs": 0, "joint deals": 0, "diff wrong": 0}
    kept = settings(deadline=None, database=None, suppress_health_check=list(HealthCheck))

    @seed(args.seed)
    @settings(kept, max_examples=args.specs)
    @given(ds.specs())
    def analysis(spec) -> None:
        (game, engine, companion), _d = ds.load(spec.text)
        try:
            a = companion.analyse(engine, game.shoe.decks)
        except engine.EngineError:
            counts["refused"] += 1
            return
        truth = ds.brute_force(engine, ds.shoe_of(game))
        counts["specs"] += 1
        counts["deals"] += truth.deals
        wrong = ds.compare_analysis(a, truth)
        if wrong:
            counts["wrong"] += 1
            print(spec.text, *wrong[:3], sep="\n", end="\n\n")

    @seed(args.seed)
    @settings(kept, max_examples=args.diffs)
    @given(st.data())
    def diff(data) -> None:
        spec = data.draw(ds.specs())
        (g_old, e_old, _c), _d = ds.load(spec.text, "old")
        new_text = data.draw(ds.mutated(spec))
        (g_new, e_new, _c), _d = ds.load(new_text, "new")
        r = compare_rounds((g_old, e_old), (g_new, e_new), g_old.shoe.decks)
        wrong, deals = ds.compare_diff(r, e_old, e_new, ds.shoe_of(g_old))
        counts["pairs"] += 1
        counts["joint deals"] += deals
        if wrong:
            counts["diff wrong"] += 1
            print(spec.text, new_text, *wrong, sep="\n", end="\n\n")

    start = time.perf_counter()
    analysis()
    middle = time.perf_counter()
    diff()
    end = time.perf_counter()
    print(f"exact analysis: {counts['specs']} specs, {counts['deals']:,} deals played, {counts['refused']} refused, "
          f"{counts['wrong']} wrong ({middle - start:.1f} s)")
    print(f"diff: {counts['pairs']} pairs of versions, {counts['joint deals']:,} joint deals played, "
          f"{counts['diff wrong']} wrong ({end - middle:.1f} s)")
    return 1 if counts["wrong"] or counts["diff wrong"] else 0


if __name__ == "__main__":
    sys.exit(main())
