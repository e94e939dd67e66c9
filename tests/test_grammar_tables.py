"""The parser's tables computed ahead of time (`croupier.syntax.grammar_tables`): fresh, used, equivalent."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from functools import cache
from pathlib import Path

import lark
import pytest

from croupier.syntax import grammar_tables, grammar_tables_data
from croupier.syntax.parser import GRAMMAR, LARK_OPTIONS, SpecIndenter, build_parser, parser

ROOT = Path(__file__).resolve().parent.parent
SPECS = sorted([*ROOT.glob("spec/**/*.rules"), *ROOT.glob("tests/**/*.rules")])


@cache
def built_parser() -> lark.Lark:
    """The parser built from the grammar file as it is now, once for the tests (0.25 s a build)."""
    return build_parser(GRAMMAR.read_text(encoding="utf-8"))


@cache
def module_text() -> str:
    """The data module made from the grammar file as it is now, made once for the tests that compare it."""
    return grammar_tables.module_text(built_parser())


def test_the_committed_tables_are_fresh():
    """Regenerated from the grammar file, the data module is the same bytes as the committed one. Under
    another Lark than the one that made it (a new release installed), the grammar must still be the one
    it was made from, and the parser is then built from the grammar (slower, never wrong) until the
    module is made again."""
    grammar = GRAMMAR.read_text(encoding="utf-8")
    assert grammar_tables_data.GRAMMAR_DIGEST == grammar_tables.grammar_digest(grammar, LARK_OPTIONS), \
        "the grammar changed: run python -m croupier.syntax.grammar_tables and commit grammar_tables_data.py"
    if grammar_tables_data.LARK_VERSION != lark.__version__:
        assert grammar_tables.load(grammar, LARK_OPTIONS, SpecIndenter()) is None
        assert parser().source_path != "<deserialized>"
        return
    assert module_text() == grammar_tables.DATA_MODULE.read_text(encoding="utf-8"), \
        "run python -m croupier.syntax.grammar_tables and commit compiler/croupier/syntax/grammar_tables_data.py"


def test_the_tables_do_not_depend_on_string_hashing():
    """Another hash seed (Lark numbers its tables in set order) writes the same module."""
    seed = "1" if os.environ.get("PYTHONHASHSEED") != "1" else "2"
    code = "import sys; from croupier.syntax import grammar_tables as g; sys.stdout.write(g.module_text())"
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**os.environ, "PYTHONHASHSEED": seed},
                          capture_output=True, text=True, check=True)
    assert done.stdout == module_text()


def test_the_parser_is_loaded_from_the_tables():
    """Loaded (Lark marks such a parser's source path), when the tables were made by the Lark installed."""
    loaded = grammar_tables.load(GRAMMAR.read_text(encoding="utf-8"), LARK_OPTIONS, SpecIndenter())
    if grammar_tables_data.LARK_VERSION == lark.__version__:
        assert loaded is not None and loaded.source_path == "<deserialized>"
        assert parser().source_path == "<deserialized>"
        # its LALR loop is `lalr_driver`'s (the parser built from the grammar, compared with it below, Lark's)
        from croupier.syntax.lalr_driver import Parser
        assert type(loaded.parser.parser.parser) is Parser and type(built_parser().parser.parser.parser) is not Parser
        # its reductions place their nodes with `Positions` (compared with Lark's `PropagatePositions`, which the
        # parser built from the grammar keeps, to the last attribute below)
        from lark.parse_tree_builder import PropagatePositions

        from croupier.syntax.lalr_driver import Positions
        assert {type(c) for c in loaded.parser.parser.parser.callbacks.values()} == {Positions}
        assert {type(c) for c in built_parser().parser.parser.parser.callbacks.values()} == {PropagatePositions}
    else:
        assert loaded is None


def test_an_edited_grammar_or_another_lark_is_built_from_the_grammar(monkeypatch):
    grammar = GRAMMAR.read_text(encoding="utf-8")
    assert grammar_tables.load(grammar + "\n// an edit\n", LARK_OPTIONS, SpecIndenter()) is None
    assert grammar_tables.load(grammar, {**LARK_OPTIONS, "propagate_positions": False}, SpecIndenter()) is None
    monkeypatch.setattr(grammar_tables_data, "LARK_VERSION", "0.0.1")
    assert grammar_tables.load(grammar, LARK_OPTIONS, SpecIndenter()) is None


def _outcome(p: lark.Lark, text: str):
    """What a parser makes of a text: the tree with every attribute of every node's position (the `container_*`
    ones `Positions` sets too), or the error with what it expected."""
    try:
        tree = p.parse(text)
    except lark.exceptions.UnexpectedInput as exc:
        # (not `str(exc)`: it lists the expected terminals in the order of a set)
        return (type(exc).__name__, exc.line, exc.column, repr(getattr(exc, "token", None)),
                getattr(exc, "char", None), sorted(getattr(exc, "expected", ()) or ()),
                sorted(getattr(exc, "allowed", ()) or ()))
    except lark.exceptions.LarkError as exc:
        return type(exc).__name__, str(exc)
    return tree, [(t.data, vars(t.meta)) for t in tree.iter_subtrees()]  # (the Meta's own dict, compared at once)


@pytest.fixture(scope="module")
def built() -> lark.Lark:
    return built_parser()


@pytest.mark.parametrize("spec", SPECS, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_loaded_parser_parses_as_the_built_one(spec: Path, built: lark.Lark):
    text = spec.read_text(encoding="utf-8", errors="replace").replace("\r\n", "\n")
    text = text if text.endswith("\n") else text + "\n"
    assert _outcome(parser(), text) == _outcome(built, text)


def test_the_concrete_parser_is_the_same_tables_keeping_every_token():
    """The formatter's parser (`keep_all_tokens`, comments collected) loaded from the same tables serialises
    as the one built from the grammar, and parses every spec to the same concrete tree."""
    from croupier.syntax.concrete import build_concrete_parser, concrete_parser

    grammar = GRAMMAR.read_text(encoding="utf-8")
    built = build_concrete_parser(grammar)
    if grammar_tables_data.LARK_VERSION != lark.__version__:
        assert concrete_parser().source_path != "<deserialized>"
        return
    loaded = concrete_parser()
    assert loaded.source_path == "<deserialized>"
    (data, memo), (built_data, built_memo) = grammar_tables.serialised(loaded), grammar_tables.serialised(built)
    from croupier.syntax.root_lexer import RootFirstLexer

    # the one difference: the loaded parser reads its tables in one pass, its lexer matches with its root
    # scanner first
    assert data["options"].pop("_plugins") == {"ContextualLexer": RootFirstLexer,
                                                "LALR_Parser": grammar_tables.compact_tables_parser()}
    assert built_data["options"].pop("_plugins") == {}
    assert (data, memo) == (built_data, built_memo)
    for spec in SPECS:
        text = spec.read_text(encoding="utf-8", errors="replace").replace("\r\n", "\n")
        text = text if text.endswith("\n") else text + "\n"
        assert _outcome(loaded, text) == _outcome(built, text), spec


def _state(obj, seen=None):
    """An object of Lark's as plain data: its class and every attribute (slots included), recursively."""
    if isinstance(obj, (list, tuple)):
        return (type(obj).__name__, [_state(x) for x in obj])
    if isinstance(obj, (str, int, bool, float, type(None), frozenset)):
        return obj
    names = [n for c in type(obj).__mro__ for n in getattr(c, "__slots__", ()) if hasattr(obj, n)]
    attrs = {**{n: getattr(obj, n) for n in names}, **getattr(obj, "__dict__", {})}
    return (type(obj).__name__, {n: _state(v) for n, v in sorted(attrs.items())})


@pytest.mark.parametrize("keep_all_tokens", [False, True])
def test_the_memo_reads_as_lark_reads_it(keep_all_tokens):
    """`memo_objects` makes from the compact memo the rules and terminal definitions Lark's generic reader
    makes from its own dicts (with `keeping_all_tokens` for the formatter's parser): same classes, same
    attributes, same values (lists stay lists, hashes equal); and a form it does not know is left to Lark."""
    from lark.grammar import Rule
    from lark.lexer import TerminalDef
    from lark.utils import SerializeMemoizer

    data, memo = grammar_tables.decode(grammar_tables_data.TABLES)
    _, compact = grammar_tables.decode(grammar_tables_data.TABLES, lark_form=False)
    assert grammar_tables.compact_memo(memo) == compact and grammar_tables.memo_dicts(compact) == memo
    if keep_all_tokens:
        grammar_tables.keeping_all_tokens(data, memo)
    fast = grammar_tables.memo_objects(compact, keep_all_tokens)
    lark_own = SerializeMemoizer.deserialize(memo, {"Rule": Rule, "TerminalDef": TerminalDef}, {})
    assert fast is not None and list(fast) == list(lark_own)
    assert {type(v).__name__ for v in fast.values()} == {"Rule", "TerminalDef"}
    assert [_state(v) for v in fast.values()] == [_state(v) for v in lark_own.values()]
    assert [hash(v) for v in fast.values() if isinstance(v, Rule)] == [
        hash(v) for v in lark_own.values() if isinstance(v, Rule)]
    assert SerializeMemoizer.deserialize(fast, {}, {}) == fast  # Lark's reader passes the objects through
    assert grammar_tables.memo_objects([*compact, ["X", "?"]]) is None
    with pytest.raises(ValueError):
        grammar_tables.compact_memo({**memo, 0: {**memo[0], "extra": 1}})


@pytest.mark.parametrize("keep_all_tokens", [False, True])
def test_the_tables_parser_is_what_lark_loads_from_the_tables(keep_all_tokens):
    """`tables_parser` puts together what `Lark._load_from_dict` makes of the same tables with the same
    plugins, without `lark.lark`: it serialises to the same data and memo, its lexer configuration and
    callbacks are the same, and it parses every spec, and texts with syntax errors, to the same outcome."""
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    from croupier.syntax.parser import COMMON_MISTAKES
    from croupier.syntax.root_lexer import RootFirstLexer
    from croupier.syntax.tables_parser import TablesParser

    grammar = GRAMMAR.read_text(encoding="utf-8")
    if grammar_tables_data.LARK_VERSION != lark.__version__:
        assert grammar_tables.load(grammar, LARK_OPTIONS, SpecIndenter()) is None
        return
    ours = grammar_tables.load(grammar, LARK_OPTIONS, SpecIndenter(), keep_all_tokens=keep_all_tokens)
    assert type(ours) is TablesParser
    data, compact = grammar_tables.decode(grammar_tables_data.TABLES, lark_form=False)
    data["options"]["keep_all_tokens"] = keep_all_tokens
    plugins = {"LALR_Parser": grammar_tables.compact_tables_parser(), "ContextualLexer": RootFirstLexer}
    lark_own = lark.Lark._load_from_dict(data, grammar_tables.memo_objects(compact, keep_all_tokens),
                                         postlex=SpecIndenter(), _plugins=plugins)
    lark_own.parser.lexer.lexer.scanner_parts = ours.parser.lexer.lexer.scanner_parts
    mine, theirs = ours.memo_serialize([TerminalDef, Rule]), lark_own.memo_serialize([TerminalDef, Rule])
    assert type(mine[0]["options"].pop("postlex")) is type(theirs[0]["options"].pop("postlex")) is SpecIndenter
    assert mine == theirs
    conf, lark_conf = dict(vars(ours.parser.lexer_conf)), dict(vars(lark_own.parser.lexer_conf))
    assert type(conf.pop("postlex")) is type(lark_conf.pop("postlex")) is SpecIndenter
    for c in (conf, lark_conf):  # terminal definitions compare by identity: compared here by their state
        c["terminals"] = [_state(t) for t in c["terminals"]]
        c["terminals_by_name"] = {name: _state(t) for name, t in c["terminals_by_name"].items()}
    assert conf == lark_conf and conf["re_module"] is re and conf["skip_validation"] is True
    assert [_state(t) for t in ours.terminals] == [_state(t) for t in lark_own.terminals]
    assert [_state(r) for r in ours.rules] == [_state(r) for r in lark_own.rules]

    def callbacks(p):
        return [(_state(rule), type(c).__name__, type(c.node_builder).__name__)
                for rule, c in p.parser.parser.parser.callbacks.items()]

    assert callbacks(ours) == callbacks(lark_own)
    broken = [example for examples in COMMON_MISTAKES.values() for example in examples]
    broken += ["game g \"G\"\n  hand x\n", "game\n", "shoe 8 decks of standard52\n\x01\n", "bet b\n    wins when (\n"]
    # (every spec is parsed by both the loaded and the built parser in the tests above; a few suffice here)
    texts = [(ROOT / "spec" / f"{name}.rules").read_text(encoding="utf-8")
             for name in ("baccarat", "ten_and_a_half", "dragon_bonus")]
    for text in [*texts, *broken]:
        assert _outcome(ours, text) == _outcome(lark_own, text), text[:60]


def test_tables_with_options_it_does_not_read_are_loaded_by_lark(monkeypatch):
    """A parser the tables' options describe otherwise than `tables_parser` reads them is Lark's to load."""
    from croupier.syntax import tables_parser

    grammar = GRAMMAR.read_text(encoding="utf-8")
    if grammar_tables_data.LARK_VERSION != lark.__version__:
        assert grammar_tables.load(grammar, LARK_OPTIONS, SpecIndenter()) is None
        return
    monkeypatch.setitem(tables_parser.READ_OPTIONS, "lexer", "basic")
    loaded = grammar_tables.load(grammar, LARK_OPTIONS, SpecIndenter())
    assert type(loaded) is lark.Lark and loaded.source_path == "<deserialized>"
    text = (ROOT / "spec" / "baccarat.rules").read_text(encoding="utf-8")
    assert _outcome(loaded, text) == _outcome(built_parser(), text)


def test_a_dict_made_when_read_answers_as_the_whole_dict():
    """`MadeWhenRead` (the parse table's states, the tree builder's callbacks): a value is made when its key
    is first looked up, once; `in` and `len` answer for every key; reading it whole makes the rest, in the
    keys' order, and it then equals the dict made at once."""
    from croupier.syntax.tables_parser import MadeWhenRead

    made: list[int] = []

    def square(key: int) -> int:
        made.append(key)
        return key * key

    lazy = MadeWhenRead([3, 1, 2, 0], square)
    assert lazy[2] == 4 and lazy[2] == 4 and lazy.get(1) == 1 and made == [2, 1]
    assert 0 in lazy and 7 not in lazy and len(lazy) == 4 and lazy.get(7, "none") == "none" and made == [2, 1]
    with pytest.raises(KeyError):
        lazy[7]  # noqa: B018 - the read is the test
    assert list(lazy) == [3, 1, 2, 0] and made == [2, 1, 3, 0]
    assert lazy == {0: 0, 1: 1, 2: 4, 3: 9} and not (lazy != {0: 0, 1: 1, 2: 4, 3: 9})
    assert list(lazy.items()) == [(3, 9), (1, 1), (2, 4), (0, 0)] and lazy.copy() == dict(lazy.items())
    assert made == [2, 1, 3, 0]  # each made once
    other = MadeWhenRead(range(4), square)
    assert other == lazy and lazy == other and bool(MadeWhenRead([], square)) is False


def test_the_loaded_parser_makes_the_states_and_callbacks_it_meets():
    """A spec's parse meets a part of the parse table's states and of the rules; the loaded parser makes those
    only, and its table read whole is the one the tables hold."""
    grammar = GRAMMAR.read_text(encoding="utf-8")
    if grammar_tables_data.LARK_VERSION != lark.__version__:
        assert grammar_tables.load(grammar, LARK_OPTIONS, SpecIndenter()) is None
        return
    loaded = grammar_tables.load(grammar, LARK_OPTIONS, SpecIndenter())
    loaded.parse((ROOT / "spec" / "baccarat.rules").read_text(encoding="utf-8"))
    lalr = loaded.parser.parser.parser
    states, callbacks = lalr.parse_table.states, lalr.callbacks
    assert 0 < len(dict.keys(states)) < len(states) // 2 and 0 < len(dict.keys(callbacks)) < len(callbacks)
    from lark.grammar import Rule
    from lark.lexer import TerminalDef
    from lark.parsers.lalr_analysis import IntParseTable
    from lark.utils import SerializeMemoizer

    data, memo = grammar_tables.decode(grammar_tables_data.TABLES)  # Lark's own form, read by Lark at once
    objects = SerializeMemoizer.deserialize(memo, {"Rule": Rule, "TerminalDef": TerminalDef}, {})
    assert states == IntParseTable.deserialize(data["parser"]["parser"], objects).states
    assert list(states) == list(range(len(states)))
