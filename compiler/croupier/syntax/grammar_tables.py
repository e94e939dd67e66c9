"""The parser's LALR tables, computed ahead of time: written to `grammar_tables_data.py`, read back at start-up.

Building the LALR tables from `croupier.lark` (Lark's meta-grammar, then the LALR
analysis) takes a quarter of a second in every process that parses a spec. The tables
are a pure function of the grammar, the parser's options and Lark's version, so they
are computed once, by `python -m croupier.syntax.grammar_tables`, and committed as a
generated module of data: Lark's own serialised form (`Lark.memo_serialize`) as JSON
text in a string literal (JSON, not Python literals: without bytecode on disk a
literal of 300 kB takes 0.14 s to compile, a string 0.01 s). Nothing executable is
read: `json.loads`, then the objects Lark's `_load_from_dict` (the loader of its own
standalone parsers) makes, put together by `tables_parser`.

The module records the digest of the grammar text and options it was made from and
Lark's version; `load` returns None (the caller then builds the tables from the
grammar) unless both match the running ones, so a grammar being edited is never
parsed with stale tables. `python -m croupier.syntax.grammar_tables --check` and the
test suite regenerate the module and compare it byte for byte.

The tables come out of Lark numbered in an order that depends on Python's string
hashing (PYTHONHASHSEED); `canonical` renumbers them (terminals by name, states in
breadth-first order from the start states, following terminals by name), so the
module is the same bytes from every run.
"""

from __future__ import annotations

import json
import sys
from collections import deque
from functools import lru_cache
from itertools import repeat
from pathlib import Path

DATA_MODULE = Path(__file__).with_name("grammar_tables_data.py")
CHUNK = 100  # characters of JSON text per string literal in the data module
FORMAT = 5  # how `encode` writes the tables: part of the digest, so a module in another form is never read


def grammar_digest(grammar: str, options: dict) -> str:
    """The SHA-256 of a grammar's text, the parser options the tables are built with and `FORMAT`."""
    from croupier.cache import text_digest

    return text_digest(json.dumps([grammar, options, FORMAT], sort_keys=True))


def canonical(table: dict) -> dict:
    """An LALR parse table (Lark's serialised `IntParseTable`) renumbered independently of hashing."""
    names = table["tokens"]
    token = {name: i for i, name in enumerate(sorted(set(names.values())))}
    states = table["states"]
    number: dict[int, int] = {}
    queue = deque(table["start_states"][start] for start in sorted(table["start_states"]))
    while queue:
        state = queue.popleft()
        if state in number:
            continue
        number[state] = len(number)
        for _, (action, arg) in sorted(states[state].items(), key=lambda item: names[item[0]]):
            if action == 0:  # shift (or goto): arg is the next state
                queue.append(arg)
    if len(number) != len(states):
        raise ValueError("a parse table with states no start state reaches")
    old = {new: state for state, new in number.items()}
    return {
        "tokens": {i: name for name, i in token.items()},
        "states": {new: {token[names[t]]: (action, number[arg] if action == 0 else arg)
                         for t, (action, arg) in sorted(states[old[new]].items(), key=lambda item: names[item[0]])}
                   for new in range(len(old))},
        "start_states": {start: number[s] for start, s in sorted(table["start_states"].items())},
        "end_states": {start: number[s] for start, s in sorted(table["end_states"].items())},
    }


def encode(data: dict, memo: dict) -> str:
    """Lark's serialised parser as JSON text (the one postlex object left out: it is passed at load).

    The parse table's states, numbered 0.. by `canonical`, are written as a list of four lists each:
    the terminals that shift, the states they shift to, the terminals that reduce, the memo numbers of
    the rules they reduce by (Lark's own form, a dict per action, takes three times as long to read).
    Each state's four lists are JSON text of their own, a string in the list of states: reading the
    tables reads each state's text whole, and a state's lists are read only when the parser meets it
    (`compact_tables_parser`; a spec meets about a third of them). The memo is written as a list
    (`compact_memo`)."""
    table = data["parser"]["parser"]
    states = []
    for number in range(len(table["states"])):
        shifts = [(t, arg) for t, (action, arg) in table["states"][number].items() if action == 0]
        reduces = [(t, arg) for t, (action, arg) in table["states"][number].items() if action == 1]
        if len(shifts) + len(reduces) != len(table["states"][number]) or any(
                set(arg) != {"@"} for _, arg in reduces):
            raise ValueError("a parse table action of a kind this module does not write")
        states.append(json.dumps([[t for t, _ in shifts], [a for _, a in shifts], [t for t, _ in reduces],
                                  [a["@"] for _, a in reduces]], separators=(",", ":")))
    flat = {**data, "parser": {**data["parser"], "parser": {**table, "states": states}}}
    return json.dumps([flat, compact_memo(memo)], ensure_ascii=True, separators=(",", ":"))


