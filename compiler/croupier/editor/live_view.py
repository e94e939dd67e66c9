"""What `croupier serve` shows of a spec, as HTML fragments: its card, house edges, diff and diagnostics.

`quick_view` is made right after a save (resolve, engine, the card without its mathematics);
`full_view` adds what takes longer (every static check, the exact analysis and the card's
mathematics section, `croupier diff` against the last commit). A spec that does not resolve, or
whose checks fail, shows its diagnostics in place of a card. Every text from the spec or the
compiler is escaped with `html.escape`; the card goes into an `iframe` as its own document.
Nothing is written: the compile and the diff work in memory (`git show` reads the commit).
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

from croupier.diagnostics import render_all
from croupier.editor.describe import percent
from croupier.editor.diagnose import Resolved, full_checks, resolve_text


@dataclass
class Built:
    """One state of a spec: its resolution and what the page shows of it, by part."""

    resolved: Resolved
    diagnostics: str = ""
    card: dict | None = None  # language → card HTML document
    edges: str = ""
    diff: str = ""
    complete: bool = False


def e(text: object) -> str:
    """Escape a text for HTML (the one escaping function of this page)."""
    return html.escape(str(text), quote=True)


def diagnostics_html(resolved: Resolved, diags: list) -> str:
    return ('<section id="diagnostics"><h2>The spec does not check</h2><pre class="diags">'
            f"{e(render_all(diags, {resolved.shown: text_of(resolved)}))}</pre></section>")


def text_of(resolved: Resolved) -> str:
    return resolved.game.source_text if resolved.game is not None else resolved.path.read_text(encoding="utf-8")


def cards(resolved: Resolved, engine, math_for) -> dict[str, str]:
    """The HTML card in every project language (`math_for(lang)`: its mathematics section, or None)."""
    from croupier.backends.cards.render import render_cards

    langs = resolved.languages
    return {lang: render_cards(resolved.game, lang, [], engine, langs, math_for(lang))["html"] for lang in langs}


def quick_view(path: Path) -> Built:
    """The page right after a save: the diagnostics of a spec that does not resolve, else its card."""
    from croupier.backends.engine.emitter import emit_engine
    from croupier.backends.engine.loader import load_engine

    text = path.read_text(encoding="utf-8")
    resolved = resolve_text(path, text)
    built = Built(resolved)
    if not resolved.ok:
        built.diagnostics, built.complete = diagnostics_html(resolved, resolved.diagnostics), True
        return built
    engine = load_engine(emit_engine(resolved.game, resolved.shown), resolved.game.name)
    built.card = cards(resolved, engine, lambda _lang: None)
    return built


def full_view(built: Built, progress=None) -> Built:
    """The whole page: the house edges (handed to `progress` with the quick card as soon as they are known),
    the checks (diagnostics in place of the card when they fail), the card's mathematics and the diff."""
    from croupier.backends.engine.emitter import emit_engine
    from croupier.backends.engine.loader import load_engine
    from croupier.driver.compile import card_mathematics

    resolved = built.resolved
    if not resolved.ok:
        return built
    edges = edges_html(resolved)
    if progress is not None:
        progress(Built(resolved, card=built.card, edges=edges))
    diags = resolved.diagnostics + full_checks(resolved)
    out = Built(resolved, complete=True)
    if any(d.is_error for d in diags):
        out.diagnostics = diagnostics_html(resolved, diags)
        return out
    engine = load_engine(emit_engine(resolved.game, resolved.shown), resolved.game.name)
    out.card = cards(resolved, engine, lambda lang: card_mathematics(resolved.game, lang))
    out.edges = edges
    out.diff = diff_html(resolved)
    return out


def edges_html(resolved: Resolved) -> str:
    """The exact house edge of each bet at the spec's shoe, as a table."""
    from fractions import Fraction

    from croupier.tools.analysis.card_analysis import analysis_of

    game = resolved.game
    if not game.is_dealt_round:
        return '<section id="edges"><h2>House edges</h2><p>The exact analysis covers dealt rounds only.</p></section>'
    try:
        bets = analysis_of(game)["bets"]
    except Exception as exc:  # noqa: BLE001 - a game the exact enumeration cannot cover
        return f'<section id="edges"><h2>House edges</h2><p>Not analysed: {e(exc)}</p></section>'
    rows = "".join(
        f'<tr><th scope="row">{e(game.bets[name].label("en") if name in game.bets else name)}</th>'
        f'<td class="exact">{e(Fraction(f["house_edge"]))}</td><td class="pct">{e(percent(Fraction(f["house_edge"])))}</td></tr>'
        for name, f in bets.items())
    decks = game.shoe.decks if game.shoe is not None else ""
    return (f'<section id="edges"><h2>House edges ({e(decks)} decks)</h2><table><thead><tr><th>Bet</th>'
            f"<th>Exact</th><th>≈</th></tr></thead><tbody>{rows}</tbody></table></section>")


def diff_html(resolved: Resolved) -> str:
    """`croupier diff` of the spec as last committed against it as saved, as text."""
    from croupier.tools.diff.render import text
    from croupier.tools.diff.report import diff_versions
    from croupier.tools.diff.versions import VersionError, load_version

    path = resolved.path
    if path.is_relative_to(Path.cwd()):  # shown as the command line would, from the folder it was started in
        path = path.relative_to(Path.cwd())
    try:
        old = load_version(path, "HEAD")
        new = load_version(path, None)
        cases = resolved.project.cases_dir if resolved.project is not None else None
        body = text(diff_versions(old, new, cases))
    except VersionError as exc:
        body = f"No committed version to compare with: {exc}"
    except Exception as exc:  # noqa: BLE001 - the page still shows the card when the diff cannot be made
        body = f"The diff could not be made: {exc}"
    return f'<section id="diff"><h2>Changes since the last commit</h2><pre>{e(body)}</pre></section>'


def body_html(built: Built, lang: str) -> str:
    """The page's changing part for one card language."""
    r = built.resolved
    status = "checked" if built.complete and not built.diagnostics else "error" if built.diagnostics else "checking"
    head = (f'<p id="status" data-status="{status}">{e(r.shown)}: '
            f'{"checking…" if status == "checking" else "does not check" if status == "error" else "checks"}</p>')
    if built.diagnostics:
        return head + built.diagnostics
    langs = list(built.card or {})
    lang = lang if lang in langs else langs[0]
    links = " ".join(f'<a href="?lang={e(x)}"{" aria-current=page" if x == lang else ""}>{e(x)}</a>' for x in langs)
    card = (f'<section id="card"><h2>Card <span class="langs">{links}</span></h2>'
            f'<iframe title="rule card" srcdoc="{e(built.card[lang])}"></iframe></section>')
    return head + built.edges + built.diff + card
