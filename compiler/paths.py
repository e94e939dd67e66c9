"""Where the project lives, and how a spec's path is shown (a light module, cheap to import)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def display_path(path: Path) -> str:
    """A spec's path as shown in diagnostics and headers: relative to the project when inside it."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)
