"""The model's expressions in words, in a card language: one realisation per node kind, function and fact.

`Words(game, lang).say(expr)` realises an expression of the model (`croupier.semantics.expr`) as
a phrase: a number or a noun phrase for a quantity ("the Banker's total"), a clause for a
condition ("the value of the Player's third card is 8"). It is a `NodeVisitor`: one `visit_`
method per node kind, and a table of phrases per built-in function (keyed by the function and
its argument's type), per hand, table and pair fact, per seat role and per operator. Every
phrase is a message of the cards' gettext catalogs, marked `N_` here and translated in
`locale/<lang>/LC_MESSAGES/messages.po`: a new card language is a new catalog, and no word of
English is assembled in code. A node kind, function, fact or role without a realisation raises
`MissingWords` (or the visitor's NotImplementedError), loudly; tests/test_cards.py walks every
node kind and every function and name the scopes offer.

A condition can be said negated (`not drew(player)` → "the Player did not draw a card after the
deal"): the negation is pushed inward (comparisons invert, `and`/`or` swap by De Morgan, each
condition function and fact has a negative phrase), so a sentence never says "not (…)".
"""

from __future__ import annotations

import re
from functools import cached_property

from babel import Locale

from croupier.backends.cards import i18n
from croupier.runtime.numbers import number_text
from croupier.semantics import expr as ir
from croupier.semantics.model import Game
from croupier.syntax.visitor import NodeVisitor


def N_(message: str) -> str:  # noqa: N802 - the gettext marker: the message is translated where it is said
    return message


class MissingWords(NotImplementedError):
    """A function, fact or role of the model that the cards cannot yet say in words (a compiler bug)."""


# ---- functions: the phrase of a call, by function key and argument type ---------------------------------------
QUANTITIES = {
    "total:hand": N_("the %(x)s's total"),
    "total:cards": N_("the total of %(x)s"),
    "first2:hand": N_("the %(x)s's first two cards"),
    "third:hand": N_("the %(x)s's third card"),
    "value:card": N_("the value of %(x)s"),
    "count:hand": N_("the number of cards the %(x)s holds"),
    "count:cards": N_("the number of %(x)s"),
    "class_count:card class": N_("the number of its cards in the class %(x)s"),
    "stake:seat": N_("the %(x)s's stake"),
    "multiplier:seat": N_("the multiplier of the %(x)s's hand"),
    "paid:seat": N_("what the %(x)s has paid so far this round"),
    "coins:seat": N_("the %(x)s's coins at the start of the round"),
    "min:*": N_("the smallest of %(x)s"),
    "max:*": N_("the largest of %(x)s"),
    "floor:number": N_("%(x)s, rounded down to a whole number"),
    "abs:number": N_("the size of %(x)s, without its sign"),
    "first:hand": N_("the %(x)s's first card"),
    "first:cards": N_("the first of %(x)s"),
    "last:hand": N_("the %(x)s's last card"),
    "last:cards": N_("the last of %(x)s"),
    "rank:card": N_("the rank of %(x)s"),
    "suit:card": N_("the suit of %(x)s"),
}
# functions of two arguments: the phrase of a call by function key and the first argument's type (%(a)s, %(b)s)
QUANTITIES2 = {
    "card:hand": N_("card %(b)s of the %(a)s"),
    "card:cards": N_("card %(b)s of %(a)s"),
    "count_class:hand": N_("the number of cards of the class %(b)s the %(a)s holds"),
    "count_class:cards": N_("the number of cards of the class %(b)s among %(a)s"),
    "count_suit:hand": N_("the number of cards of the suit %(b)s the %(a)s holds"),
    "count_suit:cards": N_("the number of cards of the suit %(b)s among %(a)s"),
    "count_rank:hand": N_("the number of cards of the rank %(b)s the %(a)s holds"),
    "count_rank:cards": N_("the number of cards of the rank %(b)s among %(a)s"),
}
# conditions: (positive, negative)
CONDITIONS = {
    "drew:hand": (N_("the %(x)s drew a card after the deal"), N_("the %(x)s did not draw a card after the deal")),
    "same_rank:hand": (N_("the %(x)s's cards are all of one rank"), N_("the %(x)s's cards are not all of one rank")),
    "same_rank:cards": (N_("%(x)s are of the same rank"), N_("%(x)s are not of the same rank")),
    "placed:bet": (N_("the bettor has a stake on %(x)s"), N_("the bettor has no stake on %(x)s")),
    "same_suit:hand": (N_("the %(x)s's cards are all of one suit"), N_("the %(x)s's cards are not all of one suit")),
    "same_suit:cards": (N_("%(x)s are of the same suit"), N_("%(x)s are not of the same suit")),
    "soft:hand": (N_("the %(x)s's total counts a card at its other value"),
                  N_("the %(x)s's total counts no card at its other value")),
    "soft:cards": (N_("the total of %(x)s counts a card at its other value"),
                   N_("the total of %(x)s counts no card at its other value")),
}

