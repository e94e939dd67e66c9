"""Rule-card back end: render a game's card as Markdown and as standalone HTML, in one language.

Templates are Jinja2 with `StrictUndefined`; the HTML environment autoescapes,
the Markdown one escapes spec text with the `md` filter. Fixed prose comes from
the gettext catalogs (`croupier.i18n`) through Jinja2's i18n extension, with
new-style gettext so that placeholders are escaped like any other value.
"""

from __future__ import annotations

import json
import re
from functools import cache
from importlib import metadata
from pathlib import Path
from types import ModuleType

import jinja2
from markupsafe import Markup, escape

from croupier.backends.cards import i18n
from croupier.backends.cards.card_model import card_view
from croupier.cache import cached
from croupier.semantics.cases import Case
from croupier.semantics.model import Game

TEMPLATES = Path(__file__).resolve().parent / "templates"
LANG_NAMES = i18n.LanguageNames()  # the name of every card language, in itself
# The grid colours (CSS custom properties --draw and --stand in card.css), as browsers report them.
DRAW_RGB = "rgb(31, 122, 77)"
STAND_RGB = "rgb(239, 230, 207)"
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]<>()#|!&~])")
# A run of Han text (with the CJK punctuation inside it), and a run of Latin words (two letters or more each).
_HAN_RUN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff][\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff01-\uff5e·]*")
_LATIN_RUN = re.compile(r"\b[A-Za-z]{2,}(?:[ \-’'][A-Za-z]{2,})*\b(?!-?\d)")  # not an id such as BCR-001


def md_escape(text) -> str:
    """Spec text made inert in Markdown: no markup, no HTML, one line."""
    text = " ".join(str(text).split())
    return _MD_SPECIAL.sub(r"\\\1", text)


def md_code(text) -> str:
    """Spec text as a Markdown code span that no backtick inside can close."""
    text = " ".join(str(text).split())
    ticks = max((len(m) for m in re.findall(r"`+", text)), default=0) + 1
    fence = "`" * ticks
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def script_runs(text: str, lang: str, hints: dict[str, str]) -> list[tuple[str, str | None]]:
    """`text` cut into runs, each with the language to mark it with (None: the page's own).

    On a Chinese page a run of Latin words is English; on any other page a run of Han text is
    Chinese, in the script whose labels of the game hold it (`hints`: every label text of the
    game by language), or plain `zh` when both or neither do.
    """
    if lang.startswith("zh"):
        pattern, other = _LATIN_RUN, (lambda run: "en")
    else:
        pattern = _HAN_RUN

        def other(run: str) -> str:
            found = [code for code, texts in hints.items() if run in texts]
            return found[0] if len(found) == 1 else "zh"

    out: list[tuple[str, str | None]] = []
    at = 0
    for m in pattern.finditer(text):
        if m.start() > at:
            out.append((text[at:m.start()], None))
        out.append((m.group(0), other(m.group(0))))
        at = m.end()
    if at < len(text):
        out.append((text[at:], None))
    return out


@jinja2.pass_context
def mark_scripts(ctx, text) -> Markup:
    """HTML filter `t`: spec or catalog text escaped, each run in another language than the page's in a
    `<span lang>` (so that a browser picks the right glyphs and a reader the right voice)."""
    if isinstance(text, Markup):
        return text
    lang, hints = ctx.get("lang", "en"), ctx.get("hints") or {}
    text = str(text)
    if (_LATIN_RUN if lang.startswith("zh") else _HAN_RUN).search(text) is None:
        return escape(text)  # one run in the page's language (most texts): what the join below gives
    return Markup("").join(escape(run) if code is None else Markup('<span lang="%s">%s</span>') % (code, run)
                           for run, code in script_runs(text, lang, hints))


