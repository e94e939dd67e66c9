"""Running `croupier` for the attack tests, in a child process or in this one.

A child process (`in_child`) is what a user runs: the exit code, the two streams and the absence of a
traceback are those of a real `python -m croupier.cli.main`. Each contract an attack file tests keeps
at least one such run. The repeats of a contract (the same command on another bad spec or line) run
in this process (`in_process`): the same argv given to `croupier.cli.main.main`, run from the same
folder, with stdin, stdout and stderr text streams over bytes with the encodings and error handlers a
child would get, and the same exit code (a `SystemExit` from argparse included). An exception that
would print a traceback in a child escapes to the test here and fails it, so nothing is checked less;
what is saved is the child's interpreter start and imports (0.3-0.5 s a run).

A child's environment (`child_env`) lets Python keep the bytecode of the modules it compiles, as it does
by default and as an installed Croupier has it, even where PYTHONDONTWRITEBYTECODE is set (as on some
development machines): each module of compiler/croupier/ is then compiled once, into the `__pycache__` folders git
ignores, and not again in every child (about 0.15 s of a child's start-up). Nothing a test checks depends
on it: Python reads a module's bytecode only while it matches the source.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

from croupier.cli.main import main

ROOT = Path(__file__).resolve().parent.parent.parent


def child_env(env: Mapping[str, str] | None = None, **more: str) -> dict[str, str]:
    """The environment of a child running Croupier: `env` (by default this process's) with the repository's compiler/ on
    PYTHONPATH, `more`, and bytecode kept (no PYTHONDONTWRITEBYTECODE; see the module's docstring)."""
    env = dict(os.environ if env is None else env, PYTHONPATH=os.pathsep.join([str(ROOT / "compiler"), str(ROOT)]),
               **more)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def in_child(*args: str, stdin: str | bytes = "", timeout: float = 120, cwd: Path = ROOT,
             env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    """`croupier ARGS` in a child process; text in and out unless `stdin` is bytes."""
    env = child_env(env)
    return subprocess.run([sys.executable, "-m", "croupier.cli.main", *args], cwd=cwd, env=env, input=stdin,
                          capture_output=True, text=isinstance(stdin, str), timeout=timeout, check=False)


def _stream(like, data: bytes = b"") -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(data), encoding=like.encoding, errors=like.errors, write_through=True)


def in_process(*args: str, stdin: str | bytes = "", cwd: Path = ROOT) -> subprocess.CompletedProcess:
    """`croupier ARGS` through `main` in this process, answered like `in_child`."""
    data = stdin.encode("utf-8") if isinstance(stdin, str) else stdin
    fin = _stream(sys.__stdin__, data)
    out, err = _stream(sys.__stdout__), _stream(sys.__stderr__)
    with contextlib.chdir(cwd), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err), \
            _stdin(fin):
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse's usage errors, as a child exits with them
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    stdout, stderr = out.buffer.getvalue(), err.buffer.getvalue()
    if isinstance(stdin, str):
        return subprocess.CompletedProcess(["croupier", *args], code, _text(stdout), _text(stderr))
    return subprocess.CompletedProcess(["croupier", *args], code, stdout, stderr)


def _text(data: bytes) -> str:
    """What `subprocess.run(text=True)` reads from a child's stream: UTF-8, universal newlines."""
    return data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")


@contextlib.contextmanager
def _stdin(stream: io.TextIOWrapper):
    saved = sys.stdin
    sys.stdin = stream
    try:
        yield
    finally:
        sys.stdin = saved
