"""`croupier simulate SPEC (--shoes N | --rounds N | --tables N) [options]`: play and report.

Shoes (or rounds, shoe after shoe) of a dealt-round game; tables of a seat game.
Locally on every core by default, or on a Dask cluster with `--scheduler`; with
`--checkpoint FILE` the merged tally is saved every few seconds, and `--resume FILE`
carries a stopped or crashed run on. The result for a seed is the same on any path.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import sys
import time
from fractions import Fraction


def register(subparsers) -> None:
    """Add the `simulate` sub-command."""
    s = subparsers.add_parser("simulate", help="play shoes (or seat tables) and report frequencies and returns")
    s.add_argument("spec", help="the spec file of the game to simulate")
    size = s.add_mutually_exclusive_group()
    size.add_argument("--shoes", type=int, help="how many shoes to play (a dealt-round game)")
    size.add_argument("--rounds", type=int, help="play shoe after shoe and stop right after this many rounds")
    size.add_argument("--tables", type=int, help="how many tables to deal (a seat game)")
    s.add_argument("--seed", type=int, help="the run's seed (shoe or table i is dealt from SEED/i; default 0)")
    s.add_argument("--jobs", "-j", dest="workers", metavar="N", type=int, default=min(os.cpu_count() or 1, 64),
                   help="processes on this machine, 1 to 64 (default: every core)")
    s.add_argument("--workers", dest="workers", type=int, default=argparse.SUPPRESS, help=argparse.SUPPRESS)  # the old name of --jobs
    s.add_argument("--scheduler", metavar="ADDRESS", help="run on the Dask cluster of this scheduler (croupier[cluster])")
    s.add_argument("--players", type=int, help="seat games: players at each table (default: the fewest the spec seats)")
    s.add_argument("--threshold", help="seat games: every player hits while below this total (default: the spec's policy)")
    s.add_argument("--stake", type=int, help="seat games: each player's stake, when the game takes stakes (default 1)")
    s.add_argument("--coins", type=int, help="seat games: each player's coins at every table (default 10^9)")
    s.add_argument("--json", action="store_true", help="print the report as JSON")
    s.add_argument("--log", help="write every round (or table) as JSON Lines to this file, in seed order")
    s.add_argument("--checkpoint", metavar="FILE", help="save the merged tally to FILE every few seconds")
    s.add_argument("--every", type=float, default=5.0, metavar="SECONDS", help="seconds between checkpoints (default 5)")
    s.add_argument("--resume", metavar="FILE", help="carry on the run a checkpoint holds (and keep saving it there)")
    s.set_defaults(func=cmd_simulate)


def compiled(spec: str):
    """(game, engine source, loaded engine, spec texts) of one checked spec, through the driver; exit
    with its diagnostics when it is bad."""
    from croupier.cli.main import compiled_or_exit
    from croupier.driver.compile import Level
    from croupier.tools.spec_texts import SpecTexts

    c = compiled_or_exit(spec, Level.CHECKED)
    return c.game, c.engine_source, c.engine, SpecTexts.of(c.sources, c.spec)


def game_engine(spec: str):
    """(game, engine source, loaded engine) of one spec; exit with its diagnostics when it is bad."""
    return compiled(spec)[:3]


def output_clash(outputs: dict[str, str | None], inputs: list) -> str | None:
    """Why an output option names one of the command's inputs (the spec, a base, a checkpoint), or None."""
    from croupier.outputs import names_an_input

    for option, value in outputs.items():
        if value and (found := names_an_input(value, inputs)) is not None:
            return f"{option} {value} names {found}, an input of this command: nothing would be left to read; " \
                   "give another file"
    return None


class Refused(Exception):
    """Options this run cannot take: the message, exit 2."""


