"""The driver: the one entry point that turns a spec into what a command needs, at a named level.

    ENGINE   resolve the spec, emit its engine's source, load it     play, analyze, simulate
    CHECKED  ENGINE and the static checks                            check, simulate
    ALL      CHECKED and every artefact: engine file, cards, tests   build, check (staleness)

`compile_spec(path, level)` is how every command compiles a spec (`pipeline` runs it over
a tree). What it computes is kept under a content key: the display path, and the text of
the spec and of every base it extends in order, behind `cache.versions()` (the compiler's
version and the digest of its files, the parser among them). Never a game name, never a file's age, never the
folder the project lies in: a base is shown beside its spec, so the display path and the
texts decide the game, and a copy of a project (another clone, a worktree) finds what was
kept for the same texts.

- In process, the work done for a key is kept, so that a second request for the same
  content, at the same level or another, only does what is missing (`build` then `check`,
  the test suite).
- On disk, the engine's source text and a few facts of the game are kept (`engines`), so
  that a command needing no model (`analyze` of a dealt round, `model=False`) skips
  parsing. Which bases a spec extends is found without parsing from a `bases` entry the
  last compile of the same text recorded; each base is read again and compared by digest.
  The disk is used by the requests that can gain from it: those needing no model read and
  write it, CHECKED and ALL (build, check, simulate) write it. `play` (ENGINE with a model)
  neither reads nor writes it: it must parse anyway, and its start-up stays the compile's.

Errors are not kept: a spec that does not resolve is compiled afresh each time. The back
ends are imported only by the levels that use them: `play` loads neither checks nor cards.
"""

from __future__ import annotations

import json
import types
from dataclasses import dataclass, field
from enum import IntEnum
from pathlib import Path
from typing import TYPE_CHECKING

from croupier import cache
from croupier.project import DEFAULT_LANGUAGES, Project, display_path, project_of

if TYPE_CHECKING:
    from croupier.diagnostics import Diagnostic
    from croupier.semantics.model import Game


class Level(IntEnum):
    """How far a spec is taken; each level includes the ones below it."""

    ENGINE = 1
    CHECKED = 2
    ALL = 3


@dataclass
class Compiled:
    """One spec taken to one level: its game model, diagnostics, engine source and module, artefacts.

    `game` is None when the spec does not resolve, or when a caller that asked for no model got the
    engine from the disk cache; `facts` always says what the commands print of the game. `sources`
    holds the text of every spec file read (for showing diagnostics). The lists and dicts are the
    caller's own; the game and the engine module are shared and must not be changed.
    """

    spec: str
    level: Level
    game: Game | None
    diagnostics: list[Diagnostic]
    sources: dict[str, str] = field(default_factory=dict)
    facts: dict = field(default_factory=dict)
    engine_source: str = ""
    engine: types.ModuleType | None = None
    artefacts: dict[str, str] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return (self.game is not None or self.engine is not None) and not any(d.is_error for d in self.diagnostics)


def languages_of(project: Project | None) -> tuple[str, ...]:
    """The card languages of a project (the default ones outside any project)."""
    return project.languages if project is not None else DEFAULT_LANGUAGES


def compile_spec(path: str | Path, level: Level = Level.ENGINE, *, model: bool = True,
                 cases_dir: Path | None = None, langs: tuple[str, ...] | None = None,
                 project: Project | None = None) -> Compiled:
    """Take one spec to `level`. `model=False` (ENGINE only) accepts a result without the game model,
    from the disk cache. The spec's project (by default the one it lies in) gives its display path, its
    reference cases and its card languages; `cases_dir` and `langs` override those two."""
    path, level = Path(path), Level(level)
    project = project if project is not None else project_of(path)
    shown = display_path(path, project)
    name = str(path)
    langs = tuple(langs) if langs else languages_of(project)
    if cases_dir is None and project is not None:
        cases_dir = project.cases_dir
    disk = not model or level > Level.ENGINE
    key = content_key(name, shown, disk)
    work = cache.recall("compiled", key, disk=False) if key is not None else None
    if work is None:
        if not model and level == Level.ENGINE and key is not None:
            hit = _engine_from_disk(key, shown)
            if hit is not None:
                return hit
        work = _kept_or(_Work.resolve(name, shown, disk))
    return work.result(level, cases_dir, langs)


def resolve_text(path: str | Path, text: str, project: Project | None = None) -> Compiled:
    """A spec's text as an editor holds it (unsaved, perhaps half typed) resolved and taken no further: its game
    (None when it does not resolve) and diagnostics, its bases read beside it from disk. Nothing is kept, in
    process or on disk: the text changes with every keystroke (`croupier.editor`)."""
    from croupier.semantics.resolve import Loader

    path = Path(path)
    project = project if project is not None else project_of(path)
    shown = display_path(path, project)
    loader = Loader()
    game, diags = loader.load(shown, text=text, opened=str(path))
    return Compiled(shown, Level.ENGINE, game, list(diags), dict(loader.sources))


