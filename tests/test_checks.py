"""The static checks: the real specs pass them, the enumeration behind them is exact, a pass without
an oracle stays quiet, and the command reports warnings as warnings unless `--strict`, as text or as JSON."""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from croupier.backends.engine.oracle import engine_oracle
from croupier.checks import PASSES, bets, draw_tables, hand_types, rounds, run_checks, translations
from croupier.checks.rounds import _Enumerator, round_space, value_classes
from croupier.cli.main import main
from croupier.driver.compile import Level, compile_spec
from croupier.semantics.resolve import Loader

ROOT = Path(__file__).resolve().parent.parent
ERRORS = ROOT / "tests" / "errors"


def load(path: Path):
    game, diags = Loader().load(str(path))
    assert game is not None and not any(d.is_error for d in diags), diags
    return game


def test_passes_are_registered() -> None:
    for module in (draw_tables, bets, hand_types):
        assert module.check in PASSES


@pytest.mark.parametrize("spec", sorted((ROOT / "spec").glob("*.rules")), ids=lambda p: p.stem)
def test_real_specs_pass_every_check(spec: Path) -> None:
    """Through the driver, as `croupier check` runs them (every pass, with the engine's oracle): the work
    is shared with the other tests that compile the same spec in this session."""
    result = compile_spec(spec, Level.CHECKED)
    assert result.game is not None and not any(d.is_error for d in result.diagnostics), result.diagnostics
    found = [d for d in result.diagnostics if d.code[1:3] in ("02", "04", "05")]
    assert found == []


def test_baccarat_enumeration_is_exact() -> None:
    game = load(ROOT / "spec" / "baccarat.rules")
    space = round_space(game, engine_oracle(game), full=True)
    assert space.complete
    # every cell of the three baccarat tables is consulted by some round: 8 + 8 + 8 × 10
    assert len(space.consulted) == 96 and not space.gaps and not space.overlaps and not space.failures
    outcomes = {k[1]: v for k, v in space.facts.items() if k[0] == "outcome"}
    assert sum(outcomes.values()) == 1
    assert round(outcomes["banker"] * 10000) == 4586 and round(outcomes["player"] * 10000) == 4462  # RULES B18
    assert space.returns["banker"] < 1 and space.returns["tie"] < 1


class _Counting:
    """An oracle that counts the rounds it plays, and with `grouping=False` lets the enumeration group none."""

    def __init__(self, oracle, grouping: bool) -> None:
        self.oracle, self.grouping, self.played = oracle, grouping, 0

    def __getattr__(self, name: str):
        return getattr(self.oracle, name)

    def hand_grouping(self):
        return self.oracle.hand_grouping() if self.grouping else None

    def play(self, cards, decided):
        self.played += 1
        return self.oracle.play(cards, decided)


@pytest.mark.parametrize("name", ["E0213_header_coverage", "W0212_unreachable_cells"])
def test_grouped_rounds_find_what_every_round_finds(name: str) -> None:
    """Rounds the rules cannot tell apart are played once, and the enumeration finds the same cells, gaps,
    examples, failures, facts and count of rounds as when it plays every one."""
    game = load(ERRORS / f"{name}.rules")
    grouped, every = _Counting(engine_oracle(game), True), _Counting(engine_oracle(game), False)
    assert grouped.hand_grouping() is not None
    a, b = _Enumerator(game, grouped, False).run(), _Enumerator(game, every, False).run()
    for name in ("complete", "leaves", "consulted", "overlaps", "gaps", "failures", "covered", "analysis_missing"):
        assert getattr(a, name) == getattr(b, name), name
    assert a.gaps or a.consulted
    assert {k for k, p in a.facts.items() if p} == {k for k, p in b.facts.items() if p}
    assert grouped.played * 5 < every.played


@pytest.mark.parametrize("name", ["E0213_header_coverage", "W0212_unreachable_cells"])
def test_grouped_rounds_weigh_every_fact_as_every_round_does(name: str) -> None:
    """With every round weighed (full), rounds dealt the same cards that the rules cannot tell apart are still
    played once, and each fact's probability and each bet's return come out exactly as when every round is
    played."""
    game = load(ERRORS / f"{name}.rules")
    grouped, every = _Counting(engine_oracle(game), True), _Counting(engine_oracle(game), False)
    a, b = _Enumerator(game, grouped, True).run(), _Enumerator(game, every, True).run()
    for name in ("complete", "leaves", "consulted", "overlaps", "gaps", "failures", "facts", "returns"):
        assert getattr(a, name) == getattr(b, name), name
    assert a.complete and sum(p for k, p in a.facts.items() if k[0] == "outcome") == 1
    assert grouped.played * 2 < every.played


