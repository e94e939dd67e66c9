"""The pipeline: spec file → model → checks → artefacts; and build/check over a project.

`compile_spec` runs one spec through every phase and returns its artefacts as
text (path relative to the output folder → content). `write_artefacts` writes
them (whole files, a manifest, see `outputs`); `stale` compares them with what is
on disk, byte for byte. The spec's project (`croupier.project`) gives its shown
path, its reference cases and the card languages; a spec in no project is shown as
given, has no cases and gets the default languages.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from croupier.backends.cards.i18n import has_catalog, locale_name
from croupier.backends.cards.index import render_indexes
from croupier.backends.cards.render import render_cards
from croupier.backends.conformance.emitter import emit_conformance
from croupier.backends.engine.analysis_emitter import companion_name, emit_analysis_module
from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.backends.engine.oracle import engine_oracle
from croupier.checks import run_checks
from croupier.diagnostics import Diagnostic
from croupier.outputs import MANIFEST, leftovers, manifest_text, prune, read_manifest, write_if_changed
from croupier.project import DEFAULT_LANGUAGES, Project, display_path, find_project, project_of
from croupier.semantics.cases import cases_for
from croupier.semantics.model import Game
from croupier.semantics.resolve import Loader
from croupier.tools.analysis import card_math


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


def languages_of(project: Project | None) -> tuple[str, ...]:
    """The card languages of a project (the default ones outside any project)."""
    return project.languages if project is not None else DEFAULT_LANGUAGES


def language_notes(project: Project | None) -> list[str]:
    """A warning per card language that has no message catalog: its cards' fixed text stays English."""
    return [f"warning: the card language `{lang}` has no message catalog "
            f"(croupier/backends/cards/locale/{locale_name(lang)}/LC_MESSAGES/messages.po): its cards show "
            "Croupier's own text in English" for lang in languages_of(project) if not has_catalog(lang)]


def compile_spec(path: Path, loader: Loader, cases_dir: Path | None = None, emit: bool = True,
                 project: Project | None = None) -> Compiled:
    """Parse, resolve, check and (when clean) emit one spec. The spec is opened by its own path
    and shown relative to its project (by default the one it lies in)."""
    path = Path(path)
    project = project if project is not None else project_of(path)
    languages = languages_of(project)
    shown = display_path(path, project)
    game, diags = loader.load(shown, opened=path)
    result = Compiled(shown, game, list(diags))
    if game is None or any(d.is_error for d in diags):
        return result
    result.diagnostics.extend(run_checks(game, engine_oracle, languages))
    if not emit or not result.ok:
        return result
    cases_dir = cases_dir or (project.cases_dir if project is not None else None)
    cases, case_diags = cases_for(game.name, cases_dir) if cases_dir is not None else ([], [])
    result.diagnostics.extend(case_diags)
    engine_source = emit_engine(game, shown)
    result.artefacts[f"engines/{game.name}.py"] = engine_source
    companion = companion_name(game)
    if companion is not None:
        result.artefacts[f"engines/{companion}.py"] = emit_analysis_module(game, shown)
    examples = [c for c in cases if c.example]
    engine = load_engine(engine_source, game.name)
    for lang in languages:
        math = card_mathematics(game, lang)
        for fmt, text in render_cards(game, lang, examples, engine, languages, math).items():
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


def default_specs(project: Project | None = None) -> list[Path]:
    """Every spec of a project (by default the project of the current folder; none outside any)."""
    project = project if project is not None else find_project(Path.cwd())
    return project.specs() if project is not None else []


def compile_all(specs: list[Path], cases_dir: Path | None = None, emit: bool = True,
                index: bool | None = None, project: Project | None = None) -> tuple[list[Compiled], Loader]:
    """Compile specs of one project with one loader; the card index is added to a full build (every
    spec of the project's spec folder, or when `index` says so)."""
    specs = [Path(p) for p in specs]
    if project is None and specs:
        project = project_of(specs[0])
    loader = Loader()
    results = [compile_spec(p, loader, cases_dir, emit, project) for p in specs]
    if index is None:
        index = project is not None and [p.resolve() for p in specs] == [p.resolve() for p in project.specs()]
    if emit and index and results and all(r.ok for r in results):
        results[-1].artefacts.update(render_indexes([r.game for r in results], languages_of(project)))
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
