"""Rule cards: every card renders in every language, parses as strict HTML5, escapes spec text,
agrees with its engine cell by cell, and the message catalogs cover every template message.

Rule cards in words (the second half): every expression kind, function and fact of the model has a realisation
(a new one without words fails loudly), no spec expression reaches a player's text, and the Chinese cards are
complete: no Latin word but card codes, citation ids and an allow-list, the right script (OpenCC), full-width
punctuation, the glossary's terms; text in another language than the page carries `lang`.

Both halves read the same build of every spec and the same parsed pages (`build_cards`, `parse_strict`: about 4 s
of CPU in a process). They were two files, which the suite's workers could each take (pytest-xdist hands out whole
files): then each worker paid for them. In one file they are paid once.
"""

from __future__ import annotations

import html
import re
import types
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from pathlib import Path

import html5lib
import opencc
import pytest
from babel.messages.extract import extract_from_dir, extract_from_file
from babel.messages.pofile import read_po
from markupsafe import Markup

from croupier import cache as croupier_cache
from croupier.backends.cards import examples as card_examples
from croupier.backends.cards import i18n, render
from croupier.backends.cards import words as W
from croupier.backends.cards.card_model import card_view, describe_game
from croupier.backends.cards.render import md_code, md_escape
from croupier.backends.cards.words import Words, function_key
from croupier.backends.engine.loader import load_engine
from croupier.checks import translations
from croupier.driver import pipeline
from croupier.project import find_project
from croupier.semantics import expr as ir
from croupier.semantics import game_scopes

ROOT = Path(__file__).resolve().parent.parent
PROJECT = find_project(ROOT)
LANGS = PROJECT.languages  # the card languages of this repository
NS = "{http://www.w3.org/1999/xhtml}"
PAYLOADS = ("<script>alert(1)</script>", '"""; import os')


@cache
def build_cards() -> tuple:
    """Compile every spec (with the index) once: (results, {game name: engine module}). Each engine is the module
    the compile loaded from the very text it writes as engines/NAME.py (asserted): loading that text again would
    run the same code once more (no test changes an engine)."""
    results, _ = pipeline.compile_all(pipeline.default_specs(PROJECT), index=True)
    assert all(r.ok for r in results), [str(d) for r in results for d in r.diagnostics if d.is_error]
    assert all(r.artefacts[f"engines/{r.game.name}.py"] == r.engine_source for r in results)
    engines = {r.game.name: r.engine for r in results}
    return results, engines


@cache
def engine_view(name: str, lang: str) -> dict:
    """The card view of a built game in one language with its engine and no worked examples, made once a test
    process: three tests read every game's (in every language, or in English), none changes it."""
    results, engines = build_cards()
    return card_view(next(r.game for r in results if r.game.name == name), lang, [], engines[name])


def card_files() -> dict[str, str]:
    results, _ = build_cards()
    return {rel: text for r in results for rel, text in r.artefacts.items() if rel.startswith("cards/")}


@cache
def parse_strict(text: str):
    """Parse HTML5 with the strict parser: any parse error raises. A text is parsed once a test process
    (html5lib is slow, and many tests read the same cards), and every caller gets that same tree: read it,
    never change it (no test does; a copy for each of the 240-odd callers cost about 6 ms a card, over a
    second of the file's CPU)."""
    return html5lib.HTMLParser(strict=True, namespaceHTMLElements=True).parse(text)


def grid_cells(doc) -> list[tuple[str, str, str]]:
    """(table ident, data-key, data-action) of every grid cell in a parsed card."""
    out = []
    for table in doc.iter(f"{NS}table"):
        if "grid" not in table.get("class", "").split():
            continue
        for td in table.iter(f"{NS}td"):
            out.append((table.get("data-table"), td.get("data-key"), td.get("data-action")))
    return out


def engine_key(text: str):
    parts = tuple(int(p) for p in text.split(","))
    return parts[0] if len(parts) == 1 else parts


def test_every_game_has_a_card_in_every_language_and_format():
    results, _ = build_cards()
    files = card_files()
    for r in results:
        for lang in LANGS:
            for fmt in ("md", "html"):
                text = files[f"cards/{r.game.name}.{lang}.{fmt}"]
                title = r.game.labels.get(lang, r.game.name)
                assert (md_escape(title) if fmt == "md" else html.escape(title, quote=False)) in text
        assert f"cards/{r.game.name}.md" not in files
    assert "cards/index.html" in files


def test_every_html_card_parses_cleanly_as_html5():
    for rel, text in card_files().items():
        if rel.endswith(".html"):
            parse_strict(text)  # raises on the first parse error


def test_html_cards_declare_their_language_and_are_translated():
    files = card_files()
    results, _ = build_cards()
    for r in results:
        headings = {}
        for lang in LANGS:
            doc = parse_strict(files[f"cards/{r.game.name}.{lang}.html"])
            assert doc.get("lang") == lang
            headings[lang] = [ET.tostring(h, encoding="unicode", method="text") for h in doc.iter(f"{NS}h2")]
        assert headings["zh-Hans"] != headings["en"] and headings["zh-Hant"] != headings["en"]
        assert headings["zh-Hans"] != headings["zh-Hant"]


def test_every_grid_cell_agrees_with_the_engine_and_every_engine_cell_is_shown():
    results, engines = build_cards()
    files = card_files()
    checked = 0
    for r in results:
        engine = engines[r.game.name]
        for lang in LANGS:
            cells = grid_cells(parse_strict(files[f"cards/{r.game.name}.{lang}.html"]))
            shown: dict[str, set] = {}
            for ident, key, action in cells:
                table = getattr(engine, ident)
                expected = "draw" if table[engine_key(key)] else "stand"
                assert action == expected, (r.game.name, ident, key)
                shown.setdefault(ident, set()).add(engine_key(key))
                checked += 1
            idents = [t.ident for t in r.game.draws]
            assert sorted(shown) == sorted(idents)
            for ident in idents:
                assert shown[ident] == set(getattr(engine, ident)), ident
    assert checked > 0


def test_markdown_grids_match_the_html_grids():
    files = card_files()
    for rel, text in files.items():
        if not rel.endswith(".en.md"):
            continue
        html = files[rel[:-3] + ".html"]
        md_marks = re.findall(r"^\| \*\*.*?\*\* \|((?: [DS] \|)+)$", text, re.M)
        html_marks = [a[0].upper() for _, _, a in grid_cells(parse_strict(html))]
        assert "".join(m.replace("|", "").replace(" ", "") for m in md_marks) == "".join(html_marks)


