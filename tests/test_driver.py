"""The driver: one entry point, three levels, results kept in process under a content key."""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from contextlib import redirect_stderr, redirect_stdout
from importlib import metadata
from pathlib import Path

import pytest

import croupier
from croupier import cache
from croupier.cli.main import main
from croupier.driver.compile import Level, compile_spec
from croupier.semantics.resolve import Loader

ROOT = Path(__file__).resolve().parent.parent
BACCARAT = ROOT / "spec" / "baccarat.rules"


@pytest.fixture
def resolves(monkeypatch, session_cache, own_memory):
    """An empty cache in memory (the disk cache is the test session's own: it keeps no parsed spec, so that
    every resolve is counted), and the list of specs the driver parses and resolves."""
    monkeypatch.setenv("CROUPIER_CACHE", str(session_cache))
    calls: list[str] = []
    real = Loader.load

    def counting(loader, shown, text=None, depth=0, opened=None):  # a spec's parse and resolve (its bases within)
        name = str(opened if opened is not None else shown)
        if depth:
            return real(loader, shown, text, depth, opened)
        calls.append(Path(name).name)
        return real(loader, shown, text, depth, opened)

    monkeypatch.setattr(Loader, "load", counting)
    cache.forget()
    yield calls
    cache.forget()


@pytest.fixture
def specs(tmp_path) -> Path:
    folder = tmp_path / "spec"
    folder.mkdir()
    for name in ("baccarat.rules", "baccarat_commission.rules"):
        shutil.copy(ROOT / "spec" / name, folder / name)
    return folder


def test_each_level_adds_to_the_one_below(resolves):
    engine = compile_spec(BACCARAT, Level.ENGINE)
    checked = compile_spec(BACCARAT, Level.CHECKED)
    full = compile_spec(BACCARAT, Level.ALL)
    assert resolves == ["baccarat.rules"]  # one parse and resolve serves the three levels
    assert engine.ok and checked.ok and full.ok
    assert engine.game is checked.game is full.game and engine.engine is full.engine
    assert engine.engine_source == (ROOT / "generated" / "engines" / "baccarat.py").read_text(encoding="utf-8")
    assert engine.facts["name"] == "baccarat" and engine.facts["dealt_round"] and not engine.facts["seat_game"]
    assert engine.artefacts == {} and checked.artefacts == {}
    assert full.artefacts["engines/baccarat.py"] == engine.engine_source
    assert {"cards/baccarat.en.md", "cards/baccarat.zh-Hant.html", "tests/test_baccarat.py"} <= set(full.artefacts)
    assert set(engine.sources) == {"spec/baccarat.rules"}


def test_checks_run_only_from_checked_up(resolves, monkeypatch):
    import croupier.checks

    ran = []
    monkeypatch.setattr(croupier.checks, "run_checks", lambda game, *more: ran.append(game.name) or [])
    compile_spec(BACCARAT, Level.ENGINE)
    assert ran == []
    compile_spec(BACCARAT, Level.CHECKED)
    compile_spec(BACCARAT, Level.ALL)
    assert ran == ["baccarat"]


def test_results_are_the_callers_own(resolves):
    first = compile_spec(BACCARAT, Level.ALL)
    first.artefacts.clear()
    first.diagnostics.append("noise")
    again = compile_spec(BACCARAT, Level.ALL)
    assert "engines/baccarat.py" in again.artefacts and "noise" not in again.diagnostics


def test_the_key_is_the_content_not_the_game_name(resolves, specs):
    spec = specs / "baccarat.rules"
    text = spec.read_text(encoding="utf-8")
    before = compile_spec(spec)
    spec.write_text(text.replace("pays 9 including stake", "pays 10 including stake"), encoding="utf-8")
    after = compile_spec(spec)
    assert before.facts["name"] == after.facts["name"] == "baccarat"
    assert before.engine_source != after.engine_source
    spec.write_text(text, encoding="utf-8")
    assert compile_spec(spec).engine is before.engine  # the first content again: the first result
    assert resolves == ["baccarat.rules", "baccarat.rules"]


def test_the_same_text_at_another_path_is_another_spec(resolves, specs, tmp_path):
    other = tmp_path / "elsewhere"
    other.mkdir()
    shutil.copy(specs / "baccarat.rules", other / "baccarat.rules")
    a, b = compile_spec(specs / "baccarat.rules"), compile_spec(other / "baccarat.rules")
    assert a.spec != b.spec and a.engine_source != b.engine_source  # the header names the spec's path
    assert len(resolves) == 2