def resolved_work(path: str | Path, project: Project | None = None) -> _Work | None:
    """The work kept in process for a spec's content as `compile_spec` at CHECKED or ALL finds it, resolving
    the spec (and no more) when none is kept; None when it cannot be read or does not resolve. A parallel
    build (`driver.parallel`) resolves every spec so, then lets worker processes take them further."""
    path = Path(path)
    project = project if project is not None else project_of(path)
    name, shown = str(path), display_path(path, project)
    key = content_key(name, shown)
    work = cache.recall("compiled", key, disk=False) if key is not None else None
    if work is None:
        work = _Work.resolve(name, shown)
        if work.key is None:
            return None
        work = _kept_or(work)
    return work


def _kept_or(work: _Work) -> _Work:
    """The work kept in process under the key of a spec just resolved (the same texts shown alike, found at
    another path, in a copy of the project), or else this work, now kept: what the first computed is not
    computed again."""
    if work.key is None:
        return work
    kept = cache.recall("compiled", work.key, disk=False)
    if kept is not None:
        return kept
    cache.keep("compiled", work.key, work, disk=False)
    return work


# --- content keys -----------------------------------------------------------------------------------

def content_key(name: str, shown: str, disk: bool = True) -> str | None:
    """The key of a spec's content as it is on disk now: None when it cannot be read, or when no compile
    in this process (or, when `disk`, in the disk cache) recorded which bases this text extends."""
    text = cache.file_text(name)
    if text is None:
        return None
    chain = cache.recall("bases", _bases_key(name, text), decode=_chain, disk=disk)
    if chain is None:
        return None
    files = [(name, text)]
    for base, digest in chain:
        base_text = cache.file_text(base)
        if base_text is None or cache.text_digest(base_text) != digest:
            return None
        files.append((base, base_text))
    return _key(shown, files)


def _key(shown: str, files: list[tuple[str, str]]) -> str:
    """The content key of a spec shown as `shown` whose (path, text) and its bases' are `files`, in order: the
    display path and the texts only (each base's display path is its spec's folder and the name its text gives;
    where the files lie on disk is left out, as `engine_identity` leaves it out of an engine's results)."""
    return "spec " + cache.text_digest(json.dumps([shown, [text for _name, text in files]]))


def _bases_key(name: str, text: str) -> str:
    return json.dumps([name, text])


def _chain(data) -> list[tuple[str, str]]:
    if not isinstance(data, list) or not all(
            isinstance(d, list) and len(d) == 2 and all(isinstance(s, str) for s in d) for d in data):
        raise TypeError("not a chain of bases")
    return [(base, digest) for base, digest in data]


def _record_chain(game: Game, sources: dict[str, str], opened: dict[str, str], disk: bool) -> list[tuple[str, str]]:
    """Record, for the spec and each of its bases, the bases it extends; return (path, text) of them all
    (the path each file is read by: the spec's as given, its bases' absolute)."""
    chain: list[Game] = []
    g: Game | None = game
    while g is not None:
        chain.append(g)
        g = g.base
    files = [(opened.get(g.path, g.path) if g is game else str(Path(opened.get(g.path, g.path)).resolve()),
              sources[g.path]) for g in chain]
    for i, (name, text) in enumerate(files):
        rest = [[base, cache.text_digest(base_text)] for base, base_text in files[i + 1:]]
        cache.keep("bases", _bases_key(name, text), rest, encode=list, disk=disk)
    return files


# --- the engine, from the disk cache ----------------------------------------------------------------

def game_facts(game: Game, source: str, shown: str) -> dict:
    """What the commands print of a game besides its engine's answers (kept with the engine's source),
    with the source of the engine's analysis companion for a dealt round (text, compiled when used) and,
    for a seat game, what its analysis reads of the model (`seat_facts.seat_inputs`)."""
    from croupier.backends.engine.analysis_emitter import companion_name, emit_analysis_module

    seat = None
    if game.is_seat_game:
        from croupier.tools.analysis.seat_facts import seat_inputs

        seat = seat_inputs(game)
    return {"name": game.name, "label": game.labels.get("en", game.name),
            "dealt_round": game.is_dealt_round, "seat_game": game.is_seat_game,
            "decks": game.shoe.decks if game.shoe is not None else None,
            "rounded": [b.name for b in game.bets.values() if any(p.rounding for w in b.wins for p in w.payouts())],
            "digest": cache.text_digest(source),
            "analysis": emit_analysis_module(game, shown) if companion_name(game) is not None else None,
            "seat": seat}