def test_cards_show_shoe_flow_bets_examples_and_sources():
    results, _ = build_cards()
    files = card_files()
    for r in results:
        g = r.game
        doc = parse_strict(files[f"cards/{g.name}.en.html"])
        text = ET.tostring(doc, encoding="unicode", method="text")
        assert f"{g.shoe.decks * (len(g.shoe.ranks) * len(g.shoe.suits) + len(g.shoe.jokers))} cards in all" in text
        svgs = [s for s in doc.iter("{http://www.w3.org/2000/svg}svg") if s.get("class") == "flow-svg"]
        assert len(svgs) == 1 and len(list(svgs[0].iter("{http://www.w3.org/2000/svg}rect"))) >= 3
        for b in g.bets.values():
            assert b.label("en") in text
        for lang in LANGS:  # every source title in every card language
            shown = ET.tostring(parse_strict(files[f"cards/{g.name}.{lang}.html"]), encoding="unicode", method="text")
            for s in g.sources:
                assert s.title(lang) in shown
        for a in g.assumptions.values():
            assert a.label("en") in text
        if g.base is not None:
            assert doc.find(f".//{NS}section[@id='differences']") is not None
            for d in g.differences:
                assert d.name in text or _label_of(g.base if d.what == "remove" else g, d) in text


def _label_of(game, d) -> str:
    group = {"bet": game.bets, "assumption": game.assumptions, "room": game.rooms, "event": game.events}.get(d.kind, {})
    return group[d.name].label("en") if d.name in group else d.name


def test_one_odds_convention_with_worked_amounts_from_the_engine_arithmetic():
    """"X to 1" in English, 1赔X / 1賠X in Chinese, X the winnings per 1 staked; each with a stake of 100 and what
    it returns by the engine's own arithmetic; the commission with a small stake whose rounding matters."""
    results, engines = build_cards()
    mark = {"en": "{x} to 1", "zh-Hans": "1赔{x}", "zh-Hant": "1賠{x}"}
    seen_rounding = 0
    for r in results:
        engine = engines[r.game.name]
        for lang in LANGS:
            view = engine_view(r.game.name, lang)
            for b in r.game.bets.values():
                shown = next(x for x in view["bets"] if x["name"] == b.name)
                payouts = [p for w in b.wins for p in w.payouts()]  # a payout table's rows, each a winning rule
                assert len(payouts) == len(shown["wins"])
                for p, sw in zip(payouts, shown["wins"]):
                    x = pipeline_number(p.gross_multiple() - 1)
                    assert sw["odds"].startswith(mark[lang].format(x=x)), (r.game.name, lang, sw["odds"])
                    back = (engine.pays_to(Fraction(100), p.gross_multiple() - 1, p.commission, p.unit, p.rounding)
                            if p.commission else 100 * p.gross_multiple())
                    assert pipeline_number(Fraction(back)) in sw["payout"] and "100" in sw["payout"]
                    if p.commission and p.rounding and lang == "en":
                        m = re.search(r"on a stake of ([\d.]+) it is ([\d.]+), rounded to ([\d.]+), and the stake "
                                      r"returns (\d+(?:\.\d+)?)", sw["payout"])
                        assert m, sw["payout"]
                        stake, exact, cut, ret = (Fraction(v) for v in m.groups())
                        assert exact == stake * (p.gross_multiple() - 1) * p.commission and exact != cut
                        assert ret == engine.pays_to(stake, p.gross_multiple() - 1, p.commission, p.unit, p.rounding)
                        assert ret == stake + stake * (p.gross_multiple() - 1) - cut
                        seen_rounding += 1
    assert seen_rounding >= 1
    for rel, text in card_files().items():  # the other notation is gone
        assert not re.search(r"\d : \d", text), rel


def test_every_rule_the_engine_enforces_is_on_the_card():
    """Rooms and limits, squeeze, valid bets, cut card, burn, last round and void rounds, and the glossary terms:
    each one the game states is on its card (a game that states none of them, such as a one-card game with no
    table operations, has no table section); at least one game states them all."""
    results, _ = build_cards()
    files = card_files()
    complete = 0
    for r in results:
        g = r.game
        p = g.procedure
        has = {"squeeze": g.squeeze is not None,
               "valid": g.valid_bets_none_when is not None or g.valid_bets_pushed_none,
               "shoe": p.cut_low is not None or bool(p.burn_reveal) or p.last_round is not None
               or g.void_returns_stakes}
        for lang in LANGS:
            doc = parse_strict(files[f"cards/{g.name}.{lang}.html"])
            text = ET.tostring(doc, encoding="unicode", method="text")
            glossary = doc.find(f".//{NS}section[@id='glossary']")
            terms = [ET.tostring(dt, encoding="unicode", method="text") for dt in glossary.iter(f"{NS}dt")]
            for room in g.rooms.values():
                assert room.label(lang) in text
                for limit in room.limits.values():
                    if limit is None:  # `no limit`, said in the card's language
                        assert {"en": "no limit", "zh-Hans": "不限额", "zh-Hant": "不限額"}[lang] in text
                    else:
                        assert f"{int(limit[0]):,}–{int(limit[1]):,}" in text
            table = doc.find(f".//{NS}section[@id='table']")
            if not g.is_dealt_round or not (g.rooms or any(has.values()) or p.shuffle_each_round):
                assert table is None and "Squeeze" not in terms
                if not g.is_dealt_round:
                    continue
            else:
                items = [ET.tostring(li, encoding="unicode", method="text") for li in table.iter(f"{NS}li")]
                # squeeze (3), valid bets (3), shoe procedure and void (5)
                assert len(items) >= 3 * has["squeeze"] + 3 * has["valid"] + 5 * has["shoe"]
                if p.cut_low is not None:
                    assert any(f"{p.cut_low}" in i and f"{p.cut_high}" in i for i in items)
                if lang == "en":
                    assert p.shuffle_each_round == any("shuffled before each round" in i for i in items)
                if p.burn_reveal:
                    assert any(str(p.burn_reveal + max(p.burn_values.values())) in i for i in items)  # most burned
            for e in g.events.values():
                assert e.label(lang) in terms
            if lang == "en":
                stated = {"Valid bet": has["valid"], "Cut card": p.cut_low is not None, "Burn": bool(p.burn_reveal),
                          "Squeeze": has["squeeze"], "Push": any(b.pushes for b in g.bets.values()),
                          "Last round": p.last_round is not None, "Void round": g.void_returns_stakes,
                          "Table limits": bool(g.rooms), "Odds": True, "Rules fingerprint": True}
                for term, present in stated.items():
                    assert (term in terms) == present, (g.name, term)
                complete += all(stated.values())
                commission = any(p.commission for b in g.bets.values() for w in b.wins for p in w.payouts())
                assert ("Commission" in terms) == commission
    assert complete >= 1


