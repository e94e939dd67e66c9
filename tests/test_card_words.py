"""Rule cards in words: every expression kind, function and fact of the model has a realisation (a new one
without words fails loudly), no spec expression reaches a player's text, and the Chinese cards are complete:
no Latin word but card codes, citation ids and an allow-list, the right script (OpenCC), full-width
punctuation, the glossary's terms; text in another language than the page carries `lang`."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from functools import cache

import opencc
import pytest
from test_cards import LANGS, NS, ROOT, build_cards, card_files, parse_strict

from croupier.backends.cards import words as W
from croupier.backends.cards.card_model import card_view
from croupier.backends.cards.words import Words, function_key
from croupier.semantics import expr as ir
from croupier.semantics import game_scopes

LATIN_WORD = re.compile(r"[A-Za-z]{2,}")
ID = re.compile(r"\b[A-Z]{2,}-\d+\b")  # a citation id inside a source's title: BCR-001
HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
ALLOW = {"Croupier", "EZ"}  # names a Chinese card may show in Latin letters besides card codes and citation ids
# (EZ: the game's trade name, EZ百家樂 at the tables)
# elements whose text is not prose: citation ids, case ids, the rules' fingerprint, card chips, text marked
# not to translate (designer details), links to the other languages (named in themselves)
NOT_PROSE = {"cite", "case-id", "fingerprint", "pc", "spec"}
# zh-Hant keeps 佣金 for commission (GLOSSARY.md), where OpenCC's conversion would write 傭
SCRIPT_ALLOW = {"zh-Hant": {"佣"}, "zh-Hans": set()}


def _skip(el) -> bool:
    if not isinstance(el.tag, str):  # a comment
        return True
    classes = set((el.get("class") or "").split())
    return bool(classes & NOT_PROSE) or el.get("translate") == "no" or el.get("hreflang") is not None \
        or el.tag.rpartition("}")[2] in ("style", "script", "title", "head")


@cache
def runs(doc) -> tuple[tuple[str, str], ...]:
    """(text, language in force) of every piece of visible text in a parsed card, prose only; walked once a tree
    (`parse_strict` hands out one tree a text, and four tests read the runs of the same cards)."""
    out: list[tuple[str, str]] = []

    def walk(el, lang: str) -> None:
        lang = el.get("lang") or lang
        if _skip(el):
            return
        if el.text:
            out.append((el.text, lang))
        label = el.get("data-label")
        if label:
            out.append((label, lang))
        for child in el:
            walk(child, lang)
            if child.tail:
                out.append((child.tail, lang))

    walk(doc, doc.get("lang"))
    return tuple(out)


def html_cards() -> dict[str, str]:
    return {rel: text for rel, text in card_files().items() if rel.endswith(".html")}


# The pages checked one by one, named from the committed build's file names: collecting the tests needs no build
# (every xdist worker collects every file); the test below checks that they are exactly the pages a build makes.
HTML_PAGES = sorted(f"cards/{p.name}" for p in (ROOT / "generated" / "cards").glob("*.html"))


def test_the_pages_checked_one_by_one_are_the_pages_a_build_makes():
    assert HTML_PAGES and HTML_PAGES == sorted(html_cards())


def page_lang(rel: str) -> str:
    return next(lang for lang in LANGS if f".{lang}." in rel) if rel != "cards/index.html" else LANGS[0]


def test_every_expression_kind_has_words_and_a_new_kind_fails_loudly():
    kinds, todo = set(), [ir.Expr]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        kinds.add(cls)
    concrete = kinds - {ir.Expr, ir.Name, ir.IsTest, ir.Invalid}
    assert len(concrete) >= 18
    for cls in concrete:
        assert any(f"visit_{c.__name__}" in vars(Words) for c in cls.__mro__ if c not in (ir.Expr, ir.Name,
                                                                                        ir.IsTest)), cls

    @dataclass(frozen=True)
    class Novel(ir.Expr):
        """A node kind the cards have no words for."""

    results, _ = build_cards()
    with pytest.raises(NotImplementedError):
        Words(results[0].game, "en").say(Novel(results[0].game.span, ir.BOOL))


def test_every_function_and_name_of_every_scope_has_words():
    results, _ = build_cards()
    checked = 0
    for r in results:
        g = r.game
        scopes = [game_scopes.round_scope(g, with_outcome=True), game_scopes.type_scope(g),
                  game_scopes.table_scope(g), game_scopes.valid_bet_scope(g)]
        if g.settlement is not None:
            scopes.append(game_scopes.settle_scope(g, [], with_result=True))
        for scope in scopes:
            overloads = [f for x in scope.funcs.values() for f in (x if isinstance(x, tuple) else (x,))]
            for f in overloads:  # `count` is several functions of one name (count(h), count(h, class), …)
                for arg in f.args[0].split("|") if f.args != ("*",) else ["*"]:
                    key = function_key(f, arg)
                    phrases = W.QUANTITIES2 if len(f.args) == 2 else {**W.QUANTITIES, **W.CONDITIONS}
                    assert key in phrases, key  # a function of two arguments (card(h, i)) has a two-slot phrase
                    checked += 1
            for name, (_type, kind) in scope.names.items():
                known = {ir.HandFact: {**W.HAND_FACTS, **W.HAND_FACT_CONDITIONS}, ir.TableFact: {**W.TABLE_FACTS,
                         **W.ROLES}, ir.RoleRef: W.ROLES, ir.PairFact: W.PAIR_FACTS,
                         ir.RoundFact: W.ROUND_FACTS}.get(kind)
                if known is not None:
                    assert name in known, (kind.__name__, name)
    assert checked > 20


def test_every_expression_of_every_spec_is_said_in_every_language():
    results, engines = build_cards()
    for r in results:
        for lang in LANGS:
            view = card_view(r.game, lang, [], engines[r.game.name])
            said = [x["text"] for x in view["round"]] + [w["text"] for b in view["bets"] for w in b["wins"]]
            said += [t["when"] for t in view["types"]] + [line for d in view["draws"] for line in d["lines"]]
            if view["settlement"]:
                said += [c["text"] for c in view["settlement"]["clauses"] + view["settlement"]["formulas"]]
            assert all(s.strip() for s in said)


def spec_notation(game) -> re.Pattern:
    """What a spec expression looks like: a call of one of the language's functions, an operator, `is`, or a
    spec name with an underscore."""
    funcs = set()
    for scope in (game_scopes.round_scope(game, with_outcome=True), game_scopes.type_scope(game),
                  game_scopes.table_scope(game), game_scopes.valid_bet_scope(game)):
        funcs |= set(scope.funcs)
    funcs |= {"stake", "multiplier", "paid", "coins"}
    return re.compile(r"\b(" + "|".join(sorted(funcs)) + r")\(|>=|<=|!=|==|\b\w+ is \w+_\w+|\b[a-z0-9]+_[a-z0-9_]+\b")


def test_no_spec_expression_in_the_player_text():
    results, _ = build_cards()
    files = card_files()
    for r in results:
        pattern = spec_notation(r.game)
        for lang in LANGS:
            doc = parse_strict(files[f"cards/{r.game.name}.{lang}.html"])
            text = " ".join(t for t, _ in runs(doc))
            found = pattern.search(text)
            assert found is None, (r.game.name, lang, text[max(0, found.start() - 60):found.end() + 60])
            md = files[f"cards/{r.game.name}.{lang}.md"].split("\n", 1)[1]  # after the generated-by comment
            md = re.sub(r"\]\([^)]*\)", "]", md)  # link targets are file names
            found = pattern.search(md.replace("\\", ""))
            assert found is None, (r.game.name, lang, "md", found.group(0))


@pytest.mark.parametrize("rel", HTML_PAGES)
def test_chinese_cards_are_complete_and_other_languages_carry_lang(rel):
    """A Chinese card's prose has no Latin word but the allow-list (card codes and citation and case ids are not
    prose); on any card, Latin or Han text in another language than the page sits inside an element with `lang`."""
    lang = page_lang(rel)
    doc = parse_strict(html_cards()[rel])
    assert doc.get("lang") == lang
    for text, in_force in runs(doc):
        if lang.startswith("zh"):
            words = [w for w in LATIN_WORD.findall(ID.sub("", text)) if w not in ALLOW]
            assert not words, (rel, words, text)
        elif HAN.search(text):
            assert in_force.startswith("zh"), (rel, text)


@pytest.mark.parametrize("lang", [x for x in LANGS if x.startswith("zh")])
def test_chinese_cards_are_in_their_own_script(lang):
    convert = opencc.OpenCC("t2s" if lang == "zh-Hans" else "s2t")
    for rel, text in html_cards().items():
        if page_lang(rel) != lang:
            continue
        han = "".join(HAN.findall("".join(t for t, in_force in runs(parse_strict(text)) if in_force == lang)))
        converted = convert.convert(han)
        wrong = sorted({a for a, b in zip(han, converted) if a != b} - SCRIPT_ALLOW[lang])
        assert not wrong, (rel, wrong)


def test_chinese_punctuation_and_terms():
    results, _ = build_cards()
    files = card_files()
    ascii_next_to_han = re.compile(r"[\u3400-\u9fff][,;:!?]|[,;:!?][\u3400-\u9fff]|[\u3400-\u9fff]\.(?!\d)")
    terms = {"zh-Hans": ("赌场优势", "庄家优势", "超级六", "幸运六"), "zh-Hant": ("賭場優勢", "莊家優勢", "超級六", "幸運六")}
    for r in results:
        for lang in (x for x in LANGS if x.startswith("zh")):
            doc = parse_strict(files[f"cards/{r.game.name}.{lang}.html"])
            text = "".join(t for t, in_force in runs(doc) if in_force == lang)
            found = ascii_next_to_han.search(text)
            assert found is None, (r.game.name, lang, text[max(0, found.start() - 20):found.end() + 20])
            assert "平局" not in text
            edge, banker_edge, super6, lucky6 = terms[lang]
            if r.game.is_dealt_round:
                assert edge in text and banker_edge not in text
            if "super6" in r.game.bets:
                assert super6 in text and text.count(lucky6) <= 1  # named once, as source 002 calls it
            md = files[f"cards/{r.game.name}.{lang}.md"]
            assert not re.search(r"[：:]\*\*[：:]|\*\*:", md), (r.game.name, lang)
            assert not re.search(r"[\u3400-\u9fff]\*\*: ", md)


def test_english_cards_name_hand_types_in_english():
    results, _ = build_cards()
    files = card_files()
    for r in results:
        if not r.game.types:
            continue
        doc = parse_strict(files[f"cards/{r.game.name}.en.html"])
        for li in doc.find(f".//{NS}section[@id='assumptions']").iter(f"{NS}li"):
            text = ET.tostring(li, encoding="unicode", method="text")
            for t in r.game.types:
                zh = {t.labels.get(x) for x in LANGS if x.startswith("zh")}
                for name in zh:  # a Chinese type name only beside its English one, in parentheses
                    if name and name in text:
                        assert f"({name})" in text and t.label("en") in text, (r.game.name, text)
