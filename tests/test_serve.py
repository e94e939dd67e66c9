"""`croupier serve` in a real browser (Debian's Chromium headless shell, through Playwright, as in
test_browser.py): the page shows the spec's card, house edges and diff against the last commit; a save
changes the page through its event stream; a spec that does not check shows its diagnostics instead of
a card; serving writes nothing into the project. Every wait is bounded and the server is stopped."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BASE = ROOT / "tests" / "errors" / "base_ok.rules"
CHROMIUM = os.environ.get("CROUPIER_CHROMIUM", "/usr/lib/chromium/chromium-headless-shell")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
WAIT_MS = 30_000


def files_of(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(root)): (p.stat().st_mtime_ns, p.stat().st_size) for p in sorted(root.rglob("*"))
            if ".git" not in p.relative_to(root).parts}


@pytest.fixture(scope="module")
def project(tmp_path_factory) -> Path:
    root = tmp_path_factory.mktemp("serve")
    (root / "croupier.toml").write_text('spec = "spec"\nlanguages = ["en", "zh-Hans"]\n', encoding="utf-8")
    (root / "spec").mkdir()
    (root / "spec" / "g.rules").write_text(BASE.read_text(encoding="utf-8"), encoding="utf-8")
    git = ["git", "-c", "user.name=Test", "-c", "user.email=test@example.invalid", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", "init", "-q", str(root)], check=True, timeout=30)
    subprocess.run([*git, "-C", str(root), "add", "-A"], check=True, timeout=30)
    subprocess.run([*git, "-C", str(root), "commit", "-qm", "the first rules"], check=True, timeout=30)
    return root


def start_server(project: Path) -> tuple[subprocess.Popen, str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "compiler"), "CROUPIER_CACHE": "off"}
    proc = subprocess.Popen([sys.executable, "-c", "from croupier.cli.main import run; run()", "serve",
                             "spec/g.rules", "--port", "0"], cwd=project, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    line: list[str] = []
    reader = threading.Thread(target=lambda: line.append(proc.stdout.readline()), daemon=True)
    reader.start()
    reader.join(60)
    if not line or "http://127.0.0.1:" not in line[0]:
        proc.kill()
        pytest.fail(f"croupier serve did not start: {line} {proc.stderr.read() if proc.poll() is not None else ''}")
    return proc, line[0].split()[2]


@pytest.fixture(scope="module")
def browser():
    if not Path(CHROMIUM).exists():
        if IN_CI:
            pytest.fail(f"no Chromium at {CHROMIUM}")
        pytest.skip(f"no Chromium at {CHROMIUM}")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        yield b
        b.close()


def card_text(page) -> str:
    return page.frame_locator("#card iframe").locator("body").inner_text(timeout=WAIT_MS)


def test_the_page_follows_each_save(project: Path, browser) -> None:
    spec = project / "spec" / "g.rules"
    before = files_of(project)
    proc, url = start_server(project)
    try:
        assert url.startswith("http://127.0.0.1:")
        page = browser.new_page()
        page.goto(url, timeout=WAIT_MS)
        page.wait_for_selector("#status[data-status=checked]", timeout=WAIT_MS)
        assert "1.5" in card_text(page) or "0.5" in card_text(page)
        assert page.locator("#edges tbody tr").count() == 1
        assert "Rule changes in play: none" in page.locator("#diff").inner_text()
        # a save: the bet now pays 2 to 1; the page changes without being reloaded
        page.evaluate("window.untouched = true")
        spec.write_text(spec.read_text(encoding="utf-8").replace("pays 1.5 including stake", "pays 2 to 1"),
                        encoding="utf-8")
        page.wait_for_function("() => document.querySelector('#diff') && "
                               "!document.querySelector('#diff').innerText.includes('Rule changes in play: none')",
                               timeout=WAIT_MS)
        assert page.evaluate("window.untouched") is True
        assert "2 to 1" in card_text(page)
        # a save that does not check: the diagnostics, in place of the card
        spec.write_text(spec.read_text(encoding="utf-8") + "bet q \"Q\" zh-Hans \"Q\"\n"
                        "    wins when outcome is nowhere, pays 2 to 1\n", encoding="utf-8")
        page.wait_for_selector("#diagnostics", timeout=WAIT_MS)
        assert "E0101" in page.locator("#diagnostics").inner_text()
        assert page.locator("#card").count() == 0
        assert page.evaluate("window.untouched") is True
        page.close()
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=10)
    after = files_of(project)
    assert set(after) == set(before)
    assert {k: v for k, v in after.items() if k != "spec/g.rules"} == {k: v for k, v in before.items()
                                                                       if k != "spec/g.rules"}