def test_every_grid_row_is_a_line_in_words():
    results, _ = build_cards()
    for r in results:
        for lang in LANGS:
            view = card_view(r.game, lang, [])
            for t, d in zip(r.game.draws, view["draws"]):
                assert len(d["lines"]) == (len(t.rows) if t.cols else 1)
                if t.cols and lang == "en":
                    for row, line in zip(t.rows, d["lines"]):
                        assert line.startswith("When the ") and f" is {row}, the " in line
    view = card_view(next(r.game for r in results if r.game.name == "baccarat"), "en", [])
    assert "When the Banker's total is 3, the Banker draws unless the value of the Player's third card is 8." in \
        view["draws"][2]["lines"]


def test_provenance_names_the_rules_on_the_card_in_the_engine_and_in_play_json(capsys, monkeypatch):
    import json

    from croupier.cli.main import main

    results, engines = build_cards()
    files = card_files()
    for r in results:
        g = r.game
        assert g.version and g.effective, f"{g.path} states no version or effective date"
        engine = engines[g.name]
        assert (engine.RULES_VERSION, engine.RULES_EFFECTIVE, engine.RULES_FINGERPRINT) == \
            (g.version, g.effective, g.fingerprint)
        for lang in LANGS:
            doc = parse_strict(files[f"cards/{g.name}.{lang}.html"])
            prov = doc.find(f".//{NS}p[@id='provenance']")
            text = ET.tostring(prov, encoding="unicode", method="text")
            assert g.fingerprint in text and g.version in text
            assert prov.find(f".//{NS}time").get("datetime") == g.effective
        if g.base is not None:  # the fingerprint covers the base's text too
            base_text = g.base.rules_text
            g.base.rules_text = base_text + " changed"
            try:
                assert g.fingerprint != engine.RULES_FINGERPRINT
            finally:
                g.base.rules_text = base_text
    monkeypatch.chdir(ROOT)
    assert main(["play", "spec/baccarat.rules", "--cards", "3S 2H 4D 2C 6H AS", "--json"]) == 0
    rules = json.loads(capsys.readouterr().out)["rules"]
    game = next(r.game for r in results if r.game.name == "baccarat")
    assert rules == {"game": "baccarat", "version": game.version, "effective": game.effective,
                     "fingerprint": game.fingerprint}


def test_dispute_lookup_shows_every_minority_cell_and_natural_against_natural():
    """Every grid cell whose action differs from its row's majority, and the stand rule with all its parts
    holding, has a worked example on the card (reference cases written by hand); every link leads to one."""
    from croupier.backends.cards.situations import required

    results, _ = build_cards()
    files = card_files()
    checked = 0
    for r in results:
        if not r.game.is_dealt_round or not (r.game.draws or r.game.stand_when is not None):
            continue  # a round of one card each, with no draws, has no drawing situations
        need = required(r.game)
        assert any(s.startswith("stand:") for s in need)
        for lang in LANGS:
            doc = parse_strict(files[f"cards/{r.game.name}.{lang}.html"])
            shown = {li.get("data-situation"): li for li in doc.iter(f"{NS}li") if li.get("data-situation")}
            assert need <= set(shown), (r.game.name, lang, sorted(need - set(shown)))
            examples = {e.get("id") for e in doc.iter() if e.get("data-case")}
            for li in shown.values():
                links = [a.get("href") for a in li.iter(f"{NS}a")]
                assert links and all(h[1:] in examples for h in links)
            checked += len(need)
    assert checked > 0


def pipeline_number(x) -> str:
    """An exact number as the cards print it."""
    from croupier.syntax.printer import number_text

    return number_text(x)


def test_example_hands_are_classified_by_the_engine_as_their_type():
    results, engines = build_cards()
    seat_games = [r for r in results if r.game.types]
    for r in seat_games:
        view = engine_view(r.game.name, "en")
        for t in view["types"]:
            assert t["example"], f"{r.game.name}: no example hand for {t['name']}"
            hand = [c["code"] for c in t["example"]]
            assert engines[r.game.name].adjudicate({"hand": hand})["type"] == t["name"]


def test_worked_examples_come_from_the_cases_marked_as_examples():
    files = card_files()
    results, _ = build_cards()
    from croupier.semantics.cases import cases_for

    for r in results:
        cases, _ = cases_for(r.game.name, ROOT / "tests" / "cases")
        for lang in LANGS:
            doc = parse_strict(files[f"cards/{r.game.name}.{lang}.html"])
            shown = {e.get("data-case") for e in doc.iter() if e.get("data-case")}
            assert shown == {c.id for c in cases if c.example}
            if lang != "en":  # the hand-written English titles stay on the English card
                text = ET.tostring(doc, encoding="unicode", method="text")
                assert not any(c.title and c.title in text for c in cases)


def test_index_links_every_game_in_every_language():
    files = card_files()
    results, _ = build_cards()
    assert files["cards/index.html"] == files[f"cards/index.{LANGS[0]}.html"]
    for lang in LANGS:
        doc = parse_strict(files[f"cards/index.{lang}.html"])
        assert doc.get("lang") == lang
        hrefs = {a.get("href") for a in doc.iter(f"{NS}a")}
        text = ET.tostring(doc, encoding="unicode", method="text")
        for r in results:
            assert f"{r.game.name}.{lang}.html" in hrefs and f"cards/{r.game.name}.{lang}.html" in files
            assert describe_game(r.game, lang) in text and r.game.labels.get(lang, r.game.name) in text
        assert {f"index.{other}.html" for other in LANGS} <= hrefs


def test_build_is_reproducible(own_memory, monkeypatch):
    results, _ = build_cards()
    croupier_cache.forget()  # compiled again, not taken from the in-process cache (the test's own: `own_memory`)
    # and every card rendered again, not read from the disk cache under its view; the templates' translation to
    # Python (render's other kept kind, "jinja": the same source for every language, keyed by the template text)
    # is still read from the cache, as every build reads it (translating the card templates again for each
    # language and format cost this test about 1 s of CPU, and says nothing about the cards' bytes)
    kept, rendered = render.cached, []

    def cached(kind, key, compute, encode=None, decode=None):
        if kind != "card":
            return kept(kind, key, compute, encode, decode)
        rendered.append(compute())
        return rendered[-1]

    monkeypatch.setattr(render, "cached", cached)
    again, _ = pipeline.compile_all(pipeline.default_specs(PROJECT)[:1], index=False)
    assert len(rendered) == 2 * len(LANGS)  # each language's card in both formats, rendered afresh
    first = results[0].artefacts
    for rel, text in again[0].artefacts.items():
        assert first[rel] == text