def project_copy(folder: Path, case_text: str) -> Path:
    """A project of its own in `folder`: the repository's croupier.toml, two specs (a variant and its base) and
    one case file; returns the variant."""
    (folder / "spec").mkdir(parents=True)
    (folder / "tests" / "cases").mkdir(parents=True)
    shutil.copy(ROOT / "croupier.toml", folder / "croupier.toml")
    for name in ("baccarat.rules", "baccarat_commission.rules"):
        shutil.copy(ROOT / "spec" / name, folder / "spec" / name)
    (folder / "tests" / "cases" / "baccarat.toml").write_text(case_text, encoding="utf-8")
    return folder / "spec" / "baccarat_commission.rules"


def test_a_copy_of_a_project_shares_the_work_of_the_same_texts(resolves, tmp_path, monkeypatch):
    """Two copies of one project, in two folders: the variant of the second is resolved (which bases a file
    extends depends on where it lies) and then finds the work of the first (its texts and display path are the
    same, so are its game, engine, checks and files); case diagnostics, which name a case file by its path,
    are the second copy's own."""
    import croupier.backends.cards.render as render

    rendered = []
    real = render.render_cards
    monkeypatch.setattr(render, "render_cards", lambda game, lang, *more: rendered.append(lang) or
                        real(game, lang, *more))
    cases = (ROOT / "tests" / "cases" / "baccarat.toml").read_text(encoding="utf-8")
    a, b = project_copy(tmp_path / "a", cases), project_copy(tmp_path / "b", cases)
    first, second = compile_spec(a, Level.ALL), compile_spec(b, Level.ALL)
    assert resolves == ["baccarat_commission.rules"] * 2
    assert first.ok and second.ok and first.spec == second.spec == "spec/baccarat_commission.rules"
    assert second.game is first.game and second.engine is first.engine
    assert second.artefacts == first.artefacts and "tests/test_baccarat_commission.py" in second.artefacts
    assert len(rendered) == 3  # one card a language, for both copies
    # a case lacking its source, input and expect: a diagnostic naming the file, from the project's root
    c, d = project_copy(tmp_path / "c", "[[case]]\nid = 1\n"), project_copy(tmp_path / "d", "[[case]]\nid = 2\n")
    third, fourth = compile_spec(c, Level.ALL), compile_spec(d, Level.ALL)
    assert fourth.engine is first.engine
    assert [(x.span.file, x.message) for x in third.diagnostics] == [
        ("tests/cases/baccarat.toml", "case '1' lacks source, input, expect")]
    assert [(x.span.file, x.message) for x in fourth.diagnostics] == [
        ("tests/cases/baccarat.toml", "case '2' lacks source, input, expect")]


def test_an_edited_base_recompiles_its_variant(resolves, specs):
    variant = specs / "baccarat_commission.rules"
    first = compile_spec(variant)
    assert compile_spec(variant).engine is first.engine
    base = specs / "baccarat.rules"
    base.write_text(base.read_text(encoding="utf-8").replace("8 decks", "6 decks", 1), encoding="utf-8")
    second = compile_spec(variant)
    assert second.engine is not first.engine
    assert second.game.shoe.decks == 6 and first.game.shoe.decks == 8
    assert resolves == ["baccarat_commission.rules", "baccarat_commission.rules"]
    assert set(second.sources) == {str(variant), str(base)}


def test_a_bad_spec_is_compiled_afresh_each_time(resolves, tmp_path):
    bad = tmp_path / "bad.rules"
    bad.write_text('game bad "Bad"\nshoe 0 decks standard52\n', encoding="utf-8")
    first, second = compile_spec(bad, Level.CHECKED), compile_spec(bad, Level.CHECKED)
    assert not first.ok and first.engine is None
    assert [d.code for d in first.diagnostics] == [d.code for d in second.diagnostics]
    assert resolves == ["bad.rules", "bad.rules"]


def test_an_unreadable_spec_is_a_diagnostic(resolves, tmp_path):
    result = compile_spec(tmp_path / "missing.rules", Level.ALL)
    assert not result.ok and [d.code for d in result.diagnostics] == ["E0000"]


def test_build_then_check_in_one_process_compiles_once(resolves, tmp_path):
    out = tmp_path / "out"
    with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
        assert main(["build", str(BACCARAT), "--out", str(out)]) == 0
        assert main(["check", str(BACCARAT), "--no-stale"]) == 0
        assert main(["play", str(BACCARAT), "--cards", "3S 2H 4D 2C 6H AS"]) == 0
        assert main(["simulate", str(BACCARAT), "--shoes", "1", "--jobs", "1"]) == 0
        assert main(["analyze", str(BACCARAT)]) == 0
    assert resolves == ["baccarat.rules"]