def decode(text: str, lark_form: bool = True) -> tuple[dict, dict | list]:
    """(data, memo) back from `encode`'s text: the states and the memo back into Lark's form, and what JSON
    changes (integer keys into strings, tuples into lists) turned back (`module_text` checks that the result
    equals what was encoded). Without `lark_form` the states and the memo stay in `encode`'s lists, for
    `CompactTablesParser` and `memo_objects` to read in one pass (each state's lists still JSON text)."""
    data, memo = json.loads(text)
    table = data["parser"]["parser"]
    table["tokens"] = {int(i): name for i, name in table["tokens"].items()}
    if not lark_form:
        return data, memo
    rules: dict[int, dict] = {}
    states = {}
    for number, (shift_terms, targets, reduce_terms, by) in enumerate(map(json.loads, table["states"])):
        refs = [rules.setdefault(n, {"@": n}) for n in by]
        states[number] = dict(zip(shift_terms, zip(repeat(0), targets)))
        states[number].update(zip(reduce_terms, zip(repeat(1), refs)))
    table["states"] = states
    return data, memo_dicts(memo)


_RULE_OPTIONS = ("keep_all_tokens", "expand1", "priority", "template_source", "empty_indices")


def compact_memo(memo: dict) -> list:
    """Lark's memo (numbered 0..: rules and terminal definitions as dicts) as a list of lists, one for each:
    ["T", name, priority, "str" or "re", value, flags, raw(, width for "re")] for a terminal definition,
    ["R", origin, expansion, order, alias, *options] for a rule, a terminal of its expansion as [name,
    filter_out], a rule's name as a string. JSON reads it in half the time of Lark's dicts."""
    if list(memo) != list(range(len(memo))):
        raise ValueError("a memo not numbered 0..")
    out: list = []
    for value in memo.values():
        if value.get("__type__") == "TerminalDef" and len(value) == 4:
            p = value["pattern"]
            kind = {"PatternStr": "str", "PatternRE": "re"}[p["__type__"]]
            if len(p) != (4 if kind == "str" else 5):
                raise ValueError("a pattern of a form this module does not write")
            out.append(["T", value["name"], value["priority"], kind, p["value"], p["flags"], p["raw"],
                        *([p["_width"]] if kind == "re" else [])])
        elif value.get("__type__") == "Rule" and len(value) == 6 and len(value["options"]) == 6:
            expansion = []
            for symbol in [value["origin"], *value["expansion"]]:
                if symbol["__type__"] == "Terminal" and len(symbol) == 3:
                    expansion.append([symbol["name"], symbol["filter_out"]])
                elif symbol["__type__"] == "NonTerminal" and len(symbol) == 2:
                    expansion.append(symbol["name"])
                else:
                    raise ValueError("a symbol of a form this module does not write")
            if not isinstance(expansion[0], str) or value["options"]["__type__"] != "RuleOptions":
                raise ValueError("a rule of a form this module does not write")
            out.append(["R", expansion[0], expansion[1:], value["order"], value["alias"],
                        *(value["options"][k] for k in _RULE_OPTIONS[:-1]), list(value["options"]["empty_indices"])])
        else:
            raise ValueError("a memo entry of a form this module does not write")
    return out


def memo_dicts(memo: list) -> dict:
    """Lark's memo back from `compact_memo`'s lists."""
    def symbol(s):
        return {"name": s, "__type__": "NonTerminal"} if isinstance(s, str) else {
            "name": s[0], "filter_out": s[1], "__type__": "Terminal"}

    out: dict[int, dict] = {}
    for number, entry in enumerate(memo):
        if entry[0] == "T":
            _, name, priority, kind, value, flags, raw, *width = entry
            pattern = {"value": value, "flags": flags, "raw": raw,
                       **({"_width": width[0]} if kind == "re" else {}),
                       "__type__": "PatternRE" if kind == "re" else "PatternStr"}
            out[number] = {"name": name, "pattern": pattern, "priority": priority, "__type__": "TerminalDef"}
        else:
            _, origin, expansion, order, alias, *options = entry
            opts = dict(zip(_RULE_OPTIONS, options))
            opts["empty_indices"] = tuple(opts["empty_indices"])  # the one tuple of the memo
            out[number] = {"origin": symbol(origin), "expansion": [symbol(s) for s in expansion], "order": order,
                           "alias": alias, "options": {**opts, "__type__": "RuleOptions"}, "__type__": "Rule"}
    return out


