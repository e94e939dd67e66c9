"""Attacks of a hostile or careless contributor on a shared repository (issue 32, repros 1-5, 8, 12, 17, 19-22).

Writes stay inside the project: `out`, `spec` and `cases` resolve inside its root (symbolic links followed), a
build writes through no link and over no file its manifest does not list, a configuration that is not the
user's own is ignored with a warning, an output option never names an input, and a spec linked to a file
outside the project is never read (so never quoted). `fmt` and `init` leave files as the user left them.
"""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

import pytest
from cli_run import in_child, in_process
from conftest import BACCARAT, ROOT

from croupier import cache
from croupier.cli.main import main

SPEC_TEXT = BACCARAT.read_text(encoding="utf-8")


def project(folder: Path, config: str = "") -> Path:
    """A project holding baccarat.rules, configured by `config` (the defaults when empty)."""
    (folder / "spec").mkdir(parents=True, exist_ok=True)
    (folder / "spec" / "baccarat.rules").write_text(SPEC_TEXT, encoding="utf-8")
    (folder / "croupier.toml").write_text(config, encoding="utf-8")
    return folder


# ---- 1, 2, 3: writes outside the project ------------------------------------------------------------------------

@pytest.mark.parametrize("out", ["../victim", "/tmp/croupier-victim-abs", "spec/../../victim"])
def test_out_outside_the_project_is_refused(tmp_path, out):
    root = project(tmp_path / "p", f'out = "{out}"\n')
    victim = tmp_path / "victim"
    victim.mkdir()
    (victim / "keep.txt").write_text("mine\n", encoding="utf-8")
    done = in_process("build", cwd=root)
    assert done.returncode == 2 and "outside the project" in done.stderr, done.stderr
    assert [p.name for p in victim.iterdir()] == ["keep.txt"]
    assert not Path("/tmp/croupier-victim-abs").exists()


def test_a_config_folder_linked_out_of_the_project_is_refused(tmp_path):
    (tmp_path / "elsewhere").mkdir()
    root = project(tmp_path / "p", 'out = "gen"\n')
    (root / "gen").symlink_to(tmp_path / "elsewhere")
    done = in_process("build", cwd=root)
    assert done.returncode == 2 and "outside the project" in done.stderr
    assert list((tmp_path / "elsewhere").iterdir()) == []


def test_build_never_overwrites_a_file_it_did_not_write(tmp_path):
    root = project(tmp_path / "p", 'out = "."\n')
    shutil.copytree(ROOT / "tests" / "cases", root / "tests" / "cases")
    mine = root / "tests" / "test_baccarat.py"
    mine.write_text("# hand-written\n", encoding="utf-8")
    done = in_process("build", cwd=root)
    assert done.returncode == 1 and "did not write it" in done.stderr and str(mine) in done.stderr, done.stderr
    assert mine.read_text(encoding="utf-8") == "# hand-written\n"


def test_build_writes_through_no_symbolic_link(tmp_path):
    outside = tmp_path / "outside"
    outside.mkdir()
    root = project(tmp_path / "p")
    (root / "generated").mkdir()
    (root / "generated" / "engines").symlink_to(outside, target_is_directory=True)
    done = in_process("build", cwd=root)
    assert done.returncode == 1 and "symbolic link" in done.stderr, done.stderr
    assert list(outside.iterdir()) == []


def test_build_out_on_the_command_line_may_name_another_folder(tmp_path):
    root = project(tmp_path / "p")
    done = in_process("build", "--out", str(tmp_path / "elsewhere"), cwd=root)
    assert done.returncode == 0, done.stderr
    assert (tmp_path / "elsewhere" / "engines" / "baccarat.py").is_file()


# ---- 4: a configuration that is not the user's own ---------------------------------------------------------------

def test_a_configuration_others_may_write_is_ignored_with_a_warning(tmp_path):
    shared = project(tmp_path / "shared")
    config = shared / "croupier.toml"
    config.chmod(0o666)
    if os.getuid() == 0:  # as git's safe.directory: another user's file (only root can give one away)
        os.chown(config, 54321, -1)
    (shared / "sub").mkdir()
    done = in_process("build", cwd=shared / "sub")
    assert done.returncode == 2, done.stderr
    assert f"warning: ignoring {config}" in done.stderr and "no Croupier project here" in done.stderr
    assert not (shared / "generated").exists()


# ---- 5: an output option naming an input --------------------------------------------------------------------------

