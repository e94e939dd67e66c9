"""The index of rule cards: one standalone HTML page per card language, linking every game's cards.

`index.<lang>.html` lists every game in name order with its title and a one-line description in
that language (`card_model.describe_game`, from the model), its card in that language and links to
the cards in the others; `index.html` is the index in the project's first card language.
"""

from __future__ import annotations

from croupier.backends.cards.card_model import describe_game
from croupier.backends.cards.render import environment
from croupier.semantics.model import Game


def render_index(games: list[Game], langs: tuple[str, ...], lang: str | None = None) -> str:
    """The index page in one language (default: the first card language)."""
    lang = lang or langs[0]
    rows = []
    for g in sorted(games, key=lambda g: g.name):
        rows.append({
            "name": g.name,
            "title": g.labels.get(lang, g.name),
            "description": describe_game(g, lang),
            "base": g.base.labels.get(lang, g.base.name) if g.base is not None else "",
            "href": f"{g.name}.{lang}.html",
            "cards": [{"lang": other, "href": f"{g.name}.{other}.html", "md": f"{g.name}.{other}.md"}
                      for other in langs],
        })
    env = environment(True, lang)
    text = env.get_template("index.html.j2").render(games=rows, langs=list(langs), lang=lang, hints={})
    return text.rstrip("\n") + "\n"


def render_indexes(games: list[Game], langs: tuple[str, ...]) -> dict[str, str]:
    """Every index page: {relative path: HTML}, `index.html` being the first language's."""
    pages = {f"cards/index.{lang}.html": render_index(games, langs, lang) for lang in langs}
    pages["cards/index.html"] = pages[f"cards/index.{langs[0]}.html"]
    return pages
