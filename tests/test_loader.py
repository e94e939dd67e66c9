"""`croupier.backends.engine.loader`: an engine loaded from its source behaves as its file imported."""

from __future__ import annotations

import importlib.util

import pytest

from croupier.backends.engine.loader import load_engine

SOURCE = "def f(x: int) -> Number:\n    return x\n"


def test_annotations_are_evaluated_as_when_the_file_is_imported(tmp_path):
    """The loader's own `from __future__ import annotations` does not reach the engine's code."""
    path = tmp_path / "engine_file.py"
    path.write_text(SOURCE)
    spec = importlib.util.spec_from_file_location("engine_file", path)
    with pytest.raises(NameError, match="Number"):
        spec.loader.exec_module(importlib.util.module_from_spec(spec))
    with pytest.raises(NameError, match="Number"):
        load_engine(SOURCE, "annotated")
    module = load_engine("Number = float\n" + SOURCE, "annotated")
    assert module.f.__annotations__ == {"x": int, "return": float}
