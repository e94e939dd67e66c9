"""croupier diff: each kind of change gets its exact report; the figures are checked independently.

The share of rounds that reach a flipped banker-grid cell is worked out here by a
separate enumeration of 8-deck baccarat by card values with card removal (as
tests/test_analysis.py does), not by Croupier; edge changes are checked against
relations between other bets' edges of the same analysis.
"""

from __future__ import annotations

import subprocess
import sys
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from croupier.cli.main import main
from croupier.semantics.model import Game
from croupier.semantics.resolve import Loader
from croupier.tools.diff.report import diff_versions
from croupier.tools.diff.rules import FIELDS, UnknownField, rule_changes
from croupier.tools.diff.versions import Version, load_version

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec"
CASES = ROOT / "tests" / "cases"
GRID_ROW_3 = "| 3 | D D D D D D D D S D |"


def variant(tmp_path: Path, name: str, old: str, new: str, count: int = 1) -> Path:
    """A copy of spec/<name>.rules (and the base it extends) with one text replaced."""
    folder = tmp_path / "spec"
    folder.mkdir(exist_ok=True)
    for p in SPEC.glob("*.rules"):
        (folder / p.name).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    target = folder / f"{name}.rules"
    text = target.read_text(encoding="utf-8")
    assert text.count(old) >= count, old
    target.write_text(text.replace(old, new, count), encoding="utf-8")
    return target


@cache
def repository_version(path: Path) -> Version:
    """A spec of the repository's spec/ folder, resolved and its engine loaded once for the module (the tests
    never change those files; the copies they edit are loaded afresh)."""
    return load_version(path, None)


def version(path: Path) -> Version:
    return repository_version(path) if path.parent == SPEC else load_version(path, None)


def report(old: Path, new: Path) -> dict:
    return diff_versions(version(old), version(new), CASES)


def in_play(r: dict) -> list[tuple]:
    return [(c["section"], c["kind"], c["name"], c["change"], c["details"]) for c in r["changes"] if c["play"]]


# ---- an independent enumeration of 8-deck baccarat by values -----------------------------------------------
COUNTS = [128] + [32] * 9  # value 0 (10 J Q K) then values 1..9, 8 decks


def reach_banker_3_third_8() -> tuple[Fraction, dict[tuple[str, str], Fraction]]:
    """P(a round reaches banker two-card total 3 with the player's third card 8), and for those rounds how
    the outcome moves when the banker draws there instead of standing: {(old, new): probability}."""
    counts = list(COUNTS)
    reach = 0
    moves: dict[tuple[str, str], int] = {}

    def take(v: int) -> int:
        n = counts[v]
        counts[v] -= 1
        return n

    for p1 in range(10):
        w1 = take(p1)
        for b1 in range(10):
            w2 = w1 * take(b1)
            for p2 in range(10):
                w3 = w2 * take(p2)
                for b2 in range(10):
                    w4 = w3 * take(b2)
                    pt, bt = (p1 + p2) % 10, (b1 + b2) % 10
                    if bt == 3 and pt <= 5:  # no natural (banker 3, player 0-5), the player draws
                        w5 = w4 * take(8)
                        player = (pt + 8) % 10
                        reach += w5 * (416 - 5)  # the sixth card, whatever it is
                        for b3 in range(10):
                            w6 = w5 * counts[b3]
                            old = "player" if player > 3 else "tie" if player == 3 else "banker"
                            banker = (3 + b3) % 10
                            new = "player" if player > banker else "tie" if player == banker else "banker"
                            if old != new:
                                moves[(old, new)] = moves.get((old, new), 0) + w6
                        counts[8] += 1
                    counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    d = 416 * 415 * 414 * 413 * 412 * 411
    return Fraction(reach, d), {k: Fraction(v, d) for k, v in moves.items()}


