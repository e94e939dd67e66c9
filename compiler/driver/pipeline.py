"""The pipeline: spec file → model → checks → artefacts; and build/check over a tree.

`compile_spec` runs one spec through every phase and returns its artefacts as
text (path relative to the output folder → content). `write_artefacts` writes
them (whole files, a manifest, see `outputs`); `stale` compares them with what is
on disk, byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from croupier.backends.cards.index import render_index
from croupier.backends.cards.render import render_cards
from croupier.backends.conformance.emitter import emit_conformance
from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.backends.engine.oracle import engine_oracle
from croupier.checks import run_checks
from croupier.diagnostics import Diagnostic
from croupier.languages import CARD_LANGUAGES
from croupier.outputs import MANIFEST, leftovers, manifest_text, prune, read_manifest, write_if_changed
from croupier.paths import ROOT, display_path  # noqa: F401 - re-exported for callers
from croupier.semantics.cases import cases_for
from croupier.semantics.model import Game
from croupier.semantics.resolve import Loader
from croupier.tools.analysis import card_math

CARD_LANGS = CARD_LANGUAGES


@dataclass
class Compiled:
    """One spec's result: the game, its diagnostics and its artefacts."""

    spec: str
    game: Game | None
    diagnostics: list[Diagnostic]
    artefacts: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.game is not None and not any(d.is_error for d in self.diagnostics)


def compile_spec(path: Path, loader: Loader, cases_dir: Path | None = None, emit: bool = True) -> Compiled:
    """Parse, resolve, check and (when clean) emit one spec."""
    shown = display_path(path)
    game, diags = loader.load(shown if (ROOT / shown).exists() and not Path(shown).is_absolute() else str(path))
    result = Compiled(shown, game, list(diags))
    if game is None or any(d.is_error for d in diags):
        return result
    result.diagnostics.extend(run_checks(game, engine_oracle, CARD_LANGS))
    if not emit or not result.ok:
        return result
    cases, case_diags = cases_for(game.name, cases_dir or ROOT / "tests" / "cases")
    result.diagnostics.extend(case_diags)
    engine_source = emit_engine(game, shown)
    result.artefacts[f"engines/{game.name}.py"] = engine_source
    examples = [c for c in cases if c.example]
    engine = load_engine(engine_source, game.name)
    for lang in CARD_LANGS:
        math = card_mathematics(game, lang)
        for fmt, text in render_cards(game, lang, examples, engine, CARD_LANGS, math).items():
            result.artefacts[f"cards/{game.name}.{lang}.{fmt}"] = text
    if cases:
        result.artefacts[f"tests/test_{game.name}.py"] = emit_conformance(game, shown, cases)
    return result


def card_mathematics(game: Game, lang: str) -> dict | None:
    """A card's mathematics section in one language, from the analysis tool: {"view": figures,
    "chart": SVG text}, or None when the analysis cannot cover the game (the card is built without it)."""
    try:
        view = card_math.math_view(game, lang)
        if view is None:
            return None
        return {"view": view, "chart": card_math.edge_chart_svg(view, lang)}
    except Exception:  # noqa: BLE001 - the card still builds when the analysis cannot cover a game
        return None


def default_specs() -> list[Path]:
    return sorted((ROOT / "spec").glob("*.rules"))


def compile_all(specs: list[Path], cases_dir: Path | None = None, emit: bool = True,
                index: bool | None = None) -> tuple[list[Compiled], Loader]:
    """Compile specs with one loader; the card index is added to a full build (or when `index` says so)."""
    loader = Loader()
    results = [compile_spec(p, loader, cases_dir, emit) for p in specs]
    if index is None:
        index = [p.resolve() for p in specs] == [p.resolve() for p in default_specs()]
    if emit and index and results and all(r.ok for r in results):
        results[-1].artefacts["cards/index.html"] = render_index([r.game for r in results], CARD_LANGS)
    return results, loader


def encoded(text: str) -> bytes:
    """An artefact's bytes: UTF-8, with any undecodable byte of a file name (a lone surrogate)
    written as its backslash escape rather than failing the build."""
    return text.encode("utf-8", "backslashreplace")


def write_artefacts(results: list[Compiled], out: Path, full: bool = False) -> tuple[list[Path], list[str]]:
    """Write every artefact whole (see `outputs`), record them in the output folder's manifest and,
    for a full build, delete the files an earlier build wrote that no spec writes now.

    Returns (paths written or already up to date, relative paths removed). Raises OutputError.
    """
    written = []
    rels = sorted(rel for r in results for rel in r.artefacts)
    for r in results:
        for rel, text in sorted(r.artefacts.items()):
            target = out / rel
            write_if_changed(target, encoded(text))
            written.append(target)
    removed: list[str] = []
    if full:
        removed = prune(out, rels)
        listed = rels
    else:
        listed = sorted(set(rels) | set(read_manifest(out) or []))
    write_if_changed(out / MANIFEST, manifest_text(listed).encode("utf-8"))
    return written, removed


def stale(results: list[Compiled], out: Path, full: bool) -> list[str]:
    """Artefacts whose file differs from what `build` would write; for a full build, also the
    manifest and the files an earlier build wrote that no spec writes now. A file no build
    wrote (notes, .gitkeep, caches) is never stale."""
    problems = []
    expected: dict[str, bytes] = {}
    for r in results:
        for rel, text in sorted(r.artefacts.items()):
            expected[rel] = encoded(text)
    if full:
        expected[MANIFEST] = manifest_text(k for k in expected).encode("utf-8")
    for rel, data in expected.items():
        target = out / rel
        try:
            if not target.exists():
                problems.append(f"{target}: missing")
            elif target.read_bytes() != data:
                problems.append(f"{target}: differs from what `croupier build` writes")
        except OSError as exc:
            problems.append(f"{target}: cannot be read ({exc.strerror or exc})")
    if full:
        for rel in leftovers(out, expected):
            problems.append(f"{out / rel}: an earlier build wrote this file and no spec writes it now")
    return problems
