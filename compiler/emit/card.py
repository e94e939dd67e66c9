"""Rule-card back end: render a game's card with Jinja2 from the card view."""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

import jinja2

from ..cases import Case
from ..model import Game
from .card_model import card_view

TEMPLATES = Path(__file__).resolve().parent.parent / "templates"
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#|!])")


def md_escape(text) -> str:
    """Spec text made inert in Markdown: no markup, no HTML, one line."""
    text = " ".join(str(text).split())
    return _MD_SPECIAL.sub(r"\\\1", text)


@cache
def environment(autoescape: bool) -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        autoescape=autoescape,
        keep_trailing_newline=True,
        trim_blocks=False,
        lstrip_blocks=False,
    )
    env.filters["md"] = md_escape
    return env


def render_markdown(game: Game, lang: str, examples: list[Case]) -> str:
    """The Markdown rule card of a game in one language."""
    view = card_view(game, lang, examples)
    text = environment(False).get_template("card.md.j2").render(**view)
    return re.sub(r"\n{3,}", "\n\n", text).rstrip("\n") + "\n"
