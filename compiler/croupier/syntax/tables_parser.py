"""The rules language's parser loaded from its tables: Lark's pieces put together as `Lark._load_from_dict`
puts them, without the `Lark` class.

`Lark._load_from_dict` lives in `lark.lark`, beside Lark's grammar compiler, and makes its front end
in `lark.parser_frontends`, beside the Earley parsers; a parser whose tables were computed ahead of
time (`grammar_tables`) needs neither (importing them was about 8 ms of a cold `analyze`).
`TablesParser` makes the same objects from the same serialised data with Lark's lexer, tree and
LALR modules alone, step by step as `Lark._load` and `_deserialize_parsing_frontend` do:

- the lexer's configuration (`LexerConf.deserialize`, then the settings `_deserialize_lexer_conf`
  gives it: the callbacks, Python's `re`, validation skipped, the post-lexer);
- the tree builder's callbacks (`ParseTreeBuilder`, as `_prepare_callbacks` makes them without a
  transformer);
- the LALR parser (`parser_class.deserialize`) and the contextual lexer (`lexer_class`, over the
  terminals each state of the parse table accepts and those the post-lexer always accepts), with
  the post-lexer in front of it.

Two tables are filled as they are read (`MadeWhenRead`): the parse table's states, each made from the
compact lists the first time the parser or the lexer meets it (a spec meets about a third of them), and
the tree builder's callbacks, each made the first time a rule is reduced by (`RuleCallbacks`).

`read` takes only the options such a parser is built with (LALR, contextual lexer, no transformer,
no tree class, no `regex`) and answers None for any other, so that Lark's own loader reads those.
The attributes are named as a `Lark` parser's are (`parser.parser`, `parser.lexer`, `terminals`,
`source_path`, `rules`), and `parse` does what `Lark.parse` does for an LALR parser: the same
trees, and the same exceptions at the same tokens (a test holds them equal to Lark's own loader's).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import partial
from typing import Any

from lark.common import LexerConf, ParserConf
from lark.exceptions import ConfigurationError
from lark.grammar import Rule
from lark.lexer import LexerThread, TerminalDef
from lark.parse_tree_builder import ParseTreeBuilder
from lark.tree import Tree
from lark.utils import SerializeMemoizer

from croupier.syntax.lalr_driver import positioned

# what the serialised options must say for `read` to load them (anything else: Lark's own loader)
READ_OPTIONS = {"parser": "lalr", "lexer": "contextual", "transformer": None, "tree_class": None, "regex": False,
                "ambiguity": "auto", "edit_terminals": None, "use_bytes": False}


class MadeWhenRead(dict):
    """A dict of known keys whose values are made the first time each is looked up (`make(key)`).

    Looking a key up (`d[key]`, `get`) makes its value when it is not made yet; `in` and `len` answer for
    every key. Reading the dict whole (iterating it, `keys`, `values`, `items`, comparing, copying or
    showing it) makes every value not made yet first, and then holds them in the keys' order, as a dict
    filled at once would. An unknown key is a `KeyError`, as in any dict."""

    def __init__(self, keys: Iterable, make: Callable[[Any], Any]) -> None:
        super().__init__()
        self._keys = dict.fromkeys(keys)  # in order, each found at once
        self._make = make
        self._whole = False

    def __missing__(self, key):
        if key not in self._keys:
            raise KeyError(key)
        value = self._make(key)
        dict.__setitem__(self, key, value)
        return value

    def whole(self) -> MadeWhenRead:
        """The dict with every value made, in the keys' order."""
        if not self._whole:
            made = dict(dict.items(self))  # (`dict(self)` would ask `keys`, below)
            dict.clear(self)
            for key in self._keys:
                dict.__setitem__(self, key, made[key] if key in made else self._make(key))
            self._whole = True
        return self

    def __contains__(self, key) -> bool:
        return key in self._keys

    def __len__(self) -> int:
        return len(self._keys)

    def __iter__(self):
        return dict.__iter__(self.whole())

    def keys(self):
        return dict.keys(self.whole())

    def values(self):
        return dict.values(self.whole())

    def items(self):
        return dict.items(self.whole())

    def get(self, key, default=None):
        return self[key] if key in self._keys else default

    def __eq__(self, other) -> bool:
        if isinstance(other, MadeWhenRead):
            other.whole()
        return dict.__eq__(self.whole(), other)

    def __ne__(self, other) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment] - a dict

    def copy(self) -> dict:
        return dict(dict.items(self.whole()))

    def __repr__(self) -> str:
        return dict.__repr__(self.whole())


class RuleCallbacks(MadeWhenRead):
    """The tree builder's callback of each rule, made at the rule's first reduction as Lark's
    `ParseTreeBuilder.create_callback` makes it without a transformer (a `Tree` named for the rule, through
    the rule's chain of wrappers), positioned by `lalr_driver.positioned`."""

    positioned = True  # (`lalr_driver.fast_positions` leaves these callbacks as they are)

    def __init__(self, rules: list[Rule], builder: ParseTreeBuilder) -> None:
        super().__init__(rules, self._callback)
        self._builder = builder

    def _callback(self, rule: Rule):
        ((_rule, chain),) = self._builder._init_builders([rule])
        callback = partial(Tree, rule.alias or rule.options.template_source or rule.origin.name)
        for wrap in chain:
            callback = wrap(callback)
        return positioned(callback)


