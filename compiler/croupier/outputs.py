"""Writing the build's outputs: whole files only, and a manifest of what the build wrote.

Every file the compiler writes goes through `write_atomic`: the bytes go to a
temporary file in the same folder, are flushed and synced, and then replace the
target in one `os.replace`. A killed build or a full disk leaves each file either
as it was or as it should be, never cut short; an I/O failure becomes an
`OutputError` naming the path, for the command to report without a traceback.

The manifest (`.croupier-manifest.json` in the output folder) lists, as relative
POSIX paths, the files the last build wrote. It is the only thing `prune` reads:
a file is deleted only when an earlier build listed it and no spec writes it now.
Entries are handled as paths, never split as text; an entry that leaves the
output folder, or reaches its file through a symbolic link, is never deleted.
With no manifest (or an unreadable one) nothing is deleted.

Writing keeps to the same rules (`check_targets`): a build writes a file only through folders that are
not symbolic links below the output folder, and never replaces a file its manifest does not list (a
hand-written file where `out` points) unless it already holds the bytes the build writes. An output
option of a command (`--log`, `--html`, `--checkpoint`) may never name one of the command's inputs
(`names_an_input`).
"""

from __future__ import annotations

import errno
import json
import os
import secrets
import stat
import sys
from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from croupier.reading import open_regular, read_regular

MANIFEST = ".croupier-manifest.json"
MANIFEST_FORMAT = 1


class OutputError(Exception):
    """An output file could not be written or removed: the path and the system's reason."""

    def __init__(self, path: Path | str, action: str, exc: OSError) -> None:
        self.path = str(path)
        self.reason = exc.strerror or str(exc)
        super().__init__(f"cannot {action} {self.path}: {self.reason}")


def write_atomic(path: Path, data: bytes, sync_folder: bool = True, mode: int | None = None) -> None:
    """Write `data` to `path` whole or not at all (temporary file, fsync, `os.replace`); then sync the
    folder, unless the caller syncs it once after writing many files there (`sync_folders`). With `mode`,
    the file gets exactly that mode (a rewritten file keeps its own), else the umask's.

    Raises OutputError (with nothing left behind) when the folder or the file cannot be written.
    """
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(path.parent, "create the folder", exc) from None
    tmp = path.parent / f".{path.name[:64]}.{secrets.token_hex(6)}.tmp"  # short: a long name still fits
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o666)
    except OSError as exc:
        raise OutputError(path, "write", exc) from None
    try:
        if mode is not None:
            os.fchmod(fd, mode)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except OSError as exc:
        _remove_quietly(tmp)
        raise OutputError(path, "write", exc) from None
    except BaseException:
        _remove_quietly(tmp)
        raise
    if sync_folder:
        _sync_folder(path.parent)


def names_an_input(output: Path | str, inputs: Iterable[Path | str]) -> Path | None:
    """The input among `inputs` that the output file `output` is (the same file, through any link or
    other path), or None. An output that does not exist yet can still name an input by its path."""
    out = Path(output)
    try:
        out_resolved = out.resolve()
    except (OSError, RuntimeError, ValueError):
        return None
    for given in inputs:
        given = Path(given)
        try:
            if given.resolve() == out_resolved or out.exists() and given.exists() and os.path.samefile(out, given):
                return given
        except (OSError, RuntimeError, ValueError):
            continue
    return None


def check_targets(out: Path, rels: Iterable[str], listed: Iterable[str]) -> None:
    """Raise OutputError unless every file `rels` names may be written into `out`: reached through no
    symbolic link below `out` (a link to a folder elsewhere would take the write out of it), and either
    absent, listed by the manifest (`listed`: an earlier build wrote it) or a regular file to be left as it is
    because it holds these bytes already (the caller compares)."""
    known = set(listed)
    for rel in rels:
        step = out
        parts = PurePosixPath(rel).parts
        for i, part in enumerate(parts):
            step = step / part
            try:
                mode = os.lstat(step).st_mode
            except FileNotFoundError:
                break
            except NotADirectoryError as exc:  # a file where a folder must go
                raise OutputError(step.parent, "create the folder", exc) from None
            except OSError as exc:
                raise OutputError(step, "write", exc) from None
            if stat.S_ISLNK(mode):
                raise OutputError(step, "write through", OSError(errno.ELOOP, "it is a symbolic link: the build "
                                                                 "writes only inside its output folder"))
            if i == len(parts) - 1 and rel not in known and not stat.S_ISREG(mode):
                raise OutputError(step, "write", OSError(errno.EEXIST, "it is there already, and not a regular file"))


