"""The pipeline: spec file → model → checks → artefacts; and build/check over a tree.

`compile_spec` runs one spec through every phase and returns its artefacts as
text (path relative to the output folder → content). `build` writes them;
`stale` compares them with what is on disk, byte for byte.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from .cases import cases_for
from .checks import run_checks
from .diagnostics import Diagnostic
from .emit.card import render_cards
from .emit.card_index import render_index
from .emit.conformance import emit_conformance
from .emit.engine import emit_engine
from .engine_loader import load_engine
from .i18n import CARD_LANGS as I18N_CARD_LANGS
from .model import Game
from .paths import ROOT, display_path  # noqa: F401 - re-exported for callers
from .resolve import Loader

CARD_LANGS = I18N_CARD_LANGS


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
    result.diagnostics.extend(run_checks(game))
    if not emit or not result.ok:
        return result
    cases, case_diags = cases_for(game.name, cases_dir or ROOT / "tests" / "cases")
    result.diagnostics.extend(case_diags)
    engine_source = emit_engine(game, shown)
    result.artefacts[f"engines/{game.name}.py"] = engine_source
    examples = [c for c in cases if c.example]
    engine = load_engine(engine_source, game.name)
    for lang in CARD_LANGS:
        for fmt, text in render_cards(game, lang, examples, engine, CARD_LANGS).items():
            result.artefacts[f"cards/{game.name}.{lang}.{fmt}"] = text
    if cases:
        result.artefacts[f"tests/test_{game.name}.py"] = emit_conformance(game, shown, cases)
    return result


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


def write_artefacts(results: list[Compiled], out: Path) -> list[Path]:
    """Write every artefact; return the paths written."""
    written = []
    for r in results:
        for rel, text in sorted(r.artefacts.items()):
            target = out / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists() or target.read_bytes() != text.encode("utf-8"):
                target.write_bytes(text.encode("utf-8"))
            written.append(target)
    return written


def stale(results: list[Compiled], out: Path, full: bool) -> list[str]:
    """Artefacts whose file differs from what `build` would write (and, for a full
    build, generated files that no spec would write)."""
    problems = []
    expected = set()
    for r in results:
        for rel, text in sorted(r.artefacts.items()):
            target = out / rel
            expected.add(target.resolve())
            if not target.exists():
                problems.append(f"{target}: missing")
            elif target.read_bytes() != text.encode("utf-8"):
                problems.append(f"{target}: differs from what `croupier build` writes")
    if full and out.is_dir():
        for f in sorted(out.rglob("*")):
            if f.is_file() and "__pycache__" not in f.parts and f.resolve() not in expected:
                problems.append(f"{f}: no spec writes this file")
    return problems
