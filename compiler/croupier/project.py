"""The project: the folder of a rule designer's specs, found from its configuration (data only).

A Croupier project is a folder holding a `croupier.toml`, or a `pyproject.toml` with a
`[tool.croupier]` table; it is found by walking up from a folder, the way Python tools find
their configuration (`croupier.toml` wins over `pyproject.toml` in the same folder; a
`pyproject.toml` without the table is passed by). The table names, relative to its folder:

    spec = "spec"                 # the specs, one .rules file per game or variant
    cases = "tests/cases"         # the hand-written reference cases
    out = "generated"             # what `croupier build` writes
    languages = ["en", "zh-Hans", "zh-Hant"]   # the card languages, in the order cards list them
    targets = ["python"]          # the engines a build writes: "python", "javascript"

Every key is optional (those are the defaults). `spec`, `cases` and `out` must resolve inside the
project's root, symbolic links followed (only `build --out DIR` on the command line writes elsewhere),
and every language must be one the card renderer (Babel) knows. A configuration file that is not the
user's own, or that others may write, is ignored with a warning, as git ignores a repository of
another user's (`safe.directory`): in a shared folder it could point a build at anybody's files.
Nothing is ever found relative to the installed package. A path inside the project is shown relative to its root (in diagnostics,
in the headers of generated files), so that the output is the same from any folder.
"""

from __future__ import annotations

import os
import re
import stat
import sys
import tomllib
from dataclasses import dataclass
from pathlib import Path

from croupier.reading import read_regular

CONFIG = "croupier.toml"
PYPROJECT = "pyproject.toml"
DEFAULT_LANGUAGES = ("en", "zh-Hans", "zh-Hant")
TARGETS = ("python", "javascript")  # the engines a build can write: Python's always, JavaScript's on request
DEFAULT_TARGETS = ("python",)
DEFAULTS = {"spec": "spec", "cases": "tests/cases", "out": "generated"}
# the tags a spec's label may carry (the grammar's LANG token): `en`, `it`, `zh-Hant`
LANGUAGE_TAG = re.compile(r"[a-z]{2,3}(-[A-Z][a-z]{3})?")


class ProjectError(Exception):
    """A project configuration that cannot be used; the message names the file and the fix."""


@dataclass(frozen=True)
class Project:
    """A project's folders (absolute) and card languages, read from `config`."""

    root: Path
    spec_dir: Path
    cases_dir: Path
    out_dir: Path
    languages: tuple[str, ...]
    config: Path
    targets: tuple[str, ...] = DEFAULT_TARGETS

    def display(self, path: Path | str) -> str:
        """A path as shown in diagnostics and generated files: relative to the root when inside it,
        else as given."""
        try:
            return Path(path).resolve().relative_to(self.root).as_posix()
        except (ValueError, OSError, RuntimeError):
            return str(path)

    def specs(self) -> list[Path]:
        """Every spec of the project's spec folder, in name order."""
        return sorted(self.spec_dir.glob("*.rules"))


MAX_CONFIG_BYTES = 1_000_000


