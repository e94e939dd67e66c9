"""How many rounds an exhaustive walk of a dealt round would play, estimated before it is walked.

The exact enumerators and the checks' survey of every round walk a tree: a card sequence grows by one
card of some class while the round asks for more. `estimate_nodes` samples random paths down that tree
(Knuth's estimator: the product of the branching factors met along a random path, averaged over many
paths, is an unbiased estimate of the tree's size), so a walk that would take hours is refused in a
fraction of a second, with the estimate in its reason. The paths are drawn from a fixed seed: the same
spec gets the same estimate on every machine. Used by the shared stages (the checks and the engine back
end), so it imports none.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

PROBES = 96  # random paths per estimate
SEED = 2024


def estimate_nodes(classes: Sequence[tuple[Sequence[str], int]], deal: int,
                   finished: Callable[[list[str]], bool], probes: int = PROBES) -> int:
    """The estimated number of sequences of at least `deal` cards the walk plays (finished rounds and the
    unfinished deals it extends), over `classes` ((card codes of the class, copies in the shoe)); `finished(seq)`
    says whether the round dealt `seq` is over (False: it asks for another card). A path ends with its round,
    or when the shoe has no card left."""
    rng = random.Random(SEED)
    total = 0
    for _ in range(probes):
        used = [0] * len(classes)
        seq: list[str] = []
        width = 1  # the sequences at this depth, as this path estimates them
        nodes = 0
        while True:
            if len(seq) >= deal:
                nodes += width
                if finished(seq):
                    break
            open_ = [c for c, (_codes, copies) in enumerate(classes) if used[c] < copies]
            if not open_:
                break
            width *= len(open_)
            c = rng.choice(open_)
            codes = classes[c][0]
            seq.append(codes[used[c] % len(codes)])
            used[c] += 1
        total += nodes
    return total // probes