def test_only_the_driver_resolves_specs():
    """No module outside the semantics stage and the driver makes a spec loader."""
    users = sorted(str(p.relative_to(ROOT / "compiler" / "croupier")) for p in (ROOT / "compiler" / "croupier").rglob("*.py")
                   if re.search(r"\bLoader\(|\bresolve_file\(", p.read_text(encoding="utf-8")))
    # croupier diff reads a spec and its bases from a git revision (texts not on disk, which the driver
    # never reads): its version loader is the one other reader of specs
    assert users == ["driver/compile.py", "semantics/resolve.py", "tools/diff/versions.py"]


def test_play_loads_neither_checks_nor_cards(tmp_path):
    code = ("import sys; from croupier.cli.main import main; status = main(sys.argv[1:]); "
            "print(json.dumps(sorted(m for m in sys.modules if m.startswith('croupier.'))), file=sys.stderr); "
            "raise SystemExit(status)").replace("import sys;", "import json, sys;")
    env = {**os.environ, "CROUPIER_CACHE": str(tmp_path / "cache")}
    run = subprocess.run([sys.executable, "-c", code, "play", str(BACCARAT), "--cards", "3S 2H 4D 2C 6H AS"],
                         env=env, capture_output=True, text=True, check=True)
    loaded = json.loads(run.stderr.strip().splitlines()[-1])
    assert "croupier.driver.compile" in loaded and "croupier.backends.engine.emitter" in loaded
    assert not [m for m in loaded if m.startswith(("croupier.checks", "croupier.backends.cards"))]
    assert (tmp_path / "cache").exists()  # its engine is kept in the disk cache, as analyze keeps it
    again = subprocess.run([sys.executable, "-c", code, "play", str(BACCARAT), "--cards", "3S 2H 4D 2C 6H AS"],
                           env=env, capture_output=True, text=True, check=True)
    warm = json.loads(again.stderr.strip().splitlines()[-1])
    assert not [m for m in warm if m.startswith(("croupier.syntax", "croupier.semantics.resolve"))], "no parse"
    assert again.stdout == run.stdout


def test_the_version_is_the_package_version():
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert croupier.__version__ == pyproject["project"]["version"] == metadata.version("croupier")


def test_the_compiler_digest_follows_every_source_file(monkeypatch, tmp_path):
    copy = tmp_path / "compiler"
    shutil.copytree(ROOT / "compiler" / "croupier", copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "COMPILER", copy)
    digests = []
    for edit in (None, "syntax/croupier.lark", "backends/cards/templates/card.md.j2", "driver/compile.py"):
        if edit:
            with (copy / edit).open("a", encoding="utf-8") as f:
                f.write("\n")
        cache.compiler_digest.cache_clear()
        digests.append(cache.compiler_digest())
    cache.compiler_digest.cache_clear()
    assert len(set(digests)) == 4


def test_the_compiler_digest_is_the_sha256_of_every_file_in_name_order(monkeypatch, tmp_path):
    """Each file (name, length, bytes) in path order, a file of several megabytes read whole as well."""
    import hashlib

    copy = tmp_path / "compiler"
    shutil.copytree(ROOT / "compiler" / "croupier", copy, ignore=shutil.ignore_patterns("__pycache__"))
    (copy / "big.py").write_bytes(b"# " + bytes(range(256)) * 12_000 + b"\n")  # three read calls' worth
    monkeypatch.setattr(cache, "COMPILER", copy)
    expected = hashlib.sha256()
    for path in sorted((p for p in copy.rglob("*") if p.suffix in cache.CODE_SUFFIXES and "__pycache__" not in
                        p.parts), key=lambda p: str(p)):
        data = path.read_bytes()
        expected.update(str(path.relative_to(copy)).encode() + b"\0%d\0" % len(data) + data)
    cache.compiler_digest.cache_clear()
    try:
        assert cache.compiler_digest() == expected.hexdigest()
    finally:
        cache.compiler_digest.cache_clear()


def test_the_memory_keeps_the_most_recent_values_of_each_kind(own_memory):
    cache.forget()
    try:
        for i in range(cache.MEMORY_ENTRIES + 10):
            cache.keep("probe", f"k{i}", i, disk=False)
            cache.keep("other", "one", "kept", disk=False)
        assert cache.recall("probe", "k0", disk=False) is None
        assert cache.recall("probe", f"k{cache.MEMORY_ENTRIES + 9}", disk=False) == cache.MEMORY_ENTRIES + 9
        assert sum(cache.recall("probe", f"k{i}", disk=False) is not None
                   for i in range(cache.MEMORY_ENTRIES + 10)) == cache.MEMORY_ENTRIES
        assert cache.recall("other", "one", disk=False) == "kept"
    finally:
        cache.forget()
