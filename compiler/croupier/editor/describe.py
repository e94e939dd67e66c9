"""What a hover says: a name's declaration and the card's sentence for it; a citation's source; a bet's
payouts and exact house edge.

The sentences are the rule card's own (`backends.cards`), in the project's first card language,
read from the last version of the spec that resolved; the house edge is the exact analysis's
(`tools.analysis`), as a fraction and as a percentage rounded for reading only.
"""

from __future__ import annotations

from fractions import Fraction

from croupier.editor.index import Definition
from croupier.semantics.model import Game


def declaration(d: Definition, shown_file: str) -> str:
    """The Markdown of a declaration: its kind, its line and where it is."""
    return f"**{d.kind}** `{d.name}`\n\n```croupier\n{d.text}\n```\n\n{shown_file}:{d.place.line}"


def sentences_for(game: Game, d: Definition, lang: str) -> list[str]:
    """The card's sentences for a declared name (none for a kind the card says nothing particular about)."""
    from croupier.backends.cards.card_model import flat_rules, rule_views
    from croupier.backends.cards.sentences import Sentences

    s = Sentences(game, lang)
    if d.kind == "event" and d.name in game.events:
        return [s.event(game.events[d.name])]
    if d.kind == "outcome" and d.name in game.outcomes:
        return [s.outcome(game.outcomes[d.name])]
    if d.kind == "let" and d.name in game.formulas:
        return [s.formula(game.formulas[d.name])]
    if d.kind == "bet" and d.name in game.bets:
        return [r["text"] + (f" ({r['odds']})" if r["kind"] == "wins" else "")
                for r in flat_rules(rule_views(s, game.bets[d.name]))]
    if d.kind == "hand" and d.name in game.hands:
        return [game.hands[d.name].label(lang)]
    if d.kind == "assume" and d.name in game.assumptions:
        return [game.assumptions[d.name].label(lang)]
    if d.kind == "source":
        return [x.title(lang) for x in game.sources if x.ident == d.name]
    return []


def percent(x: Fraction) -> str:
    """A fraction as a percentage with four decimals, for reading (the fraction beside it is the figure)."""
    return f"{float(x * 100):.4f} %"


def house_edge(game: Game, bet: str) -> str:
    """The exact house edge of a bet at the spec's shoe, or why there is none."""
    from croupier.tools.analysis.card_analysis import analysis_of

    if not game.is_dealt_round:
        return ""
    try:
        figures = analysis_of(game)["bets"].get(bet)
    except Exception as exc:  # noqa: BLE001 - the analysis cannot cover every game: say so, never fail a hover
        return f"House edge: not analysed ({exc})"
    if figures is None:
        return ""
    edge = Fraction(figures["house_edge"])
    decks = game.shoe.decks if game.shoe is not None else "?"
    return f"House edge ({decks} decks): {edge.numerator}/{edge.denominator} ≈ {percent(edge)}"