# ---- names that are not the spec's own (the spec's own are said by their labels) -------------------------------
HAND_FACTS = {"count": N_("the number of its cards"), "total": N_("its total")}
HAND_FACT_CONDITIONS = {"wild": (N_("it holds a wild card"), N_("it holds no wild card"))}
ROUND_FACTS = {"cards_used": N_("the number of cards the round used")}
TABLE_FACTS = {"poorest": N_("the coins of the poorest player"), "players": N_("the number of players")}
ROLES = {"winner": N_("winner"), "loser": N_("loser"), "banker": N_("banker"), "player": N_("player")}
PAIR_FACTS = {"tied": (N_("the two hands rank equal"), N_("the two hands do not rank equal"))}
EVENT = (N_("there is a %(x)s"), N_("there is no %(x)s"))
OUTCOME_IS = (N_("the result is “%(x)s”"), N_("the result is not “%(x)s”"))
TYPE_IS = (N_("the %(who)s's hand is “%(x)s”"), N_("the %(who)s's hand is not “%(x)s”"))
FORMULA = N_("the %(x)s")
CONDITION = (N_("“%(x)s” holds"), N_("“%(x)s” does not hold"))  # a labelled condition of the spec (`let`)

# ---- operators -------------------------------------------------------------------------------------------------
COMPARE = {
    ">=": N_("%(left)s is %(right)s or more"),
    "<=": N_("%(left)s is %(right)s or less"),
    ">": N_("%(left)s is more than %(right)s"),
    "<": N_("%(left)s is less than %(right)s"),
    "=": N_("%(left)s equals %(right)s"),
    "!=": N_("%(left)s does not equal %(right)s"),
}
INVERSE = {">=": "<", "<=": ">", ">": "<=", "<": ">=", "=": "!=", "!=": "="}
ARITHMETIC = {
    "+": N_("%(left)s plus %(right)s"),
    "-": N_("%(left)s minus %(right)s"),
    "*": N_("%(left)s times %(right)s"),
    "/": N_("%(left)s divided by %(right)s"),
    "mod": N_("the remainder of %(left)s divided by %(right)s"),
}
PRECEDENCE = {"+": 1, "-": 1, "*": 2, "/": 2, "mod": 2}
GROUP = N_("(%(x)s)")
NEGATE = N_("minus %(x)s")
IN_RANGE = (N_("%(x)s is between %(low)s and %(high)s"), N_("%(x)s is not between %(low)s and %(high)s"))
IF_ELSE = N_("%(then)s if %(cond)s, otherwise %(other)s")
LIST_NEXT = N_("%(first)s, %(next)s")
AND_LAST = N_("%(first)s and %(last)s")
OR_LAST = N_("%(first)s, or %(last)s")
RANGE = N_("%(low)s to %(high)s")
NOUN_NEXT = N_("%(first)s, %(item)s")
NOUN_AND = N_("%(first)s and %(item)s")
NOUN_OR = N_("%(first)s or %(item)s")
SENTENCES = N_("%(first)s %(next)s")

_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z0-9%]")
ODDS = N_("%(x)s to 1")  # the one odds convention: "0.95 to 1", 1赔0.95
STAKE_INCLUDED = N_("Some sources count the stake in the odds and write a total return of %(inc)s per 1 staked: "
                    "that is %(odds)s on this card.")
TIGHT = {ODDS, STAKE_INCLUDED}  # messages whose values are never spaced off (the odds notation "1赔0.95")


def _joins(a: str, b: str) -> bool:
    """Whether two adjacent characters are Han and Latin (or digit), in either order."""
    return bool(a and b) and ((bool(_HAN.match(a)) and bool(_LATIN.match(b))) or
                              (bool(_LATIN.match(a)) and bool(_HAN.match(b))))


