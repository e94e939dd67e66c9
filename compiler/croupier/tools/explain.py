"""Explain a round, a hand or a table step by step, for a person settling a dispute.

Every answer names the rules it was settled under (`rules`: the game, the spec's
`version` and `effective` date, and the fingerprint of the spec texts), as the
rule card does, so that a disputed round points at one card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a round is explained from its engine alone: `play --cards` needs no model
    from croupier.semantics.model import Game


def with_rules(out: dict, engine) -> dict:
    """The answer, with the rules its engine was built from (`rules`)."""
    out["rules"] = {"game": engine.GAME, "version": getattr(engine, "RULES_VERSION", None),
                    "effective": getattr(engine, "RULES_EFFECTIVE", None),
                    "fingerprint": getattr(engine, "RULES_FINGERPRINT", None)}
    return out


def rules_line(engine) -> str:
    """The rules an answer was settled under, in one line of text."""
    rules = with_rules({}, engine)["rules"]
    return (f"rules: {rules['game']} version {rules['version'] or '(none stated)'}, effective "
            f"{rules['effective'] or '(no date stated)'}, fingerprint {rules['fingerprint']}")


def explain_round(engine, cards: str, bets: dict, room: str | None) -> tuple[dict, str]:
    """Adjudicate one round with every step and the rule that decided it: from the engine alone (its title,
    hands and events), so that `play --cards` may take it from the disk cache without the model."""
    if room is not None:
        engine.check_limits(room, bets)
    r = engine.play(cards, explain=True)
    record = engine.record(r)
    returns = {k: engine.amount_json(v) for k, v in engine.settle(r, bets).items()}
    record["returns"] = returns
    record["steps"] = [{k: (list(v) if isinstance(v, tuple) else v) for k, v in s.items()} for s in r.steps]
    lines = [engine.TITLE]
    n = 0
    for s in r.steps:
        n += 1
        if s["step"] == "deal":
            lines.append(f"{n:>2}. deal {s['card']} to {s['hand']}   ({s['rule']})")
        elif s["step"] == "stand all":
            lines.append(f"{n:>2}. nobody draws   ({s['rule']})")
        elif s["step"] in ("draw", "stand"):
            key = s["key"]
            act = f"draws {s['card']}" if s["step"] == "draw" else "stands"
            if key is None:  # a hand that draws while a condition holds: no table, no cell
                why = "the condition holds" if s["step"] == "draw" else "the condition no longer holds"
            else:
                why = "cell " + (" × ".join(str(k) for k in key) if isinstance(key, tuple) else str(key))
            lines.append(f"{n:>2}. {s['hand']} {act}: {why}   ({s['rule']})")
        elif s["step"] == "outcome":
            lines.append(f"{n:>2}. outcome: {s['outcome']}   ({s['rule']})")
    totals = ", ".join(f"{h} {' '.join(record[h])} = {record[h + '_total']}" for h in engine.HANDS)
    lines.append(f"    totals: {totals}")
    flags = [name for name, _test in engine.EVENTS if record.get(name)]
    if flags:
        lines.append(f"    events: {', '.join(flags)}")
    lines.append(f"    cards used: {record['cards_used']}")
    for name, value in returns.items():
        lines.append(f"    bet {name} {bets[name]} returns {value}")
    lines.append(f"    {rules_line(engine)}")
    return with_rules(record, engine), "\n".join(lines)


def explain_hand(game: Game, engine, hand: str) -> tuple[dict, str]:
    """Evaluate one hand and show the wild substitution chosen."""
    data = engine.adjudicate({"hand": hand})
    text = [f"hand {' '.join(engine.parse_cards(hand))}: {data['type']} ({data['label']}), points {data['points']}"]
    if data.get("substitution"):
        subs = ", ".join(f"{code} as {rank} (card {pos + 1})" for pos, code, rank in engine.evaluate(hand).substitution)
        text.append(f"wild substitution: {subs}")
    elif data.get("wild"):
        text.append("holds a wild card")
    text.append(rules_line(engine))
    return with_rules(data, engine), "\n".join(text)


def explain_table(game: Game, engine, table: dict) -> tuple[dict, str]:
    """Settle one table and show the order, every transfer and the nets."""
    data = engine.adjudicate(table)
    lines = []
    for seat, h in data["hands"].items():
        lines.append(f"{seat}: {h['type']} {h['points']}{' (wild)' if h.get('wild') else ''}")
    stake = game.settlement.stake if game.settlement is not None else None
    for name in game.formulas:
        if name in data:
            what = f"base bet ({name})" if name == stake else name
            lines.append(f"{what}: {data[name]}")
    if "order" in data:
        lines.append(f"order: {' > '.join(data['order'])}")
    for seat, who in data.get("results", {}).items():
        lines.append(f"{seat} vs banker: {who} wins")
    for t in data["transfers"]:
        lines.append(f"{t['from']} pays {t['to']} {t['amount']}")
    lines.append("net: " + ", ".join(f"{k} {v if str(v).startswith('-') or str(v) == '0' else '+' + str(v)}"
                                     for k, v in data["net"].items()))
    lines.append(rules_line(engine))
    return with_rules(data, engine), "\n".join(lines)
