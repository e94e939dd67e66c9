"""The base of everything a spec declares by name: its display labels by language, its span and citation.

Shared by the game model (`model`) and the bets' model (`bet_model`).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from croupier.diagnostics import Span


@dataclass
class Labels:
    """Display names of one thing, by language; `get` falls back zh-Hant → zh → en."""

    texts: dict[str, str] = field(default_factory=dict)
    span: Span | None = None

    def get(self, lang: str, default: str = "") -> str:
        if lang in self.texts:
            return self.texts[lang]
        if lang.startswith("zh") and "zh" in self.texts:
            return self.texts["zh"]
        return self.texts.get("en", default)

    def has(self, lang: str) -> bool:
        return lang in self.texts or (lang.startswith("zh") and "zh" in self.texts)


@dataclass
class Item:
    """Something the spec declares: its name, labels, source citation and span."""

    name: str
    labels: Labels
    span: Span
    cite: str | None = None
    origin: str = ""  # the game whose spec file declared it (a base or the variant)

    def label(self, lang: str) -> str:
        return self.labels.get(lang, self.name)
