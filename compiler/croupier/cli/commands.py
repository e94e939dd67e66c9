"""Sub-commands beyond build/check/play, each in its own module, registered here."""

from __future__ import annotations

import importlib

# Each module named here defines `register(subparsers)`.
COMMAND_MODULES = ["croupier.cli.analyze", "croupier.cli.simulate", "croupier.cli.fmt", "croupier.cli.diff"]


def add_commands(sub, modules: list[str] | None = None) -> None:
    """Register the further sub-commands whose modules exist (all, or those of `modules`); each module
    is named after its sub-command."""
    for name in COMMAND_MODULES if modules is None else modules:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name == name:
                continue
            raise
        module.register(sub)
