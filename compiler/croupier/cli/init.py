"""`croupier init [DIR] [--languages L …]`: scaffold a new project.

Writes the configuration (`croupier.toml`), a starter spec that cites a source and states
an assumption (laid out as `croupier fmt` lays it out), its reference cases (worked by hand), a
README saying how to build and test, a `.gitignore` and a `pytest.ini`, so that `croupier build`
then `croupier test` (or `python -m pytest`, with pytest installed) pass at once. Only languages
Croupier has card text for are taken. The files
come from the templates in `scaffold/` (package data). All or nothing: if one of the files (or a
folder it goes in) exists as something else, or the folder's `pyproject.toml` already configures Croupier
(a `croupier.toml` would silently shadow it), nothing is written and the command exits with status 2; if
a write fails half-way, the files and folders written so far are removed again.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from string import Template

from croupier.project import CONFIG, DEFAULT_LANGUAGES, LANGUAGE_TAG, PYPROJECT, ProjectError, unknown_language

SCAFFOLD = Path(__file__).resolve().parent / "scaffold"
GAME = "high_total"
# the starter spec's labels in the languages it has words for; any other listed language gets a
# W0601 warning from `croupier check`, saying which labels to translate
LABELS: dict[str, dict[str, str]] = {
    "game": {"en": "High total", "zh-Hans": "比点数", "zh-Hant": "比點數"},
    "player": {"en": "Player", "zh-Hans": "闲家", "zh-Hant": "閒家"},
    "dealer": {"en": "Dealer", "zh-Hans": "庄家", "zh-Hant": "莊家"},
    "player_wins": {"en": "Player wins", "zh-Hans": "闲家赢", "zh-Hant": "閒家贏"},
    "dealer_wins": {"en": "Dealer wins", "zh-Hans": "庄家赢", "zh-Hant": "莊家贏"},
    "tie": {"en": "Tie", "zh-Hans": "和局", "zh-Hant": "和局"},
    "tie_loses": {
        "en": "The house rules do not say what a player bet gets on a tie: this table assumes it loses.",
        "zh-Hans": "本桌规则没有说明和局时闲家注如何结算：假定该注输。",
        "zh-Hant": "本桌規則沒有說明和局時閒家注如何結算：假定該注輸。",
    },
    "bet_player": {"en": "Player", "zh-Hans": "闲", "zh-Hant": "閒"},
    "bet_tie": {"en": "Tie", "zh-Hans": "和", "zh-Hant": "和"},
}
# target file (relative to the project folder) → template in scaffold/
FILES = {
    CONFIG: "croupier.toml.in",
    "README.md": "README.md.in",
    "pytest.ini": "pytest.ini.in",
    f"spec/{GAME}.rules": "game.rules.in",
    f"tests/cases/{GAME}.toml": "cases.toml.in",
    ".gitignore": "gitignore.in",
}


def register(subparsers) -> None:
    """Add the `init` sub-command."""
    i = subparsers.add_parser("init", help="scaffold a new project: configuration, a starter spec, its cases")
    i.add_argument("dir", nargs="?", default=".", help="the project folder (default: the current one)")
    i.add_argument("--languages", nargs="+", metavar="LANG", default=list(DEFAULT_LANGUAGES),
                   help=f"the card languages (default: {' '.join(DEFAULT_LANGUAGES)})")
    i.set_defaults(func=cmd_init)


def quoted(text: str) -> str:
    """A TOML basic string or a spec label string (the two quote alike for this text)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def labels(key: str, languages: list[str]) -> str:
    """A label list for the spec: English first (untagged), then each listed language it has words for."""
    words = LABELS[key]
    return " ".join([quoted(words["en"])] + [f"{lang} {quoted(words[lang])}" for lang in languages
                                             if lang != "en" and lang in words])


def render(template: str, folder: Path, languages: list[str]) -> str:
    values = {"game": GAME, "title": folder.name or "Croupier project",
              "languages": "[" + ", ".join(quoted(lang) for lang in languages) + "]"}
    values |= {f"label_{key}": labels(key, languages) for key in LABELS}
    words = LABELS["tie_loses"]  # a long label: the other languages on lines of their own
    values["assumption"] = "".join([quoted(words["en"]), "  [H1 §5]"] + [
        f"\n    {lang} {quoted(words[lang])}" for lang in languages if lang != "en" and lang in words])
    return Template((SCAFFOLD / template).read_text(encoding="utf-8")).substitute(values)