def test_no_output_option_may_name_an_input(tmp_path):
    spec = tmp_path / "game.rules"
    spec.write_text(SPEC_TEXT, encoding="utf-8")
    link = tmp_path / "link.rules"
    link.symlink_to(spec)
    for args in (("simulate", str(spec), "--shoes", "1", "--log", str(spec)),
                 ("simulate", str(spec), "--shoes", "1", "--log", str(link)),
                 ("diff", str(spec), str(spec), "--html", str(link)),
                 ("play", str(spec), "--jsonl", "--log", str(spec))):
        done = in_process(*args, cwd=tmp_path)
        assert done.returncode == 2 and "an input of this command" in done.stderr, (args, done.stderr)
        assert spec.read_text(encoding="utf-8") == SPEC_TEXT and link.is_symlink()


# ---- 8: a spec linked to a file outside the project ---------------------------------------------------------------

def test_a_spec_linked_out_of_the_project_is_never_quoted(tmp_path):
    secret = tmp_path / "environ"
    secret.write_text("MY_CI_TOKEN=supersecret\nOTHER=x\n", encoding="utf-8")
    root = project(tmp_path / "p")
    (root / "spec" / "leak.rules").symlink_to(secret)
    done = in_child("check", cwd=root, timeout=300)
    assert done.returncode == 1 and "resolves outside the project" in done.stderr, done.stderr
    assert "supersecret" not in done.stdout + done.stderr and "Traceback" not in done.stderr
    named = in_process("check", str(root / "spec" / "leak.rules"), cwd=tmp_path)
    assert named.returncode == 1 and "supersecret" not in named.stdout + named.stderr


# ---- 12: only regular files are read -----------------------------------------------------------------------------

def test_check_does_not_wait_on_a_fifo_in_the_output_folder(tmp_path):
    root = project(tmp_path / "p")
    assert in_process("build", cwd=root).returncode == 0
    engine = root / "generated" / "engines" / "baccarat.py"
    engine.unlink()
    os.mkfifo(engine)
    done = in_child("check", cwd=root, timeout=120)
    assert done.returncode == 1 and "not a regular file" in done.stderr, done.stderr


def test_resume_and_configuration_do_not_wait_on_a_fifo(tmp_path):
    fifo = tmp_path / "c.json"
    os.mkfifo(fifo)
    done = in_process("simulate", str(BACCARAT), "--resume", str(fifo), cwd=tmp_path)
    assert done.returncode == 2 and "not a regular file" in done.stderr, done.stderr
    (tmp_path / "p").mkdir()
    os.mkfifo(tmp_path / "p" / "croupier.toml")
    assert in_process("build", cwd=tmp_path / "p").returncode == 2


# ---- 17: languages Babel does not know, NUL in a folder name ------------------------------------------------------

@pytest.mark.parametrize("lang", ["xx", "qaa", "zz-Zzzz"])
def test_a_language_babel_does_not_know_is_refused(tmp_path, lang):
    root = project(tmp_path / "p", f'languages = ["en", "{lang}"]\n')
    done = in_process("build", cwd=root)
    assert done.returncode == 2 and "knows no such language" in done.stderr, done.stderr
    init = in_process("init", str(tmp_path / "new"), "--languages", "en", lang, cwd=tmp_path)
    assert init.returncode == 2 and "knows no such language" in init.stderr
    assert not (tmp_path / "new").exists()


@pytest.mark.parametrize("key", ["out", "spec", "cases"])
def test_a_nul_in_a_folder_setting_is_a_message(tmp_path, key):
    root = project(tmp_path / "p", f'{key} = "gen\\u0000erated"\n')
    done = in_process("build", cwd=root)
    assert done.returncode == 2 and f"`{key}` must be a folder name" in done.stderr, done.stderr


# ---- 19, 20: fmt keeps files as the user left them ----------------------------------------------------------------

UNFORMATTED = 'game g "G"\nversion   "1"\n'


def test_fmt_writes_through_a_symbolic_link(tmp_path):
    real = tmp_path / "real.rules"
    real.write_text(UNFORMATTED, encoding="utf-8")
    link = tmp_path / "link.rules"
    link.symlink_to(real)
    assert in_process("fmt", str(link), cwd=tmp_path).returncode == 0
    assert link.is_symlink() and real.read_text(encoding="utf-8") == 'game g "G"\nversion "1"\n'


