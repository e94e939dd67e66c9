"""Lark's LALR parser loop with each token's shifts and reductions done in the loop itself.

Lark's `_Parser.parse_from_state` hands every token to `ParserState.feed_token`, which looks the parse
table and callbacks up again for each token and asserts, for every reduction, that the rule it reduces
by is not the end state (a `Rule` compared with an int: a call of `Rule.__eq__` a reduction, never true).
`Parser.parse_from_state` below runs the same steps on the same `ParserState`, its stacks changed in place
as Lark changes them, the same callbacks called with the same children: the same tree, and the same
`UnexpectedToken` (its expected terminals, its state, its interactive parser) raised at the same token.
The end of the input is fed by Lark's own `feed_token`. `grammar_tables` makes the parser loaded from
the tables with it; the parser Lark builds from the grammar (an edited grammar) keeps Lark's loop.

`Positions` is Lark's `PropagatePositions` (the callback that gives each tree node of a reduction its
place, `propagate_positions=True`) with its two searches for the first and last placed child written out
in one function, and a token's place read from its slots (a `Token` has no `container_*` attribute): the
same children looked at in the same order, the same attributes set on the same `Meta`; `fast_positions`
puts it in place of Lark's wrappers of a parser's callbacks.
"""

from __future__ import annotations

from lark.exceptions import UnexpectedInput, UnexpectedToken
from lark.lexer import Token
from lark.parse_tree_builder import PropagatePositions
from lark.parsers.lalr_analysis import Shift
from lark.parsers.lalr_interactive_parser import InteractiveParser
from lark.parsers.lalr_parser import _Parser
from lark.tree import Tree


class Parser(_Parser):
    """Lark's `_Parser` whose loop feeds the tokens itself (not in debug mode: Lark's loop then)."""

    def parse_from_state(self, state, last_token: Token | None = None):
        if self.debug:
            return super().parse_from_state(state, last_token)
        try:
            token = last_token
            state_stack, value_stack = state.state_stack, state.value_stack
            conf = state.parse_conf
            states, end_state, callbacks = conf.states, conf.end_state, conf.callbacks
            build = bool(callbacks)  # (asked once: `callbacks` may be a dict whose entries are made when read)
            for token in state.lexer.lex(state):
                assert token is not None
                kind = token.type
                while True:  # `ParserState.feed_token(token)`
                    actions = states[state_stack[-1]]
                    try:
                        action, arg = actions[kind]
                    except KeyError:
                        expected = {s for s in actions.keys() if s.isupper()}
                        raise UnexpectedToken(token, expected, state=state, interactive_parser=None)  # noqa: B904 - raised as Lark raises it
                    if action is Shift:
                        assert arg != end_state
                        state_stack.append(arg)
                        value_stack.append(token if kind not in callbacks else callbacks[kind](token))
                        break
                    size = len(arg.expansion)  # reduce by the rule `arg`, then shift its symbol
                    if size:
                        children = value_stack[-size:]
                        del state_stack[-size:]
                        del value_stack[-size:]
                    else:
                        children = []
                    value = callbacks[arg](children) if build else children
                    _action, new_state = states[state_stack[-1]][arg.origin.name]
                    assert _action is Shift
                    state_stack.append(new_state)
                    value_stack.append(value)
            end_token = Token.new_borrow_pos("$END", "", token) if token else Token("$END", "", 0, 1, 1)
            return state.feed_token(end_token, True)
        except UnexpectedInput as e:
            e.interactive_parser = InteractiveParser(self, state, state.lexer)
            raise e


def _placed(c):
    """What Lark's `PropagatePositions._pp_get_meta` takes of one child: its meta (a tree's when not empty, a
    token itself, what `__lark_meta__` gives), or None to look at the next child."""
    if isinstance(c, Tree):
        meta = c.meta
        return None if meta.empty else meta
    if isinstance(c, Token):
        return c
    if hasattr(c, "__lark_meta__"):
        return c.__lark_meta__()
    return None


def _first_placed(children):
    """The first of `children` (in the order given) that has a place: its meta, or the token itself; None if none has."""
    for c in children:
        if isinstance(c, Tree):
            meta = c.meta
            if not meta.empty:
                return meta
        elif type(c) is Token:
            return c
        else:
            placed = _placed(c)
            if placed is not None:
                return placed
    return None


class Positions(PropagatePositions):
    """Lark's `PropagatePositions` without a node filter, the same steps in one call (see the module)."""

    def __call__(self, children):
        res = self.node_builder(children)
        if not isinstance(res, Tree):
            return res
        res_meta = res.meta
        if len(children) == 1 and children[0] is res and (res_meta.empty or hasattr(res_meta, "container_end_pos")):
            return res  # a single child handed up (`?rule`): placed already, every assignment below a no-op
        first = _first_placed(children)
        if first is not None:
            if type(first) is Token:
                line, column, start = first.line, first.column, first.start_pos
            else:
                line = getattr(first, "container_line", first.line)
                column = getattr(first, "container_column", first.column)
                start = getattr(first, "container_start_pos", first.start_pos)
            if not hasattr(res_meta, "line"):
                res_meta.line, res_meta.column, res_meta.start_pos, res_meta.empty = line, column, start, False
            res_meta.container_line, res_meta.container_column, res_meta.container_start_pos = line, column, start
        last = _first_placed(reversed(children))
        if last is not None:
            if type(last) is Token:
                line, column, end = last.end_line, last.end_column, last.end_pos
            else:
                line = getattr(last, "container_end_line", last.end_line)
                column = getattr(last, "container_end_column", last.end_column)
                end = getattr(last, "container_end_pos", last.end_pos)
            if not hasattr(res_meta, "end_line"):
                res_meta.end_line, res_meta.end_column, res_meta.end_pos, res_meta.empty = line, column, end, False
            res_meta.container_end_line, res_meta.container_end_column, res_meta.container_end_pos = line, column, end
        return res


def positioned(callback):
    """A parser's callback with Lark's `PropagatePositions` wrapper (without a node filter) made a `Positions`
    around the same node builder; any other callback as it is."""
    if type(callback) is PropagatePositions and callback.node_filter is None:
        return Positions(callback.node_builder)
    return callback


def fast_positions(callbacks: dict) -> dict:
    """`callbacks` (a parser's, changed in place) with each callback `positioned`. Callbacks made positioned
    already, as each is made (`tables_parser.RuleCallbacks`, marked `positioned`), are left as they are."""
    if getattr(callbacks, "positioned", False):
        return callbacks
    for key, callback in callbacks.items():
        callbacks[key] = positioned(callback)
    return callbacks
