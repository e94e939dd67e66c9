"""Build and check over a project: every spec taken to a level by the driver, then written or compared.

`compile_all` takes specs through `compile.compile_spec` (ALL for build and check, CHECKED
without artefacts) and adds the card index to a full build; `write_artefacts` writes the
artefacts (whole files, a manifest, see `outputs`); `stale` compares them with what is on
disk, byte for byte. The specs' project (`croupier.project`) gives their shown paths, their
reference cases and the card languages; a spec in no project is shown as given, has no cases
and gets the default languages.
"""

from __future__ import annotations

import errno
import gc
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from pathlib import Path

from croupier.backends.cards.i18n import has_catalog, locale_name
from croupier.diagnostics import Span, error
from croupier.driver.compile import Compiled, Level, card_mathematics, compile_spec, languages_of
from croupier.outputs import (
    MANIFEST,
    OutputError,
    check_targets,
    foreign_files,
    leftovers,
    manifest_text,
    prune,
    read_manifest,
    sync_folders,
    write_if_changed,
)
from croupier.project import Project, find_project, project_of
from croupier.reading import open_regular

__all__ = ["Compiled", "card_mathematics", "compile_all", "default_specs", "language_notes", "stale", "write_artefacts"]


def language_notes(project: Project | None) -> list[str]:
    """A warning per card language that has no message catalog: its cards' fixed text stays English."""
    return [f"warning: the card language `{lang}` has no message catalog "
            f"(croupier/backends/cards/locale/{locale_name(lang)}/LC_MESSAGES/messages.po): its cards show "
            "Croupier's own text in English" for lang in languages_of(project) if not has_catalog(lang)]


def default_specs(project: Project | None = None) -> list[Path]:
    """Every spec of a project (by default the project of the current folder; none outside any)."""
    project = project if project is not None else find_project(Path.cwd())
    return project.specs() if project is not None else []


def compile_all(specs: list[Path], cases_dir: Path | None = None, emit: bool = True,
                index: bool | None = None, project: Project | None = None,
                jobs: int = 1) -> tuple[list[Compiled], dict[str, str]]:
    """(results, the text of every spec file read) of specs of one project; the card index is added to
    a full build (every spec of the project's spec folder, or when `index` says so). With `jobs` above 1
    the specs are compiled in that many worker processes (`parallel`); the results are the same."""
    specs = [Path(p) for p in specs]
    if project is None and specs:
        project = project_of(specs[0])
    level = Level.ALL if emit else Level.CHECKED
    with fewer_full_collections():
        if jobs > 1 and len(specs) > 1:
            from croupier.driver.parallel import prepare

            prepare(specs, level, cases_dir, project, jobs)
        results = [compile_spec(p, level, cases_dir=cases_dir, project=project) for p in specs]
    refuse_shared_files(results)
    if emit:
        add_runtime(results)
        add_targets(results, project, cases_dir)
    if index is None:
        index = project is not None and [p.resolve() for p in specs] == [p.resolve() for p in project.specs()]
    if emit and index and results and all(r.ok for r in results):
        from croupier.backends.cards.index import render_indexes

        results[-1].artefacts.update(render_indexes([r.game for r in results], languages_of(project)))
    sources = {name: text for r in results for name, text in r.sources.items()}
    return results, sources


FULL_COLLECTION_EVERY = 100  # collections of the middle generation between two full ones, during a build


@contextmanager
def fewer_full_collections() -> Iterator[None]:
    """Let the garbage collector's young collections run as usual but make its full ones ten times rarer
    while specs are compiled (restoring the thresholds after). A build keeps most of what it makes (models,
    engines, analyses, card texts) until its end, and each full collection walks all of it again: with the
    default thresholds a cold build of every spec spends about a sixth of its time in them, with these half
    as much. The price is memory: garbage cycles that reach the oldest generation wait longer (a cold
    build of every spec peaks at about 100 MB instead of 80)."""
    old = gc.get_threshold()
    gc.set_threshold(old[0], old[1], max(old[2], FULL_COLLECTION_EVERY))
    try:
        yield
    finally:
        gc.set_threshold(*old)


RUNTIME_FILE = "engines/croupier_runtime.py"  # the runtime every engine imports from beside itself, written once


def add_runtime(results: list[Compiled]) -> None:
    """Add the runtime's file (`runtime_bundle.bundle_text`) to the artefacts of the first result that writes an
    engine: every engine of the folder imports it, so it is written (and checked, and listed in the manifest) with
    them, once."""
    for r in results:
        if any(rel.startswith("engines/") for rel in r.artefacts):
            from croupier.backends.engine.runtime_bundle import checked_bundle

            r.artefacts[RUNTIME_FILE] = checked_bundle()
            return


def add_targets(results: list[Compiled], project: Project | None, cases_dir: Path | None) -> None:
    """Add the outputs of the project's other targets than Python (its `targets`) to the artefacts of each result
    that writes an engine, and their runtime once, to the first: they are written, listed and checked as the
    Python engines are."""
    targets = project.targets if project is not None else ()
    if "javascript" not in targets:
        return
    from croupier.backends.javascript.build import javascript_files, runtime_outputs
    from croupier.semantics.cases import cases_for

    cases_dir = cases_dir if cases_dir is not None else project.cases_dir
    runtime = runtime_outputs()
    for r in results:
        if r.game is None or not any(rel.startswith("engines/") for rel in r.artefacts):
            continue
        cases = cases_for(r.game.name, cases_dir)[0] if cases_dir is not None else []
        r.artefacts.update(javascript_files(r.game, r.game.path, cases))
        if runtime:
            r.artefacts.update(runtime)
            runtime = {}


