"""`croupier.cli.quick_exit`: the command's process ends with its output flushed and its exit handlers run,
without tearing down its heap, and falls back to the ordinary exit where skipping the teardown could lose
something (a profiler, a running thread)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROLOGUE = """
import atexit, sys
from croupier.cli.quick_exit import finish

class Teardown:
    def __del__(self):
        print("torn down")

KEPT = Teardown()  # freed only by the interpreter's teardown
atexit.register(lambda: print("handler ran"))
print("output", end=" ")
"""


def child(body: str) -> subprocess.CompletedProcess:
    program = PROLOGUE + textwrap.dedent(body)
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True, cwd=ROOT)


def test_it_flushes_runs_the_exit_handlers_and_skips_the_teardown():
    got = child("sys.stderr.write('to stderr'); finish(3); print('not reached')")
    assert (got.returncode, got.stdout, got.stderr) == (3, "output handler ran\n", "to stderr")


def test_under_a_profiler_it_returns_to_the_ordinary_exit():
    got = child("sys.setprofile(lambda *a: None); code = finish(4); sys.setprofile(None); print('returned', code)")
    assert (got.returncode, got.stdout) == (0, "output returned 4\nhandler ran\ntorn down\n")


def test_with_another_thread_running_it_returns_to_the_ordinary_exit():
    got = child("""
        import threading
        go = threading.Event()
        worker = threading.Thread(target=go.wait)
        worker.start()
        code = finish(5)
        go.set()
        worker.join()
        print("returned", code)
    """)
    assert (got.returncode, got.stdout) == (0, "output returned 5\nhandler ran\ntorn down\n")


def test_the_command_ends_with_its_exit_code_and_whole_output(tmp_path):
    """`python -m croupier.cli.main` ends through `finish`: a failing command keeps its code and message, and a
    report written to a file is whole: the same bytes as `main` called in a process that exits as usual."""
    bad = subprocess.run([sys.executable, "-m", "croupier.cli.main", "check", str(tmp_path / "missing.rules")],
                         capture_output=True, text=True, cwd=ROOT)
    assert bad.returncode == 1 and "cannot read the spec" in bad.stderr
    args = ["analyze", "spec/baccarat.rules", "--json", "--deck-table"]
    reports = []
    for command in (["-m", "croupier.cli.main", *args],
                    ["-c", f"import sys; from croupier.cli.main import main; sys.exit(main({args!r}))"]):
        out = tmp_path / f"report{len(reports)}.json"
        with out.open("w") as stream:
            got = subprocess.run([sys.executable, *command], stdout=stream, stderr=subprocess.PIPE, text=True, cwd=ROOT)
        assert got.returncode == 0, got.stderr
        reports.append(out.read_bytes())
    assert reports[0] == reports[1] and len(reports[0]) > 5_000
