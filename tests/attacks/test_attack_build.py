"""Attacks on `croupier build`: deleting files it did not write, and half-written outputs.

`build` deletes only files its manifest says an earlier build wrote, handled as paths (never
split on `:`), never through a symbolic link or out of the output folder; with no manifest it
deletes nothing. Every file is written whole (temporary file, fsync, `os.replace`), and an
I/O error is a one-line message naming the path, with no traceback and no partial file.
"""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from cli_run import child_env
from conftest import BACCARAT

from croupier import outputs
from croupier.cli.main import main
from croupier.driver import pipeline

MANIFEST = ".croupier-manifest.json"


@pytest.fixture(scope="module")
def compiled():
    """One spec compiled once; `build` below reuses it instead of compiling again."""
    results, loader = pipeline.compile_all([BACCARAT])
    assert all(r.ok for r in results)
    return results, loader


@pytest.fixture
def build(compiled, monkeypatch, capsys):
    """Run `croupier build` as a full build of the compiled spec into OUT: (exit code, stdout, stderr)."""
    monkeypatch.setattr(pipeline, "compile_all", lambda specs, **kw: compiled)

    def run(out: Path) -> tuple[int, str, str]:
        """`croupier build` in a project whose root is the folder holding `out` (named generated/)."""
        assert out.name == "generated"
        out.parent.mkdir(parents=True, exist_ok=True)
        (out.parent / "croupier.toml").write_text('out = "generated"\n', encoding="utf-8")
        monkeypatch.chdir(out.parent)
        capsys.readouterr()
        code = main(["build"])
        captured = capsys.readouterr()
        return code, captured.out, captured.err

    return run


def expected_files(compiled) -> dict[str, bytes]:
    return {rel: text.encode("utf-8") for r in compiled[0] for rel, text in r.artefacts.items()}


def test_build_keeps_files_it_did_not_write(build, compiled, tmp_path):
    out = tmp_path / "generated"
    assert build(out)[0] == 0
    foreign = [out / "NOTES.md", out / ".gitkeep", out / "engines" / "baccarat.py:bak", out / "cards" / "mine.html"]
    for f in foreign:
        f.write_text("mine\n", encoding="utf-8")
    code, stdout, stderr = build(out)
    assert code == 0, stderr
    for f in foreign:
        assert f.read_text(encoding="utf-8") == "mine\n", f"{f.name} was deleted or changed"
    for rel, data in expected_files(compiled).items():
        assert (out / rel).read_bytes() == data, f"{rel} is not what build writes"
    assert "removed" not in stderr


def test_build_never_deletes_outside_a_project_whose_path_holds_a_colon(build, tmp_path):
    outside = tmp_path / "p"
    outside.write_text("outside the project\n", encoding="utf-8")
    out = tmp_path / "p:q" / "proj" / "generated"
    assert build(out)[0] == 0
    (out / "engines" / "stray.py").write_text("# stray\n", encoding="utf-8")
    assert build(out)[0] == 0
    assert outside.read_text(encoding="utf-8") == "outside the project\n"
    assert (out / "engines" / "stray.py").exists()


def test_first_build_without_a_manifest_deletes_nothing(build, tmp_path):
    out = tmp_path / "generated"
    old = out / "engines" / "old_game.py"
    old.parent.mkdir(parents=True)
    old.write_text("# written by a build before manifests\n", encoding="utf-8")
    assert build(out)[0] == 0
    assert old.exists()
    listed = json.loads((out / MANIFEST).read_text(encoding="utf-8"))["files"]
    assert "engines/baccarat.py" in listed and "engines/old_game.py" not in listed


def test_build_removes_what_an_earlier_build_wrote_and_no_spec_writes_now(build, tmp_path):
    out = tmp_path / "generated"
    assert build(out)[0] == 0
    manifest = out / MANIFEST
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["files"] += ["engines/removed_game.py", "cards/removed_game.en.md"]
    manifest.write_text(json.dumps(data), encoding="utf-8")
    for rel in ("engines/removed_game.py", "cards/removed_game.en.md"):
        (out / rel).write_text("old\n", encoding="utf-8")
    (out / "NOTES.md").write_text("notes\n", encoding="utf-8")
    code, _, stderr = build(out)
    assert code == 0
    assert not (out / "engines" / "removed_game.py").exists()
    assert not (out / "cards" / "removed_game.en.md").exists()
    assert "removed_game.py" in stderr
    assert (out / "NOTES.md").exists()
    assert "engines/removed_game.py" not in json.loads(manifest.read_text(encoding="utf-8"))["files"]


