"""Worker processes for a build or check of several specs: specs taken to a level side by side.

`prepare(specs, level, ...)` resolves every spec here (parsing is cheap, and the parser and
the resolved models are then shared), forks `jobs - 1` children, and this process and the
children each take the next spec not yet taken (a shared counter; those that look longest
first, see `_weight`) until none is left. What a child computed comes back as
data and is kept in this process's work for that spec (`compile._Work.adopt`), so that the
driver's `compile_spec` then finds everything computed and gives exactly the result of a
serial build, diagnostics in the same order.

Only data crosses between the processes: diagnostics, source text and files, sent by
the children (spec indices come from the shared counter). The children are forks of this
process (nothing is imported or loaded from disk to start them; what they inherit is frozen out of
the garbage collector's reach, `gc.freeze`, until they are done) and ignore Ctrl-C: this
process answers it, ending every child it started by its own id before the interrupt goes
on. A spec a child could not finish (an error, a child that died) is left to the serial
pass, which shows the error as a serial build would.
"""

from __future__ import annotations

import gc
import multiprocessing
import os
import signal
import threading
from multiprocessing.connection import Connection
from pathlib import Path

from croupier.driver.compile import Level, compile_spec, languages_of, resolved_work
from croupier.project import Project

__all__ = ["JOBS_VARIABLE", "cores", "default_jobs", "prepare"]

JOBS_VARIABLE = "CROUPIER_JOBS"


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def default_jobs() -> int:
    """How many specs are compiled at once when no `--jobs` is given: $CROUPIER_JOBS if it is a whole
    number of at least 1, else one per core."""
    text = os.environ.get(JOBS_VARIABLE, "").strip()
    if text.isdigit() and int(text) >= 1:
        return int(text)
    return cores()


def prepare(specs: list[Path], level: Level, cases_dir: Path | None, project: Project | None, jobs: int) -> None:
    """Take the specs that resolve to `level` in this process and `jobs - 1` forked ones, keeping all the
    work here; nothing happens with one job, without fork, or with fewer than two specs left to do (those
    whose work at this level is kept from earlier are done)."""
    if jobs < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return
    works = {i: resolved_work(p, project) for i, p in enumerate(specs)}
    langs = languages_of(project)
    cases = cases_dir if cases_dir is not None or project is None else project.cases_dir  # as `compile_spec` does
    todo = [i for i, w in works.items() if w is not None and not w.settled(level, cases, langs)]
    if len(todo) < 2:
        return
    todo.sort(key=lambda i: _weight(works[i].game))  # the longest first, so that the last to finish are short
    _load_shared(level, langs)
    context = multiprocessing.get_context("fork")
    taken = context.Value("i", 0)  # how many of `todo` are taken
    children: list[tuple[Connection, multiprocessing.process.BaseProcess, threading.Thread]] = []
    received: list[tuple[int, dict | None]] = []
    gc.freeze()  # what every process inherits stays to the end: no collection walks it, nor copies its pages
    try:
        for _ in range(min(jobs, len(todo)) - 1):
            ours, theirs = context.Pipe(duplex=False)
            child = context.Process(target=_serve, args=(theirs, taken, todo, specs, level, cases_dir, project),
                                    daemon=True)
            reader = threading.Thread(target=_receive, args=(ours, received), daemon=True)
            blocked = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})  # a Ctrl-C now waits until
            try:  # the child is on the list that `finally` ends
                child.start()
                children.append((ours, child, reader))
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, blocked)
            theirs.close()
            reader.start()
        while (n := _take(taken)) < len(todo):
            compile_spec(specs[todo[n]], level, cases_dir=cases_dir, project=project)
            _adopt(received, works)  # what the workers sent meanwhile, between this process's own specs
        for _conn, child, reader in children:
            reader.join()
            child.join()
    finally:
        for conn, child, _reader in children:
            if child.is_alive():
                child.terminate()
            child.join()
            conn.close()
        gc.unfreeze()
    _adopt(received, works)


def _adopt(received: list[tuple[int, dict | None]], works: dict) -> None:
    """Keep, in the work of their specs, the results received so far (emptying the list)."""
    while received:
        i, done = received.pop(0)  # list.pop is atomic: a reader thread may append meanwhile
        if done is not None:
            works[i].adopt(done)


def _load_shared(level: Level, langs: tuple[str, ...]) -> None:
    """Import, before forking, the stages every process uses at `level`, and load the card templates, so that
    the children inherit them instead of each loading its own."""
    import croupier.backends.engine.emitter
    import croupier.backends.engine.oracle
    import croupier.checks  # noqa: F401 - imported for the children to inherit

    if level >= Level.ALL:
        import croupier.backends.cards.mathematics
        import croupier.backends.conformance.emitter
        import croupier.semantics.cases
        import croupier.tools.analysis.card_analysis
        import croupier.tools.analysis.seat  # noqa: F401 - imported for the children to inherit
        from croupier.backends.cards.render import load_templates

        load_templates(langs)


def _weight(game) -> tuple[bool, int]:
    """A sort key putting the specs that take longest first (a guess from the model, not a measure): seat
    games (their hand surveys and threshold analyses are the longest), then games with more payouts (each
    payout row splits the rounds the exact analyses tell apart). Equal keys keep the order given."""
    return (not game.is_seat_game, -sum(1 for b in game.bets.values() for w in b.wins for _p in w.payouts()))


def _take(taken) -> int:
    """The index (into the specs to do) of the next spec not yet taken, by this process or another."""
    with taken.get_lock():
        n = taken.value
        taken.value = n + 1
    return n


def _receive(conn: Connection, received: list) -> None:
    """Keep every (spec index, work done) a child sends, until it closes its end."""
    try:
        while True:
            received.append(conn.recv())
    except (EOFError, OSError):
        pass


def _serve(conn: Connection, taken, todo: list[int], specs: list[Path], level: Level, cases_dir: Path | None,
           project: Project | None) -> None:
    """A child: take the next spec not yet taken to `level` and send back what was computed (None when it
    failed), until none is left or the parent is gone (killed: the child is then another's)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    parent = os.getppid()
    try:
        while os.getppid() == parent and (n := _take(taken)) < len(todo):  # a parent gone takes nothing more
            i = todo[n]
            try:
                compile_spec(specs[i], level, cases_dir=cases_dir, project=project)
                conn.send((i, resolved_work(specs[i], project).done()))
            except (EOFError, OSError):
                raise
            except Exception:  # noqa: BLE001 - the serial pass computes this spec again and shows the error
                conn.send((i, None))
    except (EOFError, OSError):
        pass
    finally:
        conn.close()
