"""The model's expressions (semantics/expr.py): no syntax-tree node in the model, every name resolved
and typed, and one visitor per pass (printer, type checker, Python translator, name collector).

Expected texts are read off the spec files by hand and the translator's templates, never computed.
"""

from __future__ import annotations

import dataclasses
from fractions import Fraction

import pytest
from conftest import BACCARAT, SPEC

from croupier.backends.engine.python_expr import to_python
from croupier.semantics import expr as ir
from croupier.semantics import model
from croupier.semantics.resolve import Loader
from croupier.syntax.visitor import NodeVisitor

SPECS = sorted(SPEC.glob("*.rules"))


def reachable(obj, seen=None):
    """Every object reachable from `obj` through dataclass fields, dicts, lists and tuples."""
    seen = set() if seen is None else seen
    if id(obj) in seen:
        return
    seen.add(id(obj))
    yield obj
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        children = [getattr(obj, f.name) for f in dataclasses.fields(obj)]
    elif isinstance(obj, dict):
        children = [*obj.keys(), *obj.values()]
    elif isinstance(obj, (list, tuple, set, frozenset)):
        children = list(obj)
    else:
        return
    for child in children:
        yield from reachable(child, seen)


def load(path):
    game, diags = Loader().load(str(path))
    assert game is not None and not any(d.is_error for d in diags), diags
    return game


@pytest.mark.parametrize("path", SPECS, ids=[p.stem for p in SPECS])
def test_the_model_holds_no_syntax_node_and_every_expression_resolved(path):
    game = load(path)
    objects = list(reachable(game))
    syntax = [o for o in objects if type(o).__module__.startswith("croupier.syntax")]
    assert syntax == []
    exprs = [o for o in objects if isinstance(o, ir.Expr)]
    assert exprs, "every spec has expressions"
    assert [e for e in exprs if isinstance(e, ir.Invalid)] == []
    assert [e for e in exprs if e.type is None] == []
    assert [e for e in exprs if type(e) is ir.Name] == [], "a reference says what it refers to"


def test_baccarat_expressions_are_resolved_and_typed():
    game = load(BACCARAT)
    # event natural when total(first2(player)) >= 8 or total(first2(banker)) >= 8
    natural = game.events["natural"].when
    assert isinstance(natural, ir.BoolOp) and natural.op == "or" and natural.type == ir.BOOL
    left = natural.operands[0]
    assert isinstance(left, ir.Compare) and left.op == ">=" and left.right == ir.Num(left.right.span, ir.NUM,
                                                                                     Fraction(8), "8")
    call = left.left
    assert isinstance(call, ir.Call) and call.function.name == "total" and call.type == ir.NUM
    inner = call.args[0]
    assert isinstance(inner, ir.Call) and inner.function.name == "first2" and inner.type == ir.CARDS
    assert isinstance(inner.args[0], ir.HandRef) and inner.args[0].name == "player"
    # stand all when natural: an event reference
    assert isinstance(game.stand_when, ir.EventRef) and game.stand_when.name == "natural"
    # wins when outcome is banker
    test = game.bets["banker"].wins[0].when
    assert isinstance(test, ir.OutcomeIs) and test.what == "banker"
    assert isinstance(game.bets["banker"].pushes[0], ir.OutcomeIs)
    assert game.bets["banker_pair"].wins[0].when == ir.EventRef(game.bets["banker_pair"].wins[0].when.span,
                                                                ir.BOOL, "banker_pair")


def test_the_model_prints_as_the_spec_writes():
    game = load(BACCARAT)
    assert ir.expr_text(game.events["natural"].when) == "total(first2(player)) >= 8 or total(first2(banker)) >= 8"
    assert ir.expr_text(game.bets["banker"].wins[0].when) == "outcome is banker"
    assert game.draws[2].describe() == "draw banker when drew(player) by total(banker) × value(third(player))"
    assert game.draws[1].describe() == "draw banker when not drew(player) by total(banker)"


def test_draw_table_names_are_the_resolvers_not_the_emitters():
    game = load(BACCARAT)  # nothing emitted
    assert [t.ident for t in game.draws] == ["DRAW_PLAYER", "DRAW_BANKER_1", "DRAW_BANKER_2"]


def test_python_of_the_round_rules():
    game = load(BACCARAT)
    constants: dict = {}
    assert to_python(game.events["natural"].when, constants) == \
        "((total(r.player[:2]) >= 8) or (total(r.banker[:2]) >= 8))"
    assert to_python(game.draws[2].when, constants) == "(len(r.player) > DEALT['player'])"
    assert to_python(game.draws[2].col_key, constants) == "card_value(third(r.player))"
    assert to_python(game.bets["tie"].wins[0].when, constants) == "(r.outcome == 'tie')"
    assert to_python(game.stand_when, constants) == "event_natural(r)"
    assert constants == {}


def test_python_of_the_settlement_and_table_formulas():
    game = load(SPEC / "ten_and_a_half_banker.rules")
    s = game.settlement
    assert all(isinstance(c, model.SettleClause) for c in s.clauses)
    assert isinstance(s.stake_lines[0], model.StakeLine) and s.stake == "base_bet"
    first = s.clauses[0]  # banker-wins when player is bust
    assert first.kind == "banker-wins" and isinstance(first.expr, ir.TypeIs)
    assert to_python(first.expr, {}) == "(t.type_of(player) == 'bust')"
    tied = s.clauses[2].expr  # banker-wins when tied
    assert isinstance(tied, ir.PairFact) and to_python(tied, {}) == "tied"
    pay = s.clauses[3].expr  # pay min(base_bet * multiplier(winner), coins(loser) - paid(loser))
    assert to_python(pay, {}) == "min((t.formula_base_bet * t.multiplier(winner)), (t.coins[loser] - t.paid[loser]))"
    base = game.formulas["base_bet"].expr
    assert ir.names_used(base) == {"min()", "floor()", "coins()", "poorest", "players", "banker"}
    text = to_python(base, {})
    assert "exact_div(t.poorest, " in text and "t.coins[t.banker]" in text and "(t.players == 2)" in text


def test_a_hand_type_reads_the_hands_facts():
    game = load(SPEC / "ten_and_a_half_banker.rules")
    first = game.types[0].when  # when count = 5 and count(face) = 5
    constants: dict = {}
    assert to_python(first, constants) == "((h.count == 5) and (h.classes['face'] == 5))"
    count = first.operands[1].left
    assert count.function.name == "count" and isinstance(count.args[0], ir.ClassRef)
    exact = game.type_named("ten_and_a_half").when  # when total = 10.5
    assert to_python(exact, constants) == "(h.total == Q_21_2)" and constants == {Fraction(21, 2): "Q_21_2"}


def test_a_visitor_without_a_method_fails_loudly_and_dispatches_along_the_class_hierarchy():
    class Names(NodeVisitor):
        def visit_Name(self, e):
            return e.name

    game = load(BACCARAT)
    assert Names().visit(game.stand_when) == "natural"  # an EventRef, by visit_Name
    with pytest.raises(NotImplementedError, match=r"Names has no method for a .*\.OutcomeIs node"):
        Names().visit(game.bets["tie"].wins[0].when)