def plan(args, game, engine, texts, digest: str):
    """(state to drive, checkpoint file or None) from the options and a checkpoint to resume."""
    from croupier.tools import campaign
    from croupier.tools import checkpoint as ckpt
    from croupier.tools.analysis.seat import UNIT_COINS, stake_of
    from croupier.tools.seat_simulate import players_problem

    given = [(u, n) for u, n in (("shoes", args.shoes), ("rounds", args.rounds), ("tables", args.tables))
             if n is not None]
    seat = not game.is_dealt_round
    if seat and not game.is_seat_game:
        raise Refused("simulate plays shoes of dealt-round games and tables of seat games")
    if given and (given[0][0] == "tables") != seat:
        raise Refused("a seat game plays --tables" if seat else "simulate plays shoes of dealt-round games "
                      "(--shoes or --rounds)")
    if not seat and any(v is not None for v in (args.players, args.threshold, args.stake, args.coins)):
        raise Refused("--players, --threshold, --stake and --coins are options of seat games")
    was = None
    if args.resume:
        try:
            was = ckpt.read(args.resume)
        except ckpt.CheckpointError as exc:
            raise Refused(str(exc)) from None
    elif not given:
        raise Refused("give --tables N" if seat else "give --shoes N or --rounds N")
    unit, total = given[0] if given else (was.state.unit, was.state.total)
    if total < 1:
        raise Refused(f"--{unit} must be at least 1")
    old = was.state.job if was else None

    def pick(value, old_value, default):
        return value if value is not None else old_value if old is not None else default

    seed = pick(args.seed, old and old.seed, 0)
    job = campaign.Job("shoes", seed)
    if seat:
        threshold = pick(args.threshold, old and old.threshold, game.policy_threshold)
        if threshold is None:
            raise Refused("the spec states no `policy hit while total < T`; give --threshold")
        try:
            threshold = Fraction(threshold)
        except (ValueError, ZeroDivisionError):
            raise Refused(f"--threshold must be a number, not {threshold!r}") from None
        job = campaign.Job("tables", seed, pick(args.players, old and old.players, engine.SEATS[0]), threshold,
                           pick(args.stake, old and old.stake, 1), pick(args.coins, old and old.coins, UNIT_COINS),
                           stake_of(game))
        problem = players_problem(engine, job.players)
        if problem:
            raise Refused(problem)
        if job.stake < 1 or job.coins < 1 or max(job.stake, job.coins) >= 10**15:
            raise Refused("--stake and --coins are whole numbers from 1 to 10^15 - 1")
    if was is None:
        return campaign.State(job, unit, total)
    why = ckpt.mismatch(was, texts, digest, job, unit, total)
    if why:
        raise Refused(f"cannot resume {args.resume}: {why}")
    return campaign.State(job, unit, total, was.state.done, was.state.tally)


def cmd_simulate(args) -> int:
    from croupier.tools import checkpoint as ckpt
    from croupier.tools import simulate as sim
    from croupier.tools.replay import RoundLog

    if args.scheduler:  # a bad address is refused at once, before anything is compiled
        from croupier.tools.cluster import ClusterError, scheduler_endpoint

        try:
            scheduler_endpoint(args.scheduler)
        except ClusterError as exc:
            print(f"croupier: {exc}", file=sys.stderr)
            return 2
    if not 1 <= args.workers <= sim.MAX_WORKERS:
        print(f"croupier: --jobs must be between 1 and {sim.MAX_WORKERS}", file=sys.stderr)
        return 2
    for name in ("shoes", "rounds", "tables"):
        if getattr(args, name) is not None and getattr(args, name) < 1:
            print(f"croupier: --{name} must be at least 1", file=sys.stderr)
            return 2
    save_to = args.checkpoint or args.resume
    refused = None
    if not args.every > 0:
        refused = "--every must be a positive number of seconds"
    elif args.resume and args.log:
        refused = "a log covers a whole run: resume without --log"
    elif args.checkpoint and os.path.lexists(args.checkpoint) and not (
            args.resume and os.path.abspath(args.resume) == os.path.abspath(args.checkpoint)):
        refused = f"the checkpoint {args.checkpoint} exists: carry it on with --resume {args.checkpoint}, or remove it"
    if refused:
        print(f"croupier: {refused}", file=sys.stderr)
        return 2
    from croupier.backends.engine.loader import source_digest

    game, source, engine, texts = compiled(args.spec)
    digest = source_digest(source)
    clash = output_clash({"--log": args.log, "--checkpoint": args.checkpoint},
                         [args.spec, *(path for path, _text in texts.sources), *([args.resume] if args.resume else [])])
    if clash:
        print(f"croupier: {clash}", file=sys.stderr)
        return 2
    try:
        state = plan(args, game, engine, texts, digest)
    except Refused as exc:
        print(f"croupier: {exc}", file=sys.stderr)
        return 2
    cp = ckpt.Checkpoint(texts, digest, state) if save_to else None
    problems: list[str] = []

    def save(_state=None) -> None:
        try:
            cp.save(save_to)
        except ckpt.CheckpointError as exc:
            problems.append(f"cannot write the checkpoint {save_to}: {exc}")

    if cp is not None:
        save()  # a checkpoint that cannot be written is refused before anything is played
        if problems:
            print(f"croupier: {problems[0]}", file=sys.stderr)
            return 2
    log = None
    if args.log:
        try:
            log = RoundLog(args.log)
        except OSError as exc:
            print(f"croupier: cannot write the log {args.log}: {exc.strerror or exc}", file=sys.stderr)
            return 2
    code, workers, seconds = play(args, state, texts, source, game.name, digest, log,
                                  save if cp is not None else None, problems)
    if cp is not None:
        save()
    report_run(args, game, engine, state, workers, seconds)
    return finish(args, state, log, problems, code, save_to)


