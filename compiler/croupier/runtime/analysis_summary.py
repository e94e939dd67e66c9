"""Exact analysis of a dealt round: the exact figures, from every round an enumerator weighs.

An analysis companion (`<game>_analysis.py`) calls `analysis_of(engine, decks, game, plan)` with
its game's name and plan (what the rules read, `analysis_emitter.analysis_plan`), which picks
one of the two enumerators: `analysis_round` (fast: deals grouped by the facts the rules read)
or `analysis_general` (every card sequence a round can use, played by the engine). Both give
`Enumerator(engine, decks, plan).rounds()`: every distinct final
round with its weight over `denominator` ordered deals, and each hand's dealt
totals. `analysis_of` turns them into exact Fractions, calling the engine's own
outcome, events and bets on each round; it also says, for every bet, which of
its clauses can decide and which an earlier clause always covers.
"""

import weakref
from fractions import Fraction

from croupier.runtime.analysis_general import GeneralEnumerator
from croupier.runtime.analysis_round import RoundEnumerator
from croupier.runtime.analysis_weights import hand_round


def clauses_by_bet(engine):
    """Each bet's clause tests in the order written (from `BET_CLAUSES`)."""
    out = {name: [] for name in engine.BETS}
    for name, _kind, _i, test in engine.BET_CLAUSES:
        out[name].append(test)
    return out


def clause_facts(engine, r, rules):
    """For each bet, the truth of each of its clauses (`rules`, from `clauses_by_bet`) in a round; a clause
    whose condition cannot be told (it reads a card the round lacks) does not hold."""
    out = {}
    for name, tests in rules.items():
        vector = []
        for test in tests:
            try:
                vector.append(bool(test(r)))
            except engine.EngineError:
                vector.append(False)
        out[name] = tuple(vector)
    return out


def covered_clauses(seen):
    """{bet: {clause: the earlier clause that always covers it}} from the vectors of clause truths seen:
    clause j is covered by an earlier clause i when j holds in some round and i holds in every round j does."""
    out = {}
    for name, vectors in seen.items():
        for j in range(max((len(v) for v in vectors), default=0)):
            holding = [v for v in vectors if v[j]]
            if not holding:
                continue
            for i in range(j):
                if all(v[i] for v in holding):
                    out.setdefault(name, {})[j] = i
                    break
    return out


# engine -> {plan: ({round signature: result id}, {result: its id}, [results]): a round's result (its outcome, events,
# totals, bet returns and clause truths) is judged once per engine, whatever the number of decks (an analysis
# for several deck counts meets the same rounds), and rounds of one result are weighed together
JUDGED = weakref.WeakKeyDictionary()


def enumerator(engine, decks, plan):
    """The enumerator `plan` calls for (`analysis_general`'s when it has a "general" entry, else
    `analysis_round`'s) of `engine` for a shoe of `decks` decks: `.rounds()`, `.denominator`, `.cards`."""
    return (GeneralEnumerator if "general" in plan else RoundEnumerator)(engine, decks, plan)


