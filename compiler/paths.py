"""Where the project and the cache live, and how a spec's path is shown (a light module, cheap to import)."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def display_path(path: Path) -> str:
    """A spec's path as shown in diagnostics and headers: relative to the project when inside it."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def cache_dir() -> Path | None:
    """Croupier's cache folder: $CROUPIER_CACHE, else ~/.cache/croupier; None when set to off."""
    setting = os.environ.get("CROUPIER_CACHE", "")
    if setting.lower() in ("off", "0", "no", "false"):
        return None
    return Path(setting) if setting else Path.home() / ".cache" / "croupier"
