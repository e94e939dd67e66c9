"""The new dealt-round games analyse exactly to their published figures, each checked against an enumeration
written here, independently of Croupier: Dragon Tiger (one card a hand, suits), EZ Baccarat (ordered clauses,
the push first), Dragon Bonus (payout tables with a natural row), and a small 21-game written only for this
test (one card each, a dealer drawing while under 13 with a soft ace, card positions, `mod`, `cards_used`).

The published figures (8 decks, Wizard of Odds): Dragon Tiger dragon/tiger 3.7349 %, tie 32.7711 %,
suited tie 13.98 %; EZ Baccarat banker 1.0183 %, Dragon 7 7.6113 %, Panda 8 10.1876 %; Dragon Bonus
player 2.6517 %, banker 9.3731 %.
"""

from __future__ import annotations

import re
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import cache
from pathlib import Path

import pytest

from croupier.backends.engine.analysis_emitter import analysis_plan, emit_analysis_module
from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.driver.compile import Level, compile_spec
from croupier.semantics.resolve import Loader
from croupier.tools.analysis.card_analysis import analysis_of

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "spec"


@cache
def analysed(spec: str) -> dict:
    """The exact analysis of a spec of spec/ (8 decks) by its engine's companion, as `croupier analyze` and the
    rule card compute it: through the cache, which keeps it per engine and companion source, so that the card
    builds of the session (and `croupier check`, with the user's cache) and these tests compute it once."""
    result = compile_spec(SPEC / f"{spec}.rules", Level.ENGINE)
    assert result.ok, result.diagnostics
    return analysis_of(result.game)


def percent(x: Fraction, places: int) -> str:
    """A house edge as a percentage rounded half up to `places` decimals, computed exactly."""
    return str((Decimal(x.numerator) * 100 / Decimal(x.denominator)).quantize(Decimal(1).scaleb(-places),
                                                                                ROUND_HALF_UP))


def edges(spec: str) -> dict[str, Fraction]:
    return {name: b["house_edge"] for name, b in analysed(spec)["bets"].items()}


# ---- Dragon Tiger: one card each from 8 decks, by rank and suit -------------------------------------------------

def dragon_tiger_edges(decks: int = 8) -> dict[str, Fraction]:
    """Every ordered pair of cards (rank 1..13, suit 0..3), each card held `decks` times."""
    n = 52 * decks
    returns = {"dragon": Fraction(0), "tie": Fraction(0), "suited_tie": Fraction(0)}
    for r1 in range(1, 14):
        for s1 in range(4):
            for r2 in range(1, 14):
                for s2 in range(4):
                    same = (r1, s1) == (r2, s2)
                    p = Fraction(decks * (decks - 1 if same else decks), n * (n - 1))
                    returns["dragon"] += p * (2 if r1 > r2 else Fraction(1, 2) if r1 == r2 else 0)
                    returns["tie"] += p * (9 if r1 == r2 else 0)
                    returns["suited_tie"] += p * (51 if same else 0)
    return {k: 1 - v for k, v in returns.items()}


def test_dragon_tiger_matches_an_independent_enumeration_and_the_published_edges() -> None:
    mine, theirs = edges("dragon_tiger"), dragon_tiger_edges()
    assert mine["dragon"] == mine["tiger"] == theirs["dragon"]
    assert mine["tie"] == theirs["tie"] and mine["suited_tie"] == theirs["suited_tie"]
    assert percent(mine["dragon"], 4) == "3.7349"
    assert percent(mine["tie"], 4) == "32.7711"
    assert percent(mine["suited_tie"], 2) == "13.98"
    assert analysis_plan(Loader().load(str(SPEC / "dragon_tiger.rules"))[0]).get("general")  # the general path


# ---- baccarat, enumerated here: values 0..9, 8 decks, the third-card rule ------------------------------------------

def banker_draws(banker: int, third: int | None) -> bool:
    if third is None:
        return banker <= 5
    return {0: True, 1: True, 2: True, 3: third != 8, 4: 2 <= third <= 7, 5: 4 <= third <= 7,
            6: third in (6, 7), 7: False}[banker]


