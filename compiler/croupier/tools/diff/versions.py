"""The two versions `croupier diff` compares: spec files, or git revisions of specs.

`OLD NEW` are two spec files; or `REV PATH` (PATH at revision REV against the
working tree); or `REV1..REV2 PATH` (PATH at both revisions). PATH may be a
folder: its specs are paired by file name. A spec at a revision is read with
`git show REV:path`, and so are the bases it extends (the same revision), through
a `Loader` that reads from git instead of the disk. Each version is resolved and
its engine emitted and loaded in memory, never written; a version whose rules (`Game.fingerprint`: the
texts of the spec and its bases), name and shown path are those of a version loaded before in the process
(the same revision twice, a revision and an unchanged working tree) shares that version's engine module,
which the diff only calls into.
"""

from __future__ import annotations

import subprocess
from dataclasses import dataclass
from pathlib import Path

from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import shared_engine
from croupier.diagnostics import Diagnostic
from croupier.semantics.model import Game
from croupier.semantics.resolve import Loader


class VersionError(Exception):
    """A version that cannot be read (a bad revision, a missing file) or that does not resolve."""

    def __init__(self, message: str, diagnostics: list[Diagnostic] | None = None,
                 sources: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.diagnostics = diagnostics or []
        self.sources = sources or {}


@dataclass
class Version:
    """One side of a diff: how it is named in the report, its game, engine and shown path."""

    label: str
    game: Game
    engine: object
    shown: str


def git(*args: str, cwd: Path | None = None) -> str | None:
    """A git command's output, or None when it fails."""
    try:
        done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False, timeout=60)
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout if done.returncode == 0 else None


def is_revision(rev: str) -> bool:
    return git("rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}") is not None


def repo_path(path: Path) -> str:
    """A path relative to the top of its git work tree, as `git show REV:…` names it."""
    top = git("rev-parse", "--show-toplevel", cwd=path.resolve().parent if path.suffix else path.resolve())
    if top is None:
        raise VersionError(f"{path} is not in a git work tree")
    return Path(path.resolve()).relative_to(Path(top.strip()).resolve()).as_posix()


class GitLoader(Loader):
    """A Loader that reads every spec (and the bases it extends) from one git revision."""

    def __init__(self, rev: str) -> None:
        super().__init__()
        self.rev = rev

    def text_at(self, opened: str) -> str | None:
        return git("show", f"{self.rev}:{repo_path(Path(opened))}")

    def load(self, path: str, text: str | None = None, depth: int = 0, opened=None):
        if text is None and str(path) not in self._games:
            real = str(opened) if opened is not None else str(path)
            text = self.text_at(real)
            if text is None:
                raise VersionError(f"{path} does not exist at revision {self.rev}")
        return super().load(path, text, depth, opened)

    def exists(self, shown: Path, opened: Path) -> bool:
        return self.text_at(str(opened)) is not None


def load_version(path: Path, rev: str | None) -> Version:
    """Resolve one spec (at a revision, or on disk) and load its engine."""
    loader = GitLoader(rev) if rev else Loader()
    shown = str(path)
    game, diags = loader.load(shown, opened=path)
    if game is None or any(d.is_error for d in diags):
        raise VersionError(f"{shown}{' at ' + rev if rev else ''} has errors", diags, loader.sources)
    return Version(f"{shown}{' at ' + rev if rev else ''}", game, engine_of(game, shown), shown)


def engine_of(game: Game, shown: str):
    """The loaded engine of a resolved version: emitted once per process for the same rules, name and shown
    path (what the engine's source depends on), and loaded once per source (`shared_engine`)."""
    key = (game.fingerprint, game.name, shown)
    source = _SOURCES.get(key)
    if source is None:
        if len(_SOURCES) > 64:
            _SOURCES.clear()
        source = _SOURCES[key] = emit_engine(game, shown)
    return shared_engine(source, game.name)


_SOURCES: dict[tuple[str, str, str], str] = {}


def specs_in(folder: Path, rev: str | None) -> list[str]:
    """The names of the `.rules` files in a folder, on disk or at a revision."""
    if rev is None:
        return sorted(p.name for p in folder.glob("*.rules"))
    listing = git("ls-tree", "--name-only", f"{rev}:{repo_path(folder)}")
    if listing is None:
        raise VersionError(f"{folder} does not exist at revision {rev}")
    return sorted(n for n in listing.splitlines() if n.endswith(".rules"))


def pairs(old: str, new: str) -> list[tuple[tuple[Path, str | None] | None, tuple[Path, str | None] | None]]:
    """The (old, new) spec pairs to compare, each side (path, revision or None); a side is None where
    a folder's spec exists at one version only."""
    if Path(old).exists() and not Path(old).is_dir() and not is_revision_range(old):
        return [((Path(old), None), (Path(new), None))]
    if ".." in old and not Path(old).exists():
        rev_old, rev_new = old.split("..", 1)
        rev_new = rev_new or "HEAD"
    else:
        rev_old, rev_new = old, None
    for rev in (rev_old, rev_new):
        if rev is not None and not is_revision(rev):
            raise VersionError(f"{rev} is neither a spec file nor a git revision")
    target = Path(new)
    if not target.is_dir() and target.suffix == ".rules":
        return [((target, rev_old), (target, rev_new))]
    names_old, names_new = specs_in(target, rev_old), specs_in(target, rev_new)
    return [((target / n, rev_old) if n in names_old else None, (target / n, rev_new) if n in names_new else None)
            for n in sorted(set(names_old) | set(names_new))]


def is_revision_range(text: str) -> bool:
    return ".." in text and not text.endswith(".rules")
