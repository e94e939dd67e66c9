"""Shoe simulation: play shoes with a spec's engine, flat bets, the full shoe procedure.

Each shoe `i` is dealt from the seed `"<seed>/<i>"`, so the result depends only
on the seed and the number of shoes (or rounds), never on the number of workers,
the pieces the run is cut into, or the machines that play them. Every bet is
backed by its own bettor with one unit each round. A piece of shoes gives an
exact `Tally` (tools/tally.py); `campaign.drive` merges the pieces in shoe order.
Confidence intervals treat each shoe as one sample of (net return, rounds), the
ratio estimator, so the correlation of rounds within a shoe is accounted for.
The report (`summary` as JSON-ready data, `text_report` for a person) puts the exact
returns of the engine's analysis companion (`exact_returns`) beside the simulated ones,
as `seat_simulate`'s report does for a seat game.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from collections.abc import Callable, Iterator
from decimal import Decimal, localcontext
from fractions import Fraction

from croupier.backends.engine.loader import engine_path, load_engine, source_digest
from croupier.tools.tally import Tally

__all__ = ["Tally", "play_shoes", "deal_shoes", "run", "simulate", "estimate", "proportion", "summary", "exact_returns",
           "text_report"]

Z95 = Decimal("1.959963984540054")
MAX_WORKERS = 64  # more processes than this only costs memory: the run refuses them
_ENGINES: dict[str, object] = {}  # engine source digest -> loaded engine, in this process


def shoe_seed(seed: int, index: int) -> str:
    """The seed of shoe (or table) `index` of a run (a string: `random.Random` hashes it the same everywhere)."""
    return f"{seed}/{index}"


def engine_of(source: str, name: str):
    """The loaded engine of this exact source text (never looked up by game name: a changed
    spec keeps its name but not its source)."""
    key = source_digest(source)
    engine = _ENGINES.get(key)
    if engine is None:
        if len(_ENGINES) >= 8:
            _ENGINES.clear()
        engine = _ENGINES[key] = load_engine(source, f"sim_{name}", engine_path(name))
    return engine


def deal_shoes(engine, seed: int, first: int, count: int, log: bool = False,
               stop: Callable[[], bool] | None = None, limit: int | None = None) -> tuple[Tally, str]:
    """Play shoes first..first+count-1 with `engine`; return (Tally, their rounds as JSON Lines when `log`).

    `stop()` is asked before each shoe; when it says yes the shoes played so far are returned
    (`Tally.shoes` says how many). With `limit`, play stops right after the limit-th round of the
    piece: the shoe holding that round is cut short there (`Tally.shoes_cut`) unless it ended with it.
    """
    if not log and hasattr(engine, "SETTLE_KEY_BETS"):
        return deal_shoes_fast(engine, seed, first, count, stop, limit), ""
    bets = {bet: {bet: 1} for bet in engine.BETS}
    tally = Tally()
    lines: list[str] = []
    counts = {bet: {} for bet in bets}
    outcomes = tally.outcomes
    for index in range(first, first + count):
        if (stop is not None and stop()) or (limit is not None and tally.rounds >= limit):
            break
        table = engine.Table(shoe_seed(seed, index))
        shoe_counts = {bet: {} for bet in bets}
        n = 0
        cut = False
        for tr in table.rounds(bets):
            n += 1
            outcomes[tr.round.outcome] += 1
            for bettor, returns in tr.returns.items():
                c = shoe_counts[bettor]
                v = returns[bettor]
                c[v] = c.get(v, 0) + 1
            if log:
                rec = tr.record()
                rec["shoe"] = index
                lines.append(json.dumps(rec, ensure_ascii=False) + "\n")
            if limit is not None and tally.rounds + n >= limit:
                cut = not table.finished
                break
        tally.shoes += 1
        tally.rounds += n
        tally.rounds_sq += n * n
        if cut:
            tally.shoes_cut += 1
        else:
            tally.rounds_per_shoe[n] += 1
        for bet, c in shoe_counts.items():
            s = sum((v * k for v, k in c.items()), 0) - n
            sums = tally.net.setdefault(bet, [0, 0, 0])
            sums[0] += s
            sums[1] += s * s
            sums[2] += s * n
            total = counts[bet]
            for v, k in c.items():
                total[v] = total.get(v, 0) + k
    tally.returns = {bet: Counter(c) for bet, c in counts.items()}
    return tally, "".join(lines)


def deal_shoes_fast(engine, seed: int, first: int, count: int,
                    stop: Callable[[], bool] | None = None, limit: int | None = None) -> Tally:
    """`deal_shoes` without a log, building no round: each shoe counts its rounds by settle key
    (`Shoe.settle_counts`: the outcome and the clause deciding each bet), and one round of each
    key is dealt again and settled by the engine's bet functions, one unit a bet, exactly. The
    sums run in integer minor units (`scale`: the least common denominator of the returns met),
    and become exact fractions once, at the end of the piece."""
    tally = Tally()
    names = engine.SETTLE_KEY_BETS
    returns_of: dict[tuple, tuple] = {}  # settle key -> each bet's return on one unit
    minor: dict[tuple, tuple] = {}  # settle key -> the same returns in minor units (ints)
    scale = 1
    sums = [[0, 0, 0] for _ in names]  # per bet, in minor units: sum S, sum S², sum S·n
    piece: dict[tuple, int] = {}  # settle key -> rounds
    for index in range(first, first + count):
        if (stop is not None and stop()) or (limit is not None and tally.rounds >= limit):
            break
        shoe = engine.Shoe(shoe_seed(seed, index))
        keys, n = shoe.settle_counts(None if limit is None else limit - tally.rounds)
        shoe_sums = [0] * len(names)
        for key, (k, start) in keys.items():
            units = minor.get(key)
            if units is None:
                r = engine.deal_at(shoe.cards, start)
                values = returns_of[key] = tuple(engine.BETS[bet](r, 1) for bet in names)
                grow = math.lcm(scale, *(Fraction(v).denominator for v in values)) // scale
                if grow > 1:  # a return finer than the unit so far: every sum in the finer unit
                    scale *= grow
                    sums = [[a * grow, b * grow * grow, c * grow] for a, b, c in sums]
                    shoe_sums = [x * grow for x in shoe_sums]
                    minor = {key2: tuple(u * grow for u in us) for key2, us in minor.items()}
                units = minor[key] = tuple(int(v * scale) for v in values)
            piece[key] = piece.get(key, 0) + k
            for i, u in enumerate(units):
                shoe_sums[i] += u * k
        for i, s in enumerate(shoe_sums):
            s -= n * scale  # the shoe's net return: what came back less one unit a round
            acc = sums[i]
            acc[0] += s
            acc[1] += s * s
            acc[2] += s * n
        tally.shoes += 1
        tally.rounds += n
        tally.rounds_sq += n * n
        if limit is not None and tally.rounds >= limit and not shoe.finished:
            tally.shoes_cut += 1
        else:
            tally.rounds_per_shoe[n] += 1
    tally.returns = {bet: Counter() for bet in names}
    for key, k in piece.items():
        tally.outcomes[key[0]] += k
        for bet, v in zip(names, returns_of[key]):
            tally.returns[bet][v] += k
    if tally.shoes:
        tally.net = {bet: [exact(a, scale), exact(b, scale * scale), exact(c, scale)]
                     for bet, (a, b, c) in zip(names, sums)}
    return tally


def exact(amount: int, scale: int) -> int | Fraction:
    """An amount in minor units (`scale` to the unit) as an exact number: an int when whole."""
    x = Fraction(amount, scale)
    return x.numerator if x.denominator == 1 else x


def play_shoes(source: str, name: str, seed: int, first: int, count: int, log: bool = False,
               stop: Callable[[], bool] | None = None, limit: int | None = None) -> tuple[Tally, str]:
    """`deal_shoes` with the engine of this source text (loaded once per process)."""
    return deal_shoes(engine_of(source, name), seed, first, count, log, stop, limit)


def chunk_size(units: int, workers: int, log: bool, cap: int = 250) -> int:
    """Units per piece: small enough to show progress and balance the cores, and with a log
    small enough that the pieces in flight hold little text (a shoe logs about 70 kB)."""
    return max(1, min(8 if log else cap, units // (workers * 8) or 1))


def chunks(shoes: int, size: int, start: int = 0) -> Iterator[tuple[int, int]]:
    """(first, count) pieces of shoes start..shoes-1, made lazily: a run of 10⁹ shoes builds no list."""
    return ((first, min(size, shoes - first)) for first in range(start, shoes, size))


def run(source: str, name: str, shoes: int, seed: int = 0, workers: int = 1,
        sink: Callable[[str], object] | None = None, progress: Callable[[int], object] | None = None,
        stop: Callable[[], bool] | None = None, rounds: int | None = None) -> Tally:
    """Play shoes 0..shoes-1 (or, with `rounds`, exactly that many rounds, shoe after shoe) on
    `workers` local processes and return their merged tally.

    Pieces are made lazily and at most two per worker are in flight; results are merged
    in shoe order as they arrive, and each piece's rounds (JSON Lines) go to `sink` in that
    order, so the log is the same for any number of workers and memory stays bounded for
    any number of shoes. When `stop()` says yes the run ends early: the workers stop
    before their next shoe, and the tally (`Tally.shoes` = k) covers exactly the shoes
    0..k-1 sent to `sink`.
    """
    from croupier.tools import campaign

    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be between 1 and {MAX_WORKERS}")
    job = campaign.Job("shoes", seed)
    state = campaign.State(job, "rounds" if rounds is not None else "shoes",
                           rounds if rounds is not None else shoes, tally=Tally())
    return campaign.run_local(state, source, name, workers, sink, progress, stop).tally


def simulate(source: str, name: str, shoes: int, seed: int = 0, workers: int = 1,
             log: bool = False, progress=None, rounds: int | None = None) -> tuple[Tally, list]:
    """`run` with the round records kept in a list (for tests and small runs)."""
    texts: list[str] = []
    tally = run(source, name, shoes, seed, workers, texts.append if log else None, progress, rounds=rounds)
    return tally, [json.loads(line) for text in texts for line in text.splitlines()]


def sqrt_decimal(x: Fraction) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = 30
        return (Decimal(x.numerator) / Decimal(x.denominator)).sqrt()


def ratio_estimate(s: Fraction, s2: Fraction, sn: Fraction, n: Fraction, n2: Fraction,
                   k: int) -> tuple[Fraction, Decimal | None]:
    """The ratio estimator ΣS/Σn over k samples (S_i, n_i) and the half-width of its 95 % interval
    (None with fewer than two samples). Σn must not be 0."""
    mean = Fraction(s) / n
    if k < 2:
        return mean, None
    resid = s2 - 2 * mean * sn + mean * mean * n2  # Σ (S_i - mean·n_i)²
    var = resid / (k - 1) / k / (Fraction(n, k) ** 2)
    return mean, Z95 * sqrt_decimal(var)


def estimate(tally: Tally, bet: str) -> tuple[Fraction, Decimal | None]:
    """The mean net return per unit staked on `bet` and the half-width of its 95 % interval.

    The interval needs at least two shoes (one shoe is one sample of the ratio
    estimator): with fewer the half-width is None. The tally must hold a round.
    """
    s, s2, sn = (Fraction(v) for v in tally.net[bet])
    return ratio_estimate(s, s2, sn, Fraction(tally.rounds), Fraction(tally.rounds_sq), tally.shoes)


def proportion(count: int, n: int) -> tuple[Fraction, Decimal]:
    """A frequency and the half-width of its 95 % (normal) interval."""
    p = Fraction(count, n)
    return p, Z95 * sqrt_decimal(p * (1 - p) / n)


def dec(x, places: int = 6) -> str:
    """An exact number as a decimal string with `places` places."""
    value = Decimal(x.numerator) / Decimal(x.denominator) if isinstance(x, Fraction) else Decimal(x)
    return str(value.quantize(Decimal(1).scaleb(-places)))


def exact_returns(game, engine) -> dict | None:
    """Exact net return per unit of each bet from the engine's analysis companion, when it has one: the
    companion's `exact_returns`, from the analysis the static checks and the rule card keep in the cache
    (the checks of this very compile computed it, or read it from the disk)."""
    from croupier.backends.engine.analysis_emitter import companion_name, emit_analysis_module
    from croupier.backends.engine.loader import engine_path, exact_analysis, shared_engine

    name = companion_name(game)
    if name is None:
        return None
    try:
        analysis = exact_analysis(engine, shared_engine(emit_analysis_module(game, game.path), name, engine_path(f"{game.name}_analysis")), engine.DECKS)
    except engine.EngineError:
        return None
    return {bet: b["expected_return"] - 1 for bet, b in analysis["bets"].items()}


def summary(tally: Tally, bets: list[str], exact: dict | None = None, outcomes: tuple[str, ...] = ()) -> dict:
    """The report as JSON-ready data: decimals as strings, counts as ints; the outcomes in the order of
    `outcomes` (the spec's), any other after them by name."""
    hist = dict(sorted(tally.rounds_per_shoe.items()))
    whole = sum(hist.values())
    out = {
        "shoes": tally.shoes,
        "rounds": tally.rounds,
        "rounds_per_shoe": {"mean": dec(Fraction(sum(k * v for k, v in hist.items()), max(whole, 1)), 2),
                            "min": min(hist, default=0), "max": max(hist, default=0),
                            "histogram": {str(k): v for k, v in hist.items()}},
        "outcomes": {},
        "bets": {},
    }
    if tally.shoes_cut:
        out["shoes_cut_short"] = tally.shoes_cut
    order = {name: i for i, name in enumerate(outcomes)}
    for name, count in sorted(tally.outcomes.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])):
        p, h = proportion(count, tally.rounds)
        out["outcomes"][name] = {"count": count, "frequency": dec(p), "ci95": [dec(p - Fraction(h)), dec(p + Fraction(h))]}
    for bet in bets:
        if not tally.rounds:
            out["bets"][bet] = {"net_per_unit": None, "ci95": None}
            continue
        mean, h = estimate(tally, bet)
        row = interval_row(mean, h, exact.get(bet) if exact else None)
        out["bets"][bet] = {"net_per_unit": row.pop("value"), **row}
    return out


