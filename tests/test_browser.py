"""Rule cards in a real browser: Debian's Chromium headless shell, driven through Playwright.

Every card and index page of generated/cards is opened from a file:// URL; the test fails on a
console error or page error, a missing grid or flow diagram, or a grid cell whose computed
colour is not the one the engine's decision calls for. At 360 and 390 CSS px nothing scrolls
sideways (for every element, scrollWidth ≤ clientWidth + 1) and no visible text, in SVG or
not, renders below 12 CSS px. The visible text of a Chinese card has no Latin word but card
codes, citation and case ids and an allow-list; text in another language than the page
carries `lang`. Each draw cell's visible mark, and each grid header, agree with the grid as
the spec's own text writes it. Printed to A4 PDF, a baccarat card takes at most 4 pages and
no page ends on a heading. In CI (CI=true) a missing Chromium, Playwright or pypdfium2 is a
failure, never a skip; Playwright's own browsers are not used.

The browser is Debian's chromium-headless-shell: the same Chromium build as /usr/bin/chromium (same version,
same Blink and Skia) in Chromium's old headless mode, a much lighter process than the full browser's new
headless mode (this file: about 23 s of CPU, Chromium's included, instead of 34). Screenshots of every page at
1000, 390 and 360 CSS px came out the same size in both, differing in the shade (at most 18 of 255) of at most
a few hundred anti-aliased pixels a page, on dotted underlines and glyph edges, as one browser's do from run to
run; the printed PDFs' page contents are the same bytes. CROUPIER_CHROMIUM names another Chromium (/usr/bin/chromium).

Each page is loaded once in one tab, at the width the page before it ended at (1000 CSS px or a phone
width), then resized to each other width, and what the tests assert on is read from it then (`seen`); the
print test then loads its pages in the same tab. index.html, asserted to be a byte-for-byte copy of the first
language's index, is not opened a second time: its facts are that page's.
"""

from __future__ import annotations

import json
import os
import re
import shutil
from functools import cache
from pathlib import Path

import pytest
from test_cards import ALLOW, HAN, ID, LANGS, LATIN_WORD, NOT_PROSE, PROJECT, engine_key

from croupier.backends.cards.render import DRAW_RGB, STAND_RGB
from croupier.driver import pipeline
from croupier.driver.compile import Level, compile_spec

# The binary itself: /usr/bin/chromium-headless-shell is a shell script that runs it without `exec`.
CHROMIUM = os.environ.get("CROUPIER_CHROMIUM", "/usr/lib/chromium/chromium-headless-shell")
# --enable-begin-frame-control: the compositor draws a frame only when a DevTools client asks for one (none here), so
# no page is painted, rastered and composited to a screen nobody sees after each load and resize (the test's questions
# force style and layout themselves; printing paints on its own path): Chromium's CPU over the pages 7.6 s -> 4.1 s
# (renderer 5.7 -> 3.1, GPU process 0.9 -> 0.1). The 93 (page, width) facts are equal, byte for byte, and so are
# the printed PDFs' lines and their pages rendered to bitmaps.
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--enable-begin-frame-control"]
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
PHONES = (360, 390)
WIDE = 1000  # the width the card tests read a page at
PRINT_PAGES = 4

CELLS_JS = """() => Array.from(document.querySelectorAll('table.grid td')).map(td => [
    td.closest('table').dataset.table, td.dataset.key, td.dataset.action,
    getComputedStyle(td).backgroundColor])"""

# Elements wider inside than their box, and text (SVG or not) drawn below 12 CSS px. An inline element's clientWidth
# is 0: reading it first spares the dearer scrollWidth of a third of the elements.
FIT_JS = """() => {
  const bad = [];
  for (const el of document.querySelectorAll('*')) {
    if (el.closest('svg') && el.tagName.toLowerCase() !== 'svg') continue;
    if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1)
      bad.push(['wider than its box', el.tagName, String(el.className.baseVal ?? el.className), el.scrollWidth,
                el.clientWidth]);
  }
  for (const t of document.querySelectorAll('svg text')) {
    if (!t.checkVisibility()) continue;
    const px = parseFloat(getComputedStyle(t).fontSize) * t.ownerSVGElement.getScreenCTM().a;
    if (px < 12) bad.push(['svg text', px, t.textContent.slice(0, 40)]);
  }
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || el.closest('svg') || !el.checkVisibility()) continue;
    const px = parseFloat(getComputedStyle(el).fontSize);
    if (px < 12) bad.push(['text', px, n.textContent.slice(0, 40)]);
  }
  return bad;
}"""

