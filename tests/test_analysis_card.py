"""The card's mathematics view and its house-edge chart."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

from croupier.backends.cards.mathematics import EDGE_TABLE, edge_chart_svg, math_view, mathematics
from croupier.semantics.resolve import Loader
from croupier.tools.analysis.card_analysis import card_analysis
from croupier.tools.analysis.report import DECK_TABLE

ROOT = Path(__file__).resolve().parent.parent
LOADER = Loader()


def game(name: str):
    g, diags = LOADER.load(str(ROOT / "spec" / f"{name}.rules"))
    assert g is not None and not any(d.is_error for d in diags)
    return g


def view_of(g, lang: str = "en") -> dict:
    """The view the driver hands a card: the analysis tool's data, worded by the cards back end."""
    return math_view(g, card_analysis(g), lang)


def percent(text: str) -> Fraction:
    return Fraction(text.replace(" %", "").replace(" pp", "").replace("+", "").replace("−", "-"))


def test_view_has_outcomes_bets_and_the_deck_table():
    view = view_of(game("baccarat"))
    assert [o["probability"] for o in view["Outcomes"]] == ["44.6247 %", "45.8597 %", "9.5156 %"]
    bets = {b["bet"]: b for b in view["Bets"]}
    assert bets["Tie"]["house edge"] == "14.3596 %"
    table = {row["bet"]: row for row in view[EDGE_TABLE]}
    assert list(table["Banker"])[1:] == ["1 deck", "2 decks", "4 decks", "6 decks", "8 decks"]
    for name, row in table.items():
        assert row["8 decks"] == bets[name]["house edge"]
    # more decks, less card removal: the tie bet's edge moves with the deck count
    assert len({row for k, row in table["Tie"].items() if k != "bet"}) == 5


def test_a_variant_shows_how_its_edges_differ_from_its_base():
    view = view_of(game("baccarat_no_commission"))
    key = next(k for k in view if k.startswith("House edge against the base"))
    rows = {r["bet"]: r for r in view[key]}
    banker = rows["Banker"]
    assert percent(banker["difference"]) == percent(banker["this game"]) - percent(banker["base"])
    assert banker["difference"].startswith("+")
    assert rows["Super 6"]["difference"] == "new bet"
    assert rows["Tie"]["difference"] == "±0.0000 pp"


def test_seat_games_show_the_policy_analysis():
    view = view_of(game("ten_and_a_half_banker"))
    types = {r["type"]: r["probability"] for r in view["Hand types"]}
    assert set(types) == {"Five faces", "Five small", "Ten and a half", "Plain", "Bust"}
    assert abs(sum(percent(p) for p in types.values()) - 100) < Fraction(1, 1000)
    assert "exact" in view["Banker against one player"]
    thresholds = [Fraction(r["hit while total below"]) for r in view["Threshold policies"]]
    assert thresholds == sorted(thresholds) and Fraction(8) in thresholds
    assert "Banker against one player" not in view_of(game("ten_and_a_half"))
    seat = game("ten_and_a_half_banker")
    assert mathematics(seat, card_analysis(seat))["chart"] == ""  # one deck only: no deck-count chart


def test_chart_is_deterministic_well_formed_and_escaped():
    view = view_of(game("baccarat_commission"))
    svg = edge_chart_svg(view, DECK_TABLE)
    assert svg == edge_chart_svg(view_of(game("baccarat_commission")), DECK_TABLE)
    root = ET.fromstring(f"<panels>{svg}</panels>")
    panels = list(root)
    assert panels and all(p.tag.endswith("svg") for p in panels)
    ns = "{http://www.w3.org/2000/svg}"
    distinct = {tuple(v for k, v in row.items() if k != "bet") for row in view[EDGE_TABLE]}
    lines = [line for p in panels for line in p.iter(f"{ns}polyline")]
    assert len(lines) == len(distinct)  # bets with equal figures are one series, named after all of them
    assert len({line.get("stroke") for line in lines}) == len(lines)  # each series its own colour
    for p in panels:  # readable: 12-unit text, both axes titled, the deck counts at their numeric distances
        assert int(p.get("font-size")) >= 12 and int(p.get("width")) <= 330
        assert len([t for t in p.iter(f"{ns}text") if t.get("class") == "axis-title"]) == 2
        ticks = {t.text: float(t.get("x")) for t in p.iter(f"{ns}text") if t.get("text-anchor") == "middle"
                 and t.get("class") is None}
        xs = [ticks[str(d)] for d in (1, 2, 4, 6, 8)]
        assert abs((xs[2] - xs[1]) - 2 * (xs[1] - xs[0])) < 0.5 and abs((xs[4] - xs[3]) - (xs[3] - xs[2])) < 0.5
    nasty = {EDGE_TABLE: [{"bet": '<script>"x"&</script>', "1 deck": "1.5 %", "8 decks": "1.0 %"}]}
    text = edge_chart_svg(nasty, DECK_TABLE)
    assert "<script>" not in text and "&lt;script&gt;" in text
    ET.fromstring(f"<panels>{text}</panels>")
    assert edge_chart_svg({}, DECK_TABLE) == ""