def foreign_files(out: Path, files: Iterable[tuple[str, bytes]], listed: Iterable[str]) -> list[str]:
    """The relative paths among `files` that exist in `out` with other bytes and that the manifest (`listed`)
    does not list: files the build did not write, which it must never overwrite."""
    known = set(listed)
    found = []
    for rel, data in files:
        if rel in known:
            continue
        target = out / rel
        try:
            if not os.path.lexists(target):
                continue
            with open_regular(target) as f:
                same = f.read(len(data) + 1) == data
        except OSError:
            same = False
        if not same:
            found.append(rel)
    return found


def write_if_changed(path: Path, data: bytes, sync_folder: bool = True, mode: int | None = None) -> bool:
    """Write `path` atomically unless it already holds exactly `data`; whether it was written."""
    try:
        if path.is_file() and not path.is_symlink():
            with open_regular(path) as f:
                if f.read(len(data) + 1) == data:
                    return False
    except OSError as exc:
        raise OutputError(path, "read", exc) from None
    write_atomic(path, data, sync_folder, mode)
    return True


def refresh_module(path: Path, text: str, command: str, args: list[str]) -> int:
    """The `main` of a generator of one of the package's own modules (`python -m <command>`): write `path` with
    `text` when it differs; with `--check` in `args`, only say whether it is fresh (exit status 1 when stale)."""
    if "--check" in args:
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current != text:
            print(f"{path.name} is stale: run python -m {command}", file=sys.stderr)
            return 1
        return 0
    if write_if_changed(path, text.encode("utf-8")):
        print(f"wrote {path}")
    return 0


def sync_folders(paths: Iterable[Path]) -> None:
    """Make the renames of files written with `sync_folder=False` durable: each folder synced once."""
    for folder in sorted({Path(p).parent for p in paths}):
        _sync_folder(folder)


def _remove_quietly(path: Path) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _sync_folder(folder: Path) -> None:
    """Make a rename durable (best effort: not every system can sync a folder)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# ---- the manifest ------------------------------------------------------------------------

def manifest_text(paths: Iterable[str]) -> str:
    """The manifest listing `paths` (relative, POSIX), sorted, one per line: reproducible bytes."""
    return json.dumps({"format": MANIFEST_FORMAT, "written by": "croupier build", "files": sorted(set(paths))},
                      indent=1, ensure_ascii=False) + "\n"


def read_manifest(out: Path) -> list[str] | None:
    """The relative paths the last build into `out` listed; None when there is no usable manifest."""
    path = out / MANIFEST
    try:
        if path.is_symlink() or not path.is_file():
            return None
        data = json.loads(read_regular(path).decode("utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT or not isinstance(data.get("files"), list):
        return None
    files = data["files"]
    return [f for f in files if isinstance(f, str)]


def inside(out: Path, rel: str) -> Path | None:
    """The file `rel` names inside `out`, or None when it is not a plain relative path to a
    regular file reached without any symbolic link and staying inside `out`."""
    if not rel or "\0" in rel or "\\" in rel:
        return None
    pure = PurePosixPath(rel)
    if pure.is_absolute() or any(part in ("", ".", "..") for part in pure.parts) or rel != pure.as_posix():
        return None
    if pure.name == MANIFEST:
        return None
    target = out.joinpath(*pure.parts)
    step = out
    for part in pure.parts:
        step = step / part
        try:
            mode = os.lstat(step).st_mode
        except OSError:
            return None
        if stat.S_ISLNK(mode):
            return None
    if not stat.S_ISREG(mode):
        return None
    try:
        target.resolve(strict=True).relative_to(out.resolve(strict=True))
    except (OSError, ValueError):
        return None
    return target


def leftovers(out: Path, keep: Iterable[str]) -> list[str]:
    """Files the last build listed that are not in `keep` and may safely be deleted (relative paths)."""
    listed = read_manifest(out) or []
    kept = set(keep)
    return sorted(rel for rel in set(listed) - kept if inside(out, rel) is not None)


def prune(out: Path, keep: Iterable[str]) -> list[str]:
    """Delete the files an earlier build wrote that no spec writes now; return their relative paths."""
    removed = []
    for rel in leftovers(out, keep):
        target = inside(out, rel)
        if target is None:
            continue
        try:
            target.unlink()
        except FileNotFoundError:
            continue
        except OSError as exc:
            if exc.errno == errno.ENOENT:
                continue
            raise OutputError(target, "remove", exc) from None
        removed.append(rel)
    return removed
