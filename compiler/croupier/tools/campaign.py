"""A simulation run as a campaign: pieces of seed ranges played by an executor, merged in seed order.

The run's work is numbered units (shoes, or seat tables), unit `i` dealt from the
seed `"<seed>/<i>"`. Pieces `(first, count)` are made lazily and handed to an
executor: this process alone, a pool of local processes, or a Dask cluster
(tools/cluster.py). Whatever order they finish in, `drive` merges them in seed
order, so that the tally (and a log) is a prefix of the run: units 0..done-1.
That makes the result the same for any executor and any piece size, and makes a
checkpoint a small thing to write: the prefix and its tally (tools/checkpoint.py).

A `--rounds N` run plays shoe after shoe and stops right after round N: each piece
is sent with the number of rounds still needed as known when it leaves (an upper
bound), and the piece that holds round N is played again here, cut at exactly that
round, when it was played with a looser bound. The shoe holding round N is cut short
the same way whatever the partition.
"""

from __future__ import annotations

import itertools
import multiprocessing
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import Protocol

from croupier.tools import seat_simulate, simulate
from croupier.tools.tally import SeatTally, Tally, num_in, num_out

UNITS = ("shoes", "rounds", "tables")
Result = tuple[Tally | SeatTally, str]  # a piece's tally and its log text


@dataclass(frozen=True)
class Job:
    """What every piece of a run plays: the kind of game, the run's seed, a seat table's options.

    It travels as JSON to cluster workers and into checkpoints.
    """

    kind: str  # "shoes" (a dealt-round game) or "tables" (a seat game)
    seed: int
    players: int = 0
    threshold: Fraction | None = None  # a seat hits while its total is below this
    stake: int = 1  # what each seat stakes, in a game whose tables take stakes
    coins: int = 0  # what each seat holds when a table starts
    per: str | None = None  # the table formula each player stakes (a banker game): the report's unit

    def to_json(self) -> dict:
        return {"kind": self.kind, "seed": self.seed, "players": self.players,
                "threshold": None if self.threshold is None else num_out(self.threshold),
                "stake": self.stake, "coins": self.coins, "per": self.per}

    @classmethod
    def from_json(cls, data: object) -> Job:
        if not isinstance(data, dict) or data.get("kind") not in ("shoes", "tables"):
            raise ValueError("job: not the description of a run")
        ints = {}
        for key in ("seed", "players", "stake", "coins"):
            value = data.get(key)
            if isinstance(value, bool) or not isinstance(value, int):
                raise ValueError(f"job: {key} is not a whole number")
            ints[key] = value
        t, per = data.get("threshold"), data.get("per")
        if per is not None and not isinstance(per, str):
            raise ValueError("job: per is not a name")
        return cls(data["kind"], threshold=None if t is None else Fraction(num_in(t, "threshold")), per=per, **ints)

    def new_tally(self) -> Tally | SeatTally:
        return SeatTally() if self.kind == "tables" else Tally()


