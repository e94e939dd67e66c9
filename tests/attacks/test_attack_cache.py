"""Attack: the disk cache (issue 11, "Caches load executable data").

Before: result entries were pickles (a replaced entry ran its code during `check`),
an edited cached analysis put a banker edge of -5 % on the card, the engine cache
held marshalled code objects, cards used a Jinja bytecode cache (marshal and
pickle), and Lark's `cache=True` kept a pickle under a predictable name in $TMPDIR.
After: the one cache (`croupier.cache`) holds JSON data and source text only,
authenticated with a per-user secret, in a 0700 folder; nothing planted or edited
in it runs or changes an output, which stays equal to the CROUPIER_CACHE=off output.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import json
import marshal
import os
import pickle
import shutil
import stat
import subprocess
import sys
import zlib
from contextlib import redirect_stderr, redirect_stdout
from pathlib import Path

import jinja2
import pytest
from cli_run import child_env
from lark import Lark

from croupier import cache
from croupier.syntax.concrete import ConcreteIndenter
from croupier.syntax.make_standalone import GRAMMAR

ROOT = Path(__file__).resolve().parent.parent.parent
SPECS = ["spec/baccarat.rules", "spec/ten_and_a_half_banker.rules"]  # a dealt round and a seat game
# every kind of entry, all through the one cache API (`croupier.cache`), all under content keys
KINDS = {"analysis", "round-space", "hand-survey", "example-hands", "seat-analysis", "jinja", "engines", "bases",
         "card"}


class Payload:
    """Unpickled, it creates a folder: proof that code from the cache ran."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self):
        return os.mkdir, (str(self.marker),)