# Visible prose (not citation or case ids, fingerprints, card chips, text marked not to translate, links to other
# languages), each piece with the language in force where it stands.
TEXT_JS = """(skip) => {
  const out = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const el = n.parentElement;
    if (!n.textContent.trim() || !el.checkVisibility()) continue;
    if (skip.some(c => el.closest('.' + c)) || el.closest('[translate="no"]') || el.closest('[hreflang]')) continue;
    out.push([n.textContent, el.closest('[lang]').getAttribute('lang'), getComputedStyle(el).fontFamily]);
  }
  return out;
}"""

GRID_JS = """(ident) => {
  const t = document.querySelector(`table.grid[data-table="${ident}"]`);
  const head = Array.from(t.querySelectorAll('thead th')).slice(1).map(th => th.innerText.trim());
  const rows = Array.from(t.querySelectorAll('tbody tr')).map(tr => [tr.querySelector('th').innerText.trim(),
      Array.from(tr.querySelectorAll('td')).map(td => td.innerText.trim())]);
  const legend = [document.querySelector('.legend .cell.draw').innerText.trim(),
                  document.querySelector('.legend .cell.stand').innerText.trim()];
  return {head, rows, legend};
}"""


def _missing() -> str:
    if not (Path(CHROMIUM).is_file() or shutil.which(CHROMIUM)):
        return f"Chromium not found at {CHROMIUM} (apt-get install chromium-headless-shell)"
    for module in ("playwright.sync_api", "pypdfium2"):
        try:
            __import__(module)
        except ImportError:
            return f"the {module.split('.')[0]} Python package is not installed (pip install -e '.[dev]')"
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


@cache
def games() -> list:
    """Every spec of the project compiled to its game model and loaded engine (no checks, no artefacts): what the
    tests hold the pages to, the engine's draw tables and the spec's own text."""
    results = [compile_spec(spec, Level.ENGINE, project=PROJECT) for spec in pipeline.default_specs(PROJECT)]
    assert all(r.ok for r in results), [str(d) for r in results for d in r.diagnostics if d.is_error]
    return results


@pytest.fixture(scope="module")
def site() -> Path:
    """The committed cards and index pages, generated/cards: every page exactly those the specs' games and the
    project's languages call for. They are what `croupier build` writes, byte for byte (`croupier check` in
    tests/test_build.py proves it on every run of the suite), so a build of them here would open the same bytes: it
    cost this file a whole build (about 4.5 s of CPU from a cold cache, 1.5 s from a warm one) for nothing the
    browser is asked."""
    cards = PROJECT.out_dir / "cards"
    expected = {f"{r.game.name}.{lang}.html" for r in games() for lang in LANGS}
    expected |= {f"index.{lang}.html" for lang in LANGS} | {"index.html"}
    assert {p.name for p in pages(cards)} == expected
    return cards


def pages(site: Path) -> list[Path]:
    return sorted(site.glob("*.html"))


# What the card tests assert on, of one page in one call: the flow diagram, the grids and the tables.
SHAPE_JS = """() => {
  const flows = document.querySelectorAll('svg.flow-svg');
  return {steps: document.querySelectorAll('svg.flow-svg g.step').length, flows: flows.length,
          flow_height: flows.length ? flows[0].getBoundingClientRect().height : 0,
          grid_count: document.querySelectorAll('table.grid').length,
          table_count: document.querySelectorAll('table').length,
          hrefs: Array.from(document.querySelectorAll('.game a[hreflang]')).map(a => a.href),
          descriptions: document.querySelectorAll('.game p').length,
          lang: document.documentElement.lang, scroll_width: document.documentElement.scrollWidth};
}"""

# Each width's questions in one call (one round trip, the page laid out once for them all), the answer sent back
# as one JSON string: Playwright's own encoding of a large value (a page's text runs to 20 kB) costs the page, its
# driver and Python several times the CPU for the same values.
WIDE_JS = f"""(a) => JSON.stringify({{...({SHAPE_JS})(), cells: ({CELLS_JS})(), text: ({TEXT_JS})(a.skip),
                      grids: Object.fromEntries(a.grids.map(ident => [ident, ({GRID_JS})(ident)]))}})"""