class Phrases:
    """The messages of one card language: `say(msgid, **values)` and the typography of its script."""

    def __init__(self, lang: str) -> None:
        self.lang = lang
        self.t = i18n.translations(lang)
        try:
            script = Locale.parse(i18n.locale_name(lang)).script
        except (ValueError, TypeError):
            script = None
        self.spaced = script in ("Hans", "Hant")  # Han text puts a space between itself and Latin letters and digits

    @cached_property
    def locale(self) -> str:
        """The Babel locale of the language (for dates and numbers), English when Babel does not know it."""
        try:
            Locale.parse(i18n.locale_name(self.lang))
            return i18n.locale_name(self.lang)
        except (ValueError, TypeError):
            return "en"

    def say(self, msgid: str, **values) -> str:
        """A message in this language with its values put in (`%(name)s`), spaced as its script wants."""
        return self.fill(self.t.gettext(msgid), values, tight=msgid in TIGHT)

    def ngettext(self, singular: str, plural: str, n: int, **values) -> str:
        """A message whose words depend on a count `n` (its plural forms are the catalog's)."""
        return self.fill(self.t.ngettext(singular, plural, n), {"n": n, **values})

    def fill(self, text: str, values: dict, tight: bool = False) -> str:
        """Put values into a translated message. In a Han script a value that starts or ends with a Latin
        letter or a digit next to a Han character of the message is set off by a space ("为 3 时"), except
        in messages that write a notation tight (`TIGHT`: "1赔0.95")."""
        spaced = self.spaced and not tight
        out = ""
        prev_value = False
        for i, piece in enumerate(re.split(r"(%\(\w+\)s|%%)", text)):
            is_value = i % 2 == 1 and piece != "%%"
            piece = str(values[piece[2:-2]]) if is_value else ("%" if piece == "%%" else piece)
            if spaced and piece and out and (is_value or prev_value) and _joins(out[-1], piece[0]):
                out += " "
            out += piece
            prev_value = is_value
        return out

    @staticmethod
    def sentence(text: str) -> str:
        """A phrase made the start of a sentence (its first letter a capital, where the script has capitals)."""
        return text[:1].upper() + text[1:]

    def nouns(self, items: list[str], style: str = "and") -> str:
        """A list of nouns: "A, B and C" (`style` "and"), "A, B or C" ("or"), or "A, B, C" ("list", for amounts)."""
        if not items:
            return ""
        out = items[0]
        last = {"and": NOUN_AND, "or": NOUN_OR, "list": NOUN_NEXT}[style]
        for i, item in enumerate(items[1:], 2):
            out = self.say(last if i == len(items) else NOUN_NEXT, first=out, item=item)
        return out

    def sentences(self, items: list[str]) -> str:
        """Whole sentences one after the other, as the language runs them on."""
        out = items[0] if items else ""
        for item in items[1:]:
            out = self.say(SENTENCES, first=out, next=item)
        return out

    def clauses(self, items: list[str], last: str, between: str = LIST_NEXT) -> str:
        """Clauses joined into one sentence part with the catalog's separators (`last`: AND_LAST or OR_LAST)."""
        out = items[0]
        for i, item in enumerate(items[1:], 2):
            out = self.say(last if i == len(items) else between, first=out, next=item, last=item)
        return out

    def values(self, numbers: list) -> str:
        """A set of key values, runs of three or more as ranges: "0, 1, 8, or 9", "2 to 7"."""
        nums = sorted(numbers)
        parts: list[str] = []
        i = 0
        while i < len(nums):
            j = i
            while j + 1 < len(nums) and nums[j + 1] == nums[j] + 1:
                j += 1
            if j - i >= 2:
                parts.append(self.say(RANGE, low=number_text(nums[i]), high=number_text(nums[j])))
            else:
                parts.extend(number_text(n) for n in nums[i:j + 1])
            i = j + 1
        return self.nouns(parts, "or")


