"""Message catalogs for the rule cards: gettext `.po` files read with Babel.

The catalogs live in `compiler/croupier/backends/cards/locale/<locale>/LC_MESSAGES/messages.po`;
they are compiled in memory at build time (Babel's `read_po` then `write_mo`), so no
binary file is committed and a build is reproducible byte for byte. Card
languages are BCP 47 tags (`zh-Hans`); Babel locales use `_` (`zh_Hans`).
English is the source language: its messages are the msgids themselves, and a card
language without a catalog shows them (the driver warns). Which languages a project's
cards are published in is the project's list (`croupier.project`), not this module's:
adding a language means adding its catalog here and listing it in the project.
"""

from __future__ import annotations

import gettext
import io
from functools import cache
from pathlib import Path

from babel import Locale, UnknownLocaleError
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations

LOCALE_DIR = Path(__file__).resolve().parent / "locale"
DOMAIN = "messages"
SOURCE_LANG = "en"
# how a card names its languages where Babel's own name is not the usual one (`中文 (简体)`)
NATIVE_NAMES = {"en": "English", "zh-Hans": "简体中文", "zh-Hant": "繁體中文"}


def locale_name(lang: str) -> str:
    """The Babel/gettext locale folder of a card language: `zh-Hans` → `zh_Hans`."""
    return lang.replace("-", "_")


def po_path(lang: str) -> Path:
    return LOCALE_DIR / locale_name(lang) / "LC_MESSAGES" / f"{DOMAIN}.po"


def has_catalog(lang: str) -> bool:
    """Whether the cards' fixed text can be shown in a language (English always can)."""
    return lang == SOURCE_LANG or po_path(lang).is_file()


def catalog_languages() -> tuple[str, ...]:
    """English and every language with a catalog, in tag order."""
    found = {p.parent.parent.name.replace("_", "-") for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po")}
    return tuple(sorted(found | {SOURCE_LANG}))


@cache
def language_name(lang: str) -> str:
    """A language's name in itself (`italiano`), for the cards' language links; the tag when unknown."""
    if lang in NATIVE_NAMES:
        return NATIVE_NAMES[lang]
    try:
        return Locale.parse(locale_name(lang)).get_display_name() or lang
    except (ValueError, TypeError, UnknownLocaleError):
        return lang


class LanguageNames(dict):
    """`lang_names[tag]` for the templates: the name of any card language."""

    def __missing__(self, lang: str) -> str:
        return language_name(lang)


@cache
def catalog(lang: str) -> Catalog | None:
    """The parsed catalog of a language, or None for the source language (or no file)."""
    path = po_path(lang)
    if lang == SOURCE_LANG or not path.is_file():
        return None
    with path.open("rb") as fp:
        return read_po(fp, locale=locale_name(lang), domain=DOMAIN)


@cache
def translations(lang: str) -> gettext.NullTranslations:
    """Translations for one card language, ready for `install_gettext_translations`."""
    cat = catalog(lang)
    if cat is None:
        return gettext.NullTranslations()
    buf = io.BytesIO()
    write_mo(buf, cat)
    buf.seek(0)
    return Translations(buf, domain=DOMAIN)


def missing_messages(lang: str, msgids: set[str]) -> list[str]:
    """The msgids a language's catalog does not translate (empty or fuzzy entries count as missing)."""
    if lang == SOURCE_LANG:
        return []
    cat = catalog(lang)
    if cat is None:
        return sorted(msgids)
    out = []
    for msgid in sorted(msgids):
        msg = cat.get(msgid)
        if msg is None or not msg.string or msg.fuzzy:
            out.append(msgid)
    return out
