"""Rule cards in a real browser: Debian's Chromium, headless, driven through Playwright.

Every card of a fresh build is opened from a file:// URL; the test fails on a
console error or page error, a missing grid or flow diagram, or a grid cell
whose computed colour is not the one the engine's decision calls for. Phone
width and print media are checked too. In CI (CI=true) a missing Chromium or
Playwright is a failure, never a skip; Playwright's own browsers are not used.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from test_cards import LANGS, build_cards, engine_key  # the sibling test module's one build

from croupier.backends.cards.render import DRAW_RGB, STAND_RGB
from croupier.driver import pipeline

CHROMIUM = os.environ.get("CROUPIER_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

CELLS_JS = """() => Array.from(document.querySelectorAll('table.grid td')).map(td => [
    td.closest('table').dataset.table, td.dataset.key, td.dataset.action,
    getComputedStyle(td).backgroundColor])"""


def _missing() -> str:
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        return f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright Python package is not installed (pip install playwright)"
    return ""


@pytest.fixture(scope="module")
def browser():
    problem = _missing()
    if problem:
        if IN_CI:
            pytest.fail(f"browser test cannot run in CI: {problem}")
        pytest.skip(problem)
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """A temporary build of every card and the index."""
    out = tmp_path_factory.mktemp("generated")
    results, _ = build_cards()
    pipeline.write_artefacts(results, out)
    return out / "cards"


def open_page(browser, url: str, width: int = 1000):
    page = browser.new_page(viewport={"width": width, "height": 900})
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: errors.append(f"request failed: {r.url}"))
    page.goto(url, wait_until="load")
    return page, errors


def test_every_card_opens_cleanly_with_its_tables_diagram_and_engine_colours(browser, site):
    results, engines = build_cards()
    colours = {"draw": DRAW_RGB, "stand": STAND_RGB}
    opened = cells_seen = 0
    for r in results:
        engine = engines[r.game.name]
        for lang in LANGS:
            page, errors = open_page(browser, (site / f"{r.game.name}.{lang}.html").as_uri())
            assert errors == [], errors
            assert page.locator("svg.flow-svg g.step").count() >= 3
            assert page.locator("svg.flow-svg").bounding_box()["height"] > 100
            assert page.locator("table.grid").count() == len(r.game.draws)
            assert page.locator("table").count() >= 2  # at least the values and bets or hand types
            for ident, key, action, bg in page.evaluate(CELLS_JS):
                expected = "draw" if getattr(engine, ident)[engine_key(key)] else "stand"
                assert action == expected, (r.game.name, ident, key)
                assert bg == colours[expected], (r.game.name, lang, ident, key, bg)
                cells_seen += 1
            page.close()
            opened += 1
    assert opened == len(results) * len(LANGS)
    assert cells_seen == sum(len(t.cells) for r in results for t in r.game.draws) * len(LANGS)


def test_index_links_open_every_card(browser, site):
    page, errors = open_page(browser, (site / "index.html").as_uri())
    assert errors == []
    hrefs = page.evaluate("() => Array.from(document.querySelectorAll('td a[hreflang]')).map(a => a.href)")
    results, _ = build_cards()
    assert len(hrefs) == len(results) * len(LANGS)
    for href in hrefs:
        assert Path(href.removeprefix("file://")).is_file(), href
    page.close()


@pytest.mark.parametrize("lang", LANGS)
def test_cards_fit_a_phone_and_print_without_the_navigation(browser, site, lang):
    results, _ = build_cards()
    for r in results:
        page, errors = open_page(browser, (site / f"{r.game.name}.{lang}.html").as_uri(), width=375)
        assert errors == []
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 375
        font = page.evaluate("() => parseFloat(getComputedStyle(document.body).fontSize)")
        assert font >= 14
        page.emulate_media(media="print")
        assert page.evaluate("() => getComputedStyle(document.querySelector('nav.langs')).display") == "none"
        page.close()
