"""`croupier simulate SPEC --shoes N [--seed S] [--workers W] [--json] [--log FILE]`."""

from __future__ import annotations

import json
import os
import sys
import time
from pathlib import Path


def register(subparsers) -> None:
    """Add the `simulate` sub-command."""
    s = subparsers.add_parser("simulate", help="play shoes with flat bets and report frequencies and returns")
    s.add_argument("spec")
    s.add_argument("--shoes", type=int, required=True, help="how many shoes to play")
    s.add_argument("--seed", type=int, default=0, help="the run's seed (shoe i is dealt from SEED/i)")
    s.add_argument("--workers", type=int, default=os.cpu_count() or 1, help="processes (default: every core)")
    s.add_argument("--json", action="store_true", help="print the report as JSON")
    s.add_argument("--log", help="write every round as JSON Lines to this file")
    s.set_defaults(func=cmd_simulate)


def exact_returns(game, engine) -> dict | None:
    """Exact net return per unit of each bet from the engine's exact analysis, when it has one."""
    analyse = getattr(engine, "exact_returns", None)
    if analyse is None:
        return None
    try:
        return analyse()
    except engine.EngineError:
        return None


def game_engine(spec: str):
    """(game, engine source, loaded engine) of one spec; exit with its diagnostics when it is bad."""
    from .cli import _print_diags
    from .emit.engine import emit_engine
    from .engine_loader import load_engine
    from .pipeline import compile_all

    results, loader = compile_all([Path(spec)], emit=False)
    r = results[0]
    if not r.ok:
        _print_diags(r.diagnostics, loader.sources, "text", sys.stderr)
        raise SystemExit(1)
    source = emit_engine(r.game, r.spec)
    return r.game, source, load_engine(source, r.game.name)


def cmd_simulate(args) -> int:
    if args.shoes < 1 or args.workers < 1:
        print("croupier: --shoes and --workers must be at least 1", file=sys.stderr)
        return 2
    from . import simulate as sim

    game, source, engine = game_engine(args.spec)
    if not game.is_dealt_round:
        print("croupier: simulate plays shoes of dealt-round games", file=sys.stderr)
        return 2
    start = time.perf_counter()
    with progress_bar(args.shoes, enabled=sys.stdout.isatty() and not args.json) as advance:
        tally, records = sim.simulate(source, game.name, args.shoes, args.seed, args.workers,
                                      log=bool(args.log), progress=advance)
    seconds = time.perf_counter() - start
    if args.log:
        with open(args.log, "w", encoding="utf-8") as f:
            for rec in records:
                f.write(json.dumps(rec, ensure_ascii=False) + "\n")
    report = sim.summary(tally, list(engine.BETS), exact_returns(game, engine))
    report.update({"seed": args.seed, "workers": args.workers, "seconds": f"{seconds:.2f}"})
    print(json.dumps(report, ensure_ascii=False, indent=2) if args.json else text_report(report))
    return 0


class progress_bar:
    """A rich progress bar on a terminal; nothing otherwise."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.enabled, self.bar = total, enabled, None

    def __enter__(self):
        if not self.enabled:
            return None
        from rich.progress import Progress

        self.bar = Progress()
        self.bar.start()
        task = self.bar.add_task("shoes", total=self.total)
        return lambda done: self.bar.update(task, completed=done)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()


def text_report(r: dict) -> str:
    rps = r["rounds_per_shoe"]
    lines = [f"{r['shoes']} shoes, {r['rounds']} rounds in {r['seconds']} s (seed {r['seed']}, {r['workers']} workers)",
             f"rounds per shoe: mean {rps['mean']}, min {rps['min']}, max {rps['max']}",
             "outcomes:"]
    for name, o in r["outcomes"].items():
        lines.append(f"  {name:<12} {o['frequency']}  (95 % CI {o['ci95'][0]} .. {o['ci95'][1]})")
    lines.append("net return per unit staked:")
    for bet, b in r["bets"].items():
        extra = ""
        if "exact" in b:
            extra = f"  exact {b['exact']} {'inside' if b['exact_in_ci'] else 'OUTSIDE'} the interval"
        lines.append(f"  {bet:<12} {b['net_per_unit']}  (95 % CI {b['ci95'][0]} .. {b['ci95'][1]}){extra}")
    return "\n".join(lines)