def _read_toml(path: Path) -> dict:
    try:
        return tomllib.loads(read_regular(path, MAX_CONFIG_BYTES).decode("utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ProjectError(f"{path}: not valid TOML: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ProjectError(f"{path}: cannot be read: {getattr(exc, 'strerror', None) or exc}") from None


IGNORED: set[Path] = set()  # configuration files already warned about, in this process


def untrusted(path: Path) -> str | None:
    """Why a configuration file may not be followed (it is another user's, or others may write it), or None."""
    try:
        st = path.stat()
    except OSError:
        return None
    if hasattr(os, "getuid") and st.st_uid != os.getuid():
        return f"it belongs to another user (uid {st.st_uid})"
    if st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return "others may write it (chmod go-w)"
    return None


def _trusted(path: Path) -> bool:
    """Whether a configuration file may be followed; a warning (once) when it is ignored."""
    why = untrusted(path)
    if why is None:
        return True
    if path not in IGNORED:
        IGNORED.add(path)
        print(f"croupier: warning: ignoring {path}: {why}; a configuration in a shared folder could point "
              "a build at anybody's files", file=sys.stderr)
    return False


def _table(folder: Path) -> tuple[Path, dict] | None:
    """(config file, Croupier's table) of a folder that is a project root, else None."""
    config = folder / CONFIG
    if config.is_file() and _trusted(config):
        return config, _read_toml(config)
    pyproject = folder / PYPROJECT
    if pyproject.is_file() and _trusted(pyproject):
        tool = _read_toml(pyproject).get("tool")
        if isinstance(tool, dict) and "croupier" in tool:
            table = tool["croupier"]
            if not isinstance(table, dict):
                raise ProjectError(f"{pyproject}: [tool.croupier] must be a table")
            return pyproject, table
    return None


def folder_config(folder: Path) -> tuple[Path, dict] | None:
    """(configuration file, Croupier's table) of a folder that is a project root, else None."""
    return _table(folder)


def _folder(root: Path, config: Path, table: dict, key: str) -> Path:
    value = table.get(key, DEFAULTS[key])
    if not isinstance(value, str) or not value.strip() or "\0" in value:
        raise ProjectError(f"{config}: `{key}` must be a folder name (a string), e.g. {key} = \"{DEFAULTS[key]}\"")
    try:
        folder = (root / value).resolve()
    except (OSError, RuntimeError, ValueError) as exc:
        raise ProjectError(f"{config}: `{key}` = {value!r} cannot be resolved: {exc}") from None
    if folder != root and root not in folder.parents:
        raise ProjectError(f"{config}: `{key}` = {value!r} resolves to {folder}, outside the project {root} "
                           "(symbolic links followed); name a folder inside it (only `croupier build --out DIR` "
                           "writes elsewhere)")
    return folder


def _languages(config: Path, table: dict) -> tuple[str, ...]:
    value = table.get("languages", list(DEFAULT_LANGUAGES))
    example = 'languages = ["en", "zh-Hans"]'
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise ProjectError(f"{config}: `languages` must be a non-empty list of language tags, e.g. {example}")
    for tag in value:
        if not LANGUAGE_TAG.fullmatch(tag):
            raise ProjectError(f"{config}: `{tag}` is not a language tag a label can carry "
                               "(a language, optionally with a script: `it`, `pt`, `zh-Hant`)")
    if len(set(value)) != len(value):
        raise ProjectError(f"{config}: `languages` lists a language twice")
    for tag in value:
        why = unknown_language(tag)
        if why:
            raise ProjectError(f"{config}: {why}")
    return tuple(value)


def _targets(config: Path, table: dict) -> tuple[str, ...]:
    value = table.get("targets", list(DEFAULT_TARGETS))
    example = 'targets = ["python", "javascript"]'
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ProjectError(f"{config}: `targets` must be a list of engine targets, e.g. {example}")
    for target in value:
        if target not in TARGETS:
            raise ProjectError(f"{config}: `{target}` is not a target (the targets are {', '.join(TARGETS)})")
    if "python" not in value:
        raise ProjectError(f"{config}: `targets` must name python: the commands run the Python engine, e.g. {example}")
    if len(set(value)) != len(value):
        raise ProjectError(f"{config}: `targets` lists a target twice")
    return tuple(value)


def unknown_language(tag: str) -> str | None:
    """Why the card renderer cannot use the language `tag` (Babel knows no locale of it), or None."""
    from babel import Locale, UnknownLocaleError

    try:
        Locale.parse(tag.replace("-", "_"))
        return None
    except (UnknownLocaleError, ValueError, TypeError):
        return (f"`{tag}` is a language tag no card can be written in: the card renderer (Babel) knows no "
                "such language; use a language it knows, such as `en`, `it`, `zh-Hant`")


def load_project(root: Path, config: Path, table: dict) -> Project:
    """The project of a root folder from its configuration table; raises ProjectError."""
    unknown = sorted(set(table) - {*DEFAULTS, "languages", "targets"})
    if unknown:
        raise ProjectError(f"{config}: unknown setting `{unknown[0]}` (the settings are spec, cases, out, languages, "
                           "targets)")
    root = root.resolve()
    return Project(root, _folder(root, config, table, "spec"), _folder(root, config, table, "cases"),
                   _folder(root, config, table, "out"), _languages(config, table), config, _targets(config, table))


def find_project(start: Path | str) -> Project | None:
    """The project of a folder: the nearest folder at or above it with a configuration; None when
    there is none. Raises ProjectError for a configuration that cannot be used."""
    folder = Path(start).resolve()
    for candidate in (folder, *folder.parents):
        found = _table(candidate)
        if found is not None:
            return load_project(candidate, *found)
    return None


def project_of(spec: Path | str) -> Project | None:
    """The project a spec file belongs to (found from the folder the spec is named in, before a link
    in its own name is followed: a spec linked to a file elsewhere is still the project's, and refused
    there), or None."""
    return find_project(Path(os.path.abspath(spec)).parent)


def display_path(path: Path | str, project: Project | None = None) -> str:
    """A spec's path as shown: relative to its project's root, or as given outside any project."""
    project = project if project is not None else project_of(path)
    return project.display(path) if project is not None else str(path)
