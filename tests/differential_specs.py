"""Specs generated from the language's own constructs, and the brute force they are held to.

`specs()` draws a dealt-round spec over a small deck (two to four ranks, one or two suits, one or two decks):
card values (several ranks of one value, a single card valued apart), a card class, soft totals or a total
modulo a small number, a hand that draws while a condition holds, a draw grid (with a `when`), events,
a `let`, and bets of ordered clauses with payout tables, commission and half losses. Conditions read totals,
counts, values, ranks, suits, single cards, card positions, pairs and soft totals. Each deal of such a shoe
can be listed, so every figure the exact analysis gives is checked against `enumerate_play`: every ordered
deal played through the engine's own `play` and `settle` (`brute_force`). `mutated()` changes one rule of a
spec (a draw condition, a grid cell, the outcome), for `croupier diff`'s shares of rounds.

Used by tests/test_differential.py (a few examples, in CI) and benchmarks/differential.py (many).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from enumerate_play import joint_rounds, rounds
from hypothesis import strategies as st

from croupier.backends.engine.analysis_emitter import emit_analysis_module
from croupier.backends.engine.emitter import emit_engine
from croupier.backends.engine.loader import load_engine
from croupier.semantics.resolve import Loader

RANKS = ("A", "2", "3", "4", "K", "Q")
SUITS = ("S", "H")


@dataclass
class Spec:
    """A generated spec: its text, and what the generator knows of it."""

    text: str
    ranks: tuple[str, ...]
    suits: tuple[str, ...]
    decks: int
    modulus: int | None
    lines: dict[int, tuple[str, int]] = field(default_factory=dict)  # line of a bet clause -> (bet, clause)


@st.composite
def conditions(draw, hand: str, spec: dict, after: bool = False) -> str:
    """A condition on `hand` (or on both hands) reading one of the things a rule can read of cards."""
    other = "b" if hand == "p" else "p"
    ranks, suits = spec["ranks"], spec["suits"]
    options = [
        lambda: f"total({hand}) < {draw(st.integers(0, 5))}",
        lambda: f"total({hand}) >= {draw(st.integers(1, 5))}",
        lambda: f"same_rank({hand})",
        lambda: f"not same_rank({hand})",
        lambda: f"rank(last({hand})) = {draw(st.sampled_from(ranks))}",
        lambda: f"rank(first({hand})) = rank(first({other}))",
        lambda: f"rank(first({hand})) != {draw(st.sampled_from(ranks))}",
        lambda: f"suit(last({hand})) = {draw(st.sampled_from(suits))}",
        lambda: f"same_suit({hand})",
        lambda: f"value(last({hand})) = {draw(st.integers(0, 2))}",
        lambda: f"count({hand}, face) >= 1",
        lambda: f"count({hand}, {draw(st.sampled_from(ranks))}) >= 1",
        lambda: f"count({hand}, {draw(st.sampled_from(suits))}) = 1",
        lambda: f"first({hand}) = {draw(st.sampled_from(ranks))}{draw(st.sampled_from(suits))}",
        lambda: f"value(first({hand})) > value(first({other}))",
    ]
    if spec["soft"]:
        options.append(lambda: f"soft({hand})")
    if spec["dealt"][hand] >= 2:
        options += [lambda: f"same_rank(first2({hand}))", lambda: f"rank(card({hand}, 2)) = {draw(st.sampled_from(ranks))}"]
    if after:
        options += [lambda: f"drew({hand})", lambda: f"count({hand}) = {draw(st.integers(1, 3))}"]
    first = draw(st.sampled_from(options))()
    if draw(st.integers(0, 3)) == 0:
        return f"{first} {draw(st.sampled_from(['and', 'or']))} {draw(st.sampled_from(options))()}"
    return first


@st.composite
def specs(draw) -> Spec:
    ranks = tuple(sorted(draw(st.sets(st.sampled_from(RANKS), min_size=2, max_size=4)), key=RANKS.index))
    suits = SUITS[:draw(st.integers(1, 2))]
    per_deck = len(ranks) * len(suits)
    decks = draw(st.integers(1, 2)) if per_deck <= 4 else 1
    if per_deck * decks < 6:
        decks = 2 if per_deck * 2 >= 6 else decks
    if per_deck * decks < 6:  # too few cards for every round: take a second suit
        suits = SUITS
        per_deck, decks = len(ranks) * 2, 2 if len(ranks) * 2 < 6 else 1
    values = {r: draw(st.integers(0, 2)) for r in ranks}
    soft_rank = draw(st.sampled_from(ranks)) if draw(st.integers(0, 3)) == 0 else None
    modulus = None if soft_rank else draw(st.sampled_from([None, 3, 4]))
    deal = draw(st.sampled_from(["p, b", "p, b, p, b", "p, p, b", "p, b, b"]))
    dealt = {h: deal.replace(" ", "").split(",").count(h) for h in "pb"}
    info = {"ranks": ranks, "suits": suits, "soft": soft_rank is not None, "dealt": dealt}
    face = draw(st.sets(st.sampled_from(ranks), min_size=1, max_size=2))

    out = ['game g "G"', f"deck short = ranks {' '.join(ranks)}, suits {' '.join(suits)}",
           f"shoe {decks} deck{'s' if decks > 1 else ''} of short"]
    groups: dict[int, list[str]] = {}
    for r, v in values.items():
        groups.setdefault(v, []).append(r)
    parts = [f"{' '.join(rs)} = {v}" for v, rs in groups.items()]
    if draw(st.booleans()):  # a single card valued apart from its rank
        card = draw(st.sampled_from(ranks)) + suits[-1]
        if card[:-1] != soft_rank:
            parts.append(f"{card} = {draw(st.integers(0, 3))}")
    out.append("value " + ", ".join(parts))
    out.append(f'class face "F" = {" ".join(sorted(face, key=RANKS.index))}')
    if soft_rank:
        low = values[soft_rank]
        out.append(f"total sum, {soft_rank} counts {low} or {low + 2}, best not over {draw(st.integers(3, 5))}")
    else:
        out.append("total sum" + (f" mod {modulus}" if modulus else ""))
    out += ['hand p "P"', 'hand b "B"', f"deal {deal}"]
    if draw(st.booleans()):
        out.append(f'event e1 "E1" when {draw(conditions("p", info))}')
    stand = f"stand all when {draw(conditions('b', info))}" if draw(st.integers(0, 3)) == 0 else None
    if draw(st.integers(0, 4)) > 0:  # p draws while a condition holds, at most two cards more
        most = dealt["p"] + draw(st.integers(1, 2))
        out.append(f"draw p while count(p) < {most} and ({draw(conditions('p', info))})")
    if modulus and draw(st.booleans()):  # a grid, with a `when` or not
        when = f" when {draw(conditions('b', info))}" if draw(st.booleans()) else ""
        cells = " ".join(draw(st.sampled_from("DS")) for _ in range(modulus))
        out += [f"draw b{when} by total(b)", f"    | {' '.join(str(k) for k in range(modulus))} |", f"    | {cells} |"]
    if stand and any(line.startswith("draw ") for line in out):  # (a stand rule with no draw rule: no engine)
        out.insert(next(i for i, line in enumerate(out) if line.startswith("draw ")), stand)
    score = draw(st.sampled_from(["total({h})", "total({h})", "count({h}, face)", "total({h}) + count({h}, K)"]))
    if "K" not in ranks:
        score = score.replace(" + count({h}, K)", "")
    sp, sb = score.format(h="p"), score.format(h="b")
    out += [f'outcome pw "P" when {sp} > {sb}', f'outcome bw "B" when {sb} > {sp}', f'outcome tie "T" when {sp} = {sb}']
    out.append("let margin = total(p) - total(b)")
    if draw(st.booleans()):
        out.append(f'event e2 "E2" when outcome is tie and {draw(conditions("b", info, after=True))}')
    lines: dict[int, tuple[str, int]] = {}
    for i in range(draw(st.integers(1, 3))):
        out.append(f'bet b{i} "B{i}"')
        clauses = []
        for _ in range(draw(st.integers(1, 3))):
            kind = draw(st.integers(0, 6))
            cond = draw(conditions(draw(st.sampled_from("pb")), info, after=True))
            if kind == 0:
                clauses.append([f"wins when outcome is pw, pays {draw(st.integers(1, 3))} to 1"])
            elif kind == 1:
                clauses.append([f"push when {draw(st.sampled_from(['outcome is tie', cond]))}"])
            elif kind == 2:
                clauses.append([f"wins when {cond}, pays {draw(st.integers(1, 9))} to {draw(st.integers(1, 2))}"])
            elif kind == 3:
                clauses.append([f"loses half when {cond}"])
            elif kind == 4:
                clauses.append([f"loses when {cond}"])
            elif kind == 5:
                clauses.append(["wins when outcome is pw, pays 1 to 1 less 5% commission rounded half-up to 0.01"])
            else:
                clauses.append(["wins when outcome is pw, pays by margin", "    | 1 | 1 to 1 |",
                                f"    | 2..9 | {draw(st.integers(2, 5))} to 1 |", "    | e2 | 7 to 1 |"]
                               if "e2" in " ".join(out) else ["wins when outcome is pw, pays by margin",
                                                              "    | 1 | 1 to 1 |", "    | 2..9 | 3 to 1 |"])
        if not any(c[0].startswith("wins") for c in clauses):
            clauses.append([f"wins when {draw(conditions('p', info, after=True))}, pays 2 to 1"])
        for k, clause in enumerate(clauses):
            lines[len(out) + 1] = (f"b{i}", k)
            out += ["    " + clause[0]] + ["    " + row for row in clause[1:]]
    return Spec("\n".join(out) + "\n", ranks, suits, decks, modulus, lines)


@st.composite
def mutated(draw, spec: Spec) -> str:
    """The spec with one rule of play changed: a draw condition, a grid cell, or who wins a tie."""
    lines = spec.text.splitlines()
    choices = []
    for i, line in enumerate(lines):
        if line.startswith("draw p while count(p) < "):
            n = int(line.split("< ")[1].split(" ")[0])
            choices.append((i, line.replace(f"count(p) < {n}", f"count(p) < {n + 1}", 1)))
            choices.append((i, line.replace(" and (", " and (total(p) < 2 or ", 1)))
        if line.startswith("    | ") and ("D" in line or "S" in line) and "to" not in line:
            cells = line.split("|")[1].split()
            k = draw(st.integers(0, len(cells) - 1))
            cells[k] = "S" if cells[k] == "D" else "D"
            choices.append((i, f"    | {' '.join(cells)} |"))
        if line.startswith("outcome bw "):
            choices.append((i, line.replace(" > ", " >= ")))
    i, new = draw(st.sampled_from(choices))
    if lines[i].startswith("outcome bw ") and ">=" in new:  # bw now takes the ties: tie never happens
        tie = next(j for j, x in enumerate(lines) if x.startswith("outcome tie "))
        sp = lines[tie].split(" when ")[1].split(" = ")[0]
        lines[tie] = lines[tie] + f" and {sp} < {sp}"
    lines[i] = new
    return "\n".join(lines) + "\n"


def load(text: str, name: str = "g"):
    """(game, engine, analysis companion) of a spec text, or (None, diagnostics) when it does not resolve."""
    game, diags = Loader().load(f"{name}.rules", text)
    if game is None or any(d.is_error for d in diags):
        return None, diags
    engine = load_engine(emit_engine(game, f"{name}.rules"), f"differential_{name}")
    companion = load_engine(emit_analysis_module(game, f"{name}.rules"), f"differential_{name}_analysis")
    return (game, engine, companion), diags


def shoe_of(game) -> list[str]:
    """Every card of the game's shoe, copies repeated."""
    return [code for code in game.shoe.cards] * game.shoe.decks


