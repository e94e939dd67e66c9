"""Check that every spec label a rule card shows is given in every card language.

The card languages come in as data (the project's list; by default
`croupier.languages.CARD_LANGUAGES`).

A card falls back (zh-Hant → zh → en, then the name) when a label is missing,
so a gap is not an error, but the card would show a word in the wrong
language: each gap is a warning pointing at the labels that lack it.
"""

from __future__ import annotations

from croupier.diagnostics import Diagnostic, Span, warning
from croupier.languages import CARD_LANGUAGES
from croupier.semantics.model import Game, Labels

CODE = "W0601"


def _labelled(game: Game):
    """(what, name, labels, span) for everything the card shows by its label."""
    yield "game", game.name, game.labels, game.span
    for kind, group in (("hand", game.hands), ("event", game.events), ("outcome", game.outcomes),
                        ("bet", game.bets), ("assumption", game.assumptions)):
        for item in group.values():
            yield kind, item.name, item.labels, item.span
    for t in game.types:
        yield "hand type", t.name, t.labels, t.span
    for code, labels in game.joker_labels.items():
        yield "joker", code, labels, labels.span
    if game.settlement is not None:
        yield "settlement", game.settlement.scheme, game.settlement.labels, game.settlement.span


def check(game: Game, languages: tuple[str, ...] = CARD_LANGUAGES) -> list[Diagnostic]:
    """A warning per label that exists in some language but not in one of the card `languages`."""
    out: list[Diagnostic] = []
    for what, name, labels, span in _labelled(game):
        if not isinstance(labels, Labels) or not labels.texts:
            continue
        missing = [lang for lang in languages if not labels.has(lang)]
        if not missing:
            continue
        where = labels.span or span or Span(game.path, 1, 1)
        if where.file != game.path:
            continue  # declared by the base game: reported when the base is checked
        hint = "add " + " ".join(f'{lang} "…"' for lang in missing) + " after its label"
        out.append(warning(CODE, f"the {what} `{name}` has no label in {', '.join(missing)}", where, hint))
    return out