class Words(NodeVisitor):
    """Realises the model's expressions of one game in one language (see the module docstring)."""

    def __init__(self, game: Game, lang: str) -> None:
        self.game = game
        self.p = Phrases(lang)
        self.lang = lang

    def say(self, e: ir.Expr | None, negated: bool = False) -> str:
        """The expression as a phrase, typeset for its language ("" for None)."""
        return "" if e is None else self.visit(e, negated)

    # ---- helpers --------------------------------------------------------------------------------------------
    def _label(self, group: dict, name: str) -> str:
        item = group.get(name)
        if item is None:
            raise MissingWords(f"no label for `{name}`")
        return item.label(self.lang)

    def _pick(self, pair: tuple[str, str], negated: bool, **values) -> str:
        return self.p.say(pair[1] if negated else pair[0], **values)

    @staticmethod
    def _plain(negated: bool, what: str) -> None:
        if negated:
            raise MissingWords(f"{what} is not a condition and cannot be negated")

    @staticmethod
    def arg_key(e: ir.Call) -> str:
        """The key of a call's phrase: its function and its argument's type (`total:hand`), `*` for any number."""
        return function_key(e.function, e.args[0].type if len(e.args) == 1 and e.function.args != ("*",) else "*")

    # ---- leaves ---------------------------------------------------------------------------------------------
    def visit_Num(self, e: ir.Num, negated: bool = False) -> str:
        self._plain(negated, "a number")
        return e.text if e.text.endswith("%") else number_text(e.value)

    def visit_HandRef(self, e: ir.HandRef, negated: bool = False) -> str:
        self._plain(negated, "a hand")
        return self._label(self.game.hands, e.name)

    def visit_BetRef(self, e: ir.BetRef, negated: bool = False) -> str:
        self._plain(negated, "a bet")
        return self._label(self.game.bets, e.name)

    def visit_ClassRef(self, e: ir.ClassRef, negated: bool = False) -> str:
        self._plain(negated, "a card class")
        return self._label(self.game.classes, e.name)

    def visit_EventRef(self, e: ir.EventRef, negated: bool = False) -> str:
        return self._pick(EVENT, negated, x=self._label(self.game.events, e.name))

    def visit_HandFact(self, e: ir.HandFact, negated: bool = False) -> str:
        if e.name in HAND_FACT_CONDITIONS:
            return self._pick(HAND_FACT_CONDITIONS[e.name], negated)
        self._plain(negated, f"the hand fact `{e.name}`")
        if e.name not in HAND_FACTS:
            raise MissingWords(f"no words for the hand fact `{e.name}`")
        return self.p.say(HAND_FACTS[e.name])

    def visit_TableFact(self, e: ir.TableFact, negated: bool = False) -> str:
        self._plain(negated, f"the table fact `{e.name}`")
        if e.name in TABLE_FACTS:
            return self.p.say(TABLE_FACTS[e.name])
        if e.name in ROLES:
            return self.p.say(ROLES[e.name])
        raise MissingWords(f"no words for the table fact `{e.name}`")

    def visit_RoleRef(self, e: ir.RoleRef, negated: bool = False) -> str:
        self._plain(negated, "a seat")
        if e.name not in ROLES:
            raise MissingWords(f"no words for the seat role `{e.name}`")
        return self.p.say(ROLES[e.name])

    def visit_PairFact(self, e: ir.PairFact, negated: bool = False) -> str:
        if e.name not in PAIR_FACTS:
            raise MissingWords(f"no words for the pair fact `{e.name}`")
        return self._pick(PAIR_FACTS[e.name], negated)

    def visit_FormulaRef(self, e: ir.FormulaRef, negated: bool = False) -> str:
        if e.type == ir.BOOL:  # a condition the spec names: it holds, or it does not
            return self._pick(CONDITION, negated, x=self._label(self.game.formulas, e.name))
        self._plain(negated, "a formula")
        return self.p.say(FORMULA, x=self._label(self.game.formulas, e.name))

    def visit_LetRef(self, e: ir.LetRef, negated: bool = False) -> str:
        self._plain(negated, "a value")
        return let_name(e.name)

    def visit_RoundFormulaRef(self, e: ir.RoundFormulaRef, negated: bool = False) -> str:
        formula = self.game.formulas.get(e.name)
        if formula is not None and formula.labels.texts:
            return self.visit_FormulaRef(e, negated)
        if formula is None or formula.expr is None:
            raise MissingWords(f"no words for the round's value `{e.name}`")
        return self.visit(formula.expr, negated)  # an unlabelled `let` is said by what it stands for

    def visit_RoundFact(self, e: ir.RoundFact, negated: bool = False) -> str:
        self._plain(negated, f"the round fact `{e.name}`")
        if e.name not in ROUND_FACTS:
            raise MissingWords(f"no words for the round fact `{e.name}`")
        return self.p.say(ROUND_FACTS[e.name])

    def visit_RankName(self, e: ir.RankName, negated: bool = False) -> str:
        self._plain(negated, "a rank")
        return self.game.joker_labels[e.name].get(self.lang, e.name) if e.name in self.game.joker_labels else e.name

    def visit_SuitName(self, e: ir.SuitName, negated: bool = False) -> str:
        self._plain(negated, "a suit")
        return e.name

    def visit_CardName(self, e: ir.CardName, negated: bool = False) -> str:
        self._plain(negated, "a card")
        return e.name

    def visit_Invalid(self, e: ir.Invalid, negated: bool = False) -> str:
        raise MissingWords("an expression that did not resolve has no words (its spec has errors)")

    # ---- calls and tests ------------------------------------------------------------------------------------
    def visit_Call(self, e: ir.Call, negated: bool = False) -> str:
        if len(e.function.args) == 2:
            self._plain(negated, f"`{e.func}(…)`")
            key = function_key(e.function, e.args[0].type)
            if key not in QUANTITIES2:
                raise MissingWords(f"no words for the function `{e.func}` of a {key.partition(':')[2]}")
            return self.p.say(QUANTITIES2[key], a=self.visit(e.args[0]), b=self.visit(e.args[1]))
        key = self.arg_key(e)
        x = self.p.nouns([self.visit(a) for a in e.args])
        if key in CONDITIONS:
            return self._pick(CONDITIONS[key], negated, x=x)
        self._plain(negated, f"`{e.func}(…)`")
        if key not in QUANTITIES:
            raise MissingWords(f"no words for the function `{e.func}` of a {key.partition(':')[2]}")
        return self.p.say(QUANTITIES[key], x=x)

    def visit_OutcomeIs(self, e: ir.OutcomeIs, negated: bool = False) -> str:
        return self._pick(OUTCOME_IS, negated, x=self._label(self.game.outcomes, e.what))

    def visit_TypeIs(self, e: ir.TypeIs, negated: bool = False) -> str:
        kind = self.game.type_named(e.what)
        if kind is None or e.subject not in ROLES:
            raise MissingWords(f"no words for `{e.subject} is {e.what}`")
        return self._pick(TYPE_IS, negated, who=self.p.say(ROLES[e.subject]), x=kind.label(self.lang))

    # ---- operators ------------------------------------------------------------------------------------------
    def visit_Binary(self, e: ir.Binary, negated: bool = False) -> str:
        self._plain(negated, "arithmetic")
        mine = PRECEDENCE[e.op]

        def side(x: ir.Expr, right: bool) -> str:
            text = self.visit(x)
            if isinstance(x, ir.IfElse) or (isinstance(x, ir.Binary) and (
                    PRECEDENCE[x.op] < mine or (right and PRECEDENCE[x.op] == mine))):
                text = self.p.say(GROUP, x=text)
            return text

        return self.p.say(ARITHMETIC[e.op], left=side(e.left, False), right=side(e.right, True))

    def visit_Negate(self, e: ir.Negate, negated: bool = False) -> str:
        self._plain(negated, "a negative number")
        return self.p.say(NEGATE, x=self.visit(e.operand))

    def visit_Compare(self, e: ir.Compare, negated: bool = False) -> str:
        op = INVERSE[e.op] if negated else e.op
        return self.p.say(COMPARE[op], left=self.visit(e.left), right=self.visit(e.right))

    def visit_InRange(self, e: ir.InRange, negated: bool = False) -> str:
        return self._pick(IN_RANGE, negated, x=self.visit(e.value), low=self.visit(e.low), high=self.visit(e.high))

    def visit_BoolOp(self, e: ir.BoolOp, negated: bool = False) -> str:
        conj = e.op == "and"
        if negated:
            conj = not conj  # De Morgan: not (a and b) = not a or not b
        parts = [self.visit(x, negated) for x in e.operands]
        return self.p.clauses(parts, AND_LAST if conj else OR_LAST)

    def visit_Not(self, e: ir.Not, negated: bool = False) -> str:
        return self.visit(e.operand, not negated)

    def visit_IfElse(self, e: ir.IfElse, negated: bool = False) -> str:
        return self.p.say(IF_ELSE, then=self.visit(e.then, negated), cond=self.visit(e.cond),
                          other=self.visit(e.other, negated))


def function_key(function: ir.Function, arg_type: str) -> str:
    """The key of a function's phrase for an argument of one type: `total:hand`, `min:*`."""
    return f"{function.key}:{'*' if function.args == ('*',) else arg_type}"


def let_name(name: str) -> str:
    """How a settlement's own value (`let a = …`) is named in words: a one-letter name as a capital (A, B)."""
    return name.upper() if len(name) == 1 else name