@dataclass
class Truth:
    """What every ordered deal, played through the engine's `play` and `settle`, gives."""

    deals: int = 0
    outcomes: dict = field(default_factory=dict)
    events: dict = field(default_factory=dict)
    returns: dict = field(default_factory=dict)  # bet -> {unit return: probability}
    clauses: dict = field(default_factory=dict)  # (bet, clause) -> whether it ever holds
    covered: dict = field(default_factory=dict)  # (bet, clause) -> earlier clauses that hold whenever it does


def brute_force(engine, shoe: list[str]) -> Truth:
    t = Truth(outcomes={o: Fraction(0) for o in engine.OUTCOME_RULES},
              events={name: Fraction(0) for name, _test in engine.EVENTS},
              returns={name: {} for name in engine.BETS})
    tests: dict[str, list] = {}
    for bet, _kind, _i, test in engine.BET_CLAUSES:
        tests.setdefault(bet, []).append(test)
    for r, p in rounds(engine, shoe):
        t.deals += 1
        t.outcomes[r.outcome] += p
        for name, test in engine.EVENTS:
            if test(r):
                t.events[name] += p
        for name, back in engine.settle(r, {name: 1 for name in engine.BETS}).items():
            t.returns[name][back] = t.returns[name].get(back, 0) + p
        for bet, clause_tests in tests.items():
            holds = []
            for test in clause_tests:
                try:
                    holds.append(bool(test(r)))
                except engine.EngineError:
                    holds.append(False)
            for j, h in enumerate(holds):
                t.clauses[(bet, j)] = t.clauses.get((bet, j), False) or h
                if h:
                    before = {i for i in range(j) if holds[i]}
                    t.covered[(bet, j)] = t.covered.get((bet, j), before) & before
    return t


