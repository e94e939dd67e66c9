"""Attacks on `croupier simulate`: it must never lose a run's results, hang, or hold memory without bound.

Every test replays one repro of issue 11 (and the engine cache fault of issue 12).
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cli_run import child_env
from conftest import BACCARAT, ROOT

from croupier.cli.main import main
from croupier.cli.simulate import game_engine
from croupier.tools import simulate as sim


def test_a_log_that_cannot_be_opened_stops_before_anything_is_simulated(tmp_path, capsys, monkeypatch):
    def no_run(*args, **kwargs):
        raise AssertionError("the run started although the log cannot be written")

    monkeypatch.setattr(sim, "run", no_run)
    for bad in ("/nonexistent/l.jsonl", str(tmp_path)):
        assert main(["simulate", str(BACCARAT), "--shoes", "5", "--jobs", "1", "--log", bad]) == 2
        err = capsys.readouterr().err
        assert f"cannot write the log {bad}:" in err and "Traceback" not in err
    assert list(tmp_path.iterdir()) == []  # no temporary file left behind


def test_a_log_that_fails_while_writing_keeps_the_report(capsys):
    code = main(["simulate", str(BACCARAT), "--shoes", "50", "--jobs", "1", "--json", "--log", "/dev/full"])
    captured = capsys.readouterr()
    assert code == 1
    assert "No space left on device" in captured.err and "of 50 shoes" in captured.err
    assert json.loads(captured.out)["shoes"] >= 1


def croupier(*args: str) -> subprocess.Popen:
    env = child_env()
    return subprocess.Popen([sys.executable, "-m", "croupier.cli.main", "simulate", str(BACCARAT), *args],
                            cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_log_lines(folder: Path, proc: subprocess.Popen, least: int = 1) -> None:
    """Wait until the run has written into its (temporary) log: it has really started."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        assert proc.poll() is None, proc.communicate()
        if sum(p.stat().st_size for p in folder.iterdir()) >= least:
            return
        time.sleep(0.05)
    raise AssertionError("the run wrote nothing in a minute")


def peak_rss_kb(pid: int) -> int:
    """The peak resident memory of a process (VmHWM), in kB."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1))


def children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        out += [int(c) for c in (task / "children").read_text().split()]
    return out


@pytest.mark.parametrize("workers", ["2", "1"])
def test_ctrl_c_stops_promptly_with_a_whole_partial_log(tmp_path, workers):
    folder = tmp_path / "out"
    folder.mkdir()
    log = folder / "rounds.jsonl"
    proc = croupier("--shoes", "1000000", "--jobs", workers, "--json", "--log", str(log))
    wait_for_log_lines(folder, proc, least=200_000)  # a few shoes logged
    proc.send_signal(signal.SIGINT)
    sent = time.monotonic()
    out, err = proc.communicate(timeout=30)
    assert time.monotonic() - sent < 5
    assert proc.returncode == 130
    assert "Traceback" not in err
    found = re.search(r"interrupted after (\d+) of 1000000 shoes; the log holds shoes 0\.\.(\d+)", err)
    assert found, err
    done = int(found.group(1))
    assert done >= 1 and int(found.group(2)) == done - 1
    assert [p.name for p in folder.iterdir()] == ["rounds.jsonl"]  # the temporary file was put in place
    text = log.read_text(encoding="utf-8")
    assert text.endswith("\n")
    records = [json.loads(line) for line in text.splitlines()]  # every line whole JSON
    assert sorted({r["shoe"] for r in records}) == list(range(done))
    report = json.loads(out)
    assert report["shoes"] == done and report["rounds"] == len(records) and report["interrupted"] is True
    # the partial log is the start of the deterministic one
    _, first = sim.simulate(*shoe_source(), 1, seed=0, log=True)
    assert records[:len(first)] == first


def shoe_source() -> tuple[str, str]:
    game, src, _ = game_engine(str(BACCARAT))
    return src, game.name


LOGGED = 16_000_000  # bytes of log the billion-shoe run writes before its memory is read


def test_a_billion_shoes_start_in_bounded_memory(tmp_path):
    folder = tmp_path / "out"
    folder.mkdir()
    proc = croupier("--shoes", "1000000000", "--jobs", "2", "--log", str(folder / "rounds.jsonl"))
    wait_for_log_lines(folder, proc)
    started = peak_rss_kb(proc.pid)
    # then run until the log holds ~200 shoes (a shoe logs ~70 kB): ~30 pieces of 8 shoes, far more than the
    # 4 in flight; held text or pieces made ahead would show as the parent's growth
    wait_for_log_lines(folder, proc, least=LOGGED)
    peaks = [peak_rss_kb(pid) for pid in [proc.pid, *children(proc.pid)]]
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130 and "of 1000000000 shoes" in err
    assert len(peaks) == 3  # the parent and its two workers
    assert max(peaks) < 300_000, peaks
    assert peaks[0] - started < LOGGED // 1024 // 2, (started, peaks)  # kB: not half the log written


def test_pieces_are_made_lazily_and_a_huge_run_stops_at_once():
    src, name = shoe_source()
    pieces = sim.chunks(10**18, 250)
    assert next(pieces) == (0, 250) and next(pieces) == (250, 250)
    asked = []

    def stop() -> bool:
        asked.append(1)
        return len(asked) > 5

    started = time.monotonic()
    tally = sim.run(src, name, 10**18, seed=0, workers=1, stop=stop)
    assert 1 <= tally.shoes <= 5 and time.monotonic() - started < 10


def test_one_shoe_reports_no_interval_instead_of_failing(capsys):
    assert main(["simulate", str(BACCARAT), "--shoes", "1", "--jobs", "1", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["shoes"] == 1
    for row in report["bets"].values():
        assert row["ci95"] is None and row["net_per_unit"] is not None
        assert row.get("exact_in_ci", None) is None
    assert main(["simulate", str(BACCARAT), "--shoes", "1", "--jobs", "1"]) == 0
    assert "CI n/a: an interval needs at least two shoes" in capsys.readouterr().out


def test_workers_are_bounded(capsys):
    assert main(["simulate", str(BACCARAT), "--shoes", "5", "--jobs", "1000"]) == 2
    assert f"--jobs must be between 1 and {sim.MAX_WORKERS}" in capsys.readouterr().err
    src, name = shoe_source()
    with pytest.raises(ValueError):
        sim.run(src, name, 5, workers=sim.MAX_WORKERS + 1)


def test_a_changed_spec_with_the_same_name_plays_its_own_engine(tmp_path, capsys):
    def banker(spec: Path) -> str:
        assert main(["simulate", str(spec), "--shoes", "3", "--jobs", "1", "--json"]) == 0
        return json.loads(capsys.readouterr().out)["bets"]["banker"]["net_per_unit"]

    before = banker(BACCARAT)
    text = BACCARAT.read_text(encoding="utf-8")
    assert "pays 1.95 including stake" in text
    changed = tmp_path / "baccarat.rules"
    changed.write_text(text.replace("pays 1.95 including stake", "pays 2 including stake"), encoding="utf-8")
    after = banker(changed)
    assert after != before
    assert banker(BACCARAT) == before