def refuse_shared_files(results: list[Compiled]) -> None:
    """Error E0119 on each spec that would write a file an earlier spec of the list writes (two games of one
    name, or a game named like another's analysis companion, `NAME_analysis`): a build would keep only one
    of the two. The later spec gets the error, at its `game` line, and none of its files is kept."""
    owner: dict[str, Compiled] = {}
    for r in results:
        if RUNTIME_FILE in r.artefacts:  # a game named like the runtime
            span = r.game.span if r.game is not None else Span(r.spec, 1, 1)
            r.diagnostics.append(error(
                "E0119", f"this spec writes {RUNTIME_FILE}, the runtime every engine imports", span,
                "give the game another name: croupier_runtime is the runtime's"))
            r.artefacts.clear()
            continue
        for rel in sorted(r.artefacts):
            first = owner.setdefault(rel, r)
            if first is r:
                continue
            span = r.game.span if r.game is not None else Span(r.spec, 1, 1)
            first_name = first.game.path if first.game is not None else first.spec
            r.diagnostics.append(error(
                "E0119", f"this spec writes {rel}, which {first_name} writes too: a build would keep only one",
                span, "give every game of a project its own name; a game named NAME also writes "
                "NAME_analysis.py, so no other game may take that name"))
            r.artefacts.clear()
            break


def encoded(text: str) -> bytes:
    """An artefact's bytes: UTF-8, with any undecodable byte of a file name (a lone surrogate)
    written as its backslash escape rather than failing the build."""
    return text.encode("utf-8", "backslashreplace")


def write_artefacts(results: list[Compiled], out: Path, full: bool = False) -> tuple[list[Path], list[str]]:
    """Write every artefact whole (see `outputs`), record them in the output folder's manifest and,
    for a full build, delete the files an earlier build wrote that no spec writes now.

    Returns (paths written or already up to date, relative paths removed). Raises OutputError.
    """
    rels = sorted(rel for r in results for rel in r.artefacts)
    files = [(out / rel, text) for r in results for rel, text in sorted(r.artefacts.items())]
    written, changed = [target for target, _text in files], []
    before = read_manifest(out) or []
    check_targets(out, [*rels, MANIFEST], before)
    foreign = foreign_files(out, [(rel, encoded(text)) for r in results for rel, text in r.artefacts.items()], before)
    if foreign:
        raise OutputError(out / foreign[0], "overwrite", OSError(
            errno.EEXIST, f"the build did not write it (its manifest, {MANIFEST}, does not list it){_more(foreign)}; "
            "move it away, or point `out` at a folder of its own"))
    if set(rels) - set(before):  # listed before they are written: a build stopped half-way still owns them
        write_if_changed(out / MANIFEST, manifest_text({*before, *rels}).encode("utf-8"))
    try:
        _write_all(files, changed)
    finally:
        sync_folders(changed)  # each folder once, not once per file
    removed: list[str] = []
    if full:
        removed = prune(out, rels)
        listed = rels
    else:
        listed = sorted(set(rels) | set(read_manifest(out) or []))
    write_if_changed(out / MANIFEST, manifest_text(listed).encode("utf-8"))
    return written, removed


def _more(foreign: list[str]) -> str:
    return f" (and {len(foreign) - 1} more file(s) the build would write)" if len(foreign) > 1 else ""


WRITERS = 8  # files written at once: each waits on its own fsync, which lets the others run


def _write_all(files: list[tuple[Path, str]], changed: list[Path]) -> None:
    """Write every (target, text) that differs from what is on disk (appending those written to `changed`),
    a few at a time: the writes are independent whole files, each synced before it replaces its target,
    so their waits on the disk overlap. On the first failure (or an interrupt) the files not yet started
    are left alone, and the OutputError is raised once those under way have ended."""
    def write(target: Path, text: str) -> None:
        if write_if_changed(target, encoded(text), sync_folder=False):
            changed.append(target)  # list.append is atomic

    if len(files) < 2:
        for target, text in files:
            write(target, text)
        return
    pool = ThreadPoolExecutor(max_workers=min(WRITERS, len(files)), thread_name_prefix="croupier-write")
    futures = []
    try:
        futures = [pool.submit(write, target, text) for target, text in files]
        for future in futures:
            future.result()  # the first failure, in the order of the files, is raised
    finally:  # after a failure or an interrupt, nothing more is started
        for future in futures:
            future.cancel()
        pool.shutdown(wait=True)


def stale(results: list[Compiled], out: Path, full: bool, shown: Callable[[Path], str] = str) -> list[str]:
    """Artefacts whose file differs from what `build` would write; for a full build, also the
    manifest and the files an earlier build wrote that no spec writes now. A file no build
    wrote (notes, .gitkeep, caches) is never stale. Each is named as `shown` shows its path."""
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
                problems.append(f"{shown(target)}: missing")
            else:
                with open_regular(target) as f:  # a FIFO or a device is refused, never waited on
                    same = f.read(len(data) + 1) == data
                if not same:
                    problems.append(f"{shown(target)}: differs from what `croupier build` writes")
        except OSError as exc:
            problems.append(f"{shown(target)}: cannot be read ({exc.strerror or exc})")
    if full:
        for rel in leftovers(out, expected):
            problems.append(f"{shown(out / rel)}: an earlier build wrote this file and no spec writes it now")
    return problems
