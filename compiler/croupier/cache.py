"""Croupier's one cache: JSON data and source text under a content key, on disk and in process.

Resolved specs, exhaustive checks, exact analyses, example-hand searches, engines
and card templates (both as source text) and rendered cards (text, under their whole
view) are pure functions of what they were computed from. Every one of them goes through `cached` (or `recall` and `keep`),
under a key naming everything it depends on, prefixed with `versions()`: the
compiler's package version, a digest of its own source files (computed once per
process) and the Lark version. Editing a spec, a base it extends or the compiler
computes them afresh; the output never depends on whether an entry was used.

- In process, values (live ones too: the driver's work on a spec) are kept in a
  bounded memory under the same keys (the versions being this process's, left out):
  the same content is computed once a process. `forget()` empties it.
- On disk, in $CROUPIER_CACHE (default: ~/.cache/croupier; CROUPIER_CACHE=off
  disables it), only data is kept: JSON, exact numbers as "n/d" strings (`to_data`
  and `from_data`). The only code ever rebuilt from an entry is source text, compiled
  again: an engine's (by the driver, after checking its digest) and the Python Jinja
  generates for a card template. No pickle, marshal or bytecode.
- Entries live in `v2/` inside that folder, both created 0700; `v2/` must belong
  to the user and be closed to others, else the cache is off. Entries are written
  atomically (temporary file, then `os.replace`) with mode 0600.
- Every entry carries an HMAC-SHA256 of its content, its kind and its key, made
  with a random per-user secret (`v2/key`, 0600). An entry that is
  not owned by the user, writable by others, unauthenticated, moved from another
  key or malformed is ignored and recomputed: an edited figure never reaches
  the output. (The user themself can still forge entries, as they can edit the
  compiler; the secret keeps out everyone else.)
"""

from __future__ import annotations

import hmac
import json
import os
import stat
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import fields, is_dataclass
from fractions import Fraction
from functools import lru_cache
from hashlib import sha256  # (`cache.sha256`: the other modules hash through it too)
from pathlib import Path
from typing import Any, TypeVar

from croupier.paths import cache_dir

T = TypeVar("T")
FORMAT = 2
COMPILER = Path(__file__).resolve().parent
CODE_SUFFIXES = {".py", ".lark", ".j2", ".css", ".po", ".pot"}
MAX_ENTRY = 64 << 20
MAX_TEXT = 4 << 20  # a file read for a content key (a spec is far smaller; a larger one is not keyed)
MEMORY_ENTRIES = 64  # values of one kind kept in process, the least recently used dropped first
_MEMORY: dict[str, OrderedDict[str, object]] = {}  # kind -> memo key -> value
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)


# --- what every key starts with: the compiler's version and digest -----------------------------------

@lru_cache(maxsize=1)
def compiler_digest() -> str:
    """A digest of the compiler's own code, grammar, templates and catalogs (read once per process:
    about 130 files, a few milliseconds: `os.walk`, which never enters `__pycache__`, not `Path.rglob`)."""
    h = sha256()
    files = []
    for folder, dirs, names in os.walk(COMPILER):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        files.extend(os.path.join(folder, n) for n in names if os.path.splitext(n)[1] in CODE_SUFFIXES)
    for path in sorted(files):
        data = _whole_file(path)
        h.update(os.path.relpath(path, COMPILER).encode())
        h.update(b"\0%d\0" % len(data))
        h.update(data)
    return h.hexdigest()


def _whole_file(path: str) -> bytes:
    """Every byte of a file, read with the operating system's own calls: for the compiler's 160 small files,
    about half the time of `open()`, which makes a buffered file object for each."""
    fd = os.open(path, os.O_RDONLY)
    try:
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
    finally:
        os.close(fd)
    return b"".join(chunks)


@lru_cache(maxsize=1)
def versions() -> str:
    """What every cached result depends on besides its own key: Croupier's version and the digest of its
    source files (the parser among them: Lark's standalone parser is a file of the package, so the installed
    Lark reaches no cached result). Computed once per process (about 3 ms)."""
    from croupier import __version__

    return f"croupier {__version__} {compiler_digest()}"


def text_digest(text: str) -> str:
    """The SHA-256 of a text (UTF-8), as hex."""
    return sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def file_text(path: str) -> str | None:
    """The text of a regular UTF-8 file (a leading byte-order mark dropped, as the spec loader drops it),
    or None when it cannot be read as such: what a content key is made of."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except (OSError, ValueError, TypeError):
        return None
    try:
        with os.fdopen(fd, "rb") as f:
            if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
                return None
            data = f.read(MAX_TEXT + 1)
    except OSError:
        return None
    if len(data) > MAX_TEXT:
        return None
    try:
        return data.decode("utf-8-sig").removeprefix("\ufeff")
    except UnicodeDecodeError:
        return None


# --- the folder, its secret and its entries ---------------------------------------------------------

def _owned(st: os.stat_result, kind: int = stat.S_IFREG) -> bool:
    """A file or folder of the user's that nobody else can write."""
    return (stat.S_IFMT(st.st_mode) == kind and st.st_uid == os.getuid()
            and not st.st_mode & (stat.S_IWGRP | stat.S_IWOTH))


