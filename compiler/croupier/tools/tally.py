"""Exact, mergeable tallies of a simulation, and their JSON form (checkpoints, cluster workers).

A tally sums what a piece of a run played: counts, and for every bet or seat the
sums and sums of squares (and cross products) its confidence interval needs.
Every number is an int or a Fraction, so `merge` is exact, associative and
commutative: the tally of a run is the same whatever its partition into pieces,
the number of local workers or the size of a cluster.

The JSON form is data only: ints stay JSON integers, other Fractions become
`"n/d"` strings, and maps keyed by a number become sorted lists of pairs.
`from_json` checks every field and raises ValueError on anything else, since a
checkpoint is a file read back from disk.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction

_RATIONAL = re.compile(r"-?[0-9]{1,4000}(/[0-9]{1,4000})?")


def num_out(x: int | Fraction) -> int | str:
    """An exact number for JSON: an int, or `"n/d"`."""
    if isinstance(x, int):
        return x
    return x.numerator if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def num_in(value: object, what: str) -> int | Fraction:
    """The exact number `num_out` wrote (an int when whole); ValueError for anything else."""
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, str) and _RATIONAL.fullmatch(value):
        try:
            x = Fraction(value)
        except ZeroDivisionError:
            raise ValueError(f"{what}: a zero denominator") from None
        return x.numerator if x.denominator == 1 else x
    raise ValueError(f"{what}: not an exact number ({str(value)[:40]!r})")


def count_in(value: object, what: str) -> int:
    """A count: a non-negative JSON integer."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{what}: not a count ({str(value)[:40]!r})")
    return value


def _obj(value: object, what: str) -> dict:
    if not isinstance(value, dict):
        raise ValueError(f"{what}: not an object")
    return value


def _sums_in(value: object, size: int, what: str) -> list:
    if not isinstance(value, list) or len(value) != size:
        raise ValueError(f"{what}: not a list of {size} numbers")
    return [num_in(v, what) for v in value]


def _pairs_out(counts: Counter) -> list:
    return [[num_out(k), v] for k, v in sorted(counts.items())]


def _pairs_in(value: object, what: str) -> Counter:
    if not isinstance(value, list):
        raise ValueError(f"{what}: not a list of [number, count] pairs")
    out: Counter = Counter()
    for pair in value:
        if not isinstance(pair, list) or len(pair) != 2:
            raise ValueError(f"{what}: not a list of [number, count] pairs")
        out[num_in(pair[0], what)] += count_in(pair[1], what)
    return out


def _names_in(value: object, what: str) -> Counter:
    return Counter({str(k): count_in(v, what) for k, v in _obj(value, what).items()})


def _add_sums(mine: dict, other: dict, size: int) -> None:
    for key, sums in other.items():
        acc = mine.setdefault(key, [0] * size)
        for i in range(size):
            acc[i] += sums[i]