def play(args, state, texts, source: str, name: str, digest: str, log, save, problems: list[str]):
    """Drive the run locally or on the cluster; (exit code so far, workers, seconds)."""
    from croupier.tools import campaign

    workers = args.workers if state.unit == "rounds" else min(args.workers, state.total)
    start = time.perf_counter()
    code = 0
    try:
        with progress_bar(state, enabled=sys.stdout.isatty() and not args.json) as advance, \
                interrupt_flag() as interrupted:
            def stop() -> bool:
                return interrupted() or bool(problems) or (log is not None and log.error is not None)

            if args.scheduler:
                from croupier.tools.cluster import ClusterError, run_cluster

                try:
                    _, workers = run_cluster(state, args.scheduler, texts, source, name, digest,
                                             log.write if log else None, advance, stop, save, args.every)
                except ClusterError as exc:
                    problems.append(str(exc))
                    code = 1
            else:
                campaign.run_local(state, source, name, workers, log.write if log else None, advance, stop,
                                   save, args.every)
    except BaseException:
        if log is not None:
            log.discard()
        raise
    seconds = time.perf_counter() - start
    if log is not None:
        log.commit()
    return code, workers, seconds


def report_run(args, game, engine, state, workers: int, seconds: float) -> None:
    """Print the report of what the run merged (nothing when it merged nothing)."""
    from croupier.tools import seat_simulate
    from croupier.tools import simulate as sim

    if not state.done:
        return
    if state.job.kind == "tables":
        report = seat_simulate.seat_summary(state.tally, state.job, seat_simulate.exact_figures(engine, state.job))
    else:
        report = sim.summary(state.tally, list(engine.BETS), sim.exact_returns(game, engine),
                             tuple(getattr(engine, "OUTCOME_RULES", ())))
    report.update({"seed": state.job.seed, "workers": workers, "seconds": f"{seconds:.2f}"})
    if args.scheduler:
        report["scheduler"] = args.scheduler
    if not state.finished():
        report["interrupted"] = True
    if args.json:
        print(json.dumps(report, ensure_ascii=False, indent=2))
    else:
        print(seat_simulate.seat_text_report(report) if state.job.kind == "tables" else sim.text_report(report))


def finish(args, state, log, problems: list[str], code: int, save_to: str | None) -> int:
    """The closing messages and the exit code."""
    kept = f"; {save_to} keeps the run: carry it on with --resume {save_to}" if save_to else ""
    if log is not None and log.error is not None:
        print(f"croupier: cannot write the log {args.log}: {log.error.strerror or log.error}; "
              f"stopped after {state.progress()} of {state.total} {state.unit}, the log is not kept", file=sys.stderr)
        return 1
    if problems:
        print(f"croupier: {problems[0]}", file=sys.stderr)
        if not state.finished():
            print(f"croupier: stopped after {state.progress()} of {state.total} {state.unit}{kept}", file=sys.stderr)
        return 1
    if state.finished():
        return code
    n, unit = state.progress(), state.unit
    if state.unit == "rounds":
        held = f"shoes 0..{state.done - 1}" if state.done else "no shoe"
    else:
        held = f"{unit} 0..{state.done - 1}" if state.done else f"no {unit[:-1]}"
    where = f"the log holds {held}" if log else "the report covers them" if state.done else "nothing to report"
    print(f"croupier: interrupted after {n} of {state.total} {unit}; {where}{kept}", file=sys.stderr)
    return 130


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
    """A rich progress bar on a terminal, in the run's unit; nothing otherwise."""

    def __init__(self, state, enabled: bool) -> None:
        self.state, self.enabled, self.bar = state, enabled, None

    def __enter__(self):
        if not self.enabled:
            return None
        from rich.console import Console
        from rich.progress import Progress

        # the bar draws with the terminal's own controls: it writes to the stream under the escaping one
        # (`main.terminal_streams`), and holds no text of the spec's
        self.bar = Progress(console=Console(file=getattr(sys.stdout, "stream", sys.stdout)))
        self.bar.start()
        task = self.bar.add_task(self.state.unit, total=self.state.total, completed=self.state.progress())
        return lambda done: self.bar.update(task, completed=done)

    def __exit__(self, *exc) -> None:
        if self.bar is not None:
            self.bar.stop()