def compare_analysis(a: dict, t: Truth) -> list[str]:
    """Every figure of the exact analysis `a` that the brute force `t` contradicts (none when all agree)."""
    wrong = []
    for name, p in t.outcomes.items():
        if a["outcomes"].get(name, 0) != p:
            wrong.append(f"outcome {name}: analysis {a['outcomes'].get(name)} != {p}")
    for name, p in t.events.items():
        if a["events"].get(name, 0) != p:
            wrong.append(f"event {name}: analysis {a['events'].get(name)} != {p}")
    for name, dist in t.returns.items():
        got = {m: p for m, p in a["bets"][name]["returns"].items() if p}
        want = {Fraction(m): p for m, p in dist.items() if p}
        if got != want:
            wrong.append(f"bet {name}: analysis returns {got} != {want}")
        mean = sum((m * p for m, p in want.items()), Fraction(0))
        if a["bets"][name]["expected_return"] != mean:
            wrong.append(f"bet {name}: expected return {a['bets'][name]['expected_return']} != {mean}")
    return wrong


def compare_diff(r: dict, old, new, shoe: list[str]) -> tuple[list[str], int]:
    """What `compare_rounds` result `r` says that enumerating both engines on one shoe contradicts, and the
    number of joint deals enumerated."""
    played = changed = Fraction(0)
    deals = 0
    for a, b, p in joint_rounds(old, new, shoe):
        deals += 1
        if any(list(getattr(a, h)) != list(getattr(b, h)) for h in old.HANDS):
            played += p
        if a.outcome != b.outcome:
            changed += p
    wrong = []
    if r["played_differently"] != played:
        wrong.append(f"played differently: diff {r['played_differently']} != {played}")
    if r["outcome_changes"] != changed:
        wrong.append(f"outcome changes: diff {r['outcome_changes']} != {changed}")
    return wrong, deals