class PostLexed:
    """The lexer's tokens passed through the post-lexer (Lark's `PostLexConnector`)."""

    def __init__(self, lexer, postlexer) -> None:
        self.lexer = lexer
        self.postlexer = postlexer

    def lex(self, lexer_state, parser_state):
        return self.postlexer.process(self.lexer.lex(lexer_state, parser_state))


class Frontend:
    """An LALR parser with its lexer (what Lark's `ParsingFrontend` is for such a parser)."""

    def __init__(self, lexer_conf: LexerConf, parser_conf: ParserConf, parser, lexer) -> None:
        self.lexer_conf = lexer_conf
        self.parser_conf = parser_conf
        self.parser = parser
        self.lexer = lexer

    def parse(self, text: str, start: str | None = None, on_error=None):
        """The tree of `text` from the start rule `start` (the only one when None)."""
        starts = self.parser_conf.start
        if start is None:
            if len(starts) != 1:
                raise ConfigurationError("more than one start rule: say which one to parse", starts)
            start = starts[0]
        elif start not in starts:
            raise ConfigurationError(f"unknown start rule {start}: must be one of {starts!r}")
        stream = LexerThread.from_text(self.lexer, text)
        return self.parser.parse(stream, start, **({} if on_error is None else {"on_error": on_error}))


class TablesParser:
    """A parser loaded from serialised tables without Lark's `Lark` class (see the module)."""

    source_path = "<deserialized>"

    def __init__(self, rules: list[Rule], terminals: list[TerminalDef], frontend: Frontend, options: dict) -> None:
        self.rules = rules
        self.terminals = terminals
        self.parser = frontend
        self.options = options  # the serialised options, with what loading added (as `Lark._load` adds them)

    def parse(self, text: str, start: str | None = None, on_error=None):
        """What `Lark.parse` gives: the parse tree of `text`, or Lark's exception at the first error."""
        return self.parser.parse(text, start=start, on_error=on_error)

    def get_terminal(self, name: str) -> TerminalDef:
        """The terminal named `name`."""
        return self.parser.lexer_conf.terminals_by_name[name]

    def memo_serialize(self, types_to_memoize: list) -> tuple[dict, dict]:
        """What `Lark.memo_serialize` gives for the `Lark` parser this one stands for: (data, memo), the
        parts serialised in Lark's order (its front end's lexer configuration, parser configuration and
        parse table, then the rules, then the options), so that the memo numbers its objects alike."""
        memo = SerializeMemoizer(types_to_memoize)
        frontend = self.parser
        data = {
            "parser": {"lexer_conf": frontend.lexer_conf.serialize(memo),
                       "parser_conf": frontend.parser_conf.serialize(memo),
                       "parser": frontend.parser.serialize(memo), "__type__": "ParsingFrontend"},
            "rules": [rule.serialize(memo) for rule in self.rules],
            "options": self.options,
            "__type__": "Lark",
        }
        return data, memo.serialize()


def read(data: dict, memo: dict, postlex, parser_class, lexer_class,
         lexer_callbacks: dict | None = None) -> TablesParser | None:
    """The parser of serialised `data` (Lark's `memo_serialize` form, its `memo` already objects), or None
    when its options are not those of a parser this module loads (Lark's own loader then reads it)."""
    options = data["options"]
    if any(options.get(name) != value for name, value in READ_OPTIONS.items()) or options.get("g_regex_flags"):
        return None
    rules = [Rule.deserialize(r, memo) for r in data["rules"]]
    serialised = data["parser"]
    lexer_conf = LexerConf.deserialize(serialised["lexer_conf"], memo)
    lexer_conf.callbacks = lexer_callbacks or {}
    lexer_conf.re_module = re
    lexer_conf.use_bytes = False
    lexer_conf.g_regex_flags = 0
    lexer_conf.skip_validation = True
    lexer_conf.postlex = postlex
    builder = ParseTreeBuilder([], Tree, options["propagate_positions"], False, options["maybe_placeholders"])
    callbacks = RuleCallbacks(rules, builder)
    parser_conf = ParserConf.deserialize(serialised["parser_conf"], memo)
    parser = parser_class.deserialize(serialised["parser"], memo, callbacks, options["debug"])
    parser_conf.callbacks = callbacks
    states = parser._parse_table.states  # a state's terminals: those its actions name (and rules', never lexed)
    lexer = lexer_class(lexer_conf, states, always_accept=postlex.always_accept if postlex else ())
    if postlex is not None:
        lexer = PostLexed(lexer, postlex)
    loaded_options = {**options, "postlex": postlex, "_plugins": {"LALR_Parser": parser_class, "ContextualLexer": lexer_class}}
    if lexer_callbacks:
        loaded_options["lexer_callbacks"] = lexer_callbacks
    return TablesParser(rules, lexer_conf.terminals, Frontend(lexer_conf, parser_conf, parser, lexer), loaded_options)
