"""How the `croupier` command's process ends: its output flushed and its exit handlers run, then the
interpreter leaves without tearing down its heap.

At a normal exit Python frees every object the command made (the grammar's tables, the model, the
emitted engines, the analyses), one by one, only for the operating system to drop the whole process a
moment later: 7-8 ms of CPU for a cold `croupier analyze`, more for a build. `finish(code)` instead
flushes standard output and error, runs the `atexit` handlers (the multiprocessing, logging and
weakref.finalize clean-ups, a coverage tool's) and ends the process with `os._exit(code)`. Every file
Croupier writes is closed before the command returns (`croupier.outputs`), so nothing is left in a buffer.

It falls back to the ordinary exit (returns `code`) where skipping the teardown could lose something:
when a profiler or tracer is installed (it writes its report at the interpreter's exit), when another
thread is still running (the interpreter would wait for it), or when flushing the output fails (the
ordinary exit then reports it as usual). Only the command itself ends this way (`croupier.cli.main.run`
and `python -m croupier.cli.main`), never a process that calls `main()` as a library.
"""

from __future__ import annotations

import atexit
import os
import sys

__all__ = ["finish"]


def finish(code: int) -> int:
    """End the process with `code` at once when that loses nothing; otherwise return `code`."""
    if sys.getprofile() is not None or sys.gettrace() is not None:
        return code
    threading = sys.modules.get("threading")
    if threading is not None and threading.active_count() > 1:
        return code
    try:
        for stream in (sys.stdout, sys.stderr):
            if stream is not None:
                stream.flush()
    except (OSError, ValueError):  # a closed or broken pipe: the ordinary exit reports it as before
        return code
    atexit._run_exitfuncs()  # the handlers an ordinary exit runs, in the same (reverse) order
    try:
        for stream in (sys.stdout, sys.stderr):  # what a handler printed
            if stream is not None:
                stream.flush()
    finally:
        os._exit(code)
