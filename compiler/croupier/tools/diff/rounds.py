"""What a rule change does in play, exactly: the rounds (or seat hands) it affects, and example deals.

Rounds: both versions of a dealt-round game play the same shoe.

Every ordered deal of a full shoe is enumerated once, with card removal, and
played by both engines at the same time: the deal, then each version's draws in
turn, each version taking the next card of the one shared card order when it
draws. Where one version draws and the other stands, the shoe order goes on
for both, so each keeps playing the cards it would really get. Each round is
weighed by its exact probability; the result says which share of rounds is
played differently (some hand holds other cards), which share ends with another
outcome, which draw-table cells each version consults (the share of rounds that
reach a cell), and where the two versions first part (a cell, the stand rule, or
the outcome rules), with the first deal of each kind as an example.

Cards are grouped as the exact analysis groups them (`analysis_emitter`): by
their values in both versions, or by rank when a rule compares ranks; deals are
grouped by the facts of each hand the rules read and by the cards they removed,
and each decision or outcome is the engine's own function, asked once per
distinct fact state on a representative round. That walk plays at most one draw
a drawer, with plain totals: when either version has a hand that draws while a
condition holds, soft totals, single cards valued apart or rules that read more
of a card than those facts, the versions are compared by `compare_played`
instead: every sequence of the classes of cards neither version tells apart
(`card_reads`), grown one card while either version's round asks for another,
played through both engines' own `play`.

`rounds_compared` is `compare_rounds` kept in the cache (`croupier.cache`), under
everything it reads: the deck count, each engine's source digest, and of each game
the facts its rules read and its draw tables' names and descriptions.

Seat hands (`compare_hands`): the hands of a seat game whose type changes between two versions, counted
over every hand the deck makes. Every hand of every size the versions allow is a multiset of cards; ranks that
neither version tells apart (same value, classes and wildness in both) are one
class, and a multiset of classes stands for the product of binomial counts of
real hands. Each is evaluated by both engines (`evaluate`, wild substitution
included); a hand counts when its type changes, or when its type's place in the
order of types (its rank among hand types) changes.

Example deals (`example`, `bet_examples`): one real round for each changed rule, played by both
versions. A flipped cell's example comes from the joint enumeration (`compare_rounds`): the first deal, in enumeration order, where the versions first part at that cell. A changed
bet's example is the first round of the new version's exact enumeration (one
representative round of each group of deals it tells apart) on which the bet
returns another amount per unit staked under each version. Every example is
played again by both engines from its cards in dealing order, so what the report
shows is what the engines do.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations_with_replacement
from math import comb

from croupier.backends.engine.analysis_emitter import GENERAL_LIMIT, FactReader, Unsupported, emit_analysis_module
from croupier.backends.engine.loader import shared_engine
from croupier.cache import cached
from croupier.semantics.card_reads import card_classes
from croupier.semantics.model import Game


class NotComparable(Exception):
    """The two versions cannot be played on one shoe (other cards, or rules the analysis cannot group)."""


def falling(n: int, k: int) -> int:
    out = 1
    for i in range(k):
        out *= n - i
    return out


def read_facts(game: Game) -> set[tuple[str, str]]:
    """The (fact, hand) pairs the play and the outcome of a round read (draw tables, stand rule, outcomes)."""
    reader = FactReader(game)
    try:
        facts = set().union(set(), *(reader.read(x) for t in game.draws for x in (t.when, t.row_key, t.col_key)))
        facts |= reader.read(game.stand_when)
        for o in game.outcomes.values():
            facts |= reader.read(o.when)
    except Unsupported as exc:
        raise NotComparable(f"{game.name}: {exc}") from None
    return facts


class Version:
    """One version's engine and the memos of its decisions and outcomes."""

    def __init__(self, engine, tables: dict[str, str]) -> None:
        self.engine = engine
        self.tables = tables  # the rule text a decider returns -> the table's description
        self.drawers = engine.DRAWERS
        self.modulus = engine.MODULUS
        self.stands: dict = {}
        self.decisions: dict = {}
        self.outcomes: dict = {}

    def round_of(self, codes: list[list[str]]):
        r = self.engine.Round()
        for hand, cards in zip(self.engine.HANDS, codes):
            setattr(r, hand, list(cards))
        return r

    def stand(self, key, codes) -> bool:
        got = self.stands.get(key)
        if got is None:
            got = self.stands[key] = bool(self.engine.stand_all(self.round_of(codes)))
        return got

    def decide(self, step: int, key, codes) -> tuple[tuple, bool]:
        got = self.decisions.get((step, key))
        if got is None:
            rule, cell, draws = self.drawers[step][1](self.round_of(codes))
            got = self.decisions[(step, key)] = ((self.tables.get(rule, rule), cell), bool(draws))
        return got

    def outcome(self, key, codes) -> str:
        got = self.outcomes.get(key)
        if got is None:
            got = self.outcomes[key] = self.engine.outcome_of(self.round_of(codes))
        return got


