"""`croupier simulate SPEC --shoes N [--seed S] [--workers W] [--json] [--log FILE]`."""

from __future__ import annotations

import json
import os
import signal
import sys
import time


def register(subparsers) -> None:
    """Add the `simulate` sub-command."""
    s = subparsers.add_parser("simulate", help="play shoes with flat bets and report frequencies and returns")
    s.add_argument("spec")
    s.add_argument("--shoes", type=int, required=True, help="how many shoes to play")
    s.add_argument("--seed", type=int, default=0, help="the run's seed (shoe i is dealt from SEED/i)")
    s.add_argument("--workers", type=int, default=min(os.cpu_count() or 1, 64),
                   help="processes, 1 to 64 (default: every core)")
    s.add_argument("--json", action="store_true", help="print the report as JSON")
    s.add_argument("--log", help="write every round as JSON Lines to this file, in shoe order")
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
    """(game, engine source, loaded engine) of one spec, checked; exit with its diagnostics when it is bad."""
    from croupier.cli.main import compiled_or_exit
    from croupier.driver.compile import Level

    c = compiled_or_exit(spec, Level.CHECKED)
    return c.game, c.engine_source, c.engine


def cmd_simulate(args) -> int:
    from croupier.tools import simulate as sim
    from croupier.tools.replay import RoundLog

    if args.shoes < 1 or not 1 <= args.workers <= sim.MAX_WORKERS:
        print(f"croupier: --shoes must be at least 1 and --workers between 1 and {sim.MAX_WORKERS}",
              file=sys.stderr)
        return 2
    game, source, engine = game_engine(args.spec)
    if not game.is_dealt_round:
        print("croupier: simulate plays shoes of dealt-round games", file=sys.stderr)
        return 2
    log = None
    if args.log:
        try:
            log = RoundLog(args.log)
        except OSError as exc:
            print(f"croupier: cannot write the log {args.log}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    workers = min(args.workers, args.shoes)
    start = time.perf_counter()
    try:
        with progress_bar(args.shoes, enabled=sys.stdout.isatty() and not args.json) as advance, \
                interrupt_flag() as interrupted:
            tally = sim.run(source, game.name, args.shoes, args.seed, workers,
                            sink=log.write if log else None, progress=advance,
                            stop=lambda: interrupted() or (log is not None and log.error is not None))
    except BaseException:
        if log is not None:
            log.discard()
        raise
    seconds = time.perf_counter() - start
    if log is not None:
        log.commit()
    if tally.shoes:
        report = sim.summary(tally, list(engine.BETS), exact_returns(game, engine))
        report.update({"seed": args.seed, "workers": workers, "seconds": f"{seconds:.2f}"})
        if tally.shoes < args.shoes:
            report["interrupted"] = True
        print(json.dumps(report, ensure_ascii=False, indent=2) if args.json else text_report(report))
    if log is not None and log.error is not None:
        print(f"croupier: cannot write the log {args.log}: {log.error.strerror or log.error}; "
              f"stopped after {tally.shoes} of {args.shoes} shoes, the log is not kept", file=sys.stderr)
        return 1
    if tally.shoes < args.shoes:
        held = f"shoes 0..{tally.shoes - 1}" if tally.shoes else "no shoe"
        where = f"the log holds {held}" if log else "the report covers them" if tally.shoes else "nothing to report"
        print(f"croupier: interrupted after {tally.shoes} of {args.shoes} shoes; {where}", file=sys.stderr)
        return 130
    return 0


class interrupt_flag:
    """While active, Ctrl-C (SIGINT) only sets a flag, which the run checks between shoes and pieces,
    so no write is cut in half; the context gives the flag's reader."""

    def __enter__(self):
        self.hit = False
        self.previous = signal.signal(signal.SIGINT, self._handle)
        return lambda: self.hit

    def _handle(self, signum, frame) -> None:
        self.hit = True

    def __exit__(self, *exc) -> None:
        signal.signal(signal.SIGINT, self.previous)


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
            where = {True: "inside", False: "OUTSIDE", None: "with no interval to compare"}[b["exact_in_ci"]]
            extra = f"  exact {b['exact']} {where}" + (" the interval" if b["exact_in_ci"] is not None else "")
        ci = "95 % CI n/a: an interval needs at least two shoes" if b["ci95"] is None else \
            f"95 % CI {b['ci95'][0]} .. {b['ci95'][1]}"
        lines.append(f"  {bet:<12} {b['net_per_unit']}  ({ci}){extra}")
    return "\n".join(lines)