def injected_spec(tmp_path: Path) -> Path:
    """The baccarat spec with every kind of label replaced by HTML and Python payloads."""
    text = (ROOT / "spec" / "baccarat.rules").read_text(encoding="utf-8")
    evil = PAYLOADS[0] + " " + PAYLOADS[1].replace('"', "'")
    text = text.replace('"Baccarat"', f'"{evil}"', 1).replace('"Banker pair"', f'"{evil} pair"')
    text = text.replace('zh-Hant "百家樂" zh-Hans "百家乐"', f'zh-Hant "{evil}" zh-Hans "{evil}"', 1)
    text = text.replace('"Player wins"', f'"{evil} & <b>bold</b> wins"')
    text = text.replace('source "000" "', f'source "000" "{evil} ').replace('zh-Hans "棋牌', f'zh-Hans "{evil} 棋牌')
    text = text.replace('zh-Hant "棋牌', f'zh-Hant "{evil} 棋牌')
    path = tmp_path / "baccarat.rules"
    path.write_text(text, encoding="utf-8")
    return path


def test_spec_text_never_becomes_markup(tmp_path):
    spec = injected_spec(tmp_path)
    results, _ = pipeline.compile_all([spec], cases_dir=ROOT / "tests" / "cases", index=True)
    assert results[0].ok, [str(d) for d in results[0].diagnostics]
    arts = results[0].artefacts
    load_engine(arts["engines/baccarat.py"], "baccarat_injected")  # the engine still compiles
    for rel, text in arts.items():
        if rel.endswith(".html"):
            assert "<script" not in text and "<b>bold" not in text
            doc = parse_strict(text)
            assert PAYLOADS[0] in ET.tostring(doc, encoding="unicode", method="text")  # shown as text
            assert not list(doc.iter(f"{NS}script")) and not list(doc.iter(f"{NS}b"))[:0]
            assert all(b.text != "bold" for b in doc.iter(f"{NS}b"))
        elif rel.endswith(".md"):
            assert [m.start() for m in re.finditer(r"(?<!\\)<", text)] == [0]  # only the header comment
            assert "\\<script\\>alert\\(1\\)\\</script\\>" in text


def test_a_card_is_kept_under_its_whole_view_and_read_back_as_rendered(own_memory, monkeypatch, tmp_path):
    results, engines = build_cards()
    game = results[0].game
    view = card_view(game, "en", [], engines[game.name])
    key = render.view_key(view)
    assert key is not None and render.view_key(card_view(game, "zh-Hans", [], engines[game.name])) != key
    # a view holding anything but plain JSON values (Markup, a tuple, a float, a key not a string) is never kept
    for odd in (Markup("<b>x</b>"), ("x",), 0.5, {1: "x"}):
        assert render.view_key({**view, "description": odd}) is None
    assert render.view_key({**view, "title": view["title"] + "!"}) != key  # a value changed: another key
    monkeypatch.setenv("CROUPIER_CACHE", str(tmp_path / "cache"))
    rendered = {fmt: render._render(view, fmt) for fmt in ("md", "html")}
    for fmt, text in rendered.items():
        assert render.render_view(view, fmt) == text  # rendered and kept
        croupier_cache.forget()
        assert render.render_view(view, fmt, key) == text  # read back from the disk, the same to the last byte
    assert len(list((tmp_path / "cache" / "v2" / "card").iterdir())) == 2  # one entry a format


def test_md_filters_neutralise_markup():
    assert md_escape("*a* [x](y) <i>") == "\\*a\\* \\[x\\]\\(y\\) \\<i\\>"
    assert md_escape("two\nlines") == "two lines"
    assert md_code("a `b` c") == "``a `b` c``"
    assert md_code("`x`") == "`` `x` ``"


def test_catalogs_translate_every_template_message():
    extracted = {
        msg[2] if isinstance(msg[2], str) else msg[2][0]
        for msg in extract_from_dir(str(ROOT / "compiler" / "croupier" / "backends" / "cards" / "templates"), [("**.j2", "jinja2")],
                                    options_map={"**.j2": {"extensions": "jinja2.ext.i18n"}})
    }
    # the words of the rules and the mathematics section's prose (compiler/croupier/backends/cards/*.py, as babel.cfg says)
    sources = sorted((ROOT / "compiler" / "croupier" / "backends" / "cards").glob("*.py"))
    for path in sources:
        extracted |= {msg[1] if isinstance(msg[1], str) else msg[1][0] for msg in extract_from_file("python", str(path))}
    assert len(extracted) > 200
    with (ROOT / "compiler" / "croupier" / "backends" / "cards" / "locale" / "messages.pot").open("rb") as fp:
        pot = {m.id if isinstance(m.id, str) else m.id[0] for m in read_po(fp) if m.id}
    assert pot == extracted, "messages.pot is stale: run pybabel extract (see compiler/croupier/backends/cards/locale/README.md)"
    for lang in i18n.catalog_languages():
        assert i18n.missing_messages(lang, extracted) == [], lang


def test_translations_check_warns_about_a_missing_card_language(tmp_path):
    text = (ROOT / "spec" / "baccarat.rules").read_text(encoding="utf-8")
    text = text.replace('bet tie "Tie" zh-Hant "和" zh-Hans "和"', 'bet tie "Tie" zh-Hans "和"')
    spec = tmp_path / "baccarat.rules"
    spec.write_text(text, encoding="utf-8")
    results, _ = pipeline.compile_all([spec], emit=False, index=False)
    found = [d for d in results[0].diagnostics if d.code == translations.CODE]
    assert any("`tie`" in d.message and "zh-Hant" in d.message and not d.is_error for d in found)
    assert all("zh-Hans" not in d.message for d in found if "`tie`" in d.message)
    results, _ = pipeline.compile_all([ROOT / "spec" / "ten_and_a_half.rules"], emit=False, index=False)
    assert not [d for d in results[0].diagnostics if d.code == translations.CODE]


