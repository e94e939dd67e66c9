"""Where the cache lives, and how a spec's path is shown (a light module, cheap to import).

The project's own folders come from its configuration (`croupier.project`), never from
where the compiler is installed.
"""

from __future__ import annotations

import os
from pathlib import Path

from croupier.project import display_path  # noqa: F401 - the one way a spec's path is shown


def cache_dir() -> Path | None:
    """Croupier's cache folder: $CROUPIER_CACHE, else ~/.cache/croupier; None when set to off."""
    setting = os.environ.get("CROUPIER_CACHE", "")
    if setting.lower() in ("off", "0", "no", "false"):
        return None
    return Path(setting) if setting else Path.home() / ".cache" / "croupier"