def test_an_enumeration_past_its_limit_gives_up_and_its_checks_claim_nothing(monkeypatch) -> None:
    """Past MAX_LEAVES rounds the walk stops: the space says it is incomplete, the bet checks say nothing
    and no cell is called unreachable (the full walk of this small game completes and consults every cell).
    The cut walk runs without the cache, which must never keep a space cut short by a lowered limit."""
    game = load(ERRORS / "N0701_analysis_missing.rules")
    whole = round_space(game, engine_oracle(game))  # shared with the golden test of this spec
    assert whole.complete and whole.leaves > 2000 and len(whole.consulted) == 20
    monkeypatch.setattr(rounds, "MAX_LEAVES", 1000)
    gated = _Enumerator(game, engine_oracle(game), False).run()  # estimated far past the limit: never started
    assert not gated.complete and gated.leaves == 0 and not gated.consulted
    monkeypatch.setattr(rounds, "ESTIMATE_MARGIN", 10 ** 9)  # the safety net itself: started, then cut short
    cut = _Enumerator(game, engine_oracle(game), False).run()
    assert not cut.complete and 1000 < cut.leaves < whole.leaves
    assert set(cut.consulted) < set(whole.consulted) and not cut.gaps and not cut.failures
    for module in (draw_tables, bets):
        monkeypatch.setattr(module, "round_space", lambda g, o, full=False: cut)
    assert draw_tables.check(game, engine_oracle(game)) == [] and bets.check(game, engine_oracle(game)) == []
    monkeypatch.setattr(draw_tables, "round_space", lambda g, o, full=False: whole)
    assert draw_tables.check(game, engine_oracle(game)) == []


def test_the_round_space_walk_leaves_no_cyclic_garbage() -> None:
    """The walk's tables (its plays, subtrees and leaf facts) are freed by reference counting once its space is
    dropped: no attribute of the walk refers back to it (a lambda reading `self`, kept on `self`, did)."""
    game = load(ROOT / "spec" / "baccarat.rules")
    oracle = engine_oracle(game)
    gc.collect()
    gc.disable()
    try:
        assert _Enumerator(game, oracle, False).run().leaves > 0
        found = gc.collect()
    finally:
        gc.enable()
    assert found == 0


def test_value_classes_cover_the_shoe() -> None:
    game = load(ROOT / "spec" / "baccarat.rules")
    classes = value_classes(game)
    # the pair events compare ranks, so no rule lets two ranks share a class: 13 classes of 8 × 4 cards
    assert len(classes) == 13
    assert sum(copies for _codes, copies in classes) == 8 * 52
    assert {copies for _codes, copies in classes} == {8 * 4}


def test_gap_names_the_cells_and_shows_a_round() -> None:
    game = load_with_errors(ERRORS / "E0210_draw_gap.rules")
    [d] = draw_tables.check(game, engine_oracle(game))
    assert d.code == "E0210" and "total(b) 4" in d.message
    assert d.notes and d.notes[0].startswith("for example: p ")


def test_without_an_oracle_the_exhaustive_checks_say_nothing() -> None:
    """A pass given no oracle (no way to run the game) reports nothing, rather than guessing."""
    game = load_with_errors(ERRORS / "E0210_draw_gap.rules")
    assert draw_tables.check(game) == [] and bets.check(game) == [] and round_space(game, None) is None
    assert [d.code for d in run_checks(game)] == []
    seat = load_with_errors(ERRORS / "E0501_hand_without_type.rules")
    assert hand_types.check(seat) == []
    assert {d.code for d in hand_types.check(seat, engine_oracle(seat))} == {"E0501"}


def load_with_errors(path: Path):
    game, _diags = Loader().load(str(path))
    return game


def test_the_card_languages_come_in_as_data() -> None:
    """The W0601 spec labels hand `b` in en and zh-Hans only: only a language outside those is missing."""
    game = load(ERRORS / "W0601_label_missing_language.rules")
    assert [d.message for d in translations.check(game)] == ["the hand `b` has no label in zh-Hant"]
    # with en and zh-Hans as the card languages nothing is missing; the zh-Hant labels are in a language
    # no card shows (W0602), which is another warning
    assert {d.code for d in translations.check(game, ("en", "zh-Hans"))} == {"W0602"}
    named = ["game `g`", "hand `p`", "hand `b`", "outcome `pw`", "outcome `bw`", "outcome `tie`", "bet `p`"]
    assert [d.message for d in run_checks(game, languages=("en", "it")) if d.code == "W0601"] == [
        f"the {what} has no label in it" for what in named]


def test_expected_return_above_one_is_a_warning_only() -> None:
    game = load(ERRORS / "W0406_expected_return_above_one.rules")
    found = bets.check(game, engine_oracle(game))
    assert [d.severity for d in found] == ["warning"]


def cli(*args: str) -> subprocess.CompletedProcess:
    """`croupier ARGS` in a child process, which keeps the bytecode of the modules it compiles (as Python does by
    default, PYTHONDONTWRITEBYTECODE set or not here): compiler/croupier/ is compiled once into the `__pycache__` folders
    git ignores, not again in every child; Python reads a module's bytecode only while it matches the source."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT / "compiler"), str(ROOT)])  # this checkout's croupier
    return subprocess.run([sys.executable, "-m", "croupier.cli.main", *args], capture_output=True, text=True, cwd=ROOT,
                          env=env, timeout=600)


def test_check_strict_makes_warnings_errors(capsys, monkeypatch) -> None:
    """`--strict` in a child process (its exit code and stderr, no traceback); the relaxed run of the same spec
    through the command's `main` in this process, from the same folder (its return is the exit code)."""
    spec = "tests/errors/W0503_type_unreachable.rules"
    strict = cli("check", "--no-stale", "--strict", spec)
    assert strict.returncode == 1 and "warning[W0503]" in strict.stderr and "Traceback" not in strict.stderr
    monkeypatch.chdir(ROOT)
    capsys.readouterr()
    assert main(["check", "--no-stale", spec]) == 0
    assert "warning[W0503]" in capsys.readouterr().err


