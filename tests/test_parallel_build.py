"""A build in worker processes (`--jobs`) gives what a build in one process gives: files, diagnostics, order."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import ROOT

from croupier import cache
from croupier.cli.main import main
from croupier.driver import parallel, pipeline
from croupier.project import find_project

SPECS = {  # a valid dealt-round game, a seat game, and one whose checks find an error
    "a_dragon_tiger.rules": ROOT / "spec" / "dragon_tiger.rules",
    "b_banker.rules": ROOT / "spec" / "ten_and_a_half_banker.rules",
    "c_error.rules": ROOT / "tests" / "errors" / "E0403_bet_never_wins.rules",
}


def make_project(root: Path):
    (root / "croupier.toml").write_text('spec = "spec"\nout = "generated"\nlanguages = ["en", "zh-Hans"]\n',
                                        encoding="utf-8")
    (root / "spec").mkdir()
    for name, source in SPECS.items():
        shutil.copy(source, root / "spec" / name)
    return find_project(root)


@pytest.fixture(scope="module")
def serial_memory(tmp_path_factory) -> dict:
    """The in-process cache after one build in one process of a project of these specs, compiled afresh (no disk
    cache, nothing kept before): the reference every parallel build of this module is held to. A compile is
    kept under the display path and texts of its spec, not its folder, so a project of the same specs elsewhere
    finds it; each test compiles its parallel side afresh."""
    project = make_project(tmp_path_factory.mktemp("serial"))
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("CROUPIER_CACHE", "off")
        mp.setattr(cache, "_MEMORY", {})
        results, _ = pipeline.compile_all(project.specs(), project=project, jobs=1)
        assert [r.ok for r in results] == [True, True, False]
        return cache._MEMORY


def serial_from(memory: dict, monkeypatch) -> None:
    """This process's cache from now on: a copy of the module's serial build's (`serial_memory`), so that what
    a serial compile finds kept is that build's work, and what the test keeps stays its own."""
    monkeypatch.setattr(cache, "_MEMORY", {kind: type(kept)(kept) for kind, kept in memory.items()})


@pytest.fixture
def project(tmp_path, monkeypatch, own_memory):
    """A project of its own, compiled without a disk cache, with an in-process cache of the test's own (the
    session's set aside) that starts empty."""
    monkeypatch.setenv("CROUPIER_CACHE", "off")
    cache.forget()
    yield make_project(tmp_path)
    cache.forget()


def compiled(project, jobs: int, emit: bool = True, forget: bool = True) -> list[tuple]:
    if forget:
        cache.forget()
    results, sources = pipeline.compile_all(project.specs(), emit=emit, project=project, jobs=jobs)
    return [(r.spec, r.ok, r.diagnostics, r.artefacts, r.facts, r.engine_source) for r in results], sources


@pytest.mark.parametrize("emit", [True, False])
def test_two_jobs_give_what_one_gives(project, emit, serial_memory, monkeypatch):
    """Two worker processes, compiling afresh, give what one process gave (the module's serial build, whose
    results at the level asked are read from what it kept)."""
    serial_from(serial_memory, monkeypatch)
    serial, serial_sources = compiled(project, 1, emit, forget=False)
    two, two_sources = compiled(project, 2, emit)
    assert two == serial
    assert two_sources == serial_sources
    assert [ok for _spec, ok, *_rest in serial] == [True, True, False], "the error spec fails, the rest build"
    assert any(d.code == "E0403" for d in serial[2][2])
    if emit:
        assert any(name.startswith("cards/") for name in serial[0][3]), "the cards were built"