@cache
def baccarat_rounds(decks: int = 8) -> tuple[int, list[tuple[int, tuple, tuple]]]:
    """Every round as (weight, player's card values, banker's card values), with card removal, and the whole
    its weights are out of: the ordered ways to deal six cards from the shoe (a round of k cards weighs its
    ways to be dealt times the ways to go on to six). Integers all through: the same exact probabilities.

    The cards are dealt in nested loops, in the order a round deals them (player, banker, player, banker,
    then the player's third card and the banker's), each value taken while the shoe still holds one."""
    counts = [16 * decks] + [4 * decks] * 9  # value 0 (10 J Q K), then 1..9
    n = 52 * decks
    go_on = [1] * 7  # go_on[k]: ordered ways to deal 6 - k more cards after k
    for k in range(5, -1, -1):
        go_on[k] = go_on[k + 1] * (n - k)
    out = []
    values = range(10)
    # draws[b][v]: whether a banker on b draws after the player's third card of value v; stands[b]: whether a banker
    # on b stands when the player stood (a total of 8 or 9 is a natural, never asked)
    draws = [[banker_draws(b, third) for third in values] for b in range(8)]
    stands = [not banker_draws(b, None) for b in range(8)]

    def banker_third(player, banker, ways, after):
        """The banker's third card dealt in every way after `after` cards, each round appended."""
        for b3 in values:
            if counts[b3]:
                out.append((ways * counts[b3] * go_on[after + 1], player, (*banker, b3)))

    for p1 in values:
        if not counts[p1]:
            continue
        w1 = counts[p1]
        counts[p1] -= 1
        for b1 in values:
            if not counts[b1]:
                continue
            w2 = w1 * counts[b1]
            counts[b1] -= 1
            for p2 in values:
                if not counts[p2]:
                    continue
                w3 = w2 * counts[p2]
                counts[p2] -= 1
                pt = (p1 + p2) % 10
                for b2 in values:
                    if not counts[b2]:
                        continue
                    w4 = w3 * counts[b2]
                    bt = (b1 + b2) % 10
                    player, banker = (p1, p2), (b1, b2)
                    if pt >= 8 or bt >= 8:
                        out.append((w4 * go_on[4], player, banker))
                    elif pt <= 5:
                        counts[b2] -= 1
                        for p3 in values:
                            if not counts[p3]:
                                continue
                            w5 = w4 * counts[p3]
                            if draws[bt][p3]:
                                counts[p3] -= 1
                                banker_third((p1, p2, p3), banker, w5, 5)
                                counts[p3] += 1
                            else:
                                out.append((w5 * go_on[5], (p1, p2, p3), banker))
                        counts[b2] += 1
                    elif stands[bt]:
                        out.append((w4 * go_on[4], player, banker))
                    else:
                        counts[b2] -= 1
                        banker_third(player, banker, w4, 4)
                        counts[b2] += 1
                counts[p2] += 1
            counts[b1] += 1
        counts[p1] += 1
    return go_on[0], out


@cache
def baccarat_classes() -> tuple[int, list[tuple[int, tuple, tuple]]]:
    """The rounds of `baccarat_rounds` gathered by what every bet of these tests reads of a hand, its number
    of cards and its total mod 10: (the class's summed weight, one of its rounds' player and banker values)."""
    whole, rounds = baccarat_rounds()
    by: dict[tuple[int, int, int, int], list] = {}
    for w, pl, bk in rounds:
        slot = by.get(key := (len(pl), sum(pl) % 10, len(bk), sum(bk) % 10))
        if slot is None:
            by[key] = [w, pl, bk]
        else:
            slot[0] += w
    return whole, [(w, pl, bk) for w, pl, bk in by.values()]


def baccarat_edge(pay) -> Fraction:
    """1 − the expected return of a bet: `pay(player values, banker values)` returns per unit, stake included,
    and reads the values only through each hand's number of cards and total mod 10 (so every round of a class of
    `baccarat_classes` pays what its representative pays)."""
    whole, classes = baccarat_classes()
    return 1 - Fraction(sum(w * pay(pl, bk) for w, pl, bk in classes), whole)


def winner(pl, bk) -> str:
    pt, bt = sum(pl) % 10, sum(bk) % 10
    return "player" if pt > bt else "banker" if bt > pt else "tie"


def test_the_independent_baccarat_enumeration_is_sound() -> None:
    whole, rounds = baccarat_rounds()
    assert whole == 416 * 415 * 414 * 413 * 412 * 411
    assert sum(w for w, _pl, _bk in rounds) == whole
    banker = Fraction(sum(w for w, pl, bk in rounds if winner(pl, bk) == "banker"), whole)
    assert f"{float(banker):.6f}" == "0.458597"  # README: banker 0.458597 (8 decks)
    # the classes the bets are weighed by hold every round's weight, and a winner's weight is its rounds'
    assert baccarat_classes()[0] == whole and sum(w for w, _pl, _bk in baccarat_classes()[1]) == whole
    assert 1 - baccarat_edge(lambda pl, bk: winner(pl, bk) == "banker") == banker


