"""Shoe simulation: play N shoes with a spec's engine, flat bets, the full shoe procedure.

Each shoe `i` is dealt from the seed `"<seed>/<i>"`, so the result depends only
on the seed and N, never on the number of workers. Every bet is backed by its
own bettor with one unit each round. Workers return exact tallies (ints and
Fractions); the parent adds them up. Confidence intervals treat each shoe as
one sample of (net return, rounds) — the ratio estimator — so the correlation
of rounds within a shoe is accounted for.
"""

from __future__ import annotations

import multiprocessing
from collections import Counter
from dataclasses import dataclass, field
from decimal import Decimal, localcontext
from fractions import Fraction

from .engine_loader import load_engine

Z95 = Decimal("1.959963984540054")
_ENGINES: dict[str, object] = {}


def shoe_seed(seed: int, index: int) -> str:
    """The seed of shoe `index` of a run (a string: `random.Random` hashes it the same everywhere)."""
    return f"{seed}/{index}"


@dataclass
class Tally:
    """Exact sums over shoes: rounds, outcomes, and per bet the per-shoe net return moments."""

    shoes: int = 0
    rounds: int = 0
    rounds_sq: int = 0
    rounds_per_shoe: Counter = field(default_factory=Counter)
    outcomes: Counter = field(default_factory=Counter)
    net: dict = field(default_factory=dict)  # bet -> [sum S, sum S², sum S·n]
    returns: dict = field(default_factory=dict)  # bet -> Counter of return per unit

    def add(self, other: Tally) -> None:
        self.shoes += other.shoes
        self.rounds += other.rounds
        self.rounds_sq += other.rounds_sq
        self.rounds_per_shoe.update(other.rounds_per_shoe)
        self.outcomes.update(other.outcomes)
        for bet, sums in other.net.items():
            mine = self.net.setdefault(bet, [0, 0, 0])
            for i in range(3):
                mine[i] += sums[i]
        for bet, counts in other.returns.items():
            self.returns.setdefault(bet, Counter()).update(counts)


def _engine(source: str, name: str):
    engine = _ENGINES.get(name)
    if engine is None:
        engine = _ENGINES[name] = load_engine(source, f"sim_{name}")
    return engine


def play_shoes(source: str, name: str, seed: int, first: int, count: int, log: bool = False):
    """Play shoes first..first+count-1; return (Tally, JSON records when `log`)."""
    engine = _engine(source, name)
    bets = {bet: {bet: 1} for bet in engine.BETS}
    tally = Tally()
    records = []
    counts = {bet: {} for bet in bets}
    for index in range(first, first + count):
        table = engine.Table(shoe_seed(seed, index))
        shoe_counts = {bet: {} for bet in bets}
        outcomes = tally.outcomes
        n = 0
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
                records.append(rec)
        tally.shoes += 1
        tally.rounds += n
        tally.rounds_sq += n * n
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
    return tally, records


def _chunk(args):
    return play_shoes(*args)


def chunks(shoes: int, workers: int) -> list[tuple[int, int]]:
    """(first, count) pieces of the run, small enough to show progress and balance the cores."""
    size = max(1, min(250, shoes // (workers * 8) or 1))
    return [(i, min(size, shoes - i)) for i in range(0, shoes, size)]


def simulate(source: str, name: str, shoes: int, seed: int = 0, workers: int = 1,
             log: bool = False, progress=None) -> tuple[Tally, list]:
    """Play `shoes` shoes on `workers` processes; `progress(shoes_done)` is called as pieces finish."""
    total = Tally()
    records: list = []
    jobs = [(source, name, seed, first, count, log) for first, count in chunks(shoes, workers)]
    if workers <= 1:
        results = map(_chunk, jobs)
        pool = None
    else:
        pool = multiprocessing.get_context("fork").Pool(workers)
        results = pool.imap(_chunk, jobs)
    try:
        for tally, recs in results:
            total.add(tally)
            records.extend(recs)
            if progress is not None:
                progress(total.shoes)
    finally:
        if pool is not None:
            pool.close()
            pool.join()
    return total, records


def sqrt_decimal(x: Fraction) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = 30
        return (Decimal(x.numerator) / Decimal(x.denominator)).sqrt()


def estimate(tally: Tally, bet: str) -> tuple[Fraction, Decimal]:
    """The mean net return per unit staked on `bet` and the half-width of its 95 % interval."""
    s, s2, sn = (Fraction(v) for v in tally.net[bet])
    n, n2, k = tally.rounds, tally.rounds_sq, tally.shoes
    mean = s / n
    if k < 2:
        return mean, Decimal("Infinity")
    resid = s2 - 2 * mean * sn + mean * mean * n2  # Σ (S_i - mean·n_i)²
    var = resid / (k - 1) / k / (Fraction(n, k) ** 2)
    return mean, Z95 * sqrt_decimal(var)


def proportion(count: int, n: int) -> tuple[Fraction, Decimal]:
    """A frequency and the half-width of its 95 % (normal) interval."""
    p = Fraction(count, n)
    return p, Z95 * sqrt_decimal(p * (1 - p) / n)


def summary(tally: Tally, bets: list[str], exact: dict | None = None) -> dict:
    """The report as JSON-ready data: decimals as strings, counts as ints."""
    def dec(x, places=6) -> str:
        value = Decimal(x.numerator) / Decimal(x.denominator) if isinstance(x, Fraction) else Decimal(x)
        return str(value.quantize(Decimal(1).scaleb(-places)))

    hist = dict(sorted(tally.rounds_per_shoe.items()))
    out = {
        "shoes": tally.shoes,
        "rounds": tally.rounds,
        "rounds_per_shoe": {"mean": dec(Fraction(tally.rounds, max(tally.shoes, 1)), 2),
                            "min": min(hist, default=0), "max": max(hist, default=0),
                            "histogram": {str(k): v for k, v in hist.items()}},
        "outcomes": {},
        "bets": {},
    }
    for name, count in sorted(tally.outcomes.items()):
        p, h = proportion(count, tally.rounds)
        out["outcomes"][name] = {"count": count, "frequency": dec(p), "ci95": [dec(p - Fraction(h)), dec(p + Fraction(h))]}
    for bet in bets:
        mean, h = estimate(tally, bet)
        lo, hi = mean - Fraction(h), mean + Fraction(h)
        row = {"net_per_unit": dec(mean), "ci95": [dec(lo), dec(hi)]}
        if exact and bet in exact:
            row["exact"] = dec(exact[bet])
            row["exact_in_ci"] = bool(lo <= exact[bet] <= hi)
        out["bets"][bet] = row
    return out
