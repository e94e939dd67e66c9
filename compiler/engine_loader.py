"""Load a generated engine from its source text as a module (for `play` and tests)."""

from __future__ import annotations

import hashlib
import sys
import types


def load_engine(source: str, name: str) -> types.ModuleType:
    """Execute engine source in a fresh module named `croupier_engine_<name>`."""
    module = types.ModuleType(f"croupier_engine_{name}")
    module.__file__ = f"<engine {name}>"
    module.SOURCE_DIGEST = hashlib.sha256(source.encode("utf-8")).hexdigest()
    sys.modules[module.__name__] = module
    exec(compile(source, module.__file__, "exec"), module.__dict__)  # noqa: S102 - our own generated code
    return module
