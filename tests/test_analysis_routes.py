"""The exact enumerator against an independent route, on rule shapes the shipped specs do not have.

The enumerator groups deals and weighs the draws by moments of the cards the deal
removed (`runtime/analysis_round.py`). `croupier check`'s round space
(`checks/rounds.py`, full mode) plays the value-class sequences through the
engine's own `play()` with explicit card counts instead (one of those whose hands the rules read
alike, by a grouping written here, weighing the others alike). The two must agree
exactly on every outcome, for spec variants that change what the draws read, how
many hands draw, and the shoe.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from croupier.backends.engine.analysis_emitter import emit_analysis_module
from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.backends.engine.oracle import engine_oracle
from croupier.checks.rounds import round_space
from croupier.semantics.resolve import Loader

ROOT = Path(__file__).resolve().parent.parent
BASE = (ROOT / "spec" / "baccarat.rules").read_text(encoding="utf-8")


def only_player_draws(text: str) -> str:
    """The banker never draws: one drawer, so the last draw is the player's."""
    start = text.index("draw banker when not drew(player)")
    return text[:start] + text[text.index("outcome player"):]


VARIANTS = {
    "one_deck": lambda t: t.replace("shoe 8 decks", "shoe 1 deck"),
    "two_decks_only_player_draws": lambda t: only_player_draws(t.replace("shoe 8 decks", "shoe 2 decks")),
    "banker_reads_the_players_first_two": lambda t: t.replace(
        "draw banker when not drew(player) by total(banker)",
        "draw banker when not drew(player) and total(first2(player)) < 7 by total(banker)"),
}


def compile_variant(folder: Path, name: str, text: str):
    """(game, engine) of a spec variant written to `folder`; it must compile without errors."""
    assert text != BASE
    spec = folder / f"{name}.rules"
    spec.write_text(text, encoding="utf-8")
    game, diags = Loader().load(str(spec))
    assert game is not None and not any(d.is_error for d in diags), diags
    return game, load_engine(emit_engine(game, spec.name), f"routes_{name}")


# Baccarat's card values, typed in from the spec's `value` line (001): what a total adds up
POINTS = {"A": 1, "10": 0, "J": 0, "Q": 0, "K": 0} | {str(n): n for n in range(2, 10)}


class WhatTheRulesRead:
    """The engine's oracle (`engine_oracle`), with a grouping of rounds written here rather than the analysis
    plan's, which the enumerator under test also reads. Every rule of these variants reads a hand only through
    its count (`drew`), its total, the total of its first two cards (`first2`, the natural), whether those two
    are of one rank (the pairs) and the value of its third card (`third`), read off their text above; so a hand
    of two cards or more is known by those five, worked out here from the cards' values (`POINTS`), and a lone
    card by itself (its rank makes a pair or not with the next). The round space plays one of the sequences
    whose hands read alike with the same cards left, and weighs the others alike (every card left counts).
    It never asks for the exact analysis (the enumerator under test): its figures are all its own; and its
    round spaces are cached apart from the engine oracle's."""

    def __init__(self, oracle) -> None:
        self.oracle = oracle
        self.identity = f"{oracle.identity}\0{type(self).__name__}"

    def __getattr__(self, name: str):
        value = self.__dict__[name] = getattr(self.oracle, name)  # looked up once (a leaf asks several)
        return value

    def hand_grouping(self):
        def key(hand: str, cards) -> tuple:
            if len(cards) < 2:
                return (len(cards), *cards)
            values = [POINTS[c[:-1]] for c in cards]
            return (len(cards), sum(values) % 10, (values[0] + values[1]) % 10, cards[0][:-1] == cards[1][:-1],
                    values[2] if len(values) > 2 else None)
        return key

    def exact_summary(self) -> None:
        return None


def companion(game, path: str):
    """The analysis companion (the exact enumerator) of a game's engine."""
    return load_engine(emit_analysis_module(game, path), f"routes_{game.name}_analysis")


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_enumerator_agrees_with_the_round_space(variant, tmp_path):
    game, engine = compile_variant(tmp_path, variant, VARIANTS[variant](BASE))
    exact = companion(game, f"{variant}.rules").analyse(engine)
    space = round_space(game, WhatTheRulesRead(engine_oracle(game)), full=True)
    assert space.complete
    played = {key[1]: p for key, p in space.facts.items() if key[0] == "outcome"}
    assert played == exact["outcomes"]
    assert sum(exact["outcomes"].values()) == 1
    for name in ("banker", "player", "tie"):  # bets that no rank tells apart: same chance to win
        wins = sum(p for key, p in space.facts.items() if key[:2] == ("win", name))
        assert wins == sum(p for m, p in exact["bets"][name]["returns"].items() if m > 1)


def test_rank_level_draws_change_nothing_when_the_rank_rule_is_idle(tmp_path):
    """A draw rule that reads ranks makes the enumerator deal and draw by rank (13 classes,
    runs of one rank tracked); when the rule cannot change a decision, every figure must
    equal the value-level enumeration's."""
    text = BASE.replace(
        "draw banker when not drew(player) by total(banker)",
        "draw banker when not drew(player) and (same_rank(player) or not same_rank(player)) by total(banker)")
    game, ranked = compile_variant(tmp_path, "idle_rank_rule", text)
    ranked_exact = companion(game, "idle_rank_rule.rules")
    assert ranked_exact.ANALYSIS["draw_by_rank"]
    base_game, _ = Loader().load(str(ROOT / "spec" / "baccarat.rules"))
    plain = load_engine(emit_engine(base_game, "spec/baccarat.rules"), "routes_plain")
    plain_exact = companion(base_game, "spec/baccarat.rules")
    assert not plain_exact.ANALYSIS["draw_by_rank"]
    for decks in (1, 8):
        a, b = ranked_exact.analyse(ranked, decks), plain_exact.analyse(plain, decks)
        assert (a["outcomes"], a["totals"], a["bets"]) == (b["outcomes"], b["totals"], b["bets"])