def analysis_of(engine, decks, game, plan):
    """The exact analysis of one round of `engine`, the engine of `game` analysed by `plan`, from a full shoe
    of `decks` decks (None: the spec's).

    Returns exact Fractions: {"decks", "cards", "outcomes": {name: p}, "events": {name: p},
    "totals": {hand: {total: p}}, "two_card_totals": {hand: {total: p}}, "bets": {name:
    {"returns": {multiple: p}, "expected_return", "house_edge", "variance", "hit", "push",
    "scales_linearly"}}, "clauses": {bet: [whether clause i ever holds]}, "covered": {bet:
    {clause: earlier clause that always covers it}}}. A bet's return is what a unit stake gets
    back, stake included; clauses are counted from 0 in the order the spec writes them.
    Bad input raises the engine's EngineError; an engine of another game, ValueError.
    """
    if getattr(engine, "GAME", None) != game:
        raise ValueError(f"this is the analysis of the engine of {game!r}, not of {getattr(engine, 'GAME', engine)!r}")
    EngineError = engine.EngineError
    if not plan["supported"] and not plan.get("general"):
        raise EngineError(f"this game cannot be analysed exactly: {plan['reason']}")
    decks = engine.DECKS if decks is None else decks
    if not isinstance(decks, int) or isinstance(decks, bool) or not 1 <= decks <= 64:
        raise EngineError(f"the number of decks must be a whole number from 1 to 64, not {decks!r}")
    HANDS, EVENTS, BETS = engine.HANDS, engine.EVENTS, engine.BETS
    outcome_of, total = engine.outcome_of, engine.total
    en = enumerator(engine, decks, plan)
    finals, dealt_totals = en.rounds()
    d = en.denominator
    outcomes = {name: 0 for name in engine.OUTCOME_RULES}
    events = {name: 0 for name, _t in EVENTS}
    totals = [{} for _ in HANDS]
    returns = {name: {} for name in BETS}
    linear = {name: True for name in BETS}
    seen = {name: set() for name in BETS}
    rules = clauses_by_bet(engine)
    big = 10 ** 6
    judged = JUDGED.setdefault(engine, {}).get(repr(plan))
    if judged is None:
        judged = JUDGED[engine][repr(plan)] = ({}, {}, [])
    result_of, result_id, results = judged
    weights = {}  # result id -> weight of the rounds that give it
    for signature, (weight, codes) in finals.items():
        i = result_of.get(signature)
        if i is None:  # the round's results, the same whatever the shoe (its signature says what rules read)
            r = hand_round(engine, codes)
            r.outcome = outcome_of(r)
            r.cards_used = sum(len(c) for c in codes)
            result = (r.outcome, tuple(name for name, test in EVENTS if test(r)),
                      tuple(total(getattr(r, hand)) for hand in HANDS),
                      tuple((name, ret, bet(r, big) == ret * big)
                            for name, bet in BETS.items() for ret in (bet(r, 1),)),
                      tuple(clause_facts(engine, r, rules).items()))
            i = result_of[signature] = result_id.setdefault(result, len(results))
            if i == len(results):
                results.append(result)
        weights[i] = weights.get(i, 0) + weight
    for i, weight in weights.items():
        outcome, happened, hand_totals, bet_returns, clauses = results[i]
        outcomes[outcome] += weight
        for name in happened:
            events[name] += weight
        for h, t in enumerate(hand_totals):
            totals[h][t] = totals[h].get(t, 0) + weight
        for name, ret, scales in bet_returns:
            if not scales:
                linear[name] = False
            returns[name][ret] = returns[name].get(ret, 0) + weight
        for name, vector in clauses:
            seen[name].add(vector)
    if sum(outcomes.values()) != d:
        raise EngineError("the enumeration lost some deals (a bug in the analysis)")
    out = {
        "decks": decks,
        "cards": en.cards,
        "outcomes": {k: Fraction(v, d) for k, v in outcomes.items()},
        "events": {k: Fraction(v, d) for k, v in events.items()},
        "totals": {hand: {t: Fraction(w, d) for t, w in sorted(totals[h].items())} for h, hand in enumerate(HANDS)},
        "two_card_totals": {hand: {t: Fraction(w, d) for t, w in sorted(dealt_totals[h].items())}
                            for h, hand in enumerate(HANDS)},
        "bets": {},
        "clauses": {name: [any(v[i] for v in vectors) for i in range(len(rules[name]))]
                    for name, vectors in seen.items()},
        "covered": covered_clauses(seen),
    }
    for name, dist in returns.items():
        probs = {m: Fraction(w, d) for m, w in sorted(dist.items())}
        mean = sum((m * p for m, p in probs.items()), Fraction(0))
        second = sum((m * m * p for m, p in probs.items()), Fraction(0))
        out["bets"][name] = {
            "returns": probs,
            "expected_return": mean,
            "house_edge": 1 - mean,
            "variance": second - mean * mean,
            "hit": sum((p for m, p in probs.items() if m > 1), Fraction(0)),
            "push": probs.get(1, Fraction(0)),
            "scales_linearly": linear[name],
        }
    return out