def private_folder() -> Path | None:
    """The folder holding the entries: `v2` in Croupier's cache folder, both created 0700. None when the
    cache is off or `v2` is not a folder of the user's that only they can open. (An existing cache folder
    is never chmod-ed: it may be any folder CROUPIER_CACHE names; the entries' own folder is private.)"""
    folder = cache_dir()
    if folder is None:
        return None
    folder = folder / f"v{FORMAT}"
    try:
        make_private_folders(folder)
        st = os.lstat(folder)
    except OSError:
        return None
    return folder if _owned(st, stat.S_IFDIR) and not st.st_mode & 0o077 else None


def make_private_folders(folder: Path) -> None:
    """Create `folder` and each missing parent 0700, whatever the umask (a folder that exists is left as
    it is). Raises OSError."""
    missing = []
    step = Path(os.path.abspath(folder))
    while not os.path.lexists(step):
        missing.append(step)
        if step.parent == step:
            break
        step = step.parent
    for made in reversed(missing):
        try:
            os.mkdir(made, 0o700)
        except FileExistsError:
            continue
        os.chmod(made, 0o700)  # the umask may have taken bits off 0700 (or left them on: 000 keeps 0700)


def _read_owned(path: Path, limit: int = MAX_ENTRY) -> bytes | None:
    """A file's bytes when it is a regular file of the user's that nobody else can write, else None."""
    try:
        fd = os.open(path, os.O_RDONLY | _NOFOLLOW)
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if not _owned(os.fstat(f.fileno())):
            return None
        data = f.read(limit + 1)
    return data if len(data) <= limit else None


def _write_private(path: Path, data: bytes, replace: bool = True) -> None:
    """Write a 0600 file atomically; unless `replace`, an existing file is kept."""
    path.parent.mkdir(mode=0o700, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp")
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o600)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        if replace:
            os.replace(tmp, path)
        else:
            try:
                os.link(tmp, path)
            except FileExistsError:
                pass
    finally:
        tmp.unlink(missing_ok=True)


_SECRETS: dict[str, bytes] = {}


def _secret(folder: Path) -> bytes | None:
    """The folder's random 32-byte secret, made on first use (None when it cannot be trusted)."""
    if str(folder) in _SECRETS:
        return _SECRETS[str(folder)]
    path = folder / "key"
    data = _read_owned(path, 64)
    if data is None and not path.exists():
        try:
            _write_private(path, os.urandom(32), replace=False)
        except OSError:
            return None
        data = _read_owned(path, 64)
    if data is None or len(data) != 32:
        return None
    _SECRETS[str(folder)] = data
    return data


def sign(kind: str, payload: bytes) -> str | None:
    """An HMAC-SHA256 of `payload` for data of `kind` kept outside the cache (a checkpoint), made with the
    cache's secret; None when the cache is off or its secret cannot be trusted."""
    folder = private_folder()
    secret = _secret(folder) if folder is not None else None
    if secret is None:
        return None
    return hmac.new(secret, kind.encode("utf-8") + b"\0" + payload, sha256).hexdigest()


def verify(kind: str, payload: bytes, mac: str) -> bool | None:
    """Whether `mac` is `sign(kind, payload)`; None when there is no secret to check it with."""
    expected = sign(kind, payload)
    if expected is None:
        return None
    return isinstance(mac, str) and hmac.compare_digest(mac.encode("utf-8", "replace"), expected.encode())


def _entry(kind: str, key: str) -> tuple[Path, bytes, str] | None:
    folder = private_folder()
    secret = _secret(folder) if folder is not None else None
    if secret is None:
        return None
    digest = sha256(f"{kind}\0{key}".encode("utf-8", "surrogatepass")).hexdigest()
    return folder / kind / f"{digest}.json", secret, digest


def load(kind: str, key: str) -> Any:
    """The JSON data stored under (kind, key), or None when there is none that can be trusted."""
    found = _entry(kind, key)
    if found is None:
        return None
    path, secret, digest = found
    raw = _read_owned(path)
    if raw is None:
        return None
    mac, _, payload = raw.partition(b"\n")
    if not hmac.compare_digest(mac, hmac.new(secret, payload, sha256).hexdigest().encode()):
        return None
    try:
        entry = json.loads(payload)
    except ValueError:
        return None
    if not isinstance(entry, dict) or [entry.get(k) for k in ("format", "kind", "key")] != [FORMAT, kind, digest]:
        return None
    return entry.get("data")


def store(kind: str, key: str, data: Any) -> None:
    """Store JSON-able data under (kind, key); a cache that cannot be written is skipped silently."""
    found = _entry(kind, key)
    if found is None:
        return
    path, secret, digest = found
    try:
        payload = json.dumps({"format": FORMAT, "kind": kind, "key": digest, "data": data},
                             ensure_ascii=False, separators=(",", ":")).encode("utf-8")
        mac = hmac.new(secret, payload, sha256).hexdigest().encode()
        _write_private(path, mac + b"\n" + payload)
    except (OSError, TypeError, ValueError):
        pass


