"""The glossary of a card: the terms it uses, each explained in the card's language.

A term is listed when the game has the construct it names (a cut card, a squeeze rule, a
commission, …): the compiler's concepts have their term and meaning in the message catalogs;
the spec's own named things (events, a round's named values, card classes) are explained from
the model (an event by its condition in words, a value by its expression, a class by its
cards). The odds entry carries a worked amount and, when a source writes odds with the stake
included, how to read that.
"""

from __future__ import annotations

from fractions import Fraction

from croupier.backends.cards.sentences import Sentences, money
from croupier.backends.cards.words import N_, STAKE_INCLUDED
from croupier.semantics.model import Game
from croupier.syntax.printer import number_text

TERMS = {
    "shoe": (N_("Shoe"), N_("The box the shuffled decks are dealt from.")),
    "draw": (N_("Draw"), N_("To take one more card.")),
    "stand": (N_("Stand"), N_("To take no more cards.")),
    "push": (N_("Push"), N_("A bet that neither wins nor loses: the stake is returned.")),
    "commission": (N_("Commission"), N_("The share of a bet's winnings that the house keeps.")),
    "valid": (N_("Valid bet"), N_("The amount staked that the house counts in its records of play; it never "
                                  "changes what a bet wins or loses.")),
    "limits": (N_("Table limits"), N_("The smallest and the largest stake a room accepts on each bet.")),
    "squeeze": (N_("Squeeze"), N_("Turning a card over slowly, by the bettor who has the right to; it never "
                                  "changes the cards.")),
    "burn": (N_("Burn"), N_("Cards taken from a new shoe and set aside unseen before the first round.")),
    "cut": (N_("Cut card"), N_("A plastic card placed near the end of the shoe; when it comes out, the shoe is "
                               "about to end.")),
    "last": (N_("Last round"), N_("The final round dealt from a shoe.")),
    "void": (N_("Void round"), N_("A round the table cancels, for instance after a misdealt card: it is not "
                                  "settled and every stake on it is returned.")),
    "wild": (N_("Wild card"), N_("A card that stands for another card, as the rule of this card says.")),
    "type": (N_("Hand type"), N_("The class of a hand: hands compare by type first, and the type sets the "
                                 "multiplier.")),
    "multiplier": (N_("Multiplier"), N_("How many times the stake a hand of that type wins.")),
    "edge": (N_("House edge"), N_("What the house keeps on average per unit staked, over many rounds: a bet's "
                                  "expected loss.")),
    "fingerprint": (N_("Rules fingerprint"), N_("A code computed from the text of these rules. The engine that "
                                                "settles a round reports the same code, so a disputed round can be "
                                                "matched to this card.")),
}


def glossary(game: Game, lang: str, with_math: bool = False) -> list[dict]:
    """The terms this game's card uses: [{"term", "text"}], in the order of the card."""
    s = Sentences(game, lang)
    g = game
    payouts = [p for b in g.bets.values() for w in b.wins for p in w.payouts()]
    has = {
        "shoe": g.is_dealt_round and g.shoe is not None,
        "draw": bool(g.draws), "stand": bool(g.draws),
        "push": any(b.pushes for b in g.bets.values()),
        "commission": any(p.commission for p in payouts),
        "valid": g.valid_bets_none_when is not None or g.valid_bets_pushed_none,
        "limits": bool(g.rooms), "squeeze": g.squeeze is not None,
        "burn": bool(g.procedure.burn_reveal), "cut": g.procedure.cut_low is not None,
        "last": g.procedure.last_round is not None, "void": g.void_returns_stakes,
        "wild": g.wild is not None, "type": bool(g.types), "multiplier": bool(g.types),
        "edge": with_math, "fingerprint": True,
    }
    out = []
    for e in g.events.values():
        out.append({"term": e.label(lang), "text": s.p.sentence(s.cond(e.when)) + s.say(N_("."))})
    if g.is_dealt_round:  # a round's own named value (a payout table's key): what it stands for
        for f in g.formulas.values():
            if f.labels.texts and f.expr is not None:
                out.append({"term": f.label(lang), "text": s.p.sentence(s.words.say(f.expr)) + s.say(N_("."))})
    for t in g.types:  # every hand type (a bust among them), by its condition and multiplier
        if t.when is not None:
            out.append({"term": t.label(lang), "text": s.say(N_("%(cond)s; multiplier %(m)s."),
                                                             cond=s.p.sentence(s.cond(t.when)),
                                                             m=number_text(t.multiplier))})
    if g.settlement is not None:  # the amount each player stakes, when a formula sets it (the base bet)
        for line in g.settlement.stake_lines:
            if line.name in g.formulas:
                f = g.formulas[line.name]
                if f.expr is not None:
                    out.append({"term": f.label(lang), "text": s.p.sentence(s.words.say(f.expr)) + s.say(N_("."))})
    for c in g.classes.values():
        names = [g.joker_labels[r].get(lang, r) if r in g.joker_labels else r for r in c.ranks]
        out.append({"term": c.label(lang), "text": s.say(N_("The cards %(ranks)s."), ranks=" ".join(names))})
    for key, (term, text) in TERMS.items():
        if has[key]:
            out.append({"term": s.say(term), "text": s.say(text)})
        if key == "stand" and payouts:
            out.append({"term": s.say(N_("Odds")), "text": odds_entry(s, payouts)})
    return out


def odds_entry(s: Sentences, payouts) -> str:
    """What "X to 1" means, with a worked amount; and how to read odds written with the stake included."""
    p = payouts[0]
    text = s.say(N_("Odds of %(odds)s: a winning stake of 1 wins %(x)s, and the stake comes back as well; a stake of "
                    "100 returns %(back)s."), odds=s.odds(p), x=money(s.returns(p, Fraction(100)) / 100 - 1),
                 back=money(s.returns(p, Fraction(100))))
    including = next((q for q in payouts if q.style == "including"), None)
    if including is not None:
        text = s.p.sentences([text, s.say(STAKE_INCLUDED, inc=money(including.gross_multiple()), odds=s.odds(including))])
    return text