def engine_entry(path: str | Path) -> tuple[dict, str] | None:
    """(facts, engine source) that the disk cache holds for a spec's content as it is now, found without
    parsing or compiling anything (see `content_key`); None when there is none."""
    path = Path(path)
    key = content_key(str(path), display_path(path, project_of(path)))
    return _recalled_engine(key) if key is not None else None


def _recalled_engine(key: str) -> tuple[dict, str] | None:
    """(facts, engine source) kept under a content key, in memory or on disk; None when none is."""
    return cache.recall("engines", key, decode=_engine_entry)


def _engine_data(entry: tuple[dict, str]) -> dict:
    """An engine entry (facts, source) as the disk keeps it (`_engine_entry` reads it back)."""
    facts, source = entry
    return {"facts": facts, "source": source}


def _engine_entry(data) -> tuple[dict, str]:
    facts, source = data["facts"], data["source"]
    if not isinstance(source, str) or not isinstance(facts["name"], str) or \
            not (facts.get("analysis") is None or isinstance(facts["analysis"], str)) or \
            cache.text_digest(source) != facts["digest"]:
        raise ValueError("an engine entry whose source is not the one recorded")
    return facts, source


def _engine_from_disk(key: str, shown: str) -> Compiled | None:
    hit = _recalled_engine(key)
    if hit is None:
        return None
    facts, source = hit
    from croupier.backends.engine.loader import load_engine

    try:
        engine = load_engine(source, facts["name"])
    except Exception:  # noqa: BLE001 - an entry that does not load is a miss, compiled afresh
        return None
    return Compiled(shown, Level.ENGINE, None, [], {}, dict(facts), source, engine)


# --- the work done for one content key --------------------------------------------------------------

