"""Lark's LALR parser loop with each token's shifts and reductions done in the loop itself.

Lark's `_Parser.parse_from_state` hands every token to `ParserState.feed_token`, which looks the parse
table and callbacks up again for each token and asserts, for every reduction, that the rule it reduces
by is not the end state (a `Rule` compared with an int: a call of `Rule.__eq__` a reduction, never true).
`Parser.parse_from_state` below runs the same steps on the same `ParserState`, its stacks changed in place
as Lark changes them, the same callbacks called with the same children: the same tree, and the same
`UnexpectedToken` (its expected terminals, its state, its interactive parser) raised at the same token.
The end of the input is fed by Lark's own `feed_token`. `grammar_tables` makes the parser loaded from
the tables with it; the parser Lark builds from the grammar (an edited grammar) keeps Lark's loop.
"""

from __future__ import annotations

from lark.exceptions import UnexpectedInput, UnexpectedToken
from lark.lexer import Token
from lark.parsers.lalr_analysis import Shift
from lark.parsers.lalr_interactive_parser import InteractiveParser
from lark.parsers.lalr_parser import _Parser


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
                    value = callbacks[arg](children) if callbacks else children
                    _action, new_state = states[state_stack[-1]][arg.origin.name]
                    assert _action is Shift
                    state_stack.append(new_state)
                    value_stack.append(value)
            end_token = Token.new_borrow_pos("$END", "", token) if token else Token("$END", "", 0, 1, 1)
            return state.feed_token(end_token, True)
        except UnexpectedInput as e:
            e.interactive_parser = InteractiveParser(self, state, state.lexer)
            raise e