def test_mathematics_section_is_rendered_when_the_driver_provides_it(monkeypatch):
    results, engines = build_cards()
    from croupier.backends.cards.render import render_view

    game = results[0].game
    math = {"view": {"house edge": [{"bet": "<i>x</i>", "edge": "1.06%"}]},
            "chart": '<svg xmlns="http://www.w3.org/2000/svg" class="edge-chart"></svg>'}
    html = render_view(card_view(game, "en", [], engines[game.name], math=math), "html")
    parse_strict(html)
    assert 'class="edge-chart"' in html and "&lt;i&gt;x&lt;/i&gt;" in html and 'id="mathematics"' in html
    html = render_view(card_view(game, "en", [], engines[game.name]), "html")
    assert 'id="mathematics"' not in html
    # the driver asks the analysis tool; an analysis that cannot cover a game leaves the card without the section
    assert 'id="mathematics"' in results[0].artefacts[f"cards/{game.name}.en.html"]
    from croupier.tools.analysis import card_analysis

    monkeypatch.setattr(card_analysis, "card_analysis", lambda game: 1 / 0)
    assert pipeline.card_mathematics(game, "en") is None


def test_example_search_gives_up_quietly_on_an_engine_that_refuses_hands():
    results, _ = build_cards()
    game = next(r.game for r in results if r.game.types)
    refusing = types.ModuleType("refusing")
    refusing.adjudicate = lambda request: (_ for _ in ()).throw(ValueError("no"))
    assert card_examples.example_hands(game, refusing) == {}


@pytest.mark.parametrize("lang", LANGS)
def test_catalog_compiles_the_same_twice(lang):
    a = i18n.translations(lang)
    assert a is i18n.translations(lang)
    assert a.gettext("Drawing rules") == ("Drawing rules" if lang == "en" else i18n.catalog(lang).get("Drawing rules").string)


def test_a_variants_differences_list_each_rule_of_a_bet_and_a_formulas_definition():
    """Under each difference, the base's and the variant's rules, one item per rule (a payout table's rows
    each on a line of their own), and an added formula's definition; in both formats and every language."""
    results, _ = build_cards()
    files = card_files()
    variant = next(r.game for r in results if r.game.base is not None and r.game.formulas
                   and any(w.payouts() and len(list(w.payouts())) > 2 for b in r.game.bets.values() for w in b.wins))
    for lang in LANGS:
        md = files[f"cards/{variant.name}.{lang}.md"]
        section = md.split("\n## ")[1]
        items = [line for line in section.split("\n") if line.startswith("    - ")]
        table = next(w for b in variant.bets.values() for w in b.wins if len(list(w.payouts())) > 2)
        assert len(items) >= len(list(table.payouts())) + len(variant.formulas), (lang, section)
        for f in variant.formulas.values():
            assert any(line.startswith(f"    - {f.label(lang)}") for line in items), (lang, f.name)
        page = parse_strict(files[f"cards/{variant.name}.{lang}.html"])
        nested = page.findall(".//{*}section[@id='differences']//{*}li//{*}ul/{*}li")
        assert len(nested) == len(items), lang


def test_a_difference_never_lists_the_same_rules_twice():
    """A variant's differences list only what changed, each item with its content: an override whose rules read
    as the base's is left out, one whose rules differ lists both (every variant, every language, Markdown); an
    added or removed assumption, event or bet shows its text."""
    results, _ = build_cards()
    files = card_files()
    for r in (r for r in results if r.game.base is not None):
        for lang in LANGS:
            section = files[f"cards/{r.game.name}.{lang}.md"].split("\n## ")[1]
            for item in section.split("\n- ")[1:]:
                groups = [[x[6:] for x in part.split("\n") if x.startswith("    - ")] for part in item.split("\n  - ")[1:]]
                assert groups and all(groups), (r.game.name, lang, item)  # every item has its content
                if len(groups) == 2:
                    assert groups[0] != groups[1], (r.game.name, lang, item)
    commission = files["cards/baccarat_commission.en.md"].split("\n## ")[1]
    assert "Banker" in commission and "Player pair" not in commission and "Changed bet: Tie" not in commission
    assert "Banker, Player" not in files["cards/baccarat_commission.en.md"].split("\n")[5]


# ---- the cards in words ------------------------------------------------------------------------------------------
LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
ID = re.compile(r"\b[A-Z]{2,}-\d+\b")  # a citation id inside a source's title: BCR-001
HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
ALLOW = {"Croupier", "EZ"}  # names a Chinese card may show in Latin letters besides card codes and citation ids
# (EZ: the game's trade name, EZ百家樂 at the tables)
# elements whose text is not prose: citation ids, case ids, the rules' fingerprint, card chips, text marked
# not to translate (designer details), links to the other languages (named in themselves)
NOT_PROSE = {"cite", "case-id", "fingerprint", "pc", "spec"}
# zh-Hant keeps 佣金 for commission (GLOSSARY.md), where OpenCC's conversion would write 傭
SCRIPT_ALLOW = {"zh-Hant": {"佣"}, "zh-Hans": set()}


def _skip(el) -> bool:
    if not isinstance(el.tag, str):  # a comment
        return True
    classes = set((el.get("class") or "").split())
    return bool(classes & NOT_PROSE) or el.get("translate") == "no" or el.get("hreflang") is not None \
        or el.tag.rpartition("}")[2] in ("style", "script", "title", "head")


@cache
def runs(doc) -> tuple[tuple[str, str], ...]:
    """(text, language in force) of every piece of visible text in a parsed card, prose only; walked once a tree
    (`parse_strict` hands out one tree a text, and four tests read the runs of the same cards)."""
    out: list[tuple[str, str]] = []

    def walk(el, lang: str) -> None:
        lang = el.get("lang") or lang
        if _skip(el):
            return
        if el.text:
            out.append((el.text, lang))
        label = el.get("data-label")
        if label:
            out.append((label, lang))
        for child in el:
            walk(child, lang)
            if child.tail:
                out.append((child.tail, lang))

    walk(doc, doc.get("lang"))
    return tuple(out)


def html_cards() -> dict[str, str]:
    return {rel: text for rel, text in card_files().items() if rel.endswith(".html")}


# The pages checked one by one, named from the committed build's file names: collecting the tests needs no build
# (every xdist worker collects every file); the test below checks that they are exactly the pages a build makes.
HTML_PAGES = sorted(f"cards/{p.name}" for p in (ROOT / "generated" / "cards").glob("*.html"))


def test_the_pages_checked_one_by_one_are_the_pages_a_build_makes():
    assert HTML_PAGES and HTML_PAGES == sorted(html_cards())


def page_lang(rel: str) -> str:
    return next(lang for lang in LANGS if f".{lang}." in rel) if rel != "cards/index.html" else LANGS[0]