class _Work:
    """Everything computed for one spec's content, level by level, kept in process under its key."""

    def __init__(self, name: str, shown: str, game: Game | None, diagnostics: list, sources: dict[str, str]) -> None:
        self.name, self.shown, self.game = name, shown, game
        self.diagnostics, self.sources = diagnostics, sources
        self.key: str | None = None
        self.disk = True  # whether its engine and bases are written to the disk cache
        self.facts: dict = {}
        self.engine_source = ""
        self.engine: types.ModuleType | None = None
        self.checks: dict[tuple[str, ...], list] = {}  # card languages → diagnostics of the checks
        # cases and languages → (case diagnostics, files, the cases folder they were read from)
        self.outputs: dict[str, tuple[list, dict[str, str], str]] = {}

    @classmethod
    def resolve(cls, name: str, shown: str, disk: bool = True) -> _Work:
        from croupier.semantics.resolve import Loader

        loader = Loader()
        game, diags = loader.load(shown, opened=name)
        work = cls(name, shown, game, list(diags), dict(loader.sources))
        work.disk = disk
        if game is not None and not any(d.is_error for d in diags):
            work.key = _key(shown, _record_chain(game, loader.sources, loader.opened, disk))
        return work

    @property
    def resolved(self) -> bool:
        return self.game is not None and not any(d.is_error for d in self.diagnostics)

    def result(self, level: Level, cases_dir: Path | None, langs: tuple[str, ...] | None) -> Compiled:
        out = Compiled(self.shown, level, self.game, list(self.diagnostics), dict(self.sources))
        if not self.resolved:
            return out
        if level >= Level.CHECKED:
            out.diagnostics.extend(self.run_checks(langs))
        if out.ok:
            self.load_engine()
            out.facts, out.engine_source, out.engine = dict(self.facts), self.engine_source, self.engine
        if level >= Level.ALL and out.ok:
            diags, files = self.artefacts(cases_dir, langs)
            out.diagnostics.extend(diags)
            out.artefacts = dict(files)
        return out

    def done(self) -> dict:
        """What was computed beyond resolving, as plain data (diagnostics, source text, files): what a
        worker process of a parallel build sends back, for `adopt`."""
        return {"checks": self.checks, "outputs": self.outputs, "source": self.engine_source, "facts": self.facts}

    def adopt(self, done: dict) -> None:
        """Take what a worker process computed for this same content (`done`): its checks and artefacts
        are kept as if computed here; its engine source is compiled here, never emitted again."""
        self.checks.update(done["checks"])
        self.outputs.update(done["outputs"])
        if self.engine is None and done["source"]:
            from croupier.backends.engine.loader import load_engine

            self.engine = load_engine(done["source"], self.game.name)
            self.engine_source, self.facts = done["source"], done["facts"]
            if self.key is not None:
                cache.keep("engines", self.key, (self.facts, self.engine_source), encode=_engine_data, disk=False)

    def run_checks(self, langs: tuple[str, ...]) -> list:
        if langs not in self.checks:
            from croupier.backends.engine.oracle import engine_oracle
            from croupier.checks import run_checks

            self.checks[langs] = run_checks(self.game, engine_oracle, langs)
        return self.checks[langs]

    def load_engine(self) -> None:
        if self.engine is not None:
            return
        from croupier.backends.engine.emitter import emit_engine
        from croupier.backends.engine.loader import load_engine

        source = emit_engine(self.game, self.shown)
        self.engine = load_engine(source, self.game.name)
        self.engine_source, self.facts = source, game_facts(self.game, source, self.shown)
        if self.key is not None:
            cache.keep("engines", self.key, (self.facts, source), encode=_engine_data, disk=self.disk)

    @staticmethod
    def _which(cases_dir: Path | None, langs: tuple[str, ...]) -> str:
        """The key of a build's artefacts: the card languages and the case files' names and texts (the files
        built do not depend on where the cases folder lies; see `_kept`)."""
        case_files = sorted(cases_dir.glob("*.toml")) if cases_dir is not None and cases_dir.is_dir() else []
        return json.dumps([langs, [[p.name, cache.file_text(str(p))] for p in case_files]])

    def _kept(self, cases_dir: Path | None, langs: tuple[str, ...]) -> tuple[list, dict[str, str]] | None:
        """(case diagnostics, files) kept for these cases and languages; None when none are, or when the case
        files had diagnostics (which name each file by its path) and were read from another folder."""
        kept = self.outputs.get(self._which(cases_dir, langs))
        if kept is None or kept[0] and kept[2] != str(cases_dir):
            return None
        return kept[0], kept[1]

    def settled(self, level: Level, cases_dir: Path | None, langs: tuple[str, ...]) -> bool:
        """Whether `result` at this level would compute nothing more (what a parallel build need not hand out)."""
        if not self.resolved:
            return True
        if langs not in self.checks:
            return False
        if level < Level.ALL or any(d.is_error for d in self.checks[langs]):
            return True
        return self.engine is not None and self._kept(cases_dir, langs) is not None

    def artefacts(self, cases_dir: Path | None, langs: tuple[str, ...]) -> tuple[list, dict[str, str]]:
        """(case diagnostics, files) of a build: the engine and its analysis companion, the cards in every
        language, the conformance tests (a spec with no cases folder has no tests)."""
        from croupier.backends.cards.render import render_cards
        from croupier.backends.cards.unstated import unstated
        from croupier.backends.conformance.emitter import emit_conformance
        from croupier.backends.engine.analysis_emitter import companion_name, emit_analysis_module
        from croupier.diagnostics import Span, warning
        from croupier.semantics.cases import case_line, cases_for, engine_check, untitled
        from croupier.tools.reference_cases import case_name_diagnostics

        kept = self._kept(cases_dir, langs)
        if kept is None:
            game = self.game
            cases, case_diags = cases_for(game.name, cases_dir) if cases_dir is not None else ([], [])
            if cases and self.engine is not None:
                case_diags = case_diags + case_name_diagnostics(game.bets, self.engine, cases, cases_dir)
            for case in cases:  # `check` fails where the engine disagrees with a reference case
                case_diags = [*case_diags, *engine_check(case, self.engine.answer)[1]]
            case_diags = [*case_diags, *unstated(game)]  # rules the card says the house has not stated
            for case in cases:  # an example's title in every card language (`check --strict` asks for it)
                missing = untitled(case, langs)
                if missing:
                    case_diags.append(warning("W0802", f"example case {case.id!r} has no title in "
                                                       f"{', '.join(missing)}: its card shows none there",
                                              Span(case.file, case_line(case), 1),
                                              'add: titles = { zh-Hans = "…", zh-Hant = "…" }'))
            files = {f"engines/{game.name}.py": self.engine_source}
            companion = companion_name(game)
            if companion is not None:
                files[f"engines/{companion}.py"] = emit_analysis_module(game, self.shown)
            examples = [c for c in cases if c.example]
            for lang in langs:
                math = card_mathematics(game, lang)
                for fmt, text in render_cards(game, lang, examples, self.engine, langs, math).items():
                    files[f"cards/{game.name}.{lang}.{fmt}"] = text
            if cases:
                files[f"tests/test_{game.name}.py"] = emit_conformance(game, self.shown, cases)
            kept = case_diags, files
            self.outputs[self._which(cases_dir, langs)] = (case_diags, files, str(cases_dir))
        return kept


def card_mathematics(game: Game, lang: str) -> dict | None:
    """A card's mathematics section in one language: the analysis tool's exact data, worded and drawn by the
    cards back end ({"view": figures, "chart": SVG text}), or None when the analysis cannot cover the game
    (the card is built without it)."""
    from croupier.backends.cards.mathematics import mathematics
    from croupier.tools.analysis import card_analysis

    try:
        analysis = card_analysis.card_analysis(game)
        return None if analysis is None else mathematics(game, analysis, lang)
    except Exception:  # noqa: BLE001 - the card still builds when the analysis cannot cover a game
        return None