def test_a_flipped_banker_cell_reports_that_cell_and_the_exact_share_of_rounds_reaching_it(tmp_path):
    new = variant(tmp_path, "baccarat", GRID_ROW_3, "| 3 | D D D D D D D D D D |")
    r = report(SPEC / "baccarat.rules", new)
    table = "draw banker when drew(player) by total(banker) × value(third(player))"
    assert in_play(r) == [("draw tables", "draw table", table, "changed",
                           ["total(banker) = 3, value(third(player)) = 8: stand → draw"])]
    reach, moves = reach_banker_3_third_8()
    rounds = r["rounds"]
    assert rounds["played_differently"] == reach
    assert rounds["outcome_changes"] == sum(moves.values())
    assert {(m["old"], m["new"]): m["p"] for m in rounds["outcome_moves"]} == moves
    [cell] = rounds["cells"]
    assert (cell["row"], cell["col"], cell["old"], cell["new"]) == (3, 8, "stand", "draw")
    assert cell["reach_old"] == cell["reach_new"] == cell["played_differently"] == reach
    assert rounds["other_partings"] == []
    ex = cell["example"]  # a real deal: the banker holds 3 after the player drew an 8
    assert ex["old"]["totals"]["banker"] == 3 and len(ex["old"]["hands"]["banker"]) == 2
    assert len(ex["new"]["hands"]["banker"]) == 3 and ex["old"]["outcome"] != ex["new"]["outcome"]
    # money: the tie bet (pays 9 including stake) moves by 9 times the change of P(tie); pairs do not move
    eight = r["money"]["table"][8]
    d_tie = sum(p for (a, b), p in moves.items() if b == "tie") - sum(p for (a, b), p in moves.items() if a == "tie")
    assert eight["tie"]["change"] == -9 * d_tie
    assert eight["banker_pair"]["change"] == eight["player_pair"]["change"] == 0
    assert eight["banker"]["change"] != 0 and eight["player"]["change"] != 0
    assert not r["equivalent"]
    assert [c["id"] for c in r["retest"]["retest"]] == ["BCR-002", "BCR-007-change", "EX-2", "QUIZ-1", "S-B3-8"]


def test_a_changed_payout_moves_that_bet_only(tmp_path):
    new = variant(tmp_path, "baccarat", "wins when outcome is tie, pays 9 including stake",
                  "wins when outcome is tie, pays 8 including stake")
    r = report(SPEC / "baccarat.rules", new)
    assert in_play(r) == [("bets", "bet", "tie", "changed", [
        "wins when outcome is tie, pays 9 including stake → wins when outcome is tie, pays 8 including stake"])]
    assert r["rounds"]["compared"] is False and r["rounds"]["played_differently"] == 0
    for d, rows in r["money"]["table"].items():
        tie = rows["tie"]
        assert tie["change"] == (1 - tie["old"]) / 9, d  # one unit less on every tie: P(tie) = (1 - edge) / 9
        assert all(rows[b]["change"] == 0 for b in rows if b != "tie")
    assert r["bet_examples"]["tie"]["old"]["outcome"] == "tie"
    assert r["bet_examples"]["tie"]["old"]["returns"] == {"tie": "9"}
    assert r["bet_examples"]["tie"]["new"]["returns"] == {"tie": "8"}


def test_a_removed_bet(tmp_path):
    new = variant(tmp_path, "baccarat_no_commission", 'bet super6 "Super 6" zh-Hant "超級六" zh-Hans "超级六"  [002]\n'
                  "    wins when outcome is banker and total(banker) = 6, pays 12 to 1\n", "")
    new.write_text(new.read_text(encoding="utf-8").replace("    super6: no limit\n", ""), encoding="utf-8")  # rooms too
    r = report(SPEC / "baccarat_no_commission.rules", new)
    assert in_play(r) == [("bets", "bet", "super6", "removed",
                           ["wins when outcome is banker and total(banker) = 6, pays 12 to 1"])] + [
        ("table", "room", room, "changed", ["removed: super6: no limit"]) for room in ("trial", "junior", "middle", "senior")]
    for rows in r["money"]["table"].values():
        assert rows["super6"]["old"] is not None and rows["super6"]["new"] is None
        assert rows["super6"]["change"] is None and all(rows[b]["change"] == 0 for b in rows if b != "super6")
    retest = r["retest"]["retest"]
    assert retest and all(c["fields"] == ["error"] for c in retest)


