"""A contextual lexer that matches with its root scanner first: Lark's answers, a fraction of its regexes.

Lark's contextual lexer keeps, for each state of the LALR parser, a scanner of the
terminals that state accepts: one regular expression, the terminals' patterns in
alternation, compiled the first time the state is met. Parsing one spec meets about
eighty of them, and compiling them is a third of parsing it. This lexer first
matches with the root scanner (every terminal) and keeps its token whenever the
state's own scanner is certain to give the same one; otherwise the state's scanner
does the work, as in Lark, so an error is raised exactly as before.

Why the token is the same. Both scanners list their terminals in the same order
(Lark sorts them by priority, width, length and name) and Python's alternation
answers with the first alternative that matches, each alternative matching as it
would alone. Lark leaves out of a scanner the strings that a pattern of the same
priority among its terminals matches whole (`if` under NAME), and turns such a
match back into the string's terminal by a callback. So the state's terminals are
those of the root that it accepts, plus, perhaps, strings the root leaves out. When
the root's terminal is accepted by the state and none of the strings the root
leaves out and the state accepts matches here, the state's first match is the
root's (every terminal before it failed in the root already). The callback then
looks for the matched text among the strings of the same priority that the pattern
matches, in order, in the state among those it accepts: when the root's answer is
one the state accepts, it is the state's answer too. Callbacks given to Lark
(`lexer_callbacks`) run once per token, after that decision.
"""

from __future__ import annotations

import re
from copy import copy
from functools import cached_property

from lark.lexer import BasicLexer, ContextualLexer, LexError, PatternStr, Scanner, Token, UnlessCallback


class StateLexer(BasicLexer):
    """The lexer of one parser state, matching with the root scanner first (Lark's `BasicLexer` otherwise)."""

    _root: RootFirstLexer | None = None  # the contextual lexer it belongs to; None: Lark's own way
    _plan: _Plan | None = None

    def next_token(self, lex_state, parser_state=None) -> Token:
        owner = self._root
        if owner is None or (owner.usable is not True and not owner.ready()):
            return super().next_token(lex_state, parser_state)
        plan = self._plan
        if plan is None:
            plan = self._plan = _Plan(self, owner)
        line_ctr = lex_state.line_ctr
        text = lex_state.text
        while line_ctr.char_pos < text.end:
            pos = line_ctr.char_pos
            found = plan.match(text, pos)
            if found is None:
                return super().next_token(lex_state, parser_state)  # Lark's scanner, and its error
            value, type_, final = found
            # from here on, Lark's `BasicLexer.next_token` with the callbacks this lexer would have
            ignored = type_ in self.ignore_types
            t = None
            if not ignored or type_ in plan.callback_types:
                t = Token(type_, value, pos, line_ctr.line, line_ctr.column)
            line_ctr.feed(value, type_ in self.newline_types)
            if t is not None:
                t.end_line = line_ctr.line
                t.end_column = line_ctr.column
                t.end_pos = line_ctr.char_pos
                t.type = final
                user = self.user_callbacks.get(type_)
                if user is not None:
                    t = user(t)
                if not ignored:
                    if not isinstance(t, Token):
                        raise LexError(f"Callbacks must return a token (returned {t!r})")
                    lex_state.last_token = t
                    return t
        raise EOFError(self)


