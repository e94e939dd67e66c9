"""Sub-commands beyond build/check/play (analysis, simulation), registered on the CLI."""

from __future__ import annotations


def add_commands(sub) -> None:
    """Register further sub-commands; each lives in its own module."""
    return None
