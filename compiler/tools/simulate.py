"""Shoe simulation: play N shoes with a spec's engine, flat bets, the full shoe procedure.

Each shoe `i` is dealt from the seed `"<seed>/<i>"`, so the result depends only
on the seed and N, never on the number of workers. Every bet is backed by its
own bettor with one unit each round. Workers return exact tallies (ints and
Fractions); the parent adds them up. Confidence intervals treat each shoe as
one sample of (net return, rounds) — the ratio estimator — so the correlation
of rounds within a shoe is accounted for.
"""

from __future__ import annotations

import itertools
import json
import multiprocessing
import signal
from collections import Counter, deque
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from decimal import Decimal, localcontext
from fractions import Fraction

from croupier.backends.engine.loader import load_engine, source_digest

Z95 = Decimal("1.959963984540054")
MAX_WORKERS = 64  # more processes than this only costs memory: the run refuses them
_ENGINES: dict[str, object] = {}  # engine source digest -> loaded engine, in this process


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
    """The loaded engine of this exact source text (never looked up by game name: a changed
    spec keeps its name but not its source)."""
    key = source_digest(source)
    engine = _ENGINES.get(key)
    if engine is None:
        if len(_ENGINES) >= 8:
            _ENGINES.clear()
        engine = _ENGINES[key] = load_engine(source, f"sim_{name}")
    return engine


def play_shoes(source: str, name: str, seed: int, first: int, count: int, log: bool = False,
               stop: Callable[[], bool] | None = None) -> tuple[Tally, str]:
    """Play shoes first..first+count-1; return (Tally, their rounds as JSON Lines when `log`).

    `stop()` is asked before each shoe; when it says yes the shoes played so far are returned
    (`Tally.shoes` says how many).
    """
    engine = _engine(source, name)
    bets = {bet: {bet: 1} for bet in engine.BETS}
    tally = Tally()
    lines: list[str] = []
    counts = {bet: {} for bet in bets}
    for index in range(first, first + count):
        if stop is not None and stop():
            break
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
                lines.append(json.dumps(rec, ensure_ascii=False) + "\n")
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
    return tally, "".join(lines)


def chunk_size(shoes: int, workers: int, log: bool) -> int:
    """Shoes per piece: small enough to show progress and balance the cores, and with a log
    small enough that the pieces in flight hold little text (a shoe logs about 70 kB)."""
    return max(1, min(8 if log else 250, shoes // (workers * 8) or 1))


def chunks(shoes: int, size: int) -> Iterator[tuple[int, int]]:
    """(first, count) pieces of the run, made lazily: a run of 10⁹ shoes builds no list."""
    return ((first, min(size, shoes - first)) for first in range(0, shoes, size))


_WORKER: tuple = ()


def _worker_init(source: str, name: str, seed: int, log: bool, halt) -> None:
    """Each worker keeps the run's engine source and its halt event; the parent alone answers Ctrl-C."""
    global _WORKER
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _WORKER = (source, name, seed, log, halt)
    _engine(source, name)


def _worker_chunk(piece: tuple[int, int]) -> tuple[Tally, str]:
    source, name, seed, log, halt = _WORKER
    return play_shoes(source, name, seed, piece[0], piece[1], log, halt.is_set)


def run(source: str, name: str, shoes: int, seed: int = 0, workers: int = 1,
        sink: Callable[[str], object] | None = None, progress: Callable[[int], object] | None = None,
        stop: Callable[[], bool] | None = None) -> Tally:
    """Play shoes 0..shoes-1 on `workers` processes and return their merged tally.

    Pieces are made lazily and at most two per worker are in flight; results are merged
    as they arrive, in shoe order, and each piece's rounds (JSON Lines) go to `sink` in that
    order, so the log is the same for any number of workers and memory stays bounded for
    any number of shoes. When `stop()` says yes the run ends early: the workers stop
    before their next shoe, and the tally (`Tally.shoes` = k) covers exactly the shoes
    0..k-1 sent to `sink`.
    """
    if not 1 <= workers <= MAX_WORKERS:
        raise ValueError(f"workers must be between 1 and {MAX_WORKERS}")
    log = sink is not None
    stopped = stop or (lambda: False)
    total = Tally()
    pieces = chunks(shoes, chunk_size(shoes, workers, log))

    def take(tally: Tally, text: str) -> None:
        total.add(tally)
        if log and text:
            sink(text)
        if progress is not None:
            progress(total.shoes)

    if workers == 1:
        for first, count in pieces:
            take(*play_shoes(source, name, seed, first, count, log, stopped))
            if stopped():
                break
        return total
    context = multiprocessing.get_context("fork")
    halt = context.Event()
    pool = context.Pool(workers, _worker_init, (source, name, seed, log, halt))
    pending: deque = deque()  # (shoes asked, result), in shoe order

    def submit(count: int) -> None:
        for piece in itertools.islice(pieces, count):
            pending.append((piece[1], pool.apply_async(_worker_chunk, (piece,))))

    whole = True  # every piece merged so far was played in full: the tally is a prefix of the run
    try:
        submit(2 * workers)
        while pending:
            if not halt.is_set() and stopped():
                halt.set()  # workers stop before their next shoe; what is in flight drains quickly
            asked, result = pending[0]
            if not result.ready():
                result.wait(0.1)
                continue
            pending.popleft()
            tally, text = result.get()
            if whole:
                take(tally, text)
                whole = tally.shoes == asked
            if not halt.is_set():
                submit(1)
    finally:
        # Never Pool.terminate(): it can deadlock on a worker that is sending a result.
        halt.set()
        for _, result in pending:
            result.wait()
        pool.close()
        pool.join()
    return total


def simulate(source: str, name: str, shoes: int, seed: int = 0, workers: int = 1,
             log: bool = False, progress=None) -> tuple[Tally, list]:
    """`run` with the round records kept in a list (for tests and small runs)."""
    texts: list[str] = []
    tally = run(source, name, shoes, seed, workers, texts.append if log else None, progress)
    return tally, [json.loads(line) for text in texts for line in text.splitlines()]


def sqrt_decimal(x: Fraction) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = 30
        return (Decimal(x.numerator) / Decimal(x.denominator)).sqrt()


def estimate(tally: Tally, bet: str) -> tuple[Fraction, Decimal | None]:
    """The mean net return per unit staked on `bet` and the half-width of its 95 % interval.

    The interval needs at least two shoes (one shoe is one sample of the ratio
    estimator): with fewer the half-width is None. The tally must hold a round.
    """
    s, s2, sn = (Fraction(v) for v in tally.net[bet])
    n, n2, k = tally.rounds, tally.rounds_sq, tally.shoes
    mean = s / n
    if k < 2:
        return mean, None
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
        if not tally.rounds:
            out["bets"][bet] = {"net_per_unit": None, "ci95": None}
            continue
        mean, h = estimate(tally, bet)
        row: dict = {"net_per_unit": dec(mean), "ci95": None}
        if h is not None:
            lo, hi = mean - Fraction(h), mean + Fraction(h)
            row["ci95"] = [dec(lo), dec(hi)]
        if exact and bet in exact:
            row["exact"] = dec(exact[bet])
            row["exact_in_ci"] = None if h is None else bool(lo <= exact[bet] <= hi)
        out["bets"][bet] = row
    return out