class Joint:
    """Both versions played on every deal of one shoe (see the module's docstring)."""

    def __init__(self, old: tuple[Game, object], new: tuple[Game, object], decks: int) -> None:
        (g_old, e_old), (g_new, e_new) = old, new
        if tuple(e_old.HANDS) != tuple(e_new.HANDS):
            raise NotComparable("the two versions deal to other hands")
        if len(e_old.DEAL_ORDER) != len(e_new.DEAL_ORDER):
            raise NotComparable("the two versions deal another number of cards")
        cards_old = (tuple(e_old.RANKS), tuple(e_old.SUITS), tuple(e_old.JOKERS))
        if cards_old != (tuple(e_new.RANKS), tuple(e_new.SUITS), tuple(e_new.JOKERS)):
            raise NotComparable("the two versions deal from other cards")
        facts = read_facts(g_old) | read_facts(g_new)
        self.by_rank = any(f in ("pair", "pair2") for f, _h in facts)
        self.versions = [Version(e, {getattr(e, t.ident + "_RULE", t.describe()): t.describe() for t in g.draws})
                         for g, e in ((g_old, e_old), (g_new, e_new))]
        self.hands = tuple(e_old.HANDS)
        self.deal = [[self.hands.index(h) for h in e.DEAL_ORDER] for e in (e_old, e_new)]
        ranks, suits, jokers = cards_old
        held = [(r, decks * len(suits), r + suits[0]) for r in ranks] + [(j, decks, j) for j in jokers]
        held = [x for x in held if x[0] in e_old.VALUE and x[0] in e_new.VALUE]
        merged: dict = {}
        for i, (r, n, code) in enumerate(held):
            key = i if self.by_rank else (e_old.VALUE[r], e_new.VALUE[r])
            if key in merged:
                merged[key][3] += n
                merged[key][4].append(r)
            else:
                merged[key] = [code, e_old.VALUE[r], e_new.VALUE[r], n, [r]]
        self.classes = [tuple(x[:4]) for x in merged.values()]
        self.class_ranks = [x[4] for x in merged.values()]
        self.cards = sum(c[3] for c in self.classes)
        self.dealt = len(e_old.DEAL_ORDER)
        self.slots = self.dealt + max(len(e_old.DRAWERS), len(e_new.DRAWERS))
        self.denominator = falling(self.cards, self.slots)
        self.decks = decks
        self.known: dict = {}  # (version, classes held) -> that hand's facts (`hand_facts`)

    # ---- facts of hands -------------------------------------------------------------------------
    def hand_facts(self, v: int, held: tuple[int, ...]) -> tuple:
        """The facts the rules of version v read of a hand holding these card classes, worked out once a hand."""
        got = self.known.get((v, held))
        if got is None:
            got = self.known[(v, held)] = self._hand_facts(v, held)
        return got

    def _hand_facts(self, v: int, held: tuple[int, ...]) -> tuple:
        classes, modulus = self.classes, self.versions[v].modulus
        values = [classes[c][1 + v] for c in held]
        total = sum(values)
        first2 = sum(values[:2])
        if modulus:
            total, first2 = total % modulus, first2 % modulus
        third = values[2] if len(values) > 2 else None
        if not self.by_rank:
            return (len(held), total, third, first2)
        pair2 = len(held) >= 2 and held[0] == held[1]
        return (len(held), total, third, first2, pair2, len(set(held)) == 1)

    def facts(self, v: int, hands: tuple[tuple[int, ...], ...]) -> tuple:
        return tuple(self.hand_facts(v, h) for h in hands)

    def codes(self, hands: tuple[tuple[int, ...], ...]) -> list[list[str]]:
        return [[self.classes[c][0] for c in h] for h in hands]

    # ---- one version's play -----------------------------------------------------------------------
    def advance(self, v: int, state: tuple, seq: list[int]) -> tuple[tuple, bool]:
        """Play version v on as far as the shared cards `seq` go: (state, whether it needs another card).
        A state is (next step, hands, cards of `seq` used, decisions taken so far); step -1: the stand rule."""
        step, hands, used, taken = state
        ver = self.versions[v]
        if step == -1:
            key = self.facts(v, hands)
            stood = ver.stand(key, self.codes(hands))
            taken += (("stand all", None, stood),)
            if stood:
                return (len(ver.drawers), hands, used, taken), False
            step = 0
        while step < len(ver.drawers):
            (where, draws) = ver.decide(step, self.facts(v, hands), self.codes(hands))
            if draws:
                if used >= len(seq):
                    return (step, hands, used, taken), True
                h = self.hands.index(ver.drawers[step][0])
                hands = hands[:h] + (hands[h] + (seq[used],),) + hands[h + 1:]
                used += 1
            taken += ((where[0], where[1], draws),)
            step += 1
        return (step, hands, used, taken), False

    # ---- every deal ----------------------------------------------------------------------------------
    def deals(self) -> dict:
        """{(facts of both versions, cards removed): [weight, class sequence]} over every ordered deal."""
        groups: dict = {}
        counts = [c[3] for c in self.classes]
        n = len(self.classes)

        def walk(seq: list[int], weight: int) -> None:
            if len(seq) == self.dealt:
                hands = [self.dealt_hands(v, seq) for v in (0, 1)]
                removed = tuple(sorted(seq))
                key = (self.facts(0, hands[0]), self.facts(1, hands[1]), hands[0] == hands[1], removed)
                g = groups.get(key)
                if g is None:
                    groups[key] = [weight, tuple(seq)]
                else:
                    g[0] += weight
                return
            for c in range(n):
                if counts[c]:
                    w = weight * counts[c]
                    counts[c] -= 1
                    seq.append(c)
                    walk(seq, w)
                    seq.pop()
                    counts[c] += 1

        walk([], 1)
        return groups

    def dealt_hands(self, v: int, seq) -> tuple[tuple[int, ...], ...]:
        hands: list[list[int]] = [[] for _ in self.hands]
        for pos, h in enumerate(self.deal[v]):
            hands[h].append(seq[pos])
        return tuple(tuple(h) for h in hands)

    def rounds(self):
        """Every round of both versions, grouped: yields (weight over `denominator`, an example deal
        (classes), the classes drawn after it, (hands, decisions, outcome) of the old version, the same
        of the new, whether the dealt hands are alike). Deals with the same facts share one walk of
        the draws; each draw weighs the cards of its class that the deal and earlier draws left."""
        fill = [falling(self.cards - k, self.slots - k) for k in range(self.slots + 1)]
        alike: dict = {}
        for (f0, f1, same, removed), (weight, dealt) in sorted(self.deals().items(), key=lambda kv: kv[1][1]):
            alike.setdefault((f0, f1, same), []).append((removed, weight, dealt))
        for (_f0, _f1, same), groups in alike.items():
            first = groups[0][2]
            starts = [(-1, self.dealt_hands(v, first), 0, ()) for v in (0, 1)]
            leaves = list(self.walk([], starts))
            totals = [0] * len(leaves)
            examples: list = [None] * len(leaves)
            for removed, weight, dealt in groups:
                left = [c[3] for c in self.classes]
                for c in removed:
                    left[c] -= 1
                for i, (path, _ends) in enumerate(leaves):
                    w = weight
                    for k, c in enumerate(path):
                        w *= left[c] - path[:k].count(c)
                    if w > 0:
                        totals[i] += w * fill[self.dealt + len(path)]
                        if examples[i] is None:
                            examples[i] = dealt
            for (path, ends), total, example in zip(leaves, totals, examples):
                if total:
                    yield total, example, path, ends[0], ends[1], same

    def walk(self, seq: list[int], states: list[tuple]):
        """(classes drawn, (hands, decisions, outcome) of each version) of every way the draws go."""
        advanced = [self.advance(v, states[v], seq) for v in (0, 1)]
        if not any(needs for _s, needs in advanced):
            ends = []
            for v, (state, _needs) in enumerate(advanced):
                hands = state[1]
                outcome = self.versions[v].outcome(self.facts(v, hands), self.codes(hands))
                ends.append((hands, state[3], outcome))
            yield tuple(seq), ends
            return
        nexts = [s for s, _n in advanced]
        for c in range(len(self.classes)):
            seq.append(c)
            yield from self.walk(seq, nexts)
            seq.pop()