def test_manifest_entries_out_of_the_folder_or_through_links_are_never_deleted(build, tmp_path):
    out = tmp_path / "proj" / "generated"
    assert build(out)[0] == 0
    victim_dir = tmp_path / "victim"
    victim_dir.mkdir()
    victim = victim_dir / "keep.txt"
    victim.write_text("keep\n", encoding="utf-8")
    (tmp_path / "proj" / "README.md").write_text("keep\n", encoding="utf-8")
    (out / "linked").symlink_to(victim_dir, target_is_directory=True)
    (out / "engines" / "link.py").symlink_to(victim)
    entries = ["../README.md", str(victim), "engines/../../README.md", "linked/keep.txt", "engines/link.py",
               "./engines/baccarat.py", "engines//x.py", "engines\\..\\..\\README.md", "", MANIFEST, 7, None]
    manifest = out / MANIFEST
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["files"] += entries
    manifest.write_text(json.dumps(data), encoding="utf-8")
    assert build(out)[0] == 0
    assert victim.read_text(encoding="utf-8") == "keep\n"
    assert (tmp_path / "proj" / "README.md").exists()
    assert (out / "linked").is_symlink() and (out / "engines" / "link.py").is_symlink()
    assert (out / "engines" / "baccarat.py").exists() and manifest.exists()


@pytest.mark.parametrize("damage", ["{not json", '{"format": 1, "files": "engines/x.py"}', "[1, 2]", '{"format": 9}'])
def test_a_damaged_manifest_deletes_nothing(build, tmp_path, damage):
    out = tmp_path / "generated"
    assert build(out)[0] == 0
    (out / "engines" / "x.py").write_text("mine\n", encoding="utf-8")
    (out / MANIFEST).write_text(damage, encoding="utf-8")
    assert build(out)[0] == 0
    assert (out / "engines" / "x.py").exists()


def test_check_counts_listed_leftovers_as_stale_and_foreign_files_as_not(build, compiled, tmp_path):
    out = tmp_path / "generated"
    assert build(out)[0] == 0
    results = compiled[0]
    assert pipeline.stale(results, out, full=True) == []
    (out / "NOTES.md").write_text("notes\n", encoding="utf-8")
    (out / "engines" / "baccarat.py:bak").write_text("old\n", encoding="utf-8")
    assert pipeline.stale(results, out, full=True) == [], "a file no build wrote is not stale"
    manifest = out / MANIFEST
    data = json.loads(manifest.read_text(encoding="utf-8"))
    data["files"].append("engines/gone.py")
    manifest.write_text(json.dumps(data), encoding="utf-8")
    (out / "engines" / "gone.py").write_text("old\n", encoding="utf-8")
    problems = pipeline.stale(results, out, full=True)
    assert any("gone.py" in p and "no spec writes it now" in p for p in problems)
    assert not any("NOTES.md" in p or ":bak" in p for p in problems)
    manifest.unlink()
    assert any(MANIFEST in p and "missing" in p for p in pipeline.stale(results, out, full=True))


def no_temporary_files(folder: Path) -> bool:
    return not [p for p in folder.rglob("*.tmp")]


def test_a_full_disk_mid_build_leaves_every_file_whole(build, compiled, monkeypatch, tmp_path):
    out = tmp_path / "generated"
    assert build(out)[0] == 0
    engine = out / "engines" / "baccarat.py"
    engine.write_bytes(b"# the old engine\n")
    card = out / "cards" / "baccarat.en.md"
    card.write_bytes(b"old card\n")
    real_fsync = os.fsync
    held = f".{engine.name}."  # the engine's temporary file: `outputs.write_atomic` names it after the engine

    def fsync(fd):  # the disk is full when the engine is written, whenever that is (files are written
        # several at a time, so the card may come before or after it): the card goes through
        if Path(os.readlink(f"/proc/self/fd/{fd}")).name.startswith(held):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    code, _, stderr = build(out)
    assert code == 1
    assert "Traceback" not in stderr
    assert f"cannot write {engine}: No space left on device" in stderr
    assert engine.read_bytes() == b"# the old engine\n", "the old engine is intact"
    assert card.read_bytes() == expected_files(compiled)["cards/baccarat.en.md"], "the card is whole"
    assert no_temporary_files(out)