def test_ez_baccarat_matches_an_independent_enumeration_and_the_published_edges() -> None:
    def dragon7(pl, bk):
        return winner(pl, bk) == "banker" and len(bk) == 3 and sum(bk) % 10 == 7

    def panda8(pl, bk):
        return winner(pl, bk) == "player" and len(pl) == 3 and sum(pl) % 10 == 8

    def banker(pl, bk):  # push first: a Dragon 7 pushes, any other banker win pays even money
        return 1 if dragon7(pl, bk) or winner(pl, bk) == "tie" else 2 if winner(pl, bk) == "banker" else 0

    mine = edges("ez_baccarat")
    assert mine["banker"] == baccarat_edge(banker)
    assert mine["dragon7"] == baccarat_edge(lambda pl, bk: 41 if dragon7(pl, bk) else 0)
    assert mine["panda8"] == baccarat_edge(lambda pl, bk: 26 if panda8(pl, bk) else 0)
    assert percent(mine["banker"], 4) == "1.0183"
    assert percent(mine["dragon7"], 4) == "7.6113"
    assert percent(mine["panda8"], 4) == "10.1876"


def test_the_push_first_spelling_is_what_the_spec_writes() -> None:
    game = Loader().load(str(SPEC / "ez_baccarat.rules"))[0]
    kinds = [c.kind for c in game.bets["banker"].clauses]
    assert kinds == ["push", "wins", "push"]
    assert percent(edges("ez_baccarat")["banker"], 4) == "1.0183"


def test_the_win_first_spelling_is_a_covered_clause(tmp_path: Path) -> None:
    """Written win first, the Dragon 7 push could never decide: an error naming both clauses."""
    text = (SPEC / "ez_baccarat.rules").read_text(encoding="utf-8")
    text, pushes = re.subn(r"    push when dragon7 +\[WOO-EZ\]\n", "", text)  # whatever the layout
    text, wins = re.subn(r"    wins when outcome is banker, pays 1 to 1 +\[WOO-EZ\]\n",
                         "    wins when outcome is banker, pays 1 to 1\n    push when dragon7\n", text)
    assert (pushes, wins) == (1, 1)
    for base in ("baccarat", "baccarat_commission"):
        (tmp_path / f"{base}.rules").write_text((SPEC / f"{base}.rules").read_text(encoding="utf-8"), "utf-8")
    (tmp_path / "ez_baccarat.rules").write_text(text, encoding="utf-8")
    result = compile_spec(tmp_path / "ez_baccarat.rules", Level.CHECKED)
    covered = [d for d in result.diagnostics if d.code == "E0407"]
    assert len(covered) == 1
    assert "`push when dragon7` never decides" in covered[0].message
    assert "`wins when outcome is banker, pays 1 to 1`" in covered[0].message


def test_dragon_bonus_matches_an_independent_enumeration_and_the_published_edges() -> None:
    margins = {9: 31, 8: 11, 7: 7, 6: 5, 5: 3, 4: 2}

    def bonus(side):
        def pay(pl, bk):
            mine, other = (pl, bk) if side == "player" else (bk, pl)
            natural = len(pl) == 2 and len(bk) == 2 and max(sum(pl) % 10, sum(bk) % 10) >= 8
            w = winner(pl, bk)
            if w == "tie":
                return 1 if natural else 0
            if w != side:
                return 0
            return 2 if natural else margins.get(sum(mine) % 10 - sum(other) % 10, 0)
        return pay

    mine = edges("dragon_bonus")
    assert mine["player_bonus"] == baccarat_edge(bonus("player"))
    assert mine["banker_bonus"] == baccarat_edge(bonus("banker"))
    assert percent(mine["player_bonus"], 4) == "2.6517"
    assert percent(mine["banker_bonus"], 4) == "9.3731"


# ---- a 21-game written for this test: repeated draws, a soft ace, card positions ---------------------------------

MINI = """game mini "Mini 21"
shoe 1 deck of standard52
value A = 1, 2..10 = pip, J Q K = 10
total sum, A counts 1 or 11, best not over 21
hand player "Player"
hand dealer "Dealer"
deal player, dealer
draw dealer while total(dealer) < 13
outcome bust "Dealer busts" when total(dealer) > 21
outcome player "Player wins" when total(dealer) <= 21 and total(player) > total(dealer)
outcome dealer "Dealer wins" when total(dealer) <= 21 and total(dealer) > total(player)
outcome push "Push" when total(dealer) <= 21 and total(player) = total(dealer)
let dealt_ten = value(card(dealer, 2)) = 10
bet player "Player"
    wins when outcome is bust or outcome is player, pays 1 to 1
    push when outcome is push
bet soft "Soft dealer"
    wins when soft(dealer) and count(dealer) >= 3, pays 3 to 1
bet ace "Ace first"
    wins when value(first(player)) = 1, pays 11 to 1
bet even "Even round"
    wins when cards_used mod 2 = 0 and abs(total(player) - total(dealer)) <= 2, pays 1 to 1
bet ten "Ten second"
    wins when dealt_ten, pays 1 to 1
"""