def test_every_expression_kind_has_words_and_a_new_kind_fails_loudly():
    kinds, todo = set(), [ir.Expr]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        kinds.add(cls)
    concrete = kinds - {ir.Expr, ir.Name, ir.IsTest, ir.Invalid}
    assert len(concrete) >= 18
    for cls in concrete:
        assert any(f"visit_{c.__name__}" in vars(Words) for c in cls.__mro__ if c not in (ir.Expr, ir.Name,
                                                                                        ir.IsTest)), cls

    @dataclass(frozen=True)
    class Novel(ir.Expr):
        """A node kind the cards have no words for."""

    results, _ = build_cards()
    with pytest.raises(NotImplementedError):
        Words(results[0].game, "en").say(Novel(results[0].game.span, ir.BOOL))


def test_every_function_and_name_of_every_scope_has_words():
    results, _ = build_cards()
    checked = 0
    for r in results:
        g = r.game
        scopes = [game_scopes.round_scope(g, with_outcome=True), game_scopes.type_scope(g),
                  game_scopes.table_scope(g), game_scopes.valid_bet_scope(g)]
        if g.settlement is not None:
            scopes.append(game_scopes.settle_scope(g, [], with_result=True))
        for scope in scopes:
            overloads = [f for x in scope.funcs.values() for f in (x if isinstance(x, tuple) else (x,))]
            for f in overloads:  # `count` is several functions of one name (count(h), count(h, class), …)
                for arg in f.args[0].split("|") if f.args != ("*",) else ["*"]:
                    key = function_key(f, arg)
                    phrases = W.QUANTITIES2 if len(f.args) == 2 else {**W.QUANTITIES, **W.CONDITIONS}
                    assert key in phrases, key  # a function of two arguments (card(h, i)) has a two-slot phrase
                    checked += 1
            for name, (_type, kind) in scope.names.items():
                known = {ir.HandFact: {**W.HAND_FACTS, **W.HAND_FACT_CONDITIONS}, ir.TableFact: {**W.TABLE_FACTS,
                         **W.ROLES}, ir.RoleRef: W.ROLES, ir.PairFact: W.PAIR_FACTS,
                         ir.RoundFact: W.ROUND_FACTS}.get(kind)
                if known is not None:
                    assert name in known, (kind.__name__, name)
    assert checked > 20


def test_every_expression_of_every_spec_is_said_in_every_language():
    results, engines = build_cards()
    for r in results:
        for lang in LANGS:
            view = engine_view(r.game.name, lang)
            said = [x["text"] for x in view["round"]] + [w["text"] for b in view["bets"] for w in b["wins"]]
            said += [t["when"] for t in view["types"]] + [line for d in view["draws"] for line in d["lines"]]
            if view["settlement"]:
                said += [c["text"] for c in view["settlement"]["clauses"] + view["settlement"]["formulas"]]
            assert all(s.strip() for s in said)


def spec_notation(game) -> re.Pattern:
    """What a spec expression looks like: a call of one of the language's functions, an operator, `is`, or a
    spec name with an underscore."""
    funcs = set()
    for scope in (game_scopes.round_scope(game, with_outcome=True), game_scopes.type_scope(game),
                  game_scopes.table_scope(game), game_scopes.valid_bet_scope(game)):
        funcs |= set(scope.funcs)
    funcs |= {"stake", "multiplier", "paid", "coins"}
    return re.compile(r"\b(" + "|".join(sorted(funcs)) + r")\(|>=|<=|!=|==|\b\w+ is \w+_\w+|\b[a-z0-9]+_[a-z0-9_]+\b")


def test_no_spec_expression_in_the_player_text():
    results, _ = build_cards()
    files = card_files()
    for r in results:
        pattern = spec_notation(r.game)
        for lang in LANGS:
            doc = parse_strict(files[f"cards/{r.game.name}.{lang}.html"])
            text = " ".join(t for t, _ in runs(doc))
            found = pattern.search(text)
            assert found is None, (r.game.name, lang, text[max(0, found.start() - 60):found.end() + 60])
            md = files[f"cards/{r.game.name}.{lang}.md"].split("\n", 1)[1]  # after the generated-by comment
            md = re.sub(r"\]\([^)]*\)", "]", md)  # link targets are file names
            found = pattern.search(md.replace("\\", ""))
            assert found is None, (r.game.name, lang, "md", found.group(0))


@pytest.mark.parametrize("rel", HTML_PAGES)
def test_chinese_cards_are_complete_and_other_languages_carry_lang(rel):
    """A Chinese card's prose has no Latin word but the allow-list (card codes and citation and case ids are not
    prose); on any card, Latin or Han text in another language than the page sits inside an element with `lang`."""
    lang = page_lang(rel)
    doc = parse_strict(html_cards()[rel])
    assert doc.get("lang") == lang
    for text, in_force in runs(doc):
        if lang.startswith("zh"):
            words = [w for w in LATIN_WORD.findall(ID.sub("", text)) if w not in ALLOW]
            assert not words, (rel, words, text)
        elif HAN.search(text):
            assert in_force.startswith("zh"), (rel, text)


@pytest.mark.parametrize("lang", [x for x in LANGS if x.startswith("zh")])
def test_chinese_cards_are_in_their_own_script(lang):
    convert = opencc.OpenCC("t2s" if lang == "zh-Hans" else "s2t")
    for rel, text in html_cards().items():
        if page_lang(rel) != lang:
            continue
        han = "".join(HAN.findall("".join(t for t, in_force in runs(parse_strict(text)) if in_force == lang)))
        converted = convert.convert(han)
        wrong = sorted({a for a, b in zip(han, converted) if a != b} - SCRIPT_ALLOW[lang])
        assert not wrong, (rel, wrong)


