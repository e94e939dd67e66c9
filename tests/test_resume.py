"""Checkpoints and `--resume`: a run killed mid-way and resumed ends with the tallies of a run never stopped."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import BACCARAT, ROOT, SPEC

from croupier.backends.engine.loader import source_digest
from croupier.cli.main import main
from croupier.cli.simulate import compiled
from croupier.tools import campaign
from croupier.tools import checkpoint as ckpt

TIMING = ("seconds", "workers")


def croupier(*args: str) -> subprocess.Popen:
    # the child keeps the bytecode it compiles (PYTHONDONTWRITEBYTECODE set or not here), as cli_run's children do:
    # the killed run and its resumption import the same modules
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "compiler"), str(ROOT)])  # this checkout's croupier
    return subprocess.Popen([sys.executable, "-m", "croupier.cli.main", "simulate", *args],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def report(out: str) -> dict:
    data = json.loads(out)
    for key in TIMING:
        data.pop(key)
    return data


def saved(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def test_a_killed_run_resumes_to_the_tallies_of_an_uninterrupted_run(tmp_path, capsys):
    point = tmp_path / "campaign.json"
    args = (str(BACCARAT), "--shoes", "3000", "--seed", "9", "--json")
    proc = croupier(*args, "--jobs", "1", "--checkpoint", str(point), "--every", "0.1")
    deadline = time.monotonic() + 60
    while True:
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "no work checkpointed in a minute"
        state = saved(point)
        if state and state["done"][1] > 0:
            break
        time.sleep(0.02)
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL
    killed = saved(point)
    assert 0 < killed["done"][1] < 3000 and killed["finished"] is False  # the file is whole: written atomically
    assert [p.name for p in tmp_path.iterdir()] == ["campaign.json"]

    resumed = croupier(str(BACCARAT), "--resume", str(point), "--jobs", "2", "--json")
    out, err = resumed.communicate(timeout=300)
    assert resumed.returncode == 0, err
    # the uninterrupted run, the reference, through the same command's `main` in this process: the killed run
    # and its resumption are the processes under test
    capsys.readouterr()
    assert main(["simulate", *args, "--jobs", "2"]) == 0
    assert report(out) == report(capsys.readouterr().out)
    final = saved(point)
    assert final["finished"] is True and final["done"] == [0, 3000]
    assert final["tally"]["rounds"] == report(out)["rounds"]


def state_after(spec: Path, unit: str, total: int, job: campaign.Job, stop_after: int | None, workers: int = 1):
    game, source, _, texts = compiled(str(spec))
    state = campaign.State(job, unit, total)
    seen: list[int] = []
    campaign.run_local(state, source, game.name, workers, progress=seen.append,
                       stop=None if stop_after is None else lambda: len(seen) >= stop_after)
    return state, ckpt.Checkpoint(texts, source_digest(source), state), (source, game.name)


@pytest.mark.parametrize("spec, unit, total, job", [
    (BACCARAT, "rounds", 2500, campaign.Job("shoes", 4)),
    (SPEC / "ten_and_a_half.rules", "tables", 600, campaign.Job("tables", 2, 3, 8, 1, 10**9)),
])
def test_a_checkpoint_read_back_carries_the_run_on_exactly(tmp_path, spec, unit, total, job):
    stopped, cp, (source, name) = state_after(spec, unit, total, job, stop_after=1)
    assert 0 < stopped.done and not stopped.finished()
    cp.save(tmp_path / "c.json")
    back = ckpt.read(tmp_path / "c.json")
    assert back.state.tally == stopped.tally and back.state.done == stopped.done
    campaign.run_local(back.state, source, name, 2)
    whole, _, _ = state_after(spec, unit, total, job, stop_after=None)
    assert back.state.tally == whole.tally and back.state.finished()


def test_resume_refuses_another_spec_text_or_seed(tmp_path, capsys):
    point = tmp_path / "c.json"
    assert main(["simulate", str(BACCARAT), "--shoes", "3", "--jobs", "1", "--checkpoint", str(point)]) == 0
    capsys.readouterr()
    changed = tmp_path / "baccarat.rules"
    changed.write_text(BACCARAT.read_text(encoding="utf-8").replace("pays 1.95 including stake",
                                                                    "pays 2 including stake"), encoding="utf-8")
    assert main(["simulate", str(changed), "--resume", str(point)]) == 2
    assert "another text of the spec" in capsys.readouterr().err
    assert main(["simulate", str(BACCARAT), "--resume", str(point), "--seed", "1"]) == 2
    assert "it was made with --seed 0, not 1" in capsys.readouterr().err
    assert main(["simulate", str(BACCARAT), "--resume", str(point), "--rounds", "10"]) == 2
    assert "it counts shoes, not rounds" in capsys.readouterr().err
    assert main(["simulate", str(BACCARAT), "--shoes", "3", "--checkpoint", str(point)]) == 2
    assert f"--resume {point}" in capsys.readouterr().err  # never overwritten by a new run
    # a finished run resumed prints its report again, and a longer run carries it on
    assert main(["simulate", str(BACCARAT), "--resume", str(point), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["shoes"] == 3
    assert main(["simulate", str(BACCARAT), "--resume", str(point), "--shoes", "5", "--json", "--jobs", "1"]) == 0
    assert json.loads(capsys.readouterr().out)["shoes"] == 5


@pytest.mark.parametrize("text", [
    "", "not json", "[]", '{"format": "croupier-simulate-checkpoint", "version": 99}',
    '{"format": "croupier-simulate-checkpoint", "version": 1, "spec": {"shown": "x", "sources": []}}',
    "[" * 100_000,
])
def test_a_damaged_checkpoint_is_refused_with_a_message(tmp_path, capsys, text):
    point = tmp_path / "c.json"
    point.write_text(text, encoding="utf-8")
    assert main(["simulate", str(BACCARAT), "--resume", str(point)]) == 2
    err = capsys.readouterr().err
    assert "is not a checkpoint of croupier simulate" in err and "Traceback" not in err


def test_a_tampered_tally_is_refused(tmp_path, capsys):
    point = tmp_path / "c.json"
    assert main(["simulate", str(BACCARAT), "--shoes", "2", "--jobs", "1", "--checkpoint", str(point)]) == 0
    capsys.readouterr()
    data = json.loads(point.read_text(encoding="utf-8"))
    for bad in ({"rounds": -1}, {"rounds": "12"}, {"net": {"banker": ["1/0", 0, 0]}}, {"shoes": 7}):
        broken = json.loads(json.dumps(data))
        broken["tally"].update(bad)
        point.write_text(json.dumps(broken), encoding="utf-8")
        assert main(["simulate", str(BACCARAT), "--resume", str(point)]) == 2
        assert "is not a checkpoint of croupier simulate" in capsys.readouterr().err


def test_a_checkpoint_that_cannot_be_written_stops_before_anything_is_played(tmp_path, capsys):
    blocked = tmp_path / "file"
    blocked.write_text("", encoding="utf-8")
    assert main(["simulate", str(BACCARAT), "--shoes", "2", "--checkpoint", str(blocked / "c.json")]) == 2
    err = capsys.readouterr().err
    assert "cannot write the checkpoint" in err and "Traceback" not in err