def croupier(*args: str, cache_dir: str, tmpdir: Path | None = None) -> str:
    env = child_env(CROUPIER_CACHE=cache_dir)
    if tmpdir is not None:
        env["TMPDIR"] = str(tmpdir)
    proc = subprocess.run([sys.executable, "-m", "croupier.cli.main", *args], cwd=ROOT, env=env,
                          capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    return proc.stdout


def built(cache_dir: str, out: Path, run=croupier, **tmpdir: Path) -> dict[str, str]:
    """Everything `build` prints or writes for SPECS (`tmpdir=`: its TMPDIR)."""
    printed = run("build", *SPECS, "--out", str(out), cache_dir=cache_dir, **tmpdir)
    found = {str(p.relative_to(out)): p.read_text(encoding="utf-8") for p in sorted(out.rglob("*")) if p.is_file()}
    return found | {"build": printed.replace(str(out), "OUT")}


def outputs(cache_dir: str, out: Path, run=croupier, **tmpdir: Path) -> dict[str, str]:
    """Everything `build`, `check` and `analyze` print or write for SPECS (`tmpdir=`: their TMPDIR)."""
    found = built(cache_dir, out, run, **tmpdir)
    found["check"] = run("check", *SPECS, "--no-stale", "--json", cache_dir=cache_dir, **tmpdir)
    found["analyze"] = run("analyze", SPECS[0], "--json", cache_dir=cache_dir, **tmpdir)
    return found


def contents(folder: Path) -> dict[str, bytes]:
    """Every file under a folder, by its path there, with its bytes."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def in_process(*args: str, cache_dir: str) -> str:
    """What `croupier` prints, run in this process (from the repository, with CROUPIER_CACHE=cache_dir)."""
    from croupier.cli.main import main

    printed, errors = io.StringIO(), io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("CROUPIER_CACHE", cache_dir)
        patch.chdir(ROOT)
        with redirect_stdout(printed), redirect_stderr(errors):
            code = main(list(args))
    assert code == 0, errors.getvalue()
    return printed.getvalue()


@pytest.fixture(scope="module")
def reference(tmp_path_factory) -> dict[str, str]:
    """The outputs with no disk cache, computed in this process from an empty memory (the commands the
    attacks run are separate processes: those are the ones whose cache is tampered with)."""
    cache.forget()
    try:
        return outputs("off", tmp_path_factory.mktemp("off"), in_process)
    finally:
        cache.forget()


def forged(entry: Path, change) -> None:
    """Rewrite an entry's data as an attacker who knows the format but not the secret would."""
    _mac, _, payload = entry.read_bytes().partition(b"\n")
    data = json.loads(payload)
    data["data"] = change(entry.parent.name, data["data"])
    payload = json.dumps(data).encode()
    entry.write_bytes(hmac.new(b"\0" * 32, payload, hashlib.sha256).hexdigest().encode() + b"\n" + payload)


def evil(kind: str, data, marker: Path):
    """Every exact number becomes -1/20 (a -5 % edge); every piece of source creates `marker`."""
    code = f"import os\nos.mkdir({str(marker)!r})\n"
    if kind == "jinja":
        return code
    if kind == "card":  # a rendered card: another page, with a script in it
        return f"<script>{code}</script>\n"
    if kind == "engines":
        data["source"] = code
        data["facts"]["digest"] = hashlib.sha256(code.encode()).hexdigest()
        return data
    if kind == "example-hands":
        return {name: ["AS"] for name in data}
    if kind == "bases":  # a chain of bases naming a file of the attacker's, whatever its digest
        return [[str(marker.with_suffix(".rules")), "0" * 64]]

    def walk(d):
        if isinstance(d, dict):
            return {"$q": "-1/20"} if "$q" in d else {k: walk(v) for k, v in d.items()}
        return [walk(v) for v in d] if isinstance(d, list) else d

    return walk(data)


def plant_old_formats(entries: Path, folder: Path, marker: Path) -> None:
    """Pickles (named as the former cache named them, after the same keys as `entries`), marshalled
    code and Jinja buckets, in `folder` where the former caches looked for them."""
    bomb = pickle.dumps(Payload(marker))
    for entry in entries.glob("*/*.json"):
        kind = folder / entry.parent.name
        kind.mkdir(exist_ok=True)
        (kind / entry.name).with_suffix(".pickle").write_bytes(bomb)
    code = compile(f"import os\nos.mkdir({str(marker)!r})\n", "<evil>", "exec")
    for spec in SPECS:
        name = f"{zlib.crc32(os.path.abspath(ROOT / spec).encode('utf-8')):08x}.marshal"
        (folder / "engines").mkdir(exist_ok=True)
        (folder / "engines" / name).write_bytes(marshal.dumps((1, sys.version, "", "", (), (), {}, code)))
    for sub in ("escaped", "plain"):
        (folder / "jinja" / sub).mkdir(parents=True, exist_ok=True)
        bcc = jinja2.FileSystemBytecodeCache(str(folder / "jinja" / sub))
        env = jinja2.Environment()
        for template in (ROOT / "compiler" / "croupier" / "backends" / "cards" / "templates").glob("*.j2"):
            bucket = bcc.get_bucket(env, template.name, str(template), template.read_text(encoding="utf-8"))
            (Path(bcc.directory) / (bcc.pattern % bucket.key)).write_bytes(jinja2.bccache.bc_magic + bomb)


class Stopped(BaseException):
    """Raised from inside Lark to stop it before it computes the parser's tables (a second of CPU that proves
    nothing here); a BaseException, so Lark's `except Exception` around its cache lets it through."""


def stop(*_args, **_kwargs):
    raise Stopped


def lark_with_cache(tmp: Path, **replaced) -> Lark:
    """Lark with the former parser's options, in its order (Lark's cache name hashes them), and its cache on,
    with `tmp` as the temporary folder (where Lark keeps that cache); `replaced`: names of `lark.lark` replaced
    while it runs."""
    import tempfile

    import lark.lark

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(tempfile, "tempdir", str(tmp))
        for name, value in replaced.items():
            patch.setattr(lark.lark, name, value)
        return Lark(GRAMMAR.read_text(encoding="utf-8"), parser="lalr", postlex=ConcreteIndenter(),
                    propagate_positions=True, maybe_placeholders=False, cache=True)


@pytest.fixture(scope="module")
def lark_cache(tmp_path_factory) -> tuple[str, bytes]:
    """(name, first line) of the cache file of the former parser's tables, taken from Lark itself: the file it
    opens to read its cache (the name hashes the grammar and the options, not the folder) and the digest it
    writes as the first line of that file. Lark is stopped as it opens the file, before it computes any table;
    `test_the_parser_keeps_no_cache_in_tmpdir` proves Lark reads the file planted with them."""
    from lark.lark import FS, sha256_digest

    tmp = tmp_path_factory.mktemp("lark")
    seen: dict[str, str] = {}

    def digest(text: str) -> str:
        seen["digest"] = sha256_digest(text)
        return seen["digest"]

    class Opened(FS):
        @staticmethod
        def open(name, mode="r", **kwargs):
            assert mode == "rb", mode  # the first file Lark opens is its cache, to read it
            seen["name"] = name
            raise Stopped

    with pytest.raises(Stopped):
        lark_with_cache(tmp, sha256_digest=digest, FS=Opened)
    name = Path(seen["name"])
    assert name.parent == tmp and seen["digest"] in name.name
    assert not list(tmp.iterdir())
    return name.name, seen["digest"].encode("utf-8")


def plant_lark_cache(lark_cache: tuple[str, bytes], tmp: Path, marker: Path) -> Path:
    """The former parser's tables, where it kept them (a fresh TMPDIR `tmp`), made a payload creating `marker`."""
    name, first = lark_cache
    tmp.mkdir()
    planted = tmp / name
    planted.write_bytes(first + b"\n" + pickle.dumps(Payload(marker)))
    return planted


def test_the_payload_is_live(tmp_path):
    marker = tmp_path / "ran"
    pickle.loads(pickle.dumps(Payload(marker)))  # noqa: S301 - proves the payload would run
    assert marker.is_dir()


def entries_of(folder: Path) -> dict[str, bytes]:
    """The cache's entries in its entries folder (`v2`), by path there, with their bytes."""
    return {name: data for name, data in contents(folder).items() if name.endswith(".json")}


def test_a_tampered_cache_changes_no_output_and_runs_no_code(reference, lark_cache, tmp_path):
    """Every command also runs with the former parser's tables planted in its TMPDIR: with a disk cache (cold,
    warm and tampered), the parser neither reads them nor writes any there (with the cache off: the test below)."""
    marker = tmp_path / "ran"
    tmp = tmp_path / "tmp"
    planted = plant_lark_cache(lark_cache, tmp, marker)
    root, folder = tmp_path / "cache", tmp_path / "cache" / "v2"
    # cold: `build` writes the entries; read back, they print the same to `build` again (and, below, to `check`
    # and `analyze`, once: run again over the same entries, they would be the same processes with the same inputs)
    cold = built(str(root), tmp_path / "cold", tmpdir=tmp)
    assert cold == {name: text for name, text in reference.items() if name not in ("check", "analyze")}
    written = entries_of(folder)
    assert built(str(root), tmp_path / "warm", tmpdir=tmp) == cold
    if entries_of(folder) != written:  # it wrote entries of its own: those are read back too
        assert built(str(root), tmp_path / "warmer", tmpdir=tmp) == cold
        written = entries_of(folder)
    assert {p.name for p in folder.iterdir() if p.is_dir()} == KINDS
    shutil.copytree(root, tmp_path / "pristine")  # the entries as build wrote them, for `check` and `analyze`
    for entry in sorted(folder.glob("*/*.json")):
        forged(entry, lambda kind, data: evil(kind, data, marker))
    plant_old_formats(folder, root, marker)  # where the former caches kept them
    plant_old_formats(folder, folder, marker)
    # tampered: the cache named by CROUPIER_CACHE holds every entry forged, and the old formats planted
    tampered = built(str(root), tmp_path / "tampered", tmpdir=tmp)
    if entries_of(folder) != written:  # some entries are still forged: check and analyze read build's (above) too
        assert outputs(str(tmp_path / "pristine"), tmp_path / "pristine-out", tmpdir=tmp) == reference
    # else `build` rejected every forged entry and wrote it back as the cold build had: `check` and `analyze`
    # now run over the entries build wrote, as they would have after the cold build, with the old formats beside
    for name, args in (("check", (*SPECS, "--no-stale", "--json")), ("analyze", (SPECS[0], "--json"))):
        tampered[name] = croupier(name, *args, cache_dir=str(root), tmpdir=tmp)
    assert tampered == reference
    assert not marker.exists()
    assert list(tmp.iterdir()) == [planted]


def test_folder_and_entries_are_private(tmp_path, monkeypatch):
    folder = tmp_path / "cache"
    folder.mkdir(mode=0o755)
    os.chmod(folder, 0o755)  # as an older Croupier left it
    monkeypatch.setenv("CROUPIER_CACHE", str(folder))
    cache.store("probe", "k", {"x": 1})
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755  # a folder CROUPIER_CACHE names is left as it is
    folder = folder / "v2"
    assert stat.S_IMODE(folder.stat().st_mode) == 0o700
    (entry,) = (folder / "probe").iterdir()
    assert stat.S_IMODE(entry.stat().st_mode) == 0o600
    assert stat.S_IMODE((folder / "key").stat().st_mode) == 0o600
    assert cache.load("probe", "k") == {"x": 1}
    os.chmod(entry, 0o666)
    assert cache.load("probe", "k") is None  # writable by others: ignored
    os.chmod(entry, 0o600)
    os.chmod(folder, 0o750)
    assert cache.load("probe", "k") is None  # an entries folder others can open: cache off
    os.chmod(folder, 0o700)
    assert cache.load("probe", "k") == {"x": 1}
    real = os.getuid()
    monkeypatch.setattr(os, "getuid", lambda: real + 1)
    assert cache.load("probe", "k") is None  # not the user's: ignored


def test_an_entry_moved_to_another_key_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv("CROUPIER_CACHE", str(tmp_path / "cache"))
    cache.store("analysis", "8 decks", {"edge": "1/100"})
    cache.store("analysis", "6 decks", {"edge": "2/100"})
    a, b = sorted((tmp_path / "cache" / "v2" / "analysis").iterdir())
    b.write_bytes(a.read_bytes())
    assert [cache.load("analysis", k) for k in ("8 decks", "6 decks")].count(None) == 1


def test_an_entry_forged_without_the_secret_is_ignored(tmp_path, monkeypatch):
    monkeypatch.setenv("CROUPIER_CACHE", str(tmp_path / "cache"))
    cache.store("analysis", "k", {"banker": {"$q": "106/10000"}})
    (entry,) = (tmp_path / "cache" / "v2" / "analysis").iterdir()
    forged(entry, lambda kind, data: {"banker": {"$q": "-1/20"}})
    assert cache.load("analysis", "k") is None
    secret = (tmp_path / "cache" / "v2" / "key").read_bytes()  # only with the user's secret would it pass
    _mac, _, payload = entry.read_bytes().partition(b"\n")
    entry.write_bytes(hmac.new(secret, payload, hashlib.sha256).hexdigest().encode() + b"\n" + payload)
    assert cache.load("analysis", "k") == {"banker": {"$q": "-1/20"}}


def test_cached_values_round_trip_as_data():
    from fractions import Fraction

    value = {"outcomes": {"banker": Fraction(-1, 20)}, 0: [(1, "a"), {"x"}], (2, Fraction(1, 3)): None}
    data = cache.to_data(value)
    assert cache.from_data(json.loads(json.dumps(data))) == value
    assert data["$d"][0] == ["outcomes", {"banker": {"$q": "-1/20"}}]
    with pytest.raises(TypeError):
        cache.to_data(object())


# A clean spec of the smallest kind: its `check` parses, resolves, runs the checks and renders its cards in every
# language as any spec's does, in half the CPU of baccarat's (0.45 s against 0.85 s, with the cache off)
SMALL = "tests/errors/base_ok.rules"


def test_the_parser_keeps_no_cache_in_tmpdir(lark_cache, tmp_path):
    """With the disk cache off; with it on, every command of the tampered-cache test above runs over such a TMPDIR.
    The parser is built once per process whatever the spec: the smallest clean spec is checked."""
    marker = tmp_path / "ran"
    tmp = tmp_path / "tmp"
    planted = plant_lark_cache(lark_cache, tmp, marker)
    assert "1 spec(s) ok" in croupier("check", SMALL, "--no-stale", cache_dir="off", tmpdir=tmp)
    assert not marker.exists()
    assert list(tmp.iterdir()) == [planted]
    # the planted tables are live: Lark's own cache runs them (it unpickles, then compares the first line, and
    # only if it matched checks the files the tables were made from: stopped there, not rebuilding the tables)
    with pytest.raises(Stopped):
        lark_with_cache(tmp, verify_used_files=stop)
    assert marker.is_dir()