class _Plan:
    """What one state's lexer needs to answer as its own scanner would, from the root scanner's match."""

    def __init__(self, lexer: StateLexer, owner: RootFirstLexer) -> None:
        names = {t.name for t in lexer.terminals}
        # the strings its own scanner would leave out: those a pattern it accepts matches whole
        embedded = {s.name for r in names & owner.unless.keys() for s in owner.unless[r]} & names
        self.owner = owner
        self.names = frozenset(names - embedded)  # the terminals of its own scanner
        self.unless = {r: tuple(s for s in owner.unless[r] if s.name in names) for r in self.names & owner.unless.keys()}
        self.unless = {r: strings for r, strings in self.unless.items() if strings}
        self.callback_types = frozenset(self.unless) | frozenset(lexer.user_callbacks)
        # its terminals in scanner order, each with its rank in the root's order
        self.order = [(owner.rank[t.name], t) for t in lexer.terminals if t.name in self.names]
        # strings with flags (`"x"i`) are matched by their pattern: then the lexer's own scanner answers
        self.usable = not any(isinstance(t.pattern, PatternStr) and t.pattern.flags for _, t in self.order)
        # by first character: the strings of its scanner that the root scanner leaves out
        self.extra: dict[str, list[tuple[int, str]]] = {}
        for rank, t in self.order:
            if t.name in owner.left_out:
                self.extra.setdefault(t.pattern.value[0], []).append((rank, t.pattern.value))

    def match(self, text, pos: int) -> tuple[str, str, str] | None:
        """(text, terminal, terminal after the string callback) this lexer's own scanner matches at `pos`,
        or None when the root scanner does not tell (then the lexer's own scanner answers)."""
        if not self.usable:
            return None
        owner = self.owner
        source = text.text
        for mre in owner.mres:  # the root scanner's `Scanner.match`, its regexes called here
            m = mre.match(source, pos, text.end)
            if m:
                value, type_ = m.group(0), m.lastgroup
                break
        else:
            return None
        first = owner.rank[type_]
        if type_ in self.names:
            for rank, string in self.extra.get(source[pos:pos + 1], ()):
                if rank < first and source.startswith(string, pos, text.end):
                    return None
        else:  # the root's terminal is not among this scanner's: try the others in its order
            for rank, t in self.order:
                if rank < first and t.name not in owner.left_out:
                    continue  # failed here in the root scanner already
                if isinstance(t.pattern, PatternStr):
                    if text.text.startswith(t.pattern.value, pos, text.end):
                        value, type_ = t.pattern.value, t.name
                        break
                else:
                    m = owner.pattern(t).match(text.text, pos, text.end)
                    if m:
                        value, type_ = m.group(0), t.name
                        break
            else:
                return None
        final = type_
        for s in self.unless.get(type_, ()):
            if s.pattern.value == value:
                final = s.name
                break
        return value, type_, final


class LazyUnless(UnlessCallback):
    """Lark's `UnlessCallback` (a match of a pattern that is one of its strings becomes that string's terminal)
    whose scanner, a regular expression of the strings, is compiled at its first use, not with the lexer. The
    states' lexers turn such a match into the string's terminal themselves (`_Plan.match`, by comparing the
    text with the strings), so only Lark's own scanner, for a text the root scanner does not decide, calls it."""

    def __init__(self, terminals: list, make_scanner) -> None:  # (Lark's takes the scanner itself)
        self.terminals = terminals  # the strings' terminals, in the order the scanner tries them
        self._make_scanner = make_scanner

    @cached_property
    def scanner(self) -> Scanner:
        return self._make_scanner(self.terminals)


class _StateLexers(dict):
    """Parser state → its lexer, made the first time the state is met (a state never met costs nothing)."""

    def __init__(self, make) -> None:
        super().__init__()
        self._make = make

    def __missing__(self, state: int) -> StateLexer:
        lexer = self[state] = self._make(state)
        return lexer


# a backreference in a terminal's pattern would count its groups differently in another alternation
_BACKREFERENCE = re.compile(r"\\[1-9]|\(\?P=")