def test_chinese_punctuation_and_terms():
    results, _ = build_cards()
    files = card_files()
    ascii_next_to_han = re.compile(r"[\u3400-\u9fff][,;:!?]|[,;:!?][\u3400-\u9fff]|[\u3400-\u9fff]\.(?!\d)")
    terms = {"zh-Hans": ("赌场优势", "庄家优势", "超级六", "幸运六"), "zh-Hant": ("賭場優勢", "莊家優勢", "超級六", "幸運六")}
    for r in results:
        for lang in (x for x in LANGS if x.startswith("zh")):
            doc = parse_strict(files[f"cards/{r.game.name}.{lang}.html"])
            text = "".join(t for t, in_force in runs(doc) if in_force == lang)
            differences = doc.find(f".//{NS}section[@id='differences']")  # quotes an added assumption's text
            quoted = "".join(ET.tostring(differences, encoding="unicode", method="text")) if differences is not None else ""
            found = ascii_next_to_han.search(text)
            assert found is None, (r.game.name, lang, text[max(0, found.start() - 20):found.end() + 20])
            assert "平局" not in text
            edge, banker_edge, super6, lucky6 = terms[lang]
            if r.game.is_dealt_round:
                assert edge in text and banker_edge not in text
            if "super6" in r.game.bets:
                assert super6 in text and text.count(lucky6) - quoted.count(lucky6) <= 1  # named once, as source 002 calls it
            md = files[f"cards/{r.game.name}.{lang}.md"]
            assert not re.search(r"[：:]\*\*[：:]|\*\*:", md), (r.game.name, lang)
            assert not re.search(r"[\u3400-\u9fff]\*\*: ", md)


def test_english_cards_name_hand_types_in_english():
    results, _ = build_cards()
    files = card_files()
    for r in results:
        if not r.game.types:
            continue
        doc = parse_strict(files[f"cards/{r.game.name}.en.html"])
        for li in doc.find(f".//{NS}section[@id='assumptions']").iter(f"{NS}li"):
            text = ET.tostring(li, encoding="unicode", method="text")
            for t in r.game.types:
                zh = {t.labels.get(x) for x in LANGS if x.startswith("zh")}
                for name in zh:  # a Chinese type name only beside its English one, in parentheses
                    if name and name in text:
                        assert f"({name})" in text and t.label("en") in text, (r.game.name, text)


def test_a_labelled_condition_is_said_held_or_not_in_every_language(tmp_path):
    """A boolean `let` with a label, read negated by a draw rule and a bet, is a sentence on every card (it
    once stopped `check` and `build` with 'a formula is not a condition')."""
    text = (ROOT / "spec" / "dragon_tiger.rules").read_text(encoding="utf-8")
    spec = tmp_path / "dragon_tiger.rules"
    lets = 'let low "Low hand" zh-Hant "小牌" zh-Hans "小牌" = total(dragon) < 5\n'
    bet = '\nbet low_bet "Low" zh-Hant "小" zh-Hans "小"\n    wins when not low, pays 1 to 1\n'
    spec.write_text(text.replace("\nhand ", "\n" + lets + "hand ", 1) + bet, encoding="utf-8")
    results, _ = pipeline.compile_all([spec], index=False)
    assert results[0].ok, [str(d) for d in results[0].diagnostics]
    said = {lang: results[0].artefacts[f"cards/dragon_tiger.{lang}.md"] for lang in LANGS}
    assert "“Low hand” does not hold" in said["en"]
    assert "“小牌”不成立" in said["zh-Hans"] and "「小牌」不成立" in said["zh-Hant"]


def test_worked_example_prints_the_engines_answer_and_check_names_the_disagreement(tmp_path) -> None:
    """A case expecting a tie bet to return 100 where the engine pays 90: the card prints 90 (never the
    case's 100), every hand's cards even where the case leaves them out, and the build fails with the case,
    the field and both values."""
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "dragon_tiger.toml").write_text(
        '[[case]]\nid = "T-1"\nsource = "x"\ntitle = "t"\nexample = true\n'
        'input = { cards = ["7S","7H"], bets = { tie = 10 } }\nexpect = { returns = { tie = 100 } }\n',
        encoding="utf-8")
    from croupier.driver.compile import Level, compile_spec

    out = compile_spec(ROOT / "spec" / "dragon_tiger.rules", Level.ALL, cases_dir=cases, langs=("en",))
    errors = [d for d in out.diagnostics if d.code == "E0910"]
    assert len(errors) == 1 and errors[0].span.line == 2
    assert "'T-1'" in errors[0].message and "returns.tie" in errors[0].message
    assert "expects 100" in errors[0].message and 'answers "90"' in errors[0].message  # an amount, as every answer writes it
    card = out.artefacts["cards/dragon_tiger.en.md"]
    assert "Tie 90" in card and "Tie 100" not in card and "?" not in card.split("T-1")[1]
    assert "7♠ stands — total 7" in card and "7♥ stands — total 7" in card


SOFT_SPEC = """game mini "Mini 21"
shoe 1 deck of standard52
value A = 1, 2..10 = pip, J Q K = 10
total sum, A counts 1 or 11, best not over 21
hand player "Player"
hand dealer "Dealer"
deal player, dealer
draw dealer while total(dealer) < 17
outcome player "Player wins" when total(player) > total(dealer)
outcome dealer "Dealer wins" when total(dealer) >= total(player)
bet player "Player"
    wins when outcome is player, pays 1 to 1
"""


@pytest.mark.parametrize("lang", LANGS)
def test_every_construct_has_its_sentence(tmp_path, lang) -> None:
    """A soft total, a `draw … while` rule, a single wild card and a deck's own suits each have words on the
    card, in every language (never "A = 1" alone, a round without the draw, "Wild cards ()" or ♣ for cups)."""
    from croupier.driver.compile import compile_spec

    path = tmp_path / "mini.rules"
    path.write_text(SOFT_SPEC, encoding="utf-8")
    out = compile_spec(path)
    view = card_view(out.game, lang, [], out.engine)
    assert "11" in view["soft"] and "21" in view["soft"]
    assert any("17" in r["text"] for r in view["round"]), view["round"]
    results, engines = build_cards()
    sette = next(r.game for r in results if r.game.name == "sette_e_mezzo")
    view = card_view(sette, lang, [], engines["sette_e_mezzo"])
    coins = sette.suit_labels["D"].get(lang, "").split(" (")[0]
    assert "()" not in view["wild"] and "（）" not in view["wild"] and coins in view["wild"]
    chips = card_examples.card_chip(sette, "6B", lang)
    assert chips["suit"] not in ("♣", "B") and sette.suit_labels["B"].get(lang, "").startswith(chips["suit"].strip())


@pytest.mark.parametrize("name", ["ten_and_a_half", "ten_and_a_half_banker", "sette_e_mezzo"])
def test_a_seat_game_card_writes_its_round(name) -> None:
    """A seat game's "A round" says, in every language, how many cards are dealt, how a card is taken, the
    order of play and when hands are compared, from the spec's `turn` statement (rule T3)."""
    results, engines = build_cards()
    game = next(r.game for r in results if r.game.name == name)
    assert game.turn is not None and game.turn.deal is not None
    for lang in LANGS:
        rules = [r["text"] for r in card_view(game, lang, [], engines[name])["round"]]
        assert len(rules) >= 4 and str(game.turn.deal) in rules[0], rules
        assert rules[0] != rules[-1]
    english = [r["text"] for r in card_view(game, "en", [], engines[name])["round"]]
    assert not any("has not stated" in r for r in english if "timer" not in r), english


