"""Example deals: one real round for each changed rule, played by both versions.

A flipped cell's example comes from the joint enumeration (`rounds`): the first
deal, in enumeration order, where the versions first part at that cell. A changed
bet's example is the first round of the new version's exact enumeration (one
representative round of each group of deals it tells apart) on which the bet
returns another amount per unit staked under each version. Every example is
played again by both engines from its cards in dealing order, so what the report
shows is what the engines do.
"""

from __future__ import annotations

from croupier.tools.diff.money import companion


def dealing_order(engine, hands: tuple[tuple[str, ...], ...]) -> list[str]:
    """The cards of a round's hands in the order the engine deals them (deal order, then draws in turn)."""
    left = {h: list(cards) for h, cards in zip(engine.HANDS, hands)}
    out = [left[h].pop(0) for h in engine.DEAL_ORDER]
    for hand, _decide in engine.DRAWERS:
        if left[hand]:
            out.append(left[hand].pop(0))
    return out


def distinct(engine, cards: list[str]) -> list[str]:
    """The same cards with repeated ones moved to the rank's next suits (as a shoe of several decks deals
    them), so that an example reads as real cards; ranks, and so every rule's reading, stay."""
    seen: dict[str, int] = {}
    out = []
    for code in cards:
        rank = code[:-1] if code[:-1] in engine.RANKS else code
        k = seen.get(rank, 0)
        seen[rank] = k + 1
        out.append(code if rank == code else rank + engine.SUITS[k % len(engine.SUITS)])
    return out


def played(engine, cards: list[str], bets: list[str]) -> dict:
    """One round as the report shows it: each hand's cards and total, the outcome, unit returns."""
    r = engine.play(cards)
    out = {"hands": {h: list(getattr(r, h)) for h in engine.HANDS},
           "totals": {h: engine.total(getattr(r, h)) for h in engine.HANDS}, "outcome": r.outcome}
    if bets:
        out["returns"] = {b: engine.BETS[b](r, 1) for b in bets if b in engine.BETS}
    return out


def example(old, new, cards: list[str], bets: list[str] = ()) -> dict:
    """The cards and how each version plays them."""
    return {"cards": cards, "old": played(old.engine, cards, list(bets)), "new": played(new.engine, cards, list(bets))}


def bet_examples(old, new, names: list[str]) -> dict[str, dict]:
    """{bet: example} for the bets (of both versions) whose unit return differs on some round."""
    exact = companion(new.game, new.shown)
    en = exact.Enumerator(new.engine, new.game.shoe.decks)
    finals, _totals = en.rounds()
    pending = [n for n in names if n in old.engine.BETS and n in new.engine.BETS]
    found: dict[str, dict] = {}
    for _weight, hands in finals.values():
        if not pending:
            break
        cards = distinct(new.engine, dealing_order(new.engine, hands))
        try:
            a, b = old.engine.play(cards), new.engine.play(cards)
        except (old.engine.EngineError, new.engine.EngineError):
            continue
        for name in list(pending):
            if old.engine.BETS[name](a, 1) != new.engine.BETS[name](b, 1):
                found[name] = example(old, new, cards, [name])
                pending.remove(name)
    return found