class RootFirstLexer(ContextualLexer):
    """Lark's contextual lexer whose states' lexers match with the root scanner first (`StateLexer`)."""

    BasicLexer = StateLexer

    def __init__(self, conf, states, always_accept=()) -> None:
        if not conf.skip_validation:  # Lark's way: every state's lexer made now, its terminals checked
            super().__init__(conf, states, always_accept)
            for lexer in self.lexers.values():
                lexer._root = self
        else:  # tables loaded (their terminals checked when they were built): a state's lexer made when met
            trad_conf = copy(conf)
            trad_conf.terminals = list(conf.terminals)
            self._states, self._always, self._conf = states, set(always_accept), trad_conf
            self._by_accepts: dict[frozenset[str], StateLexer] = {}
            self.lexers = _StateLexers(self._state_lexer)
            self.root_lexer = self.BasicLexer(trad_conf, None)
        self.root_lexer._root = None
        self.conf = conf
        self.scanner = None
        self.mres: tuple = ()  # the root scanner's regular expressions, in the order it tries them
        self.usable: bool | None = None
        self.left_out: frozenset[str] = frozenset()
        self.unless: dict[str, tuple] = {}  # pattern → the strings its callback turns a match into, in order
        self.rank = {t.name: i for i, t in enumerate(self.root_lexer.terminals)}  # the order of every scanner
        self._patterns: dict[str, re.Pattern] = {}
        self.scanner_parts: dict | None = None  # what Lark made of the root's terminals (`grammar_tables`)

    def _state_lexer(self, state: int) -> StateLexer:
        """The lexer of a parser state, as Lark's `ContextualLexer` makes it: one for each set of terminals
        a state accepts (with the ignored ones and those always accepted)."""
        accepts = self._states[state]
        key = frozenset(accepts)
        lexer = self._by_accepts.get(key)
        if lexer is None:
            conf = self._conf
            names = set(accepts) | set(conf.ignore) | self._always
            lexer = self._by_accepts[key] = self._subset_lexer(names)
            lexer._root = self
        return lexer

    def _subset_lexer(self, names: set[str]) -> StateLexer:
        """The lexer Lark's `BasicLexer.__init__` makes (without validation) from the root's conf with the
        terminals `names`, made from the root lexer's: its terminals are those of the root in the root's
        order (Lark sorts by a key that orders every two terminals, so a part of a sorted list is sorted),
        its newline types those of the root among them (a test holds it equal to Lark's, state by state)."""
        root, conf = self.root_lexer, self._conf
        lexer = StateLexer.__new__(StateLexer)
        lexer.re = conf.re_module
        lexer.newline_types = root.newline_types & names
        lexer.ignore_types = frozenset(conf.ignore)
        lexer.terminals = [t for t in root.terminals if t.name in names]
        lexer.user_callbacks = conf.callbacks
        lexer.g_regex_flags = conf.g_regex_flags
        lexer.use_bytes = conf.use_bytes
        lexer.terminals_by_name = conf.terminals_by_name
        lexer._scanner = None
        return lexer

    def ready(self) -> bool:
        """Whether the states' lexers may match with the root scanner first: the root scanner is built
        (once) and read, and holds nothing this lexer does not reason about."""
        if self.usable is None:
            self.usable = self._read_root()
        return self.usable

    def _read_root(self) -> bool:
        root, conf = self.root_lexer, self.conf
        if conf.g_regex_flags or conf.use_bytes or conf.re_module is not re:
            return False
        if any(_BACKREFERENCE.search(t.pattern.to_regexp()) for t in root.terminals):
            return False
        if self.scanner_parts is not None and root._scanner is None:
            self._build_root_scanner(self.scanner_parts)
        self.scanner = root.scanner
        self.mres = tuple(self.scanner._mres)
        kept = {t.name for t in self.scanner.terminals}
        self.left_out = frozenset(t.name for t in root.terminals if t.name not in kept)
        for name, cb in root.callback.items():
            if isinstance(cb, LazyUnless):
                self.unless[name] = tuple(cb.terminals)
            elif isinstance(cb, UnlessCallback):
                self.unless[name] = tuple(cb.scanner.terminals)
            elif cb is not root.user_callbacks.get(name):
                return False  # a chain of a string callback and one given to Lark: not read here
        strings = [s for group in self.unless.values() for s in group]
        if any(not isinstance(s.pattern, PatternStr) or s.pattern.flags or not s.pattern.value for s in strings):
            return False
        if any(len({s.pattern.value for s in group}) != len(group) for group in self.unless.values()):
            return False
        # the strings the root leaves out are those its patterns' callbacks hold, all without flags
        return self.left_out == {s.name for s in strings} and all(
            isinstance(t.pattern, PatternStr) for t in root.terminals if t.name in self.left_out)

    def _build_root_scanner(self, parts: dict) -> None:
        """Build the root lexer's scanner and callbacks as Lark's `BasicLexer._build_scanner` does, from what
        Lark made of the same terminals when the tables were computed (`grammar_tables.root_scanner_parts`):
        the same alternation and string callbacks, without testing every string against every pattern (and
        each callback's own scanner compiled when it is first called, `LazyUnless`)."""
        root = self.root_lexer
        by_name = {t.name: t for t in root.terminals}
        left_out, unless = set(parts["left_out"]), parts["unless"]
        if not left_out <= by_name.keys() or not all(
                r in by_name and set(strings) <= by_name.keys() for r, strings in unless.items()):
            return  # not these terminals: Lark builds the scanner
        if root.user_callbacks.keys() & unless.keys():
            return  # Lark chains the two callbacks

        def scanner(terminals: list) -> Scanner:
            return Scanner(terminals, root.g_regex_flags, root.re, root.use_bytes)

        callback = {r: LazyUnless([by_name[s] for s in strings], scanner) for r, strings in unless.items()}
        root.callback = {**callback, **root.user_callbacks}
        root._scanner = scanner([t for t in root.terminals if t.name not in left_out])

    def pattern(self, terminal) -> re.Pattern:
        """A terminal's own pattern, compiled once."""
        found = self._patterns.get(terminal.name)
        if found is None:
            found = self._patterns[terminal.name] = re.compile(terminal.pattern.to_regexp())
        return found
