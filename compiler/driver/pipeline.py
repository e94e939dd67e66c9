"""Build and check over a tree of specs: every spec taken to a level by the driver, then written or compared.

`compile_all` takes specs through `compile.compile_spec` (ALL for build and check, CHECKED
without artefacts) and adds the card index to a full build; `write_artefacts` writes the
artefacts (whole files, a manifest, see `outputs`); `stale` compares them with what is on
disk, byte for byte.
"""

from __future__ import annotations

from pathlib import Path

from croupier.driver.compile import Compiled, Level, compile_spec
from croupier.outputs import MANIFEST, leftovers, manifest_text, prune, read_manifest, write_if_changed
from croupier.paths import ROOT, display_path  # noqa: F401 - re-exported for callers

__all__ = ["Compiled", "compile_all", "default_specs", "stale", "write_artefacts"]


def default_specs() -> list[Path]:
    return sorted((ROOT / "spec").glob("*.rules"))


def compile_all(specs: list[Path], cases_dir: Path | None = None, emit: bool = True,
                index: bool | None = None) -> tuple[list[Compiled], dict[str, str]]:
    """(results, the text of every spec file read); the card index is added to a full build (or when
    `index` says so)."""
    level = Level.ALL if emit else Level.CHECKED
    results = [compile_spec(p, level, cases_dir=cases_dir) for p in specs]
    if index is None:
        index = [p.resolve() for p in specs] == [p.resolve() for p in default_specs()]
    if emit and index and results and all(r.ok for r in results):
        from croupier.backends.cards.i18n import CARD_LANGS
        from croupier.backends.cards.index import render_index

        results[-1].artefacts["cards/index.html"] = render_index([r.game for r in results], CARD_LANGS)
    sources = {name: text for r in results for name, text in r.sources.items()}
    return results, sources


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