def memo_objects(memo: list, keep_all_tokens: bool = False) -> dict | None:
    """The memo's rules and terminal definitions (`compact_memo`'s lists) made into Lark's objects, as Lark's
    own generic reader (`SerializeMemoizer.deserialize`) makes them from its dicts (`memo_dicts`, with
    `keeping_all_tokens` when `keep_all_tokens`), attribute for attribute (a test holds the two equal), in a
    fraction of its time; None for an entry of a form not read here (Lark then reads the dicts).
    `Lark._load` takes such a memo as it is: its reader passes objects through unchanged."""
    from lark.grammar import NonTerminal, Rule, RuleOptions, Terminal
    from lark.lexer import PatternRE, PatternStr, TerminalDef

    new_terminal, new_rule_name = Terminal.__new__, NonTerminal.__new__

    def symbol(s):
        if isinstance(s, str):
            n = new_rule_name(NonTerminal)
            n.name = s
            return n
        t = new_terminal(Terminal)
        t.name, t.filter_out = s[0], False if keep_all_tokens else s[1]
        return t

    out: dict = {}
    try:
        for number, entry in enumerate(memo):
            if entry[0] == "T" and len(entry) == (7 if entry[3] == "str" else 8):
                kind = PatternStr if entry[3] == "str" else PatternRE
                pattern = kind.__new__(kind)
                pattern.value, pattern.flags, pattern.raw = entry[4], entry[5], entry[6]
                if kind is PatternRE:
                    pattern._width = entry[7]
                t = TerminalDef.__new__(TerminalDef)
                t.name, t.pattern, t.priority = entry[1], pattern, entry[2]
                out[number] = t
            elif entry[0] == "R" and len(entry) == 10 and isinstance(entry[1], str):
                options = RuleOptions.__new__(RuleOptions)
                options.keep_all_tokens = True if keep_all_tokens else entry[5]
                options.expand1, options.priority, options.template_source = entry[6], entry[7], entry[8]
                options.empty_indices = tuple(entry[9])
                r = Rule.__new__(Rule)
                r.origin, r.expansion = symbol(entry[1]), [symbol(s) for s in entry[2]]
                r.order, r.alias, r.options = entry[3], entry[4], options
                r._hash = hash((r.origin, tuple(r.expansion)))
                out[number] = r
            else:
                return None
    except (IndexError, TypeError, AttributeError):
        return None
    return out


@lru_cache(maxsize=1)
def compact_tables_parser():
    """Lark's LALR parser class reading its table from `encode`'s lists (a plugin of `Lark._load_from_dict`):
    each state's actions made at once, in Lark's order (shifts, then reductions), where Lark's own
    `deserialize` would read them from the dicts `decode` first makes, a second pass over every state;
    and each state made the first time it is met (`tables_parser.MadeWhenRead`)."""
    from lark.parsers.lalr_analysis import IntParseTable, Reduce, Shift
    from lark.parsers.lalr_parser import LALR_Parser

    from croupier.syntax.lalr_driver import Parser, fast_positions
    from croupier.syntax.tables_parser import MadeWhenRead

    class CompactTablesParser(LALR_Parser):
        @classmethod
        def deserialize(cls, data, memo, callbacks, debug=False):
            tokens, rows = data["tokens"], data["states"]

            def state(number: int) -> dict:
                shift_terms, targets, reduce_terms, by = json.loads(rows[number])
                actions = {tokens[t]: (Shift, target) for t, target in zip(shift_terms, targets)}
                actions.update({tokens[t]: (Reduce, memo[rule]) for t, rule in zip(reduce_terms, by)})
                return actions

            states = MadeWhenRead(range(len(rows)), state)  # a state made when the parser or the lexer meets it
            inst = cls.__new__(cls)
            inst._parse_table = IntParseTable(states, data["start_states"], data["end_states"])
            inst.parser = Parser(inst._parse_table, fast_positions(callbacks), debug)
            return inst

    return CompactTablesParser


def serialised(lark) -> tuple[dict, dict]:
    """(data, memo) of a built Lark parser, canonical, without the postlex object."""
    from lark.grammar import Rule
    from lark.lexer import TerminalDef

    data, memo = lark.memo_serialize([TerminalDef, Rule])
    data["options"] = {k: v for k, v in data["options"].items() if k != "postlex"}
    data["parser"]["parser"] = canonical(data["parser"]["parser"])
    return data, memo


def root_scanner_parts(lark) -> dict:
    """What Lark makes of a built parser's root lexer's terminals when it builds their scanner: the strings
    it leaves out of the alternation (a pattern of the same priority matches them whole), and for each
    such pattern the strings its callback turns a match into, in order (`RootFirstLexer` reads them back
    instead of testing every string against every pattern again, which compiles every pattern)."""
    from lark.lexer import UnlessCallback

    root = lark.parser.lexer.lexer.root_lexer
    kept = {t.name for t in root.scanner.terminals}
    unless = {name: [t.name for t in cb.scanner.terminals]
              for name, cb in root.callback.items() if isinstance(cb, UnlessCallback)}
    return {"left_out": [t.name for t in root.terminals if t.name not in kept], "unless": unless}