def in_process(capsys, monkeypatch, *args: str) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `croupier ARGS` run through the command's `main` in this process, from the
    repository as `cli` runs it: the same argv, diagnostics and streams' text, without a second interpreter's start
    and imports (the command as a process, its exit code and streams, is `test_check_strict_makes_warnings_errors`'s
    child)."""
    monkeypatch.chdir(ROOT)
    capsys.readouterr()
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_check_format_json_for_editors(capsys, monkeypatch) -> None:
    code, out, _ = in_process(capsys, monkeypatch, "check", "--no-stale", "--json",
                              "tests/errors/E0001_syntax_several.rules")
    assert code == 1
    diags = json.loads(out)["diagnostics"]
    assert len(diags) == 2 and {d["code"] for d in diags} == {"E0001"}
    for d in diags:
        assert d["file"] == "tests/errors/E0001_syntax_several.rules" and d["line"] > 0 and d["column"] > 0


def test_text_diagnostic_has_source_line_caret_and_hint(capsys, monkeypatch) -> None:
    code, _, err = in_process(capsys, monkeypatch, "check", "--no-stale", "tests/errors/E0121_deck_count.rules")
    assert code == 1
    lines = err.splitlines()
    head = lines.index(next(x for x in lines if "error[E0121]" in x))
    assert lines[head].startswith("tests/errors/E0121_deck_count.rules:4:6: error[E0121]:")
    assert "shoe 20 decks" in lines[head + 1] and lines[head + 2].strip().startswith("^")
    assert lines[head + 3].startswith("hint: ")


def test_unreadable_spec_is_a_diagnostic(tmp_path: Path) -> None:
    bad = tmp_path / "bad.rules"
    bad.write_bytes(b"game \xff\xfe\n")
    game, diags = Loader().load(str(bad))
    assert game is None and [d.code for d in diags] == ["E0000"]


def test_exact_decimal_in_messages() -> None:
    assert bets._decimal(Fraction(17547, 10000)) == "1.7547" and bets._decimal(Fraction(2, 3)) == "0.6667"


@pytest.mark.parametrize("name", ["E0215_round_cannot_finish"])
def test_an_unfinishable_round_is_shown_with_cards_play_accepts(name: str, capsys) -> None:
    """The example of E0215 is a round `croupier play` replays to the same failure: it neither runs out of
    cards first nor holds cards the round never reads."""
    spec = str(ERRORS / f"{name}.rules")
    assert main(["check", spec]) == 1
    err = capsys.readouterr().err
    message = err.split("a round cannot be finished: ", 1)[1].splitlines()[0]
    cards = err.split("for example, with the cards ", 1)[1].splitlines()[0]
    assert main(["play", spec, "--cards", cards]) == 1
    assert capsys.readouterr().err.strip() == f"croupier: {message}"
    shorter = " ".join(cards.split()[:-1])
    assert main(["play", spec, "--cards", shorter]) == 1
    assert "not enough cards" in capsys.readouterr().err


def test_check_json_names_stale_files_and_the_old_format_option_still_answers(capsys, monkeypatch, tmp_path) -> None:
    """`check --json` says why it fails when generated files are stale (it once printed no diagnostic and exit 1)."""
    import shutil

    shutil.copytree(ROOT / "spec", tmp_path / "spec")
    (tmp_path / "croupier.toml").write_text('spec = "spec"\nout = "generated"\n', encoding="utf-8")
    code, out, _ = in_process(capsys, monkeypatch, "check", "--json", str(tmp_path / "spec" / "dragon_tiger.rules"))
    report = json.loads(out)
    assert code == 1 and report["ok"] is False and not [d for d in report["diagnostics"] if d["severity"] == "error"]
    assert "generated/engines/dragon_tiger.py: missing" in " ".join(report["stale"])
    code, out, _ = in_process(capsys, monkeypatch, "check", "--format", "json", str(tmp_path / "spec" / "dragon_tiger.rules"))
    assert json.loads(out) == report


def test_build_json_lists_what_it_wrote(capsys, monkeypatch, tmp_path) -> None:
    code, out, _ = in_process(capsys, monkeypatch, "build", "--json", "--out", str(tmp_path / "out"),
                              "spec/dragon_tiger.rules")
    report = json.loads(out)
    assert code == 0 and report["ok"] and report["specs"] == 1 and report["removed"] == []
    assert "engines/dragon_tiger.py" in report["written"]
    assert all((tmp_path / "out" / rel).is_file() for rel in report["written"])


def test_version(capsys) -> None:
    import croupier

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    assert done.value.code == 0 and capsys.readouterr().out.strip() == f"croupier {croupier.__version__}"