def interval_row(value: Fraction, half: Decimal | None, exact: Fraction | None) -> dict:
    """{"value", "ci95", ["exact", "exact_in_ci"]} of an estimate, decimals as strings."""
    row: dict = {"value": dec(value), "ci95": None}
    if half is not None:
        lo, hi = value - Fraction(half), value + Fraction(half)
        row["ci95"] = [dec(lo), dec(hi)]
    if exact is not None:
        row["exact"] = dec(exact)
        row["exact_in_ci"] = None if half is None else bool(lo <= exact <= hi)
    return row


def text_report(r: dict) -> str:
    """The report of a shoe simulation for a person."""
    rps = r["rounds_per_shoe"]
    cut = " (the last shoe cut short)" if r.get("shoes_cut_short") else ""
    lines = [f"{r['shoes']} shoes, {r['rounds']} rounds{cut} in {r['seconds']} s "
             f"(seed {r['seed']}, {r['workers']} worker{'' if r['workers'] == 1 else 's'})",
             f"rounds per shoe: mean {rps['mean']}, min {rps['min']}, max {rps['max']}",
             "outcomes:"]
    for name, o in r["outcomes"].items():
        lines.append(f"  {name:<12} {o['frequency']}  (95 % CI {o['ci95'][0]} .. {o['ci95'][1]})")
    lines.append("net return per unit staked:")
    for bet, b in r["bets"].items():
        extra = ""
        if "exact" in b:
            where = {True: "inside", False: "OUTSIDE", None: "with no interval to compare"}[b["exact_in_ci"]]
            extra = f"  exact {b['exact']} {where}" + (" the interval" if b["exact_in_ci"] is not None else "")
        ci = "95 % CI n/a: an interval needs at least two shoes" if b["ci95"] is None else \
            f"95 % CI {b['ci95'][0]} .. {b['ci95'][1]}"
        lines.append(f"  {bet:<12} {b['net_per_unit']}  ({ci}){extra}")
    return "\n".join(lines)