# The small pieces every card repeats (a citation, a hand of cards, a line of words and cards), as template
# globals in Python rather than Jinja macros (a macro call costs more than the markup it makes); each gives
# the text its macro gave, escaped by the same filters (`t` in HTML, `md` in Markdown).
@jinja2.pass_context
def html_cite(ctx, c) -> Markup:
    """` [source]` after a rule (nothing when it has none)."""
    return Markup(' <span class="cite"%s>[%s]</span>') % (cite_lang(ctx, c), cite_text(ctx, c)) if c else Markup("")


def cite_lang(ctx, c) -> Markup:
    """The attributes of a citation: `translate="no"` (it quotes its source), and its source's language (the
    first word of a citation is its source's id) when the spec says what the source is written in."""
    lang = (ctx.get("source_langs") or {}).get(str(c).split(" ")[0]) if c else None
    return Markup(' translate="no"') + (Markup(' lang="%s"') % lang if lang else Markup(""))


def cite_text(ctx, c) -> Markup:
    """A citation's text: as it is under its source's language, else marked by script like any text."""
    lang = (ctx.get("source_langs") or {}).get(str(c).split(" ")[0])
    return escape(c) if lang else mark_scripts(ctx, c)


@jinja2.pass_context
def html_chips(ctx, cards) -> Markup:
    """A hand of cards: one chip a card, red, joker and unused (left over by the round) marked."""
    chips = [Markup('<span class="pc%s%s%s" data-card="%s">%s%s</span>') % (
        " red" if c["red"] else "", " joker" if c["joker"] else "", " unused" if c.get("unused") else "",
        c["code"], mark_scripts(ctx, c["rank"]), mark_scripts(ctx, c["suit"])) for c in cards]
    return Markup('<span class="hand">%s</span>') % Markup("").join(chips)


@jinja2.pass_context
def html_line(ctx, parts) -> Markup:
    """A line of a worked example: its parts (words, or cards), each after a space when it says so."""
    out = []
    for part in parts:
        if part["space"]:
            out.append(" ")
        out.append(html_chips(ctx, part["cards"]) if "cards" in part
                   else Markup('<span class="seg">%s</span>') % mark_scripts(ctx, part["text"]))
    return Markup("").join(out)


def md_cite(c) -> str:
    return f" \\[{md_escape(c)}\\]" if c else ""


def md_chips(cards) -> str:
    return " ".join(md_escape(f"{c['rank']}{c['suit']}") for c in cards)


def md_line(parts) -> str:
    return "".join((" " if part["space"] else "") + (md_chips(part["cards"]) if "cards" in part else md_escape(part["text"]))
                   for part in parts)


def _python_text(data) -> str:
    if not isinstance(data, str):
        raise TypeError("not text")
    return data


class _Environment(jinja2.Environment):
    """An environment whose templates' generated Python source (text, never bytecode) is kept in
    Croupier's data-only cache, keyed by the template text and everything its translation depends on,
    so that the three languages of a format and later builds share one translation of each template."""

    def compile(self, source, name=None, filename=None, raw=False, defer_init=False):
        if not isinstance(source, str) or raw or defer_init:
            return super().compile(source, name, filename, raw, defer_init)
        key = f"{jinja2.__version__}\0{self.autoescape}\0{self.newstyle_gettext}\0{name}\0{source}"
        python = cached("jinja", key, lambda: super(_Environment, self).compile(source, name, filename, raw=True),
                        encode=_python_text, decode=_python_text)
        filename = filename or "<template>"
        code = _CODE.get((python, filename))
        if code is None:  # compiled once a process: the languages of a format share the code object
            code = _CODE[(python, filename)] = compile(python, filename, "exec")  # as Environment.compile does
        return code


_CODE: dict[tuple[str, str], object] = {}  # (a template's Python source, its file name) -> its code object


