"""Worker processes for a build or check of several specs: each spec taken to a level in a forked child.

`prepare(specs, level, ...)` resolves every spec here (parsing is cheap and the parser is then
shared), forks at most `jobs` children, hands each the next spec not yet done, and keeps what
it sends back in this process's work for that spec (`compile._Work.adopt`): the driver's
`compile_spec` then finds everything computed and gives exactly the result a serial build
gives, diagnostics in the same order. Only data crosses between the processes: a spec's index
one way; diagnostics, source text and files the other. The children are forks of this process
(nothing is imported or loaded from disk to start them) and ignore Ctrl-C: this process answers
it, ending every child it started by its own id before the interrupt goes on. A spec a child
could not finish (an error, a child that died) is left to the serial pass, which shows the
error as a serial build would.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
from multiprocessing.connection import Connection, wait
from pathlib import Path

from croupier.driver.compile import Level, compile_spec, resolved_work
from croupier.project import Project

__all__ = ["JOBS_VARIABLE", "default_jobs", "prepare"]

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
    """Take the specs that resolve to `level` in up to `jobs` worker processes, keeping their work in this
    process; nothing happens with one job, without fork, or when fewer than two specs are left to do."""
    if jobs < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return
    works = {i: resolved_work(p, project) for i, p in enumerate(specs)}
    todo = [i for i, w in works.items() if w is not None]
    if len(todo) < 2:
        return
    context = multiprocessing.get_context("fork")
    children: dict[Connection, multiprocessing.process.BaseProcess] = {}
    busy: dict[Connection, int] = {}
    try:
        for _ in range(min(jobs, len(todo))):
            ours, theirs = context.Pipe()
            child = context.Process(target=_serve, args=(theirs, specs, level, cases_dir, project), daemon=True)
            child.start()
            theirs.close()
            children[ours] = child
            busy[ours] = todo.pop(0)
            ours.send(busy[ours])
        while busy:
            for conn in wait(list(busy)):
                i = busy.pop(conn)
                try:
                    done = conn.recv()
                except (EOFError, OSError):  # the child died: its spec is left to the serial pass
                    continue
                if done is not None:
                    works[i].adopt(done)
                if todo:
                    busy[conn] = todo.pop(0)
                    conn.send(busy[conn])
    finally:
        _end(children)


def _end(children: dict[Connection, multiprocessing.process.BaseProcess]) -> None:
    """Tell every child there is no more work, end those still running, and wait for them all."""
    for conn, child in children.items():
        try:
            conn.send(None)
        except OSError:
            pass
        conn.close()
        child.join(timeout=0.5)
        if child.is_alive():
            child.terminate()
            child.join()


def _serve(conn: Connection, specs: list[Path], level: Level, cases_dir: Path | None,
           project: Project | None) -> None:
    """A child: take each spec index the parent sends to `level` and send back what was computed (None when
    it failed), until it sends None or goes away."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        while (i := conn.recv()) is not None:
            try:
                compile_spec(specs[i], level, cases_dir=cases_dir, project=project)
                conn.send(resolved_work(specs[i], project).done())
            except (EOFError, OSError):
                raise
            except Exception:  # noqa: BLE001 - the serial pass computes this spec again and shows the error
                conn.send(None)
    except (EOFError, OSError):
        pass