PHONE_JS = f"""() => JSON.stringify({{...({SHAPE_JS})(), misfits: ({FIT_JS})()}})"""


def look_at(tab, errors: list[str], url: str, grids: list[str], widths: tuple[int, ...]) -> dict[int, dict]:
    """Everything the tests assert on of one page, as {width: facts}: the page is loaded once in `tab` at the
    first of `widths` (`seen` starts a page at the width the page before it ended at), read, then resized to
    each other width and read again (errors: those met from the page's load to the last question asked of
    it). Resizing a loaded page lays it out as loading it at that width does, since a card runs no script
    and loads nothing but itself: `seen` fails a page that requests anything else."""
    errors.clear()
    out = {}
    for width in widths:
        if tab.viewport_size != {"width": width, "height": 900}:
            tab.set_viewport_size({"width": width, "height": 900})
        if not out:
            tab.goto(url, wait_until="load")
        if width == WIDE:
            out[width] = json.loads(tab.evaluate(WIDE_JS, {"skip": sorted(NOT_PROSE), "grids": grids}))
        else:
            out[width] = json.loads(tab.evaluate(PHONE_JS))
    for facts in out.values():
        facts["errors"] = list(errors)
    return out


@pytest.fixture(scope="module")
def tab(browser):
    """The one tab every page is opened in, at 1000 CSS px to begin with: a new tab costs a renderer process (about
    0.15 s of CPU), and the pages hold no script, so nothing carries over from one to the next."""
    page = browser.new_page(viewport={"width": WIDE, "height": 900})
    yield page
    page.close()