@dataclass
class State:
    """Where a run stands: its unit and total, and the tally of units 0..done-1."""

    job: Job
    unit: str  # "shoes", "rounds" (shoes until that many rounds) or "tables"
    total: int
    done: int = 0
    tally: Tally | SeatTally | None = None

    def __post_init__(self) -> None:
        if self.tally is None:
            self.tally = self.job.new_tally()

    def finished(self) -> bool:
        return self.tally.rounds >= self.total if self.unit == "rounds" else self.done >= self.total

    def need(self) -> int | None:
        """Rounds still to play in a `--rounds` run (None otherwise)."""
        return self.total - self.tally.rounds if self.unit == "rounds" else None

    def progress(self) -> int:
        """How far the run is, in its unit."""
        return self.tally.rounds if self.unit == "rounds" else self.done

    def piece_size(self, workers: int, log: bool, cap: int = 250) -> int:
        left = self.total - self.progress()
        if self.unit == "tables":
            return simulate.chunk_size(left, workers, log, cap * 8)
        return simulate.chunk_size(left // 60 + 1 if self.unit == "rounds" else left, workers, log, cap)

    def pieces(self, size: int) -> Iterator[tuple[int, int]]:
        """The remaining pieces, lazily (a `--rounds` run does not know its number of shoes)."""
        if self.unit == "rounds":
            return ((first, size) for first in itertools.count(self.done, size))
        return simulate.chunks(self.total, size, self.done)


def play_piece(engine, job: Job, first: int, count: int, limit: int | None, log: bool,
               stop: Callable[[], bool] | None = None) -> Result:
    """Play units first..first+count-1 of a run with a loaded engine."""
    if job.kind == "tables":
        return seat_simulate.play_tables(engine, job, first, count, log, stop)
    return simulate.deal_shoes(engine, job.seed, first, count, log, stop, limit)


class Executor(Protocol):
    """Plays pieces somewhere; `collect` hands back those that are done, in any order."""

    window: int  # pieces worth keeping outstanding

    def submit(self, first: int, count: int, limit: int | None) -> None: ...

    def collect(self, timeout: float) -> list[tuple[int, Result]]: ...

    def pending(self) -> int: ...

    def halt(self) -> None: ...

    def close(self) -> None: ...


def drive(state: State, executor: Executor, size: int, sink: Callable[[str], object] | None = None,
          progress: Callable[[int], object] | None = None, stop: Callable[[], bool] | None = None,
          replay: Callable[[int, int, int], Result] | None = None,
          save: Callable[[State], object] | None = None, every: float = 5.0) -> State:
    """Play the rest of the run on `executor`, merging finished pieces into `state` in seed order.

    Each merged piece's log text goes to `sink` in that order. When `stop()` says yes, or
    the run is complete, the executor is halted: what it still returns whole and in order
    is merged, and `state` covers exactly units 0..done-1. `save(state)` is called at most
    every `every` seconds after a merge (a checkpoint). A worker's failure propagates.
    """
    stopped = stop or (lambda: False)
    pieces = state.pieces(size)
    outstanding: dict[int, int] = {}  # first unit -> count, sent and not merged
    ready: dict[int, Result] = {}
    nxt = state.done
    halted = False
    whole = True  # every piece merged so far was played in full: the tally is a prefix of the run
    saved = time.monotonic()

    def fill() -> None:
        while not halted and not state.finished() and len(outstanding) < executor.window:
            piece = next(pieces, None)
            if piece is None:
                return
            outstanding[piece[0]] = piece[1]
            executor.submit(piece[0], piece[1], state.need())

    def merge() -> None:
        nonlocal nxt, whole
        while whole and nxt in ready and not state.finished():
            first, count = nxt, outstanding.pop(nxt)
            tally, text = ready.pop(first)
            need = state.need()
            if need is not None and tally.rounds > need:
                tally, text = replay(first, count, need)  # cut at exactly round N
            state.tally.merge(tally)
            state.done = first + tally.units
            if sink is not None and text:
                sink(text)
            if progress is not None:
                progress(state.progress())
            whole = tally.units == count
            nxt = first + count

    try:
        fill()
        while outstanding and (not halted or executor.pending()):
            if not halted and (stopped() or state.finished() or not whole):
                halted = True
                executor.halt()  # workers stop before their next unit; what is in flight drains quickly
            for first, result in executor.collect(0.1):
                ready[first] = result
            merge()
            if save is not None and time.monotonic() - saved >= every:
                save(state)
                saved = time.monotonic()
            fill()
    finally:
        executor.halt()
        executor.close()
    return state


class Here:
    """The executor of one worker: this process plays each piece as it is submitted."""

    window = 1

    def __init__(self, engine, job: Job, log: bool, stop: Callable[[], bool]) -> None:
        self.engine, self.job, self.log, self.stop = engine, job, log, stop
        self.done: list[tuple[int, Result]] = []

    def submit(self, first: int, count: int, limit: int | None) -> None:
        self.done.append((first, play_piece(self.engine, self.job, first, count, limit, self.log, self.stop)))

    def collect(self, timeout: float) -> list[tuple[int, Result]]:
        out, self.done = self.done, []
        return out

    def pending(self) -> int:
        return 0

    def halt(self) -> None:
        pass

    def close(self) -> None:
        pass


_WORKER: tuple = ()


def _worker_init(source: str, name: str, job: Job, log: bool, halt) -> None:
    """Each worker keeps the run's engine and its halt event; the parent alone answers Ctrl-C."""
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER = (simulate.engine_of(source, name), job, log, halt)


def _worker_piece(piece: tuple[int, int, int | None]) -> Result:
    engine, job, log, halt = _WORKER
    return play_piece(engine, job, piece[0], piece[1], piece[2], log, halt.is_set)


class LocalPool:
    """The executor of a pool of forked local processes, at most two pieces per process in flight."""

    def __init__(self, source: str, name: str, job: Job, log: bool, workers: int) -> None:
        context = multiprocessing.get_context("fork")
        self.halt_event = context.Event()
        self.pool = context.Pool(workers, _worker_init, (source, name, job, log, self.halt_event))
        self.results: dict = {}  # first unit -> AsyncResult
        self.window = 2 * workers

    def submit(self, first: int, count: int, limit: int | None) -> None:
        self.results[first] = self.pool.apply_async(_worker_piece, ((first, count, limit),))

    def collect(self, timeout: float) -> list[tuple[int, Result]]:
        done = [first for first, r in self.results.items() if r.ready()]
        if not done and self.results:
            oldest = min(self.results)
            self.results[oldest].wait(timeout)
            done = [first for first, r in self.results.items() if r.ready()]
        return [(first, self.results.pop(first).get()) for first in done]

    def pending(self) -> int:
        return len(self.results)

    def halt(self) -> None:
        self.halt_event.set()

    def close(self) -> None:
        # Never Pool.terminate(): it can deadlock on a worker that is sending a result.
        self.halt_event.set()
        for result in self.results.values():
            result.wait()
        self.pool.close()
        self.pool.join()


def run_local(state: State, source: str, name: str, workers: int = 1,
              sink: Callable[[str], object] | None = None, progress: Callable[[int], object] | None = None,
              stop: Callable[[], bool] | None = None, save: Callable[[State], object] | None = None,
              every: float = 5.0) -> State:
    """Drive the run on this machine: in this process (one worker) or a pool of `workers` processes."""
    log = sink is not None
    stopped = stop or (lambda: False)
    engine = simulate.engine_of(source, name)
    here = Here(engine, state.job, log, stopped)
    executor = here if workers == 1 else LocalPool(source, name, state.job, log, workers)

    def replay(first: int, count: int, limit: int) -> Result:
        return play_piece(engine, state.job, first, count, limit, log, stopped)

    return drive(state, executor, state.piece_size(workers, log), sink, progress, stopped, replay, save, every)
