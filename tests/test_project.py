"""The project: found from croupier.toml or [tool.croupier] by walking up; every command from any
folder, with relative or absolute spec paths; a spec in no project; `croupier init`; card languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from croupier.cli.main import main
from croupier.project import DEFAULT_LANGUAGES, ProjectError, find_project, project_of

ROOT = Path(__file__).resolve().parent.parent
GAME = "high_total"
# a round of the starter game, worked by hand: player KS 9D = 19, dealer 7H AC = 8; player 1 to 1
ROUND = ["--cards", "KS 7H 9D AC", "--bet", "player=100"]


def run(capsys, *args: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def project(tmp_path, monkeypatch, capsys) -> Path:
    """A project made by `croupier init` in English only."""
    assert find_project(tmp_path) is None, "a croupier.toml above the temporary folder would mislead these tests"
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "init", "game", "--languages", "en")
    assert code == 0, err
    return tmp_path / "game"


# ---- discovery ------------------------------------------------------------------------------

def test_the_project_is_found_from_any_sub_folder_with_its_defaults(tmp_path):
    (tmp_path / "croupier.toml").write_text("", encoding="utf-8")
    deep = tmp_path / "a" / "b"
    deep.mkdir(parents=True)
    p = find_project(deep)
    assert p is not None and p.root == tmp_path.resolve()
    assert (p.spec_dir, p.cases_dir, p.out_dir) == (p.root / "spec", p.root / "tests" / "cases", p.root / "generated")
    assert p.languages == DEFAULT_LANGUAGES == ("en", "zh-Hans", "zh-Hant")
    assert p.display(deep / "x.rules") == "a/b/x.rules"
    assert p.display("/elsewhere/x.rules") == "/elsewhere/x.rules"


def test_pyproject_with_a_croupier_table_is_a_project_and_one_without_is_passed_by(tmp_path):
    (tmp_path / "pyproject.toml").write_text('[tool.croupier]\nspec = "rules"\nlanguages = ["en", "it"]\n',
                                             encoding="utf-8")
    inner = tmp_path / "pkg"
    inner.mkdir()
    (inner / "pyproject.toml").write_text('[project]\nname = "other"\n', encoding="utf-8")
    p = find_project(inner)
    assert p.root == tmp_path.resolve() and p.spec_dir == p.root / "rules" and p.languages == ("en", "it")
    assert p.config == tmp_path / "pyproject.toml"
    (tmp_path / "croupier.toml").write_text('out = "built"\n', encoding="utf-8")
    p = find_project(inner)
    assert p.config == tmp_path / "croupier.toml" and p.out_dir == p.root / "built", "croupier.toml wins"


@pytest.mark.parametrize("text, says", [
    ("spec = [", "not valid TOML"),
    ('specs = "spec"', "unknown setting `specs`"),
    ('languages = ["en", "English"]', "`English` is not a language tag"),
    ("languages = []", "non-empty list"),
    ('languages = ["en", "en"]', "twice"),
    ("out = 3", "`out` must be a folder name"),
])
def test_a_bad_configuration_is_one_clear_line(tmp_path, monkeypatch, capsys, text, says):
    (tmp_path / "croupier.toml").write_text(text + "\n", encoding="utf-8")
    with pytest.raises(ProjectError, match="croupier.toml"):
        find_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "check")
    assert code == 2 and says in err and "croupier.toml" in err and "Traceback" not in err


def test_this_repository_is_a_project():
    p = find_project(ROOT / "tests" / "errors")
    assert p.root == ROOT and p.config == ROOT / "croupier.toml"
    assert p.out_dir == ROOT / "generated" and p.cases_dir == ROOT / "tests" / "cases"
    assert set(p.languages) == {"en", "zh-Hans", "zh-Hant"}
    assert project_of(ROOT / "spec" / "baccarat.rules") == p


# ---- every command from any folder, relative or absolute paths -----------------------------

def test_build_and_check_from_a_sub_folder_show_paths_from_the_root(project, monkeypatch, capsys):
    monkeypatch.chdir(project / "spec")
    code, out, err = run(capsys, "build")
    assert code == 0, err
    engine = project / "generated" / "engines" / f"{GAME}.py"
    assert f"from spec/{GAME}.rules" in engine.read_text(encoding="utf-8").splitlines()[0]
    assert (project / "generated" / "tests" / f"test_{GAME}.py").is_file(), "the cases come from tests/cases/"
    assert not (project / "spec" / "generated").exists()
    assert run(capsys, "check")[0] == 0
    assert run(capsys, "check", f"{GAME}.rules")[0] == 0
    assert run(capsys, "check", "--strict")[0] == 0, "a one-language project with English labels is strict-clean"
    engine.write_text(engine.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    code, out, err = run(capsys, "check", f"{GAME}.rules")
    assert code == 1 and "stale" in err and f"{GAME}.py" in err


def test_every_command_takes_an_absolute_path_from_another_folder(project, tmp_path, monkeypatch, capsys):
    spec = str(project / "spec" / f"{GAME}.rules")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    code, out, err = run(capsys, "build", spec)
    assert code == 0, err
    assert (project / "generated" / "engines" / f"{GAME}.py").is_file() and not (elsewhere / "generated").exists()
    assert run(capsys, "check", spec)[0] == 0
    code, out, err = run(capsys, "play", spec, *ROUND, "--json")
    assert code == 0, err
    answer = json.loads(out)
    assert answer["outcome"] == "player" and answer["returns"] == {"player": "200"}
    code, out, err = run(capsys, "analyze", spec, "--json")
    assert code == 0, err
    outcomes = json.loads(out)["outcomes"]
    # the player and the dealer are dealt alike from one deck: the game is symmetric
    assert set(outcomes) == {"player", "dealer", "tie"} and outcomes["player"] == outcomes["dealer"]
    code, out, err = run(capsys, "simulate", spec, "--shoes", "1", "--jobs", "1")
    assert code == 0, err
    assert "13 rounds" in out, "one deck of 52 cards, four cards a round, no cut card"


def test_a_variant_finds_its_base_beside_it_from_any_folder(project, tmp_path, monkeypatch, capsys):
    variant = project / "spec" / "high_total_8.rules"
    variant.write_text(f'game high_total_8 extends {GAME} "High total (tie 8 to 1)"\n'
                       'override bet tie "Tie"  [H1 §6]\n'
                       "    wins when outcome is tie, pays 8 to 1  [H1 §6]\n", encoding="utf-8")
    monkeypatch.chdir(project / "tests")
    assert run(capsys, "check", "--no-stale", "../spec/high_total_8.rules")[0] == 0
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "play", str(variant), "--cards", "10S 8H 2D 4C", "--bet", "tie=10", "--json")
    assert code == 0, err
    assert json.loads(out)["returns"] == {"tie": "90"}, "12 against 12 ties; the variant's tie bet pays 8 to 1"


def test_the_cases_folder_is_the_projects(project, monkeypatch, capsys):
    (project / "tests" / "cases").rename(project / "cases")
    config = project / "croupier.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('cases = "tests/cases"', 'cases = "cases"'),
                      encoding="utf-8")
    monkeypatch.chdir(project)
    assert run(capsys, "build")[0] == 0
    assert "HT-1" in (project / "generated" / "tests" / f"test_{GAME}.py").read_text(encoding="utf-8")


# ---- a spec in no project ------------------------------------------------------------------

def test_a_spec_in_no_project_is_checked_played_and_built_only_with_out(project, tmp_path, monkeypatch, capsys):
    lonely = tmp_path / "lonely"
    lonely.mkdir()
    spec = lonely / "mine.rules"
    spec.write_text((project / "spec" / f"{GAME}.rules").read_text(encoding="utf-8"), encoding="utf-8")
    assert project_of(spec) is None
    monkeypatch.chdir(lonely)
    code, out, err = run(capsys, "check", "mine.rules")
    assert code == 0 and "no generated files to compare" in err and "1 spec(s) ok" in out
    code, out, err = run(capsys, "build", "mine.rules")
    assert code == 2 and "--out" in err and not (lonely / "generated").exists()
    code, out, err = run(capsys, "build", "mine.rules", "--out", "out")
    assert code == 0, err
    assert "from mine.rules" in (lonely / "out" / "engines" / f"{GAME}.py").read_text(encoding="utf-8")
    assert run(capsys, "play", "mine.rules", *ROUND)[0] == 0
    assert run(capsys, "analyze", "mine.rules")[0] == 0
    assert run(capsys, "simulate", "mine.rules", "--shoes", "1", "--jobs", "1")[0] == 0
    code, out, err = run(capsys, "check", "mine.rules", str(project / "spec" / f"{GAME}.rules"))
    assert code == 2 and "different projects" in err
    code, out, err = run(capsys, "check")
    assert code == 2 and "croupier init" in err


# ---- croupier init ---------------------------------------------------------------------------

def test_init_writes_a_project_that_cites_a_source_and_states_an_assumption(project):
    p = find_project(project)
    assert p.languages == ("en",) and p.specs() == [project / "spec" / f"{GAME}.rules"]
    spec = p.specs()[0].read_text(encoding="utf-8")
    assert "\nsource " in spec and "\nassume " in spec and "[H1" in spec
    assert "zh-Hans" not in spec, "labels only in the project's languages"
    assert "croupier build" in (project / "README.md").read_text(encoding="utf-8")
    assert "[[case]]" in (project / "tests" / "cases" / f"{GAME}.toml").read_text(encoding="utf-8")


def test_init_with_the_default_languages_labels_every_one(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert run(capsys, "init")[0] == 0
    assert find_project(tmp_path).languages == DEFAULT_LANGUAGES
    code, out, err = run(capsys, "check", "--strict", "--no-stale")
    assert code == 0, err


def test_init_never_overwrites(project, monkeypatch, capsys):
    spec = project / "spec" / f"{GAME}.rules"
    spec.write_text("# mine\n", encoding="utf-8")
    (project / "croupier.toml").unlink()
    code, out, err = run(capsys, "init", str(project))
    assert code == 2 and "overwrite" in err and f"{GAME}.rules" in err
    assert spec.read_text(encoding="utf-8") == "# mine\n" and not (project / "croupier.toml").exists()


def test_init_refuses_a_bad_language_tag(tmp_path, capsys):
    code, out, err = run(capsys, "init", str(tmp_path / "p"), "--languages", "en", "English")
    assert code == 2 and "language tags" in err and not (tmp_path / "p").exists()


# ---- languages from the project --------------------------------------------------------------

def test_a_label_in_an_unlisted_language_is_a_warning_naming_the_list(project, monkeypatch, capsys):
    spec = project / "spec" / f"{GAME}.rules"
    spec.write_text(spec.read_text(encoding="utf-8").replace('hand dealer "Dealer"', 'hand dealer "Dealer" it "Banco"'),
                    encoding="utf-8")
    monkeypatch.chdir(project)
    code, out, err = run(capsys, "check", "--no-stale")
    assert code == 0 and "warning[W0602]" in err and "has a label in it" in err and "(en)" in err
    assert run(capsys, "check", "--no-stale", "--strict")[0] == 1


def test_a_listed_language_without_a_catalog_falls_back_to_english_with_a_warning(project, monkeypatch, capsys):
    config = project / "croupier.toml"
    config.write_text(config.read_text(encoding="utf-8").replace('languages = ["en"]', 'languages = ["en", "it"]'),
                      encoding="utf-8")
    spec = project / "spec" / f"{GAME}.rules"
    spec.write_text(spec.read_text(encoding="utf-8").replace('hand dealer "Dealer"', 'hand dealer "Dealer" it "Banco"'),
                    encoding="utf-8")
    monkeypatch.chdir(project)
    code, out, err = run(capsys, "build")
    assert code == 0, err
    assert "`it` has no message catalog" in err and "W0602" not in err
    card = (project / "generated" / "cards" / f"{GAME}.it.html").read_text(encoding="utf-8")
    assert "Banco" in card and "italiano" in card and "Rules of play" in card, "Croupier's own text in English"
    assert not (project / "generated" / "cards" / f"{GAME}.zh-Hans.html").exists()


# ---- two specs that would write one file -------------------------------------------------------

def _second_game(project: Path, file: str, name: str) -> Path:
    """A copy of the starter spec in `file`, its game renamed `name`."""
    text = (project / "spec" / f"{GAME}.rules").read_text(encoding="utf-8")
    assert f"\ngame {GAME} " in text
    path = project / "spec" / file
    path.write_text(text.replace(f"\ngame {GAME} ", f"\ngame {name} ", 1), encoding="utf-8")
    return path


@pytest.mark.parametrize(("file", "name", "shared"), [
    ("z_copy.rules", GAME, f"cards/{GAME}.en.html"),  # two games of one name (the later file is refused)
    ("zz.rules", f"{GAME}_analysis", f"engines/{GAME}_analysis.py"),  # a name taken by a companion
])
def test_two_specs_that_would_write_one_file_are_refused(project, monkeypatch, capsys, file, name, shared):
    monkeypatch.chdir(project)
    lines = _second_game(project, file, name).read_text(encoding="utf-8").split("\n")
    code, out, err = run(capsys, "build")
    assert code == 1 and "nothing written" in err
    line = 1 + next(i for i, text in enumerate(lines) if text.startswith("game "))
    assert f"spec/{file}:{line}:1: error[E0119]: this spec writes {shared}, which spec/{GAME}.rules writes too" in err
    assert "hint: give every game of a project its own name" in err
    assert not (project / "generated" / "engines").exists(), "nothing of either spec was written"
    code, out, err = run(capsys, "check", "--no-stale")
    assert code == 1 and err.count("error[E0119]") == 1
    (project / "spec" / file).unlink()  # without the second spec, the same process builds again
    code, out, err = run(capsys, "build")
    assert code == 0 and "E0119" not in err, err
    assert (project / "generated" / "engines" / f"{GAME}.py").exists()