@dataclass
class Tally:
    """A shoe game's sums over the shoes played: rounds, outcomes, and per bet the moments of each
    shoe's net return S with its round count n (S, S², S·n), for the ratio estimator.

    `shoes` counts every shoe played, `shoes_cut` those a `--rounds` run cut short (at most one);
    `rounds_per_shoe` is the histogram of the whole shoes.
    """

    shoes: int = 0
    rounds: int = 0
    rounds_sq: int = 0
    rounds_per_shoe: Counter = field(default_factory=Counter)
    outcomes: Counter = field(default_factory=Counter)
    net: dict = field(default_factory=dict)  # bet -> [sum S, sum S², sum S·n]
    returns: dict = field(default_factory=dict)  # bet -> Counter of return per unit
    shoes_cut: int = 0

    @property
    def units(self) -> int:
        """The units of play summed: shoes."""
        return self.shoes

    def merge(self, other: Tally) -> Tally:
        """Add `other` into this tally (exactly) and return this tally."""
        self.shoes += other.shoes
        self.shoes_cut += other.shoes_cut
        self.rounds += other.rounds
        self.rounds_sq += other.rounds_sq
        self.rounds_per_shoe.update(other.rounds_per_shoe)
        self.outcomes.update(other.outcomes)
        _add_sums(self.net, other.net, 3)
        for bet, counts in other.returns.items():
            self.returns.setdefault(bet, Counter()).update(counts)
        return self

    add = merge

    def to_json(self) -> dict:
        return {
            "kind": "shoes", "shoes": self.shoes, "shoes_cut": self.shoes_cut,
            "rounds": self.rounds, "rounds_sq": self.rounds_sq,
            "rounds_per_shoe": _pairs_out(self.rounds_per_shoe),
            "outcomes": dict(sorted(self.outcomes.items())),
            "net": {bet: [num_out(v) for v in sums] for bet, sums in sorted(self.net.items())},
            "returns": {bet: _pairs_out(c) for bet, c in sorted(self.returns.items())},
        }

    @classmethod
    def from_json(cls, data: object) -> Tally:
        d = _obj(data, "tally")
        if d.get("kind") != "shoes":
            raise ValueError("tally: not the tally of a shoe game")
        return cls(
            shoes=count_in(d.get("shoes"), "shoes"), shoes_cut=count_in(d.get("shoes_cut"), "shoes_cut"),
            rounds=count_in(d.get("rounds"), "rounds"), rounds_sq=count_in(d.get("rounds_sq"), "rounds_sq"),
            rounds_per_shoe=_pairs_in(d.get("rounds_per_shoe"), "rounds_per_shoe"),
            outcomes=_names_in(d.get("outcomes"), "outcomes"),
            net={str(b): _sums_in(s, 3, f"net of {b}") for b, s in _obj(d.get("net"), "net").items()},
            returns={str(b): _pairs_in(c, f"returns of {b}") for b, c in _obj(d.get("returns"), "returns").items()},
        )


@dataclass
class SeatTally:
    """A seat game's sums over the tables played.

    Per table: u is the stake every player puts up (the unit), c_k the number of hands of type k,
    and each seat's net result. Kept: Σu, Σu²; per type Σc, Σc²; per seat Σnet, Σnet², Σnet·u;
    and the count of each result of a player against the banker (banker games).
    """

    tables: int = 0
    unit: list = field(default_factory=lambda: [0, 0])  # [Σu, Σu²]
    types: dict = field(default_factory=dict)  # type -> [Σc, Σc²]
    net: dict = field(default_factory=dict)  # seat -> [Σnet, Σnet², Σnet·u]
    results: Counter = field(default_factory=Counter)  # "banker" / "player" / "draw" -> hands

    @property
    def units(self) -> int:
        """The units of play summed: tables."""
        return self.tables

    @property
    def rounds(self) -> int:
        """A table is one round."""
        return self.tables

    def merge(self, other: SeatTally) -> SeatTally:
        """Add `other` into this tally (exactly) and return this tally."""
        self.tables += other.tables
        self.unit = [a + b for a, b in zip(self.unit, other.unit)]
        _add_sums(self.types, other.types, 2)
        _add_sums(self.net, other.net, 3)
        self.results.update(other.results)
        return self

    add = merge

    def to_json(self) -> dict:
        return {
            "kind": "tables", "tables": self.tables, "unit": [num_out(v) for v in self.unit],
            "types": {k: [num_out(v) for v in s] for k, s in sorted(self.types.items())},
            "net": {seat: [num_out(v) for v in s] for seat, s in sorted(self.net.items())},
            "results": dict(sorted(self.results.items())),
        }

    @classmethod
    def from_json(cls, data: object) -> SeatTally:
        d = _obj(data, "tally")
        if d.get("kind") != "tables":
            raise ValueError("tally: not the tally of a seat game")
        return cls(
            tables=count_in(d.get("tables"), "tables"), unit=_sums_in(d.get("unit"), 2, "unit"),
            types={str(k): _sums_in(s, 2, f"type {k}") for k, s in _obj(d.get("types"), "types").items()},
            net={str(k): _sums_in(s, 3, f"net of {k}") for k, s in _obj(d.get("net"), "net").items()},
            results=_names_in(d.get("results"), "results"),
        )


def tally_from_json(data: object) -> Tally | SeatTally:
    """Either kind of tally from its JSON form; ValueError when it is neither."""
    kind = data.get("kind") if isinstance(data, dict) else None
    if kind == "tables":
        return SeatTally.from_json(data)
    return Tally.from_json(data)