@pytest.fixture(scope="module")
def seen(tab, site) -> dict[tuple[str, int], dict]:
    """Every page of the site at each width the tests need (1000 CSS px and the phones), as
    {(file name, width): facts}: what `look_at` collects, page after page in `tab`."""
    draws = {f"{r.game.name}.{lang}.html": [t.ident for t in r.game.draws] for r in games() for lang in LANGS}
    tab.emulate_media(media="null")  # the screen, whatever a test before this one left
    errors: list[str] = []
    requested: list[str] = []
    tab.on("console", lambda m: errors.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    tab.on("pageerror", lambda e: errors.append(f"page error: {e}"))
    tab.on("requestfailed", lambda r: errors.append(f"request failed: {r.url}"))
    tab.on("request", lambda r: requested.append(r.url))
    # index.html is a copy of the first language's index, byte for byte: what that page shows is what it shows
    copy, first = site / "index.html", site / f"index.{LANGS[0]}.html"
    assert copy.read_bytes() == first.read_bytes()
    out = {}
    for n, path in enumerate(p for p in pages(site) if p != copy):
        requested.clear()
        widths = (WIDE, *PHONES) if n % 2 == 0 else (*reversed(PHONES), WIDE)  # one resize fewer a page
        for width, facts in look_at(tab, errors, path.as_uri(), draws.get(path.name, []), widths).items():
            out[(path.name, width)] = facts
        assert requested == [path.as_uri()], f"{path.name} loads more than itself: {requested}"
    for width in (WIDE, *PHONES):
        out[(copy.name, width)] = out[(first.name, width)]
    return out


def test_every_card_opens_cleanly_with_its_tables_diagram_and_engine_colours(seen):
    results = games()
    colours = {"draw": DRAW_RGB, "stand": STAND_RGB}
    opened = cells_seen = 0
    for r in results:
        engine = r.engine
        for lang in LANGS:
            facts = seen[(f"{r.game.name}.{lang}.html", 1000)]
            assert facts["errors"] == [], facts["errors"]
            assert facts["steps"] >= 3
            assert facts["flows"] == 1 and facts["flow_height"] > 100
            assert facts["grid_count"] == len(r.game.draws)
            assert facts["table_count"] >= 2  # at least the values and a grid, the limits or hand types
            for ident, key, action, bg in facts["cells"]:
                expected = "draw" if getattr(engine, ident)[engine_key(key)] else "stand"
                assert action == expected, (r.game.name, ident, key)
                assert bg == colours[expected], (r.game.name, lang, ident, key, bg)
                cells_seen += 1
            opened += 1
    assert opened == len(results) * len(LANGS)
    assert cells_seen == sum(len(t.cells) for r in results for t in r.game.draws) * len(LANGS)


def spec_grid(game, t) -> tuple[list[str], list[tuple[str, list[str]]]]:
    """A draw table's grid as the spec file writes it: (header, [(row key, [D/S …])])."""
    lines = Path(t.span.file).read_text(encoding="utf-8").splitlines()[t.span.line:]
    rows = []
    for line in lines:
        if not line.strip().startswith("|"):
            break
        rows.append([part.split() for part in line.strip().strip("|").split("|")])
    if not t.cols:  # one key: the header row, then the marks
        return rows[0][0], [("", rows[1][0])]
    return rows[0][1], [(" ".join(r[0]), r[1]) for r in rows[1:]]


def test_every_draw_cell_and_header_shows_what_the_spec_text_says(seen, monkeypatch):
    from conftest import ROOT

    monkeypatch.chdir(ROOT)  # spans name spec files relative to the project
    results = games()
    checked = 0
    for r in results:
        for lang in LANGS:
            grids = seen[(f"{r.game.name}.{lang}.html", 1000)]["grids"]
            for t in r.game.draws:
                header, rows = spec_grid(r.game, t)
                shown = grids[t.ident]
                mark = {"D": shown["legend"][0], "S": shown["legend"][1]}
                assert shown["head"] == header, (r.game.name, lang, t.ident)
                assert len(shown["rows"]) == len(rows)
                for (key, marks), (shown_key, cells) in zip(rows, shown["rows"]):
                    if t.cols:
                        assert shown_key == key
                    assert cells == [mark[m] for m in marks], (r.game.name, lang, t.ident, key)
                    checked += len(cells)
    assert checked == sum(len(t.cells) for r in results for t in r.game.draws) * len(LANGS)


def test_index_pages_open_every_card(seen):
    results = games()
    for lang in LANGS:
        facts = seen[(f"index.{lang}.html", 1000)]
        assert facts["errors"] == []
        assert facts["lang"] == lang
        hrefs = facts["hrefs"]
        assert len(hrefs) == len(results) * len(LANGS)
        for href in hrefs:
            assert Path(href.removeprefix("file://")).is_file(), href
        assert facts["descriptions"] >= len(results)  # a description of each game


@pytest.mark.parametrize("width", PHONES)
def test_every_page_fits_a_phone_with_readable_text(seen, site, width):
    for path in pages(site):
        facts = seen[(path.name, width)]
        assert facts["errors"] == []
        assert facts["scroll_width"] <= width
        bad = facts["misfits"]
        assert bad == [], (path.name, width, bad[:5])


SCRIPT_FONT = re.compile(r"\b(SC|TC)\b")  # the first font family named for one Chinese script


def test_visible_text_is_complete_and_marked_with_its_language(seen, site):
    for path in pages(site):
        facts = seen[(path.name, 1000)]
        lang = facts["lang"]
        for text, in_force, fonts in facts["text"]:
            # a Chinese text asks first for the Chinese fonts of its own script (a Traditional text drawn with
            # Simplified glyph forms reads as foreign); `:lang(zh)` matches both scripts' pages
            # (a term written alike in both scripts is marked plain `zh`: either script's fonts draw it)
            script = SCRIPT_FONT.search(fonts)
            want = {"zh-Hans": "SC", "zh-Hant": "TC", "zh": script and script[1]}.get(in_force)
            assert (script and script[1]) == want, (path.name, in_force, fonts)
            if lang.startswith("zh"):
                words = [w for w in LATIN_WORD.findall(ID.sub("", text)) if w not in ALLOW]
                assert not words, (path.name, words, text)
            elif HAN.search(text):
                assert in_force.startswith("zh"), (path.name, text)


def pdf_lines(pdf: bytes) -> list[list[str]]:
    """The text lines of each page of a PDF, as PDFium (Chromium's own PDF library) reads them: in C, and with
    the characters drawn (pypdf, 15 times slower here, gave Kangxi radicals for 至 and 金 and doubled spaces, so
    that it found fewer than half the headings of a Chinese card)."""
    import pypdfium2

    doc = pypdfium2.PdfDocument(pdf)
    try:
        return [[line.strip() for line in doc[n].get_textpage().get_text_range().splitlines() if line.strip()]
                for n in range(len(doc))]
    finally:
        doc.close()


@pytest.mark.parametrize("lang", LANGS)
def test_baccarat_prints_on_a_few_a4_pages_headings_kept_with_their_text(tab, site, lang):
    tab.emulate_media(media="null")  # the screen, whatever a test before this one left
    tab.set_viewport_size({"width": WIDE, "height": 900})
    tab.goto((site / f"baccarat.{lang}.html").as_uri(), wait_until="load")
    tab.emulate_media(media="print")  # the headings paper shows (the dispute lookup is for the screen)
    headings = {h.strip() for h in tab.evaluate(
        "() => Array.from(document.querySelectorAll('h2, h3, h4')).filter(h => h.checkVisibility()).map(h => h.innerText)")}
    tab.emulate_media(media="null")
    printed = pdf_lines(tab.pdf(format="A4", print_background=True))
    assert len(printed) <= PRINT_PAGES, f"baccarat.{lang} prints on {len(printed)} A4 pages"
    lines = [[re.sub(r"^\d+\s*", "", line) for line in p] for p in printed]  # a section number before its heading
    # Every heading is read back as a line of its own, so a page ending on one cannot go unseen.
    assert headings <= {line for p in lines for line in p}, headings - {line for p in lines for line in p}
    for number, p in enumerate(lines[:-1], 1):
        assert p[-1] not in headings, f"page {number} of baccarat.{lang} ends on the heading {p[-1]!r}"
    tab.emulate_media(media="print")
    assert tab.evaluate("() => getComputedStyle(document.querySelector('nav.langs')).display") == "none"


TAP_JS = """() => Array.from(document.querySelectorAll('a, summary, button')).filter(e => e.checkVisibility())
    .map(e => { const r = e.getBoundingClientRect(); return [e.tagName, e.textContent.slice(0, 20), r.width, r.height]; })
    .filter(x => x[2] < 24 || x[3] < 24)"""


def test_long_pages_have_contents_a_way_back_tap_targets_and_a_highlighted_jump(tab, site):
    """At 375 px: a table of contents and a fixed link back to it; every link and "Spec" toggle at least 24 × 24 px
    (WCAG 2.5.8); the example the dispute lookup jumps to is highlighted."""
    tab.emulate_media(media="null")
    tab.set_viewport_size({"width": 375, "height": 800})
    tab.goto((site / "baccarat.en.html").as_uri() + "#ex-BCR-001", wait_until="load")
    assert tab.evaluate(TAP_JS) == []
    assert tab.evaluate("() => document.querySelectorAll('#toc a[href^=\"#\"]').length") >= 8
    assert tab.evaluate("() => getComputedStyle(document.querySelector('a.to-top')).position") == "fixed"
    jumped = tab.evaluate("() => getComputedStyle(document.querySelector('#ex-BCR-001 > th')).backgroundColor")
    other = tab.evaluate("() => getComputedStyle(document.querySelector('#ex-BCR-002 > th')).backgroundColor")
    assert jumped != other


def test_a_long_unbroken_label_wraps(tab, tmp_path):
    """A 206-character label without a space widens nothing at 375 px."""
    spec = (PROJECT.root / "spec" / "dragon_tiger.rules").read_text(encoding="utf-8")
    long = "X" * 206
    spec = spec.replace('bet tie "Tie"', f'bet tie "{long}"', 1)
    path = tmp_path / "dragon_tiger.rules"
    path.write_text(spec, encoding="utf-8")
    out = compile_spec(path, Level.ALL, langs=("en",), cases_dir=tmp_path / "none")
    page = tmp_path / "card.html"
    page.write_text(out.artefacts["cards/dragon_tiger.en.html"], encoding="utf-8")
    tab.emulate_media(media="null")
    tab.set_viewport_size({"width": 375, "height": 800})
    tab.goto(page.as_uri(), wait_until="load")
    assert long in tab.content()
    assert tab.evaluate("() => document.documentElement.scrollWidth") <= 375