def mini_total(cards: list[int]) -> tuple[int, bool]:
    """(best total, soft) of card values 1..10, an ace counting 1 or 11."""
    base = sum(cards)
    if 1 in cards and base + 10 <= 21:
        return base + 10, True
    return base, False


def mini_returns() -> dict[str, Fraction]:
    """Every round of the 21-game over card values (A=1 .. 9, four of each; 10 J Q K sixteen tens), with
    card removal; weights are integer counts of ordered deals, divided at the end."""
    counts = {v: 16 if v == 10 else 4 for v in range(1, 11)}
    out = {k: Fraction(0) for k in ("player", "soft", "ace", "even", "ten")}
    by_length: dict[int, dict[str, int]] = {}

    def walk(cards, ways):
        if len(cards) >= 2:
            player, dealer = [cards[0]], cards[1:]
            dt, soft = mini_total(dealer)
            if dt >= 13:
                pt, _ = mini_total(player)
                got = by_length.setdefault(len(cards), {k: 0 for k in out})
                got["player"] += 2 * ways if dt > 21 or pt > dt else ways if pt == dt else 0
                got["soft"] += 4 * ways if soft and len(dealer) >= 3 else 0
                got["ace"] += 12 * ways if cards[0] == 1 else 0
                got["even"] += 2 * ways if len(cards) % 2 == 0 and abs(pt - dt) <= 2 else 0
                got["ten"] += 2 * ways if len(dealer) >= 2 and dealer[1] == 10 else 0
                return
        for v in range(1, 11):
            if counts[v]:
                counts[v] -= 1
                walk(cards + [v], ways * (counts[v] + 1))
                counts[v] += 1

    walk([], 1)
    for length, sums in by_length.items():
        deals = 1
        for i in range(length):
            deals *= 52 - i
        for k, v in sums.items():
            out[k] += Fraction(v, deals)
    return out


def test_repeated_draws_soft_totals_and_card_positions_analyse_exactly(tmp_path: Path) -> None:
    path = tmp_path / "mini.rules"
    path.write_text(MINI, encoding="utf-8")
    game, diags = Loader().load(str(path))
    assert game is not None and not any(d.is_error for d in diags), diags
    plan = analysis_plan(game)
    assert not plan["supported"] and plan["general"]  # the general enumerator
    engine = load_engine(emit_engine(game, "mini.rules"), "new_mini")
    a = load_engine(emit_analysis_module(game, "mini.rules"), "new_mini_analysis").analyse(engine)
    theirs = mini_returns()
    for name, expected in theirs.items():
        assert a["bets"][name]["expected_return"] == expected, name
    assert sum(a["outcomes"].values()) == 1
    r = engine.play(["AS", "AH", "AC", "AD"])  # player A: soft 11; dealer A + A = soft 12 draws, A: soft 13
    assert (engine.total(r.player), engine.total(r.dealer), r.cards_used, r.outcome) == (11, 13, 4, "dealer")
    assert engine.is_soft(r.dealer)


def test_the_cards_show_the_published_figures() -> None:
    for spec, figures in (("dragon_tiger", ("3.7349 %", "32.7711 %", "13.9759 %")),
                          ("ez_baccarat", ("1.0183 %", "7.6113 %", "10.1876 %")),
                          ("dragon_bonus", ("2.6517 %", "9.3731 %"))):
        card = (ROOT / "generated" / "cards" / f"{spec}.en.md").read_text(encoding="utf-8")
        for figure in figures:
            assert figure in card, (spec, figure)


@pytest.mark.parametrize("spec", ["dragon_tiger", "ez_baccarat", "dragon_bonus"])
def test_each_new_spec_cites_a_source_and_labels_every_language(spec: str) -> None:
    game = Loader().load(str(SPEC / f"{spec}.rules"))[0]
    assert game.sources and all("Wizard of Odds" in s.description for s in game.sources if s.ident.startswith("WOO"))
    for thing in [game, *game.bets.values(), *game.outcomes.values(), *game.events.values()]:
        labels = thing.labels
        assert all(labels.has(lang) for lang in ("en", "zh-Hans", "zh-Hant")), (spec, getattr(thing, "name", ""))
