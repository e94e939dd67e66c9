"""The card languages (BCP 47 tags) when a project names none: shared by every stage that needs them.

The checks warn about labels missing in these languages and the card back end
publishes a card in each; a project's configuration may name others, and the
driver passes that list on. English is the source language of the catalogs.
"""

from __future__ import annotations

CARD_LANGUAGES: tuple[str, ...] = ("zh-Hans", "zh-Hant", "en")
