"""`simulate --scheduler`: a Dask cluster plays the same run as the local path, tally for tally.

A `LocalCluster` of two worker processes is started here; `croupier simulate` runs
as a subprocess against its scheduler (a second run's client is the command's `main` here), and its JSON report must equal, field for
field, the one of `--workers 1` on this machine (all but the timing, the number of
workers and the scheduler's address). The local run, the reference, goes through the
same command's `main` in this process: the process under test is the cluster's client.
The tests that call the cluster's functions directly compile the spec as a worker does,
without the static checks (they are not under test here; tests/test_checks.py runs them).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import ROOT, SPEC

from croupier.backends.engine.loader import source_digest
from croupier.cli.main import main
from croupier.driver.compile import Level, compile_spec
from croupier.tools import campaign, cluster
from croupier.tools.spec_texts import CompileError, SpecTexts, compile_texts

MACHINE_FIELDS = ("seconds", "workers", "scheduler")


# Dask's own diagnostics, which sample the cluster all the while it is up, whether it works or not: each worker's
# statistical profiler (a stack sample every 10 ms), every process's event-loop health check (every 20 ms), the
# system monitor (every 500 ms) and the memory monitor (every 100 ms). They feed the dashboard and warnings, not a
# result, and nothing here reads them; sampled less often (none for the profiler), a cluster left idle for 10 s
# takes 1.9 s of CPU instead of 3.1 s (perf stat, the scheduler, its client and every worker process counted).
QUIET = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.admin.system-monitor.interval": "5s",
    "distributed.worker.memory.monitor-interval": "1s",
}


@pytest.fixture(scope="module")
def scheduler():
    # imported here, not with the file: every xdist worker collects this file, one runs it (0.7 s of CPU)
    import dask
    from distributed import LocalCluster

    # worker processes forked from one server process that imported dask.distributed once, not each started
    # afresh and importing it (distributed's own test suite does the same): 1 s of CPU less
    with dask.config.set({"distributed.worker.multiprocessing-method": "forkserver", **QUIET}), \
            LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None) as lc:
        yield lc.scheduler_address


def without_machine_fields(out: str) -> dict:
    report = json.loads(out)
    for key in MACHINE_FIELDS:
        report.pop(key, None)
    return report


def simulate(*args: str) -> dict:
    """The report of `croupier simulate ARGS --json` run as a new process."""
    # the child keeps the bytecode it compiles (PYTHONDONTWRITEBYTECODE set or not here), as cli_run's children do
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = str(ROOT / "compiler")
    done = subprocess.run([sys.executable, "-m", "croupier.cli.main", "simulate", *args, "--json"],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "Traceback" not in done.stderr
    return without_machine_fields(done.stdout)


def simulate_here(capsys, monkeypatch, *args: str) -> dict:
    """The report of the same command's `main` in this process, run from the same folder."""
    monkeypatch.chdir(ROOT)
    capsys.readouterr()
    assert main(["simulate", *args, "--json"]) == 0
    return without_machine_fields(capsys.readouterr().out)


def client(spec: Path):
    """(game, engine source, spec texts) of a spec as `croupier simulate` sends them to the workers."""
    c = compile_spec(spec, Level.ENGINE)
    assert c.ok, c.diagnostics
    return c.game, c.engine_source, SpecTexts.of(c.sources, c.spec)


@pytest.mark.parametrize("args, client_process", [
    (("spec/baccarat_commission.rules", "--shoes", "40", "--seed", "7"), True),  # a variant: its base travels as text
    (("spec/ten_and_a_half_banker.rules", "--tables", "300", "--players", "4"), False),
])
def test_the_cluster_and_one_local_worker_give_the_same_report(scheduler, args, client_process, capsys, monkeypatch):
    """The first run's client is a process of its own (its exit code, its stderr without a traceback, its JSON
    on stdout); the second's is the same command's `main` in this process (a client of the same scheduler and
    workers, which remain processes of their own), sparing a child's start and its import of distributed."""
    if client_process:
        remote = simulate(*args, "--scheduler", scheduler)
    else:
        remote = simulate_here(capsys, monkeypatch, *args, "--scheduler", scheduler)
    local = simulate_here(capsys, monkeypatch, *args, "--workers", "1")
    assert remote == local
    assert remote.get("shoes", remote.get("tables")) == int(args[2])