def _chunks(text: str) -> str:
    return "\n".join(f"    {text[i:i + CHUNK]!r}" for i in range(0, len(text), CHUNK))


def module_text(built=None) -> str:
    """The source of the data module, made from the grammar file as it is now (by `built`, when given: the
    parser `parser.build_parser` built from that grammar text)."""
    import lark

    from croupier.syntax import parser

    grammar = parser.GRAMMAR.read_text(encoding="utf-8")
    built = parser.build_parser(grammar) if built is None else built
    data, memo = serialised(built)
    text = encode(data, memo)
    if decode(text) != (data, memo):
        raise ValueError("the parser's tables do not survive JSON unchanged")
    scanner = json.dumps(root_scanner_parts(built), ensure_ascii=True, separators=(",", ":"))
    return (
        "# @generated by `python -m croupier.syntax.grammar_tables` from croupier.lark: do not edit.\n"
        '"""The rules language\'s LALR parser, serialised by Lark (JSON text): see `grammar_tables`."""\n'
        "\n"
        f"GRAMMAR_DIGEST = {json.dumps(grammar_digest(grammar, parser.LARK_OPTIONS))}\n"
        f"LARK_VERSION = {json.dumps(lark.__version__)}\n"
        "TABLES = (\n"
        f"{_chunks(text)}\n"
        ")\n"
        "ROOT_SCANNER = (  # `root_scanner_parts`\n"
        f"{_chunks(scanner)}\n"
        ")\n"
    )


def keeping_all_tokens(data: dict, memo: dict) -> None:
    """Make serialised (data, memo) those of the same parser built with Lark's `keep_all_tokens` (the
    formatter's concrete parser): its tables are the same, only the option, each rule's option and
    its terminals' `filter_out` differ (a test holds the result equal to such a parser serialised)."""
    data["options"]["keep_all_tokens"] = True
    for value in memo.values():
        if value.get("__type__") == "Rule":
            value["options"]["keep_all_tokens"] = True
            for symbol in value["expansion"]:
                if symbol.get("__type__") == "Terminal":
                    symbol["filter_out"] = False


def load(grammar: str, options: dict, postlex, keep_all_tokens: bool = False, lexer_callbacks: dict | None = None,
         root_first: bool = True):
    """The parser from the data module (with `keep_all_tokens`, that parser keeping every token), or None
    when the module is missing or was made from another grammar text, other options or another Lark.
    Its contextual lexer matches with the root scanner first (`root_lexer`) unless `root_first` is False.
    It is put together by `tables_parser` without importing Lark's grammar compiler; tables in a form
    that module does not read are loaded by Lark's `Lark._load_from_dict`."""
    from croupier.cache import lark_version

    try:
        from croupier.syntax import grammar_tables_data as made
    except ImportError:
        return None
    if made.GRAMMAR_DIGEST != grammar_digest(grammar, options) or made.LARK_VERSION != lark_version():
        return None
    data, compact = decode(made.TABLES, lark_form=False)
    if keep_all_tokens:
        data["options"]["keep_all_tokens"] = True  # and each rule's option, each terminal's filter_out: below
    memo = memo_objects(compact, keep_all_tokens)
    if root_first:
        from croupier.syntax.root_lexer import RootFirstLexer as lexer_class
    else:
        from lark.lexer import ContextualLexer as lexer_class
    loaded = None
    if memo is not None:
        from croupier.syntax import tables_parser

        loaded = tables_parser.read(data, memo, postlex, compact_tables_parser(), lexer_class, lexer_callbacks)
    if loaded is None:  # Lark reads its own form
        import lark

        if memo is None:
            memo = memo_dicts(compact)
            if keep_all_tokens:
                keeping_all_tokens(data, memo)
        extra: dict = {"lexer_callbacks": lexer_callbacks} if lexer_callbacks else {}
        plugins = {"LALR_Parser": compact_tables_parser(), "ContextualLexer": lexer_class}
        loaded = lark.Lark._load_from_dict(data, memo, postlex=postlex, _plugins=plugins, **extra)
    lexer = loaded.parser.lexer
    lexer = getattr(lexer, "lexer", lexer)  # behind the indenter (`postlex`), when there is one
    if root_first and isinstance(lexer, lexer_class):
        lexer.scanner_parts = json.loads(made.ROOT_SCANNER)
    return loaded


def main(argv: list[str] | None = None) -> int:
    """Write the data module; with `--check`, only say whether the committed one is fresh."""
    from croupier.outputs import refresh_module

    return refresh_module(DATA_MODULE, module_text(), "croupier.syntax.grammar_tables",
                          sys.argv[1:] if argv is None else argv)


if __name__ == "__main__":
    raise SystemExit(main())