def test_a_seat_game_without_turn_says_it_is_unstated(tmp_path) -> None:
    """Without `turn` the card says the house has not stated how a round is played, and the build warns."""
    from croupier.driver.compile import Level, compile_spec

    text = (ROOT / "tests" / "errors" / "E0161_face_up_beyond_dealt.rules").read_text(encoding="utf-8")
    path = tmp_path / "s.rules"
    path.write_text(text.replace("turn deal 2 cards, 3 face up, hit reveals, seat-order\n", ""), encoding="utf-8")
    out = compile_spec(path, Level.ALL, langs=("en",))
    assert [d.code for d in out.diagnostics if d.code.startswith("W08")] == ["W0801"]
    assert "The house has not stated how the cards are dealt" in out.artefacts["cards/s.en.md"]


def test_mathematics_reads_plainly() -> None:
    """The house edge stands beside each bet; the policy table's best row is the threshold the card names; every
    figure has a sentence saying what it is; the odds entry of a commission bet wins what the bet returns."""
    files = card_files()
    card = files["cards/baccarat_commission.en.md"]
    assert card.count("- House edge: ") == 5 and "Reading the figures: House edge:" in card
    assert "a winning stake of 1 wins 0.95" in card and "a stake of 100 returns 195" in card
    for name in ("ten_and_a_half", "ten_and_a_half_banker", "sette_e_mezzo"):
        md = files[f"cards/{name}.en.md"]
        best = re.search(r"Best threshold \\\(highest expected result [^)]*\\\): ([\d.]+)", md).group(1)
        table = md.split("### Threshold policies")[1].split("\n## ")[0]
        rows = [line for line in table.splitlines() if "\\(best\\)" in line]
        assert len(rows) == 1 and rows[0].startswith(f"| {best} |"), (name, rows)
        assert "Reading the figures: Expected multiplier:" in md
        assert "**Bust" in md.split("## Glossary")[1]


def test_seat_settlement_reads_as_a_player_says_it() -> None:
    """Two busts: "Nobody pays when both hands are “Bust”", never the logic of winner and loser."""
    md = card_files()["cards/ten_and_a_half.en.md"]
    assert "Nobody pays when both hands are “Bust”." in md and "the loser's hand is “Bust”" not in md


def test_citations_keep_sections_and_their_sources_language() -> None:
    """Any source id keeps its sections; case and source ids are not translated; a citation carries the language
    its source is written in (`source … written in it`), never the page's or English by default."""
    from croupier.backends.cards.worked import short_source

    assert short_source("H1 §2 §4 §5") == "H1 §2 §4 §5" and short_source("WOO-DT rules: K high") == "WOO-DT"
    files = card_files()
    sette = files["cards/sette_e_mezzo.zh-Hans.html"]
    assert '<span class="cite" translate="no" lang="it">[W La matta]' in sette
    bacc = files["cards/baccarat.en.html"]
    assert '<span class="case-id" translate="no">BCR-001</span>' in bacc
    assert re.search(r'<span class="cite ex-cite" translate="no" lang="zh-Hant">\[003 BCR-001\]', bacc)


def test_example_titles_are_translated_and_strict_asks_for_them(tmp_path) -> None:
    """Chinese cards show as many example titles as the English one; an example without a title in a card
    language gets a warning (W0802) that `check --strict` fails on."""
    files = card_files()
    for name in ("baccarat", "ten_and_a_half"):
        counts = {lang: files[f"cards/{name}.{lang}.html"].count('ex-title">') for lang in LANGS}
        assert len(set(counts.values())) == 1 and counts["en"] > 0, counts
    cases = tmp_path / "cases"
    cases.mkdir()
    (cases / "dragon_tiger.toml").write_text(
        '[[case]]\nid = "T-1"\nsource = "x"\ntitle = "t"\nexample = true\ntitles = { zh-Hans = "甲" }\n'
        'input = { cards = ["7S","7H"], bets = { tie = 10 } }\nexpect = { returns = { tie = 90 } }\n', encoding="utf-8")
    from croupier.driver.compile import Level, compile_spec

    out = compile_spec(ROOT / "spec" / "dragon_tiger.rules", Level.ALL, cases_dir=cases, langs=("en", "zh-Hans", "zh-Hant"))
    warned = [d for d in out.diagnostics if d.code == "W0802"]
    assert len(warned) == 1 and "zh-Hant" in warned[0].message and "zh-Hans" not in warned[0].message
    assert "甲" in out.artefacts["cards/dragon_tiger.zh-Hans.html"]


def test_one_term_per_thing_across_cards() -> None:
    """Stake, wild card and face card each have one Chinese term on every card (GLOSSARY.md): 投注额, 赖子, 人牌."""
    files = card_files()
    for rel, text in files.items():
        if rel.endswith(".html") and ".zh-" in rel:
            text = re.sub(r'<span class="cite[^"]*"[^>]*>[^<]*</span>', "", text)  # a citation quotes its source
            for other in ("投入额", "投入額", "赖子牌", "賴子牌", "人头牌", "人頭牌"):
                assert other not in text, (rel, other)


def _spec_refs(value):
    """Every "spec" reference ({"code", "where"}) in a card view."""
    if isinstance(value, dict):
        if set(value) == {"code", "where"}:
            yield value
        for v in value.values():
            yield from _spec_refs(v)
    elif isinstance(value, list):
        for v in value:
            yield from _spec_refs(v)


def test_every_spec_link_points_at_its_statement() -> None:
    """Each "Spec" reference names the line of the statement it shows (deal, stand, events, draws, outcomes,
    bets and their clauses, hand types, settlement, assumptions, turn …), never the `game` line."""
    results, engines = build_cards()
    kinds = set()
    for r in results:
        for ref in _spec_refs(engine_view(r.game.name, "en")):
            if not ref["where"]:
                continue
            path, line = ref["where"].rsplit(":", 1)
            text = (ROOT / path).read_text(encoding="utf-8").splitlines()[int(line) - 1].strip()
            text = text.removeprefix("override ")
            first = ref["code"].split()[0]
            kinds.add(first)
            assert text.split()[0] == first, (r.game.name, ref, text)
    assert {"deal", "stand", "event", "draw", "outcome", "bet", "wins", "type", "assume", "turn"} <= kinds, kinds