def _memo(key: str) -> str:
    """The key in memory: the versions are those of this process, the same for every entry."""
    return sha256(key.encode("utf-8", "surrogatepass")).hexdigest()


def recall(kind: str, key: str, decode: Callable[[Any], T] | None = None, disk: bool = True) -> T | None:
    """The value kept under (kind, key, versions): from memory, else (when `disk`) from a trusted disk entry
    that `decode` (default: `from_data`) turns back into a value; None when there is none."""
    memo, kept = _memo(key), _MEMORY.get(kind, {})
    if memo in kept:
        kept.move_to_end(memo)
        return kept[memo]  # type: ignore[return-value]
    if not disk or cache_dir() is None:
        return None
    data = load(kind, f"{versions()}\0{key}")
    if data is None:
        return None
    try:
        value = (decode or from_data)(data)
    except (KeyError, TypeError, ValueError, AttributeError, IndexError, ZeroDivisionError):
        return None  # an entry of another shape: a miss
    _remember(kind, memo, value)
    return value


def keep(kind: str, key: str, value: Any, encode: Callable[[Any], Any] | None = None, disk: bool = True) -> None:
    """Keep a value under (kind, key, versions): in memory, and (when `disk`) as the JSON data `encode`
    (default: `to_data`) makes of it. None is never kept; a value that does not encode stays in memory only."""
    if value is None:
        return
    _remember(kind, _memo(key), value)
    if disk and cache_dir() is not None:
        try:
            data = (encode or to_data)(value)
        except (TypeError, ValueError):
            return
        store(kind, f"{versions()}\0{key}", data)


def _remember(kind: str, memo: str, value: object) -> None:
    kept = _MEMORY.setdefault(kind, OrderedDict())
    kept[memo] = value
    kept.move_to_end(memo)
    while len(kept) > MEMORY_ENTRIES:
        kept.popitem(last=False)


def forget() -> None:
    """Drop every value kept in this process (the disk entries stay): the next request computes afresh
    or reads the disk."""
    _MEMORY.clear()


def cached(kind: str, key: str, compute: Callable[[], T], encode: Callable[[T], Any] | None = None,
           decode: Callable[[Any], T] | None = None) -> T:
    """The result of `compute()` for (kind, key, versions): from memory, then disk, else computed and kept.
    `encode`/`decode` turn it into JSON-able data and back (default: `to_data`/`from_data`); an entry
    that does not decode is recomputed."""
    value = recall(kind, key, decode)
    if value is None:
        value = compute()
        keep(kind, key, value, encode)
    return value


# --- values as JSON-able data -----------------------------------------------------------------------

def to_data(value: Any) -> Any:
    """A value of None, bool, int, str, Fraction, list, tuple, set, dict or dataclass as JSON-able data.

    Fractions become "n/d" strings tagged {"$q": "n/d"}; tuples, sets, dataclasses and dicts whose keys
    are not plain strings are tagged likewise, so that `from_data` gives back equal values in order.
    """
    if value is None or isinstance(value, (bool, int, str)):
        return value
    if isinstance(value, Fraction):
        return {"$q": f"{value.numerator}/{value.denominator}"}
    if isinstance(value, list):
        return [to_data(v) for v in value]
    if isinstance(value, tuple):
        return {"$t": [to_data(v) for v in value]}
    if isinstance(value, (set, frozenset)):
        return {"$s": sorted((to_data(v) for v in value), key=lambda d: json.dumps(d, sort_keys=True))}
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("$") for k in value):
            return {k: to_data(v) for k, v in value.items()}
        return {"$d": [[to_data(k), to_data(v)] for k, v in value.items()]}
    if is_dataclass(value) and not isinstance(value, type):
        return {"$o": type(value).__name__, "f": {f.name: to_data(getattr(value, f.name)) for f in fields(value)}}
    raise TypeError(f"{type(value).__name__} is not cached data")


def from_data(data: Any, classes: tuple[type, ...] = ()) -> Any:
    """The value `to_data` made this data from; dataclasses only of the `classes` named."""
    if data is None or isinstance(data, (bool, int, str)):
        return data
    if isinstance(data, list):
        return [from_data(v, classes) for v in data]
    if not isinstance(data, dict):
        raise TypeError("not cached data")
    if len(data) == 1 and "$q" in data:
        n, d = data["$q"].split("/")
        return Fraction(int(n), int(d))
    if len(data) == 1 and "$t" in data:
        return tuple(from_data(v, classes) for v in data["$t"])
    if len(data) == 1 and "$s" in data:
        return {from_data(v, classes) for v in data["$s"]}
    if len(data) == 1 and "$d" in data:
        return {from_data(k, classes): from_data(v, classes) for k, v in data["$d"]}
    if set(data) == {"$o", "f"}:
        cls = {c.__name__: c for c in classes}[data["$o"]]
        return cls(**{k: from_data(v, classes) for k, v in data["f"].items()})
    return {k: from_data(v, classes) for k, v in data.items()}
