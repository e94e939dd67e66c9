"""The cyclic garbage collector's settings for the `croupier` command's own process.

A compile allocates a great many objects that live until the command ends (the grammar's tables,
the syntax trees, the model, the emitted sources, the analyses), and few of them die in cycles. With
Python's default thresholds the collector starts after every 700 new container objects and walks
that growing heap again and again: about 1,000 collections and a tenth of a cold `croupier build`'s
CPU. The command starts one after 100,000 new objects instead (a build then collects two or three
times), as other compilers written in Python do for the same reason. Only the command itself does
this (`croupier.cli.main.main` run as the program), never a process that imports Croupier as a
library; the worker processes of a parallel build are forked from it and keep the setting.
"""

from __future__ import annotations

import gc

__all__ = ["tune_collector"]

# new container objects before a collection of the youngest generation; then, for each older generation,
# collections of the one before it
THRESHOLDS = (100_000, 20, 100)


def tune_collector() -> None:
    """Set the collector's thresholds for the whole run of a command."""
    gc.set_threshold(*THRESHOLDS)