def test_write_atomic_leaves_the_old_file_when_the_disk_fills_mid_write(monkeypatch, tmp_path):
    target = tmp_path / "card.html"
    target.write_bytes(b"old\n")
    real_fdopen = os.fdopen

    class HalfWriter:
        """A file that takes half of what it is given, then finds the disk full."""

        def __init__(self, f):
            self.f = f

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            self.f.close()

        def write(self, data):
            self.f.write(data[: len(data) // 2])
            self.f.flush()
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(os, "fdopen", lambda fd, mode: HalfWriter(real_fdopen(fd, mode)))
    with pytest.raises(outputs.OutputError) as info:
        outputs.write_atomic(target, b"new" * 30000)
    assert str(info.value) == f"cannot write {target}: No space left on device"
    assert target.read_bytes() == b"old\n"
    assert [p.name for p in tmp_path.iterdir()] == ["card.html"], "no partial file is left"


def test_a_read_only_folder_gives_a_clear_error(build, monkeypatch, tmp_path):
    out = tmp_path / "generated"
    real_open = os.open

    def read_only(path, flags, *args, **kwargs):
        if flags & os.O_CREAT:
            raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", read_only)
    code, _, stderr = build(out)
    assert code == 1 and "Traceback" not in stderr
    assert "Read-only file system" in stderr and str(out) in stderr
    assert not list(out.rglob("*.py")) and no_temporary_files(out)


def test_a_folder_where_a_file_must_go_gives_a_clear_error(build, tmp_path):
    out = tmp_path / "generated"
    (out / "engines" / "baccarat.py").mkdir(parents=True)
    code, _, stderr = build(out)
    assert code == 1 and "Traceback" not in stderr
    assert f"cannot write {out / 'engines' / 'baccarat.py'}" in stderr
    assert no_temporary_files(out)


def test_a_file_where_a_folder_must_go_gives_a_clear_error(build, tmp_path):
    out = tmp_path / "generated"
    out.mkdir()
    (out / "cards").write_text("not a folder\n", encoding="utf-8")
    code, _, stderr = build(out)
    assert code == 1 and "Traceback" not in stderr
    assert str(out / "cards") in stderr
    assert (out / "cards").read_text(encoding="utf-8") == "not a folder\n"


def test_a_build_killed_while_writing_leaves_the_old_file_whole(tmp_path):
    """SIGKILL in the middle of writing the engine: the old engine is still there, whole."""
    out = tmp_path / "generated"
    engine = out / "engines" / "baccarat.py"
    engine.parent.mkdir(parents=True)
    engine.write_bytes(b"# the old engine\n" * 100)
    (out / MANIFEST).write_text(outputs.manifest_text(["engines/baccarat.py"]), encoding="utf-8")  # a build's
    script = (
        "import os, signal, sys\n"
        "from croupier.cli.main import main\n"
        "real_fsync = os.fsync\n"
        "def fsync(fd):\n"
        "    if 'baccarat.py' in os.readlink(f'/proc/self/fd/{fd}'):\n"
        "        os.kill(os.getpid(), signal.SIGKILL)\n"
        "    real_fsync(fd)\n"
        "os.fsync = fsync\n"
        "sys.exit(main(sys.argv[1:]))\n"
    )
    env = child_env()
    proc = subprocess.run([sys.executable, "-c", script, "build", str(BACCARAT), "--out", str(out)], env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == -9, proc.stderr
    assert engine.read_bytes() == b"# the old engine\n" * 100


def test_write_atomic_replaces_a_link_instead_of_writing_through_it_and_fits_long_names(tmp_path):
    outside = tmp_path / "outside.txt"
    outside.write_bytes(b"keep\n")
    out = tmp_path / "out"
    out.mkdir()
    (out / "engine.py").symlink_to(outside)
    outputs.write_if_changed(out / "engine.py", b"new\n")
    assert outside.read_bytes() == b"keep\n"
    assert not (out / "engine.py").is_symlink() and (out / "engine.py").read_bytes() == b"new\n"
    long_name = out / ("n" * 250 + ".md")
    outputs.write_atomic(long_name, b"x\n")
    assert long_name.read_bytes() == b"x\n" and no_temporary_files(out)