def test_a_commission_change(tmp_path):
    new = variant(tmp_path, "baccarat_commission", "less 5% commission", "less 4% commission")
    r = report(SPEC / "baccarat_commission.rules", new)
    assert in_play(r) == [("bets", "bet", "banker", "changed", [
        "wins when outcome is banker, pays 1 to 1 less 5% commission rounded half-up to 0.01 → "
        "wins when outcome is banker, pays 1 to 1 less 4% commission rounded half-up to 0.01"])]
    for d, rows in r["money"]["table"].items():
        # P(tie) from the tie bet (8 to 1), P(banker) - P(player) from the player bet (1 to 1, push on a tie)
        p_tie = (1 - rows["tie"]["old"]) / 9
        p_banker = (1 - p_tie + rows["player"]["old"]) / 2
        assert rows["banker"]["change"] == -p_banker / 100, d  # a unit win keeps 0.01 more
    assert [c["id"] for c in r["retest"]["retest"]] == ["C-banker-100", "C-banker-10", "C-round-1.30", "C-round-1.99", "C-round-0.30",
                                                        "C-banker-25", "C-banker-6"]


def test_a_seat_game_multiplier_change(tmp_path):
    new = variant(tmp_path, "ten_and_a_half", "    multiplier 5\n", "    multiplier 6\n")
    r = report(SPEC / "ten_and_a_half.rules", new)
    assert in_play(r) == [("hand types", "hand type", "five_faces", "changed", ["multiplier 5 → multiplier 6"])]
    assert r["hands"]["changed"] == 0 and r["hands"]["hands"] > 0
    from croupier.tools.analysis.seat import SeatAnalysis

    old = version(SPEC / "ten_and_a_half.rules")
    t = old.game.policy_threshold
    p_five_faces = SeatAnalysis(old.engine, t).one_hand(t)["types"]["five_faces"]
    assert r["money"]["figures"]["expected_multiplier"]["change"] == p_five_faces  # one more on each five-faces hand
    assert not r["equivalent"]


def test_a_pure_reformat_and_a_reordering_are_no_change_in_play(tmp_path, capsys):
    text = (SPEC / "baccarat.rules").read_text(encoding="utf-8")
    start = text.index("bet tie ")
    block = text[start:text.index("bet banker_pair ")]
    moved = text.replace(block, "").replace("# ---- table operations", block + "# ---- table operations")
    messy = moved.replace("shoe 8 decks of standard52", "shoe   8 decks   of standard52  # eight decks") \
                 .replace("[000 §1]", "[000  §1]").replace('source "003"', '# a comment\nsource "003"')
    new = tmp_path / "baccarat.rules"
    new.write_text(messy, encoding="utf-8")
    r = report(SPEC / "baccarat.rules", new)
    assert in_play(r) == [] and r["equivalent"]
    assert main(["diff", str(SPEC / "baccarat.rules"), str(new)]) == 0
    out = capsys.readouterr().out
    assert "Rule changes in play: none" in out and out.rstrip().endswith("No change in play.")


