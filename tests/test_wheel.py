"""Installed like a tool: the wheel, installed (not editable) into a fresh virtual environment
without the system's packages, runs a project scaffolded by `croupier init` end to end.

The wheel is built from a copy of the sources (pyproject.toml, README.md, compiler/), so no build
folder is left in the repository and nothing stale from an earlier build can slip into it. When this
environment already holds what pyproject.toml's [build-system] asks for (the dev extra brings it), the
test builds with it, calling the backend's PEP 517 `build_wheel` hook in a child process as a front end
such as pip does (pip would add only its own start-up and a child of its own), rather than installing a
fresh setuptools into an isolated environment for each build: the same backend builds the same wheel
from the same sources. Otherwise `pip wheel` builds in an isolated environment, as for a user. The
dependencies (lark, jinja2, babel, rich, and pytest for the generated tests) come from the package
index as for any user, resolved from the wheel's own metadata by an installer outside the venv: uv
(`uv pip install --python`, the dev extra brings it) when this environment has it, else this test's
own pip (`pip --python`). Both read the same metadata and index and install the same files; uv does
it in a fraction of pip's time (4.5 s of CPU and 10 s of wall with pip here, 0.7 s and 1 s with uv).
uv's cache of downloaded and unpacked wheels is kept between runs in pytest's cache folder
(.pytest_cache/d/uv, as a user's uv keeps its own), so that a later run resolves against the index
again but links the files it unpacked before instead of downloading and unpacking some 47 MB of
wheels anew (1.0-1.5 s of CPU, mostly the kernel's, down to about 0.25 s); without pytest's cache
(`-p no:cacheprovider`) the cache is the test's own, empty at the start.

The commands run in the venv with the environment a user's shell would give them: without this
repository on PYTHONPATH and without PYTHONDONTWRITEBYTECODE, so that Python compiles each module of
the venv once, on its first import, and later commands read the bytecode (with the setting, every
command compiled the wheel's modules and its dependencies' again).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tomllib
from importlib import metadata
from pathlib import Path

import pytest
from packaging.requirements import Requirement

ROOT = Path(__file__).resolve().parent.parent
GAME = "high_total"
# setuptools builds wheels by itself (its own bdist_wheel, no `wheel` package) from 70.1 on
WHEEL_BACKEND = "setuptools>=70.1"


BUILD_SYSTEM = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["build-system"]
# a PEP 517 front end's call, in a child process run in the sources' folder: backend argv[1]'s build_wheel hook,
# writing into the folder argv[2] (setuptools' get_requires_for_build_wheel asks nothing beyond [build-system]
# requires, which environment_builds() checks)
BUILD_HOOK = "import importlib, sys; print(importlib.import_module(sys.argv[1]).build_wheel(sys.argv[2]))"


def environment_builds() -> bool:
    """Whether this environment's backend satisfies [build-system] requires (and builds wheels by itself);
    else pip builds in an isolated environment, as for a user."""
    for req in map(Requirement, [*BUILD_SYSTEM["requires"], WHEEL_BACKEND]):
        try:
            if not req.specifier.contains(metadata.version(req.name), prereleases=True):
                return False
        except metadata.PackageNotFoundError:
            return False
    return True


def build_wheel(src: Path, dist: Path, env: dict[str, str]) -> None:
    """The wheel of the sources in `src`, written into `dist`."""
    if environment_builds():
        dist.mkdir()
        call([sys.executable, "-c", BUILD_HOOK, BUILD_SYSTEM["build-backend"], str(dist)], src, env)
    else:
        call([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dist), str(src)], src.parent, env)


def call(args: list[str], cwd: Path, env: dict[str, str], timeout: int = 300) -> subprocess.CompletedProcess:
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout, check=False)
    assert proc.returncode == 0, f"{' '.join(args)} exited {proc.returncode}:\n{proc.stdout}\n{proc.stderr}"
    return proc


def install(python: Path, requirements: list[str], base: Path, env: dict[str, str], uv_cache: Path) -> None:
    """Install `requirements` and their dependencies from the package index into the venv of `python`, without
    compiling bytecode (uv does not by default; pip is told so); uv keeps what it downloads in `uv_cache`."""
    try:
        from uv import find_uv_bin
    except ImportError:
        call([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-compile", *requirements],
             base, env)
        return
    call([find_uv_bin(), "pip", "install", "-q", "--python", str(python), "--cache-dir", str(uv_cache),
          *requirements], base, env)
    # the wheel built from these sources is unpacked anew each run: its entries go, what came from the index stays
    call([find_uv_bin(), "cache", "clean", "-q", "--cache-dir", str(uv_cache), "croupier"], base, env)


@pytest.fixture(scope="module")
def venv(tmp_path_factory, pytestconfig) -> tuple[Path, dict[str, str]]:
    """(bin folder, environment) of a fresh venv holding the wheel and pytest."""
    base = tmp_path_factory.mktemp("wheel")
    cache = getattr(pytestconfig, "cache", None)  # None under -p no:cacheprovider
    uv_cache = base / "uv-cache" if cache is None else cache.mkdir("uv")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    src = base / "src"
    src.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    shutil.copytree(ROOT / "compiler", src / "compiler", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    build_wheel(src, base / "dist", env)
    wheels = list((base / "dist").glob("croupier-*.whl"))
    assert len(wheels) == 1, wheels
    # a venv without pip of its own (ensurepip costs seconds): an installer outside it installs into it; the
    # wheel's modules are compiled on first import, as Python does for any module without a .pyc
    call([sys.executable, "-m", "venv", "--without-pip", str(base / "venv")], base, env)
    bin_dir = base / "venv" / "bin"
    install(bin_dir / "python", [str(wheels[0]), "pytest"], base, env, uv_cache)
    env = {k: v for k, v in env.items() if k != "PYTHONDONTWRITEBYTECODE"}  # bytecode kept in the venv's own folders
    env["PATH"] = str(bin_dir) + os.pathsep + env.get("PATH", "")
    env["CROUPIER_CACHE"] = str(base / "cache")
    return bin_dir, env


def test_the_installed_package_is_the_wheels_not_the_repositorys(venv, tmp_path):
    bin_dir, env = venv
    proc = call([str(bin_dir / "python"), "-c", "import croupier, sys; print(croupier.__file__); print(sys.path)"],
                tmp_path, env)
    location = Path(proc.stdout.splitlines()[0])
    assert bin_dir.parent in location.parents and "site-packages" in location.parts
    assert str(ROOT) not in proc.stdout, "neither the repository nor the system's packages are on the path"


def test_init_build_check_play_analyze_simulate_and_the_generated_tests(venv, tmp_path):
    bin_dir, env = venv
    croupier = str(bin_dir / "croupier")
    assert "new project" in call([croupier, "init", "x"], tmp_path, env).stdout
    project = tmp_path / "x"
    assert (project / "croupier.toml").is_file() and (project / "spec" / f"{GAME}.rules").is_file()
    assert not (project / "compiler").exists() and not (project / "croupier").exists()

    out = call([croupier, "build"], project, env).stdout
    assert "built 1 spec(s)" in out
    generated = project / "generated"
    assert (generated / "engines" / f"{GAME}.py").is_file()
    for lang in ("en", "zh-Hans", "zh-Hant"):  # the templates and the catalogs are in the wheel
        assert (generated / "cards" / f"{GAME}.{lang}.html").is_file(), lang
    assert "比點數" in (generated / "cards" / f"{GAME}.zh-Hant.html").read_text(encoding="utf-8")
    assert "1 spec(s) ok" in call([croupier, "check"], project, env).stdout
    assert "1 spec(s) ok" in call([croupier, "check", "--strict"], project / "spec", env).stdout

    # player KS 9D = 19 against dealer 7H AC = 8, worked by hand: the player bet pays 1 to 1
    proc = call([croupier, "play", f"spec/{GAME}.rules", "--cards", "KS 7H 9D AC", "--bet", "player=100", "--json"],
                project, env)
    answer = json.loads(proc.stdout)
    assert answer["outcome"] == "player" and answer["returns"] == {"player": "200"}

    report = json.loads(call([croupier, "analyze", f"spec/{GAME}.rules", "--json"], project, env).stdout)
    assert set(report["outcomes"]) == {"player", "dealer", "tie"}
    assert report["outcomes"]["player"] == report["outcomes"]["dealer"], "both sides are dealt alike"
    assert set(report["bets"]) == {"player", "tie"}

    out = call([croupier, "simulate", str(project / "spec" / f"{GAME}.rules"), "--shoes", "2"], tmp_path, env).stdout
    assert "2 shoes, 26 rounds" in out, "one deck, four cards a round: 13 rounds a shoe"

    out = call([str(bin_dir / "python"), "-m", "pytest"], project, env).stdout
    assert "4 passed" in out, out
    assert "4 of 4 reference case(s) pass" in call([croupier, "test"], project, env).stdout, "no pytest needed"
    assert "cut card 14..16 from end" in call([croupier, "help", "cut card"], project, env).stdout, "the reference ships"