def drawn_parts(joint: Joint, v: int, hands: tuple) -> tuple:
    """The cards each hand of version v holds beyond its dealt ones."""
    dealt = [0] * len(hands)
    for h in joint.deal[v]:
        dealt[h] += 1
    return tuple(h[n:] for h, n in zip(hands, dealt))


def first_parting(taken_old: tuple, taken_new: tuple) -> tuple | None:
    """Where two versions' decisions first part: (decision of the old, of the new), each (rule, cell)
    or None where that version took no decision; None when every decision agrees."""
    for i in range(max(len(taken_old), len(taken_new))):
        a = taken_old[i] if i < len(taken_old) else None
        b = taken_new[i] if i < len(taken_new) else None
        if a is None or b is None or a[2] != b[2]:
            return (a[:2] if a else None, b[:2] if b else None)
    return None


def example_cards(joint: Joint, classes: tuple[int, ...], suits: tuple[str, ...]) -> list[str]:
    """Real cards for a sequence of card classes: each class's ranks in turn, each rank's suits in turn."""
    seen: dict[int, int] = {}
    out = []
    for c in classes:
        k = seen.get(c, 0)
        seen[c] = k + 1
        ranks = joint.class_ranks[c]
        rank = ranks[k % len(ranks)]
        if rank in suits or not suits or joint.classes[c][0] == rank:  # a joker is its own code
            out.append(rank)
        else:
            out.append(rank + suits[(k // len(ranks)) % len(suits)])
    return out


def one_draw_a_drawer(game: Game) -> bool:
    """Whether `Joint` can walk the game: each drawer draws at most once, totals are plain sums of rank values,
    and the rules read only the facts `read_facts` lists."""
    if game.repeats or game.soft is not None or game.card_values:
        return False
    try:
        read_facts(game)
    except NotComparable:
        return False
    return True


def compare_rounds(old: tuple[Game, object], new: tuple[Game, object], decks: int) -> dict:
    """The rounds two versions play differently, exactly (see the module's docstring)."""
    if not (one_draw_a_drawer(old[0]) and one_draw_a_drawer(new[0])):
        return compare_played(old, new, decks)
    joint = Joint(old, new, decks)
    d = joint.denominator
    played = changed = 0
    reach: list[dict] = [{}, {}]
    partings: dict = {}
    moves: dict = {}
    for w, dealt, drawn, (h0, t0, o0), (h1, t1, o1), same in joint.rounds():
        for v, taken in ((0, t0), (1, t1)):
            for rule, cell, _draws in taken:
                if cell is not None:
                    reach[v][(rule, cell)] = reach[v].get((rule, cell), 0) + w
        differ, other = not same or drawn_parts(joint, 0, h0) != drawn_parts(joint, 1, h1), o0 != o1
        if not (differ or other):
            continue
        played += w if differ else 0
        if other:
            changed += w
            moves[(o0, o1)] = moves.get((o0, o1), 0) + w
        where = first_parting(t0, t1) if differ else None
        key = where if where is not None else (("outcome rules", None), ("outcome rules", None))
        got = partings.get(key)
        if got is None:
            got = partings[key] = {"played": 0, "outcome": 0, "example": dealt + drawn}
        got["played"] += w if differ else 0
        got["outcome"] += w if other else 0
        if other and not got.get("shows_outcome"):  # an example whose outcome changes shows more
            got["example"], got["shows_outcome"] = dealt + drawn, True
    suits = tuple(old[1].SUITS)
    return {
        "decks": decks,
        "cards": joint.cards,
        "played_differently": Fraction(played, d),
        "outcome_changes": Fraction(changed, d),
        "outcome_moves": {k: Fraction(v, d) for k, v in sorted(moves.items())},
        "reach": [{k: Fraction(v, d) for k, v in r.items()} for r in reach],
        "partings": {k: {"played": Fraction(v["played"], d), "outcome": Fraction(v["outcome"], d),
                         "example": example_cards(joint, v["example"], suits)}
                     for k, v in partings.items()},
    }


def joint_classes(old: Game, new: Game, decks: int) -> list[tuple[list[str], int]]:
    """The classes of cards neither version tells apart: (codes, distinct first, of one deck's cards of the class;
    copies in a shoe of `decks` decks)."""
    if (old.shoe.cards, old.shoe.jokers) != (new.shoe.cards, new.shoe.jokers):
        raise NotComparable("the two versions deal from other cards")
    index_new = {code: i for i, (codes, _n) in enumerate(card_classes(new)) for code in codes}
    out: dict[tuple[int, int], list[str]] = {}
    for i, (codes, _n) in enumerate(card_classes(old)):
        for code in codes:
            if code in index_new:
                out.setdefault((i, index_new[code]), []).append(code)
    return [(codes, len(codes) * decks) for codes in out.values()]


def played_round(engine, cards: list[str]):
    """The engine's round from `cards` with its steps, or None when it needs more cards."""
    try:
        return engine.play(cards, explain=True)
    except engine.NotEnoughCards:
        return None
    except engine.InvalidCards as exc:
        if "not enough cards" in str(exc):
            return None
        raise


def decisions(r, tables: dict[str, str]) -> tuple:
    """A played round's decisions as `first_parting` reads them: (rule, cell, draws), the stand rule first."""
    stood = any(s["step"] == "stand all" for s in r.steps)
    taken = [("stand all", None, stood)]
    for s in r.steps:
        if s["step"] in ("draw", "stand"):
            taken.append((tables.get(s["rule"], s["rule"]), s["key"], s["step"] == "draw"))
    return tuple(taken)


def compare_played(old: tuple[Game, object], new: tuple[Game, object], decks: int) -> dict:
    """`compare_rounds` for any two versions: every sequence of the card classes neither tells apart, grown while
    either version's round needs another card, played through both engines' own `play` (see the module's
    docstring); refused (NotComparable) beyond `GENERAL_LIMIT` plays."""
    (g_old, e_old), (g_new, e_new) = old, new
    if tuple(e_old.HANDS) != tuple(e_new.HANDS):
        raise NotComparable("the two versions deal to other hands")
    classes = joint_classes(g_old, g_new, decks)
    tables = [{getattr(e, t.ident + "_RULE", t.describe()): t.describe() for t in g.draws}
              for g, e in ((g_old, e_old), (g_new, e_new))]
    sizes = [n for _codes, n in classes]
    cards = sum(sizes)
    need = max(len(e_old.DEAL_ORDER), len(e_new.DEAL_ORDER))
    used = [0] * len(classes)
    seq: list[str] = []
    leaves: list[tuple] = []
    plays = 0

    def walk(weight: int) -> None:
        nonlocal plays
        if len(seq) >= need:
            plays += 1
            if plays > GENERAL_LIMIT:
                raise NotComparable(f"comparing the two versions would play more than {GENERAL_LIMIT:,} rounds")
            a, b = played_round(e_old, seq), played_round(e_new, seq)
            if a is not None and b is not None:
                leaves.append((weight, list(seq), a, b))
                return
        for c, (codes, size) in enumerate(classes):
            if size > used[c]:
                seq.append(codes[used[c] % len(codes)])
                used[c] += 1
                walk(weight * (size - used[c] + 1))
                used[c] -= 1
                seq.pop()

    walk(1)
    walk = None  # noqa: F841 - it calls itself through its closure: a cycle that would keep `leaves`
    longest = max((len(s) for _w, s, _a, _b in leaves), default=need)
    d = falling(cards, longest)
    played = changed = 0
    reach: list[dict] = [{}, {}]
    partings: dict = {}
    moves: dict = {}
    for weight, cards_dealt, a, b in leaves:
        w = weight * falling(cards - len(cards_dealt), longest - len(cards_dealt))
        taken = [decisions(a, tables[0]), decisions(b, tables[1])]
        for v in (0, 1):
            for rule, cell, _draws in taken[v]:
                if cell is not None:
                    reach[v][(rule, cell)] = reach[v].get((rule, cell), 0) + w
        differ = any(list(getattr(a, h)) != list(getattr(b, h)) for h in e_old.HANDS)
        other = a.outcome != b.outcome
        if not (differ or other):
            continue
        played += w if differ else 0
        if other:
            changed += w
            moves[(a.outcome, b.outcome)] = moves.get((a.outcome, b.outcome), 0) + w
        where = first_parting(*taken) if differ else None
        key = where if where is not None else (("outcome rules", None), ("outcome rules", None))
        got = partings.get(key)
        if got is None:
            got = partings[key] = {"played": 0, "outcome": 0, "example": cards_dealt}
        got["played"] += w if differ else 0
        got["outcome"] += w if other else 0
        if other and not got.get("shows_outcome"):
            got["example"], got["shows_outcome"] = cards_dealt, True
    return {
        "decks": decks,
        "cards": cards,
        "played_differently": Fraction(played, d),
        "outcome_changes": Fraction(changed, d),
        "outcome_moves": {k: Fraction(v, d) for k, v in sorted(moves.items())},
        "reach": [{k: Fraction(v, d) for k, v in r.items()} for r in reach],
        "partings": {k: {"played": Fraction(v["played"], d), "outcome": Fraction(v["outcome"], d),
                         "example": v["example"]} for k, v in partings.items()},
    }


def rounds_compared(old: tuple[Game, object], new: tuple[Game, object], decks: int) -> dict:
    """`compare_rounds`, computed once per content (see the module's docstring): the same two versions
    compared again (by another path, another command or another process) are not enumerated again."""
    parts = [str(decks)]
    for game, engine in (old, new):
        parts.append(engine.SOURCE_DIGEST)
        parts.append(repr(sorted(read_facts(game), key=repr)) if one_draw_a_drawer(game) else
                     "played: " + repr(card_classes(game)))
        parts.append(repr([(t.ident, t.describe()) for t in game.draws]))
    return cached("diff-rounds", "\0".join(parts), lambda: compare_rounds(old, new, decks))


def rank_key(engine, rank: str) -> tuple:
    classes = tuple(sorted(name for name, members in engine.CLASSES.items() if rank in members))
    return (engine.VALUE.get(rank), classes, rank in engine.WILD_RANKS)


def compare_hands(old, new) -> dict:
    """{"hands", "changed" (share), "moves" {(old type, new type): share}, "example" {…}} of two engines."""
    if (tuple(old.RANKS), tuple(old.SUITS), tuple(old.JOKERS), old.DECKS) != \
            (tuple(new.RANKS), tuple(new.SUITS), tuple(new.JOKERS), new.DECKS):
        return {"comparable": False, "reason": "the two versions deal from other cards"}
    groups: dict[tuple, list[str]] = {}
    for rank in tuple(old.RANKS) + tuple(old.JOKERS):
        if (rank in old.VALUE or rank in old.WILD_RANKS) and (rank in new.VALUE or rank in new.WILD_RANKS):
            groups.setdefault((rank_key(old, rank), rank_key(new, rank)), []).append(rank)
    classes = list(groups.values())
    copies = [sum(old.DECKS * (1 if r in old.JOKERS else len(old.SUITS)) for r in ranks) for ranks in classes]
    low = max(old.HAND_SIZE[0], new.HAND_SIZE[0])
    high = min(old.HAND_SIZE[1], new.HAND_SIZE[1])
    total = changed = 0
    moves: dict = {}
    example = None
    for size in range(low, high + 1):
        for ms in combinations_with_replacement(range(len(classes)), size):
            ways = 1
            for c in set(ms):
                ways *= comb(copies[c], ms.count(c))
            if not ways:
                continue
            codes = cards_of(old, classes, ms)
            a, b = old.evaluate(codes).type, new.evaluate(codes).type
            total += ways
            if a != b or old.TYPE_INDEX[a] != new.TYPE_INDEX.get(b, -1):
                changed += ways
                moves[(a, b)] = moves.get((a, b), 0) + ways
                example = example or {"cards": codes, "old": a, "new": b}
    return {"comparable": True, "hands": total, "changed": Fraction(changed, total) if total else Fraction(0),
            "changed_hands": changed, "moves": {k: Fraction(v, total) for k, v in sorted(moves.items())},
            "example": example}


def cards_of(engine, classes: list[list[str]], ms: tuple[int, ...]) -> list[str]:
    """Distinct real cards for a multiset of classes."""
    used: dict[str, int] = {}
    out = []
    for c in ms:
        for rank in classes[c]:
            k = used.get(rank, 0)
            limit = engine.DECKS * (1 if rank in engine.JOKERS else len(engine.SUITS))
            if k < limit:
                used[rank] = k + 1
                out.append(rank if rank in engine.JOKERS else rank + engine.SUITS[k % len(engine.SUITS)])
                break
    return out


def companion(game: Game, shown: str):
    """A dealt-round game's analysis companion, loaded from source (once per process for the same source)."""
    return shared_engine(emit_analysis_module(game, shown), game.name + "_analysis")


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
        out["returns"] = {b: engine.amount_json(engine.BETS[b](r, 1)) for b in bets if b in engine.BETS}
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
