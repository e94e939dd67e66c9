"""The index of rule cards: one standalone HTML page linking every game in every card language."""

from __future__ import annotations

from croupier.backends.cards.render import environment
from croupier.semantics.model import Game


def render_index(games: list[Game], langs: tuple[str, ...]) -> str:
    """`cards/index.html`: games in name order, each title in every language, linking its cards."""
    rows = []
    for g in sorted(games, key=lambda g: g.name):
        rows.append({
            "name": g.name,
            "base": g.base.name if g.base is not None else "",
            "cards": [{"lang": lang, "title": g.labels.get(lang, g.name), "href": f"{g.name}.{lang}.html",
                       "md": f"{g.name}.{lang}.md"} for lang in langs],
        })
    env = environment(True, "en")
    return env.get_template("index.html.j2").render(games=rows, langs=list(langs)).rstrip("\n") + "\n"