@cache
def environment(autoescape: bool, lang: str) -> jinja2.Environment:
    """The template environment of one format and language, with that language's catalog installed."""
    env = _Environment(
        loader=jinja2.FileSystemLoader(str(TEMPLATES)),
        undefined=jinja2.StrictUndefined,
        autoescape=autoescape,
        keep_trailing_newline=True,
        extensions=["jinja2.ext.i18n"],
    )
    env.install_gettext_translations(i18n.translations(lang), newstyle=True)
    env.filters["md"] = md_escape
    env.filters["mdcode"] = md_code
    env.filters["t"] = mark_scripts
    env.globals["lang_names"] = LANG_NAMES
    env.globals.update({"cite_lang": jinja2.pass_context(cite_lang), "cite_text": jinja2.pass_context(cite_text)}
                       if autoescape else {})
    env.globals.update({"cite": html_cite, "chips": html_chips, "line": html_line} if autoescape else
                       {"cite": md_cite, "chips": md_chips, "line": md_line})
    return env


@cache
def _libraries() -> str:
    """What a card's text depends on besides its view and the compiler's own files (templates, catalogs and
    code: in every cache key already): the versions of the libraries that translate, escape and name the
    languages."""
    return "\0".join(f"{name} {metadata.version(name)}" for name in ("jinja2", "markupsafe", "babel"))


def _plain_json(value) -> bool:
    """Whether a value is made only of dicts with string keys, lists, str, int, bool and None, each of exactly
    that type (no tuple, no Markup, no subclass): what its JSON text gives back unchanged, to the last type."""
    todo = [value]
    while todo:
        v = todo.pop()
        kind = type(v)
        if kind is dict:
            for k in v:
                if type(k) is not str:
                    return False
            todo.extend(v.values())
        elif kind is list:
            todo.extend(v)
        elif not (kind is str or kind is int or kind is bool or v is None):
            return False
    return True


def view_key(view: dict) -> str | None:
    """The key a card's texts are kept under in Croupier's cache: the view itself (its JSON text, in order)
    with the libraries; None when the view is not plain JSON data (its cards are then always rendered)."""
    if not _plain_json(view):
        return None
    return f"{_libraries()}\0{json.dumps(view, ensure_ascii=False)}"


def render_view(view: dict, fmt: str, key: str | None = "") -> str:
    """Render a card view as `md` or `html` (`key`: the view's `view_key`, when the caller has it). The text
    is kept in Croupier's cache under the view: a later build whose view of a card is the same to the last
    value reads the card instead of rendering it again."""
    if key == "":
        key = view_key(view)
    if key is None:
        return _render(view, fmt)
    return cached("card", f"{fmt}\0{key}", lambda: _render(view, fmt), encode=_python_text, decode=_python_text)


def _render(view: dict, fmt: str) -> str:
    env = environment(fmt == "html", view["lang"])
    text = env.get_template(f"card.{fmt}.j2").render(**view)
    if fmt == "md":
        text = re.sub(r"\n{3,}", "\n\n", text)
    return text.rstrip("\n") + "\n"


def load_templates(langs: tuple[str, ...]) -> None:
    """Load the card templates of every format in these languages (with their catalogs), as `render_cards`
    would on first use: a parallel build does it once before its worker processes start."""
    for lang in langs:
        for fmt in ("md", "html"):
            environment(fmt == "html", lang).get_template(f"card.{fmt}.j2")


def render_cards(game: Game, lang: str, examples: list[Case], engine: ModuleType | None = None,
                 langs: tuple[str, ...] = (), math: dict | None = None) -> dict[str, str]:
    """The Markdown and HTML cards of a game in one language: {"md": text, "html": text}
    (`math`: the mathematics section, see `card_view`)."""
    view = card_view(game, lang, examples, engine, langs, math)
    key = view_key(view)
    return {fmt: render_view(view, fmt, key) for fmt in ("md", "html")}


def render_markdown(game: Game, lang: str, examples: list[Case], math: dict | None = None) -> str:
    """The Markdown rule card of a game in one language (no engine: no example hands)."""
    return render_view(card_view(game, lang, examples, math=math), "md")