def test_fmt_keeps_the_mode_and_refuses_read_only_and_hard_linked_files(tmp_path):
    private = tmp_path / "private.rules"
    private.write_text(UNFORMATTED, encoding="utf-8")
    private.chmod(0o600)
    old = os.umask(0o022)
    try:
        assert in_process("fmt", str(private), cwd=tmp_path).returncode == 0
    finally:
        os.umask(old)
    assert stat.S_IMODE(private.stat().st_mode) == 0o600 and "version \"1\"" in private.read_text(encoding="utf-8")
    for name, prepare, reason in (("ro.rules", lambda p: p.chmod(0o444), "read-only"),
                                  ("hard.rules", lambda p: os.link(p, tmp_path / "other.rules"), "hard links")):
        path = tmp_path / name
        path.write_text(UNFORMATTED, encoding="utf-8")
        prepare(path)
        done = in_process("fmt", str(path), cwd=tmp_path)
        assert done.returncode == 1 and reason in done.stderr, done.stderr
        assert path.read_text(encoding="utf-8") == UNFORMATTED
    assert stat.S_IMODE((tmp_path / "ro.rules").stat().st_mode) == 0o444


def test_fmt_keeps_comments_on_the_label_lines_of_an_assumption(tmp_path):
    text = SPEC_TEXT
    head = text.index("\nassume tie_stake_of_both_sides") + 1
    lines = text[head:].split("\n")
    lines[1] += "  # the English text"
    lines[2] += "  # the traditional text"
    spec = tmp_path / "b.rules"
    spec.write_text(text[:head] + "\n".join(lines), encoding="utf-8")
    done = in_process("fmt", str(spec), cwd=tmp_path)
    assert done.returncode == 0 and "internal error" not in done.stderr, done.stderr
    after = spec.read_text(encoding="utf-8")
    assert "# the English text" in after and "# the traditional text" in after
    short = tmp_path / "short.rules"  # labels that fit on the head line: each comment still kept, one a line
    short.write_text('game g "G"\nassume a  # one\n    "x"  # two\n    zh-Hant "y"  # three\n', encoding="utf-8")
    assert in_process("fmt", str(short), cwd=tmp_path).returncode == 0
    assert [c in short.read_text(encoding="utf-8") for c in ("# one", "# two", "# three")] == [True] * 3
    assert in_process("fmt", "--check", str(short), str(spec), cwd=tmp_path).returncode == 0


# ---- 21: init is all or nothing ---------------------------------------------------------------------------------

def test_init_writes_nothing_where_a_folder_it_needs_is_a_file(tmp_path):
    (tmp_path / "spec").write_text("a file\n", encoding="utf-8")
    done = in_process("init", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 2 and "nothing written" in done.stderr, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["spec"]


def test_init_never_shadows_a_pyproject_configuration(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.croupier]\nout = "build"\n', encoding="utf-8")
    done = in_process("init", str(tmp_path), cwd=tmp_path)
    assert done.returncode == 2 and "[tool.croupier]" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pyproject.toml"]


def test_init_that_fails_half_way_leaves_nothing(tmp_path, monkeypatch):
    from croupier import outputs

    real, calls = outputs.write_atomic, []

    def failing(path, data, *args, **kw):
        calls.append(path)
        if len(calls) == 3:
            raise outputs.OutputError(path, "write", OSError(28, "No space left on device"))
        return real(path, data, *args, **kw)

    monkeypatch.setattr(outputs, "write_atomic", failing)
    done = in_process("init", str(tmp_path / "new"), cwd=tmp_path)
    assert done.returncode == 1 and "nothing is left written" in done.stderr
    assert not (tmp_path / "new").exists()


# ---- 22: the cache folders are private under any umask ----------------------------------------------------------

def test_cache_folders_are_0700_under_umask_000(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.delenv("CROUPIER_CACHE", raising=False)
    old = os.umask(0)
    try:
        folder = cache.private_folder()
    finally:
        os.umask(old)
    assert folder == tmp_path / ".cache" / "croupier" / f"v{cache.FORMAT}"
    for made in (tmp_path / ".cache", tmp_path / ".cache" / "croupier", folder):
        assert stat.S_IMODE(made.stat().st_mode) == 0o700, made


def test_main_compiles_clean_from_a_copy(tmp_path):
    """The repository's own project still builds and checks within its rules (every setting inside the root)."""
    root = tmp_path / "copy"
    shutil.copytree(ROOT / "spec", root / "spec")
    shutil.copytree(ROOT / "tests" / "cases", root / "tests" / "cases")
    shutil.copy(ROOT / "croupier.toml", root / "croupier.toml")
    assert in_process("build", cwd=root).returncode == 0
    assert main(["check", "--no-stale", str(root / "spec" / "baccarat.rules")]) == 0
