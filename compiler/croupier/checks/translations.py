"""Check the spec's labels against the project's card languages (given as data by the driver).

The card languages come in as data (the project's list; by default
`croupier.project.DEFAULT_LANGUAGES`).

A card falls back (zh-Hant → zh → en, then the name) when a label is missing,
so a gap is not an error, but the card would show a word in the wrong
language: each gap is a warning pointing at the labels that lack it (W0601).
A label in a language the project does not list would never be shown: a
warning that names the list (W0602).
"""

from __future__ import annotations

from croupier.diagnostics import Diagnostic, Span, warning
from croupier.project import DEFAULT_LANGUAGES
from croupier.semantics.model import Game, Labels

CODE = "W0601"
UNLISTED = "W0602"
SOURCE_LANG = "en"  # an untagged label is English, the language every card falls back to


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


def shown_in(tag: str, languages: tuple[str, ...]) -> bool:
    """Whether a card language shows a label of this tag: its own, or its language's (`zh` for `zh-Hant`)."""
    return tag == SOURCE_LANG or any(lang == tag or lang.startswith(tag + "-") for lang in languages)


def check(game: Game, languages: tuple[str, ...] = DEFAULT_LANGUAGES) -> list[Diagnostic]:
    """A warning per label that exists in some language but not in a card language, and per label
    in a language no card shows."""
    out: list[Diagnostic] = []
    for what, name, labels, span in _labelled(game):
        if not isinstance(labels, Labels) or not labels.texts:
            continue
        where = labels.span or span or Span(game.path, 1, 1)
        if where.file != game.path:
            continue  # declared by the base game: reported when the base is checked
        unlisted = [tag for tag in labels.texts if not shown_in(tag, languages)]
        if unlisted:
            out.append(warning(UNLISTED, f"the {what} `{name}` has a label in {', '.join(unlisted)}, which the "
                               f"project's card languages ({', '.join(languages)}) do not include", where,
                               "add the language to `languages` in the project's configuration, or remove the label"))
        missing = [lang for lang in languages if not labels.has(lang)]
        if missing:
            hint = "add " + " ".join(f'{lang} "…"' for lang in missing) + " after its label"
            out.append(warning(CODE, f"the {what} `{name}` has no label in {', '.join(missing)}", where, hint))
    return out