def test_results_of_workers_are_kept_like_the_serial_ones(project, monkeypatch):
    """A worker's spec is adopted here, its engine loaded here, and a second build asks no worker again."""
    from croupier.driver import compile as driver

    adopted, here = [], []
    real_adopt, real_compile = driver._Work.adopt, parallel.compile_spec
    monkeypatch.setattr(driver._Work, "adopt", lambda work, done: adopted.append(work.name) or real_adopt(work, done))
    monkeypatch.setattr(parallel, "compile_spec", lambda path, *a, **kw: here.append(str(path)) or real_compile(
        path, *a, **kw))  # the list a worker appends to is its own copy: `here` holds this process's specs only
    cache.forget()
    specs = project.specs()[:2]
    results, _ = pipeline.compile_all(specs, project=project, jobs=2)
    assert sorted(adopted + here) == sorted(map(str, specs)), "each spec compiled here or adopted from the worker"
    assert all(r.ok and r.engine is not None and r.engine.GAME == r.game.name for r in results)
    forks = []
    real = parallel.multiprocessing.get_context

    def counting(method):
        forks.append(method)
        return real(method)

    parallel.multiprocessing.get_context = counting
    try:
        again, _ = pipeline.compile_all(project.specs()[:2], project=project, jobs=2)
    finally:
        parallel.multiprocessing.get_context = real
    assert forks == [], "nothing left to do: no worker is started"
    assert [r.artefacts for r in again] == [r.artefacts for r in results]


def test_build_with_jobs_writes_the_same_files(project, tmp_path, monkeypatch, capsys, serial_memory):
    """`build --jobs 2`, compiling afresh, writes what `build --jobs 1` writes (its specs' compiles are the module's
    serial build's, read from what it kept; the card index and the files are this build's own)."""
    (project.root / "spec" / "c_error.rules").unlink()  # a build with an error writes nothing
    monkeypatch.chdir(project.root)
    out = {}
    for jobs in ("1", "2"):
        if jobs == "1":
            serial_from(serial_memory, monkeypatch)
        else:
            cache.forget()
        assert main(["build", "--jobs", jobs, "--out", str(tmp_path / jobs)]) == 0, capsys.readouterr().err
        out[jobs] = {str(p.relative_to(tmp_path / jobs)): p.read_bytes()
                     for p in sorted((tmp_path / jobs).rglob("*")) if p.is_file()}
    assert out["1"] == out["2"] and len(out["1"]) > 5


@pytest.mark.parametrize("bad", ["0", "-1", "two"])
def test_jobs_must_be_a_whole_number_of_at_least_one(bad, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["build", "--jobs", bad])
    assert exc.value.code == 2
    assert "the number of jobs must be a whole number of at least 1" in capsys.readouterr().err


def test_default_jobs_from_the_environment(monkeypatch):
    monkeypatch.setenv(parallel.JOBS_VARIABLE, "3")
    assert parallel.default_jobs() == 3
    monkeypatch.setenv(parallel.JOBS_VARIABLE, "zero")
    assert parallel.default_jobs() == parallel.cores() >= 1


def _alive(pid: int) -> bool:
    try:
        return "zombie" not in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False


def _children(pid: int) -> list[int]:
    return [int(c) for task in Path(f"/proc/{pid}/task").iterdir() for c in (task / "children").read_text().split()]


def test_ctrl_c_ends_a_parallel_build_and_its_workers_and_writes_nothing(project, tmp_path):
    """Ctrl-C while workers compile: exit 130 without a traceback, every worker gone, no file written."""
    (project.root / "spec" / "c_error.rules").unlink()
    out = tmp_path / "out"
    env = dict(os.environ, CROUPIER_CACHE="off", CROUPIER_JOBS="2", PYTHONPATH=os.pathsep.join([str(ROOT / "compiler"), str(ROOT)]))
    # the child answers Ctrl-C even when this run ignores it (a shell's background job does: Python then
    # installs no KeyboardInterrupt, rightly, and a build that ignores Ctrl-C would run to its end)
    proc = subprocess.Popen([sys.executable, "-m", "croupier.cli.main", "build", "--out", str(out)],
                            cwd=project.root, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    deadline = time.monotonic() + 60
    while not (workers := _children(proc.pid)):  # a worker forked: the build is under way in two processes
        assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
        time.sleep(0.01)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err, err
    deadline = time.monotonic() + 5
    while any(_alive(w) for w in workers):
        assert time.monotonic() < deadline, "a worker outlived the build"
        time.sleep(0.05)
    assert not out.exists() or not any(out.rglob("*.py")), "nothing was written"