def _folders(folder: Path, rel: str) -> list[Path]:
    """The folders the file `rel` goes in, from the project folder down (the project folder included)."""
    parts = Path(rel).parts[:-1]
    return [folder] + [folder.joinpath(*parts[:i]) for i in range(1, len(parts) + 1)]


def _configured(pyproject: Path) -> str | None:
    """What a folder's pyproject.toml says of Croupier when it configures it already, else None."""
    if not pyproject.is_file():
        return None
    from croupier.project import folder_config

    try:
        found = folder_config(pyproject.parent)
    except ProjectError as exc:
        return f"{pyproject} cannot be read ({exc})"
    if found is not None and found[0].name == PYPROJECT:
        return f"{pyproject} configures Croupier already ([tool.croupier])"
    return None


def _undo(written: list[Path], made: list[Path]) -> None:
    """Remove the files an interrupted init wrote and the folders it made (those still empty), newest first."""
    for path in reversed(written):
        try:
            path.unlink()
        except OSError:
            pass
    for path in sorted(made, key=lambda p: len(p.parts), reverse=True):
        try:
            path.rmdir()
        except OSError:
            pass


def cmd_init(args) -> int:
    from croupier.backends.cards.i18n import catalog_languages, has_catalog  # Babel: only when a project is made
    from croupier.outputs import OutputError, write_atomic
    from croupier.syntax.formatter import format_text

    folder = Path(args.dir)
    languages = list(args.languages)
    bad = [lang for lang in languages if not LANGUAGE_TAG.fullmatch(lang)]
    if bad or len(set(languages)) != len(languages):
        print(f"croupier: --languages takes distinct language tags (`en`, `it`, `zh-Hant`), not {bad or languages}",
              file=sys.stderr)
        return 2
    if folder.exists() and not folder.is_dir():
        print(f"croupier: {folder} exists and is not a folder", file=sys.stderr)
        return 2
    unknown = [why for why in map(unknown_language, languages) if why]
    if unknown:
        print(f"croupier: --languages: {unknown[0]}", file=sys.stderr)
        return 2
    existing = [rel for rel in FILES if (folder / rel).exists() or (folder / rel).is_symlink()]
    if existing:
        print(f"croupier: init would overwrite {', '.join(str(folder / rel) for rel in existing)}; nothing written "
              "(init a new folder, or move these files away)", file=sys.stderr)
        return 2
    no_catalog = [lang for lang in languages if not has_catalog(lang)]
    if no_catalog:
        print(f"croupier: Croupier has no card text in {', '.join(no_catalog)} (it has: "
              f"{', '.join(catalog_languages())}); choose --languages among those", file=sys.stderr)
        return 2
    blocked = sorted({str(step) for rel in FILES for step in _folders(folder, rel)
                      if os.path.lexists(step) and not step.is_dir()})
    if blocked:
        print(f"croupier: init needs a folder where {', '.join(blocked)} is a file; nothing written "
              "(init a new folder, or move it away)", file=sys.stderr)
        return 2
    shadowed = _configured(folder / PYPROJECT)
    if shadowed:
        print(f"croupier: {shadowed}; nothing written (a {CONFIG} would shadow it)", file=sys.stderr)
        return 2
    texts = {rel: render(template, folder.resolve(), languages) for rel, template in FILES.items()}
    spec = f"spec/{GAME}.rules"
    texts[spec] = format_text(texts[spec], spec)[0] or texts[spec]  # the starter spec as `croupier fmt` lays it out
    made = [step for rel in FILES for step in _folders(folder, rel) if not os.path.lexists(step)]
    written: list[Path] = []
    try:
        for rel, text in texts.items():
            write_atomic(folder / rel, text.encode("utf-8"))
            written.append(folder / rel)
    except (OutputError, KeyboardInterrupt) as exc:
        _undo(written, made)
        if isinstance(exc, KeyboardInterrupt):
            raise
        print(f"croupier: {exc}; nothing is left written", file=sys.stderr)
        return 1
    print(f"croupier: a new project in {folder}: {', '.join(FILES)}")
    steps = "" if folder.resolve() == Path.cwd().resolve() else f"cd {folder} && "
    print(f"next: {steps}croupier build && croupier test")
    return 0