def test_the_exit_code_and_the_json_and_html_forms(tmp_path, capsys):
    import json

    new = variant(tmp_path, "baccarat", GRID_ROW_3, "| 3 | D D D D D D D D D D |")
    html = tmp_path / "diff.html"
    assert main(["diff", str(SPEC / "baccarat.rules"), str(new), "--json", "--html", str(html)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["rounds"]["cells"][0]["reach_old"]["exact"] == "215828176/47506066335"
    page = html.read_text(encoding="utf-8")
    assert "經過此格的牌局" in page and "经过此格的牌局" in page and "Rounds reaching it" in page
    assert "--draw" in page  # the cards' own style sheet
    # the money tables are tables (not the cards' grid of bets), with bet labels and "1 deck"
    assert '<table class="money-table">' in page and 'class="bets"' not in page
    assert "<caption>1 deck" in page and "1 decks" not in page
    assert '<th scope="row">Banker pair</th>' in page and '<th scope="row">庄对</th>' in page


def test_git_revisions(tmp_path, capsys, monkeypatch):
    """Revisions read from git: the first diff is a real `croupier diff` process run in the repository (its
    exit code and output); the others repeat the command through `main` in this process."""
    repo = tmp_path / "repo"
    (repo / "spec").mkdir(parents=True)
    for name in ("baccarat.rules", "baccarat_no_commission.rules"):
        (repo / "spec" / name).write_text((SPEC / name).read_text(encoding="utf-8"), encoding="utf-8")
    git = ["git", "-C", str(repo), "-c", "user.name=t", "-c", "user.email=t@t"]
    subprocess.run(git[:3] + ["init", "-q"], check=True)
    subprocess.run(git + ["add", "."], check=True)
    subprocess.run(git + ["commit", "-qm", "one"], check=True)
    base = repo / "spec" / "baccarat.rules"
    base.write_text(base.read_text(encoding="utf-8").replace(GRID_ROW_3, "| 3 | D D D D D D D D D D |"),
                    encoding="utf-8")
    subprocess.run(git + ["commit", "-qam", "two"], check=True)
    cmd = [sys.executable, "-m", "croupier.cli.main", "diff"]
    one = subprocess.run(cmd + ["HEAD~1", "spec/baccarat_no_commission.rules"], cwd=repo, capture_output=True,
                         text=True)
    assert one.returncode == 1, one.stderr  # the variant changed through its base, read at the same revision
    assert "total(banker) = 3, value(third(player)) = 8: stand → draw" in one.stdout
    monkeypatch.chdir(repo)
    capsys.readouterr()
    assert main(["diff", "HEAD~1..HEAD", "spec/"]) == 1
    out = capsys.readouterr().out
    assert out.count("croupier diff: ") == 2
    assert out.count("      total(banker) = 3, value(third(player)) = 8: stand → draw") == 2
    assert main(["diff", "HEAD", "spec/"]) == 0 and capsys.readouterr().out.count("No change in play.") == 2
    assert main(["diff", "nosuchrev", "spec/baccarat.rules"]) == 2
    assert "neither a spec file nor a git revision" in capsys.readouterr().err


def test_a_model_field_without_a_rule_stops_the_diff(monkeypatch):
    game = version(SPEC / "baccarat.rules").game
    monkeypatch.delitem(FIELDS, "bets")
    with pytest.raises(UnknownField, match="Game.bets"):
        rule_changes(game, game)


# ---- the dealt-round statements: ordered clauses, payout tables, partial losses, removals, repeats, soft totals -----
def game_of(path: Path) -> Game:
    """The game of a spec as `load_version` resolves it (shown as given), without emitting and loading its engine:
    rule changes compare models only."""
    if path.parent == SPEC:
        return repository_version(path).game
    game, diags = Loader().load(str(path), opened=path)
    assert game is not None and not any(d.is_error for d in diags), diags
    return game


def changes(old: Path, new: Path) -> list[tuple]:
    a, b = game_of(old), game_of(new)
    return [(c["section"], c["kind"], c["name"], c["change"], c["play"], c["details"]) for c in rule_changes(a, b)]


def test_the_order_of_a_bets_clauses_is_in_play(tmp_path):
    """The first clause that applies settles: moving the Dragon 7 push after the win pays the banker on a Dragon 7."""
    new = variant(tmp_path, "ez_baccarat",
                  "    push when dragon7                                   [WOO-EZ]\n"
                  "    wins when outcome is banker, pays 1 to 1            [WOO-EZ]\n",
                  "    wins when outcome is banker, pays 1 to 1            [WOO-EZ]\n"
                  "    push when dragon7                                   [WOO-EZ]\n")
    assert changes(SPEC / "ez_baccarat.rules", new) == [("bets", "bet", "banker", "changed", True, [
        "reordered: push when dragon7; wins when outcome is banker, pays 1 to 1; push when outcome is tie → "
        "wins when outcome is banker, pays 1 to 1; push when dragon7; push when outcome is tie"])]


def test_a_payout_table_row_and_a_partial_loss(tmp_path):
    new = variant(tmp_path, "dragon_bonus", "| 9       | 30 to 1 |", "| 9       | 25 to 1 |")
    assert changes(SPEC / "dragon_bonus.rules", new) == [
        ("bets", "bet", "player_bonus", "changed", True, ["| 9 | 30 to 1 | → | 9 | 25 to 1 |"])]
    new = variant(tmp_path, "dragon_tiger", "loses half when outcome is tie", "loses when outcome is tie")
    assert changes(SPEC / "dragon_tiger.rules", new) == [
        ("bets", "bet", "dragon", "changed", True, ["loses half when outcome is tie → loses when outcome is tie"])]


def test_a_removal_taken_back(tmp_path):
    """Without `remove bet player_pair` the base's bet is back: in play under the bets, and the removal itself is
    listed as documentation."""
    new = variant(tmp_path, "ez_baccarat", "remove bet player_pair             [WOO-EZ]\n", "")
    text = new.read_text(encoding="utf-8").replace("remove event player_pair           [WOO-EZ]\n", "")  # the bet reads it
    new.write_text(text.replace("dragon7 panda8: no limit", "dragon7 panda8 player_pair: no limit"),
                   encoding="utf-8")  # both come back, and every room gives the bet back a limit
    got = changes(SPEC / "ez_baccarat.rules", new)
    assert ("bets", "bet", "player_pair", "added", True, ["wins when player_pair, pays 11 to 1"]) in got
    removals = next(c for c in got if c[:2] == ("documentation", "removals"))
    assert "removed: remove bet player_pair" in removals[5] and removals[3:5] == ("changed", False)


FAMILY = (ROOT / "tests" / "errors" / "family_ok.rules").read_text(encoding="utf-8")


def family_changes(tmp_path: Path, old: str, new: str) -> list[tuple]:
    a, b = tmp_path / "a" / "f.rules", tmp_path / "b" / "f.rules"
    for path, text in ((a, FAMILY), (b, FAMILY.replace(old, new))):
        path.parent.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert FAMILY.count(old) == 1
    return changes(a, b)


def test_a_repeated_draw_and_a_soft_total(tmp_path):
    assert family_changes(tmp_path, "draw d while count(d) < 2 and total(d) < 12", "draw d while total(d) < 12") == [
        ("round", "repeated draw", "d", "changed", True,
         ["draw d while count(d) < 2 and total(d) < 12 → draw d while total(d) < 12"])]
    assert family_changes(tmp_path, "best not over 21", "best not over 20") == [
        ("cards", "soft total", None, "changed", True,
         ["A counts 1 or 11, best not over 21 → A counts 1 or 11, best not over 20"])]
    assert family_changes(tmp_path, "total sum, A counts 1 or 11, best not over 21", "total sum") == [
        ("cards", "soft total", None, "changed", True, ["A counts 1 or 11, best not over 21 → none"])]


@pytest.mark.parametrize("name", ["soft", "repeats", "draw_order", "differences", "bets"])
def test_the_new_model_fields_have_a_rule(name):
    assert FIELDS[name].__name__ not in ("ignored",)