def test_rounds_on_the_cluster_stop_at_the_same_round_as_locally(scheduler):
    game, source, texts = client(SPEC / "baccarat.rules")
    digest = source_digest(source)
    states = []
    for where in ("cluster", "local"):
        state = campaign.State(campaign.Job("shoes", 3), "rounds", 1234)
        if where == "cluster":
            _, threads = cluster.run_cluster(state, scheduler, texts, source, game.name, digest)
            assert threads == 2
        else:
            campaign.run_local(state, source, game.name, 1)
        states.append(state)
    assert states[0].tally == states[1].tally and states[0].done == states[1].done
    assert states[0].tally.rounds == 1234 and states[0].tally.shoes_cut == 1


def test_workers_compile_the_texts_they_are_sent_and_nothing_from_their_disk(tmp_path):
    base = (SPEC / "baccarat.rules").read_text(encoding="utf-8")
    variant = (SPEC / "baccarat_commission.rules").read_text(encoding="utf-8")
    gone = tmp_path / "nowhere"  # no such folder: every text comes from the message
    texts = SpecTexts(((str(gone / "baccarat_commission.rules"), variant), (str(gone / "baccarat.rules"), base)),
                      "spec/baccarat_commission.rules")
    game, source = compile_texts(texts)
    assert game.name == "baccarat_commission" and "baccarat_commission" in source
    _, here, _ = client(SPEC / "baccarat_commission.rules")
    assert source == here  # the same engine as the client's, byte for byte
    with pytest.raises(CompileError, match="another engine"):
        compile_texts(texts, "0" * 64)
    broken = SpecTexts(((str(gone / "x.rules"), variant.replace("extends baccarat", "extends nothere")),), "x.rules")
    with pytest.raises(CompileError, match="does not compile here"):
        compile_texts(broken)


def test_a_worker_that_cannot_compile_fails_the_run_with_a_message(scheduler):
    game, source, texts = client(SPEC / "baccarat.rules")
    state = campaign.State(campaign.Job("shoes", 0), "shoes", 4)
    with pytest.raises(cluster.ClusterError, match="another engine"):
        cluster.run_cluster(state, scheduler, texts, source, game.name, "f" * 64)
    assert state.done == 0


def test_a_worker_refuses_texts_once_then_at_once(monkeypatch):
    """Texts that do not compile to the client's engine are compiled once in a worker: the task's retry and the
    run's other pieces get the same refusal without compiling again; the same texts under other paths are compiled
    afresh, and with the engine's own digest they still play. (A small clean spec: what is counted is compiles.)"""
    monkeypatch.setattr(cluster, "_REMOTE", {})
    compiles = []

    def counted(texts, digest=None):
        compiles.append(texts.root)
        return compile_texts(texts, digest)

    monkeypatch.setattr(cluster, "compile_texts", counted)
    small = ROOT / "tests" / "errors" / "base_ok.rules"
    texts = SpecTexts(((str(small), small.read_text(encoding="utf-8")),), "base_ok.rules")
    job = campaign.Job("shoes", 0).to_json()
    for _ in range(3):
        with pytest.raises(CompileError, match="another engine"):
            cluster.play_remote(texts.to_json(), "f" * 64, job, 0, 1, None, False)
    assert compiles == [str(small)]
    moved = SpecTexts((("elsewhere.rules", texts.sources[0][1]),), "base_ok.rules")
    with pytest.raises(CompileError, match="another engine"):
        cluster.play_remote(moved.to_json(), "f" * 64, job, 0, 1, None, False)
    assert compiles == [str(small), "elsewhere.rules"]
    digest = source_digest(compile_texts(texts)[1])
    data, _ = cluster.play_remote(texts.to_json(), digest, job, 0, 1, None, False)
    assert data["shoes"] == 1 and len(compiles) == 3
