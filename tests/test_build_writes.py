"""How a build spends its time without changing what it writes: files written a few at a time, and the
garbage collector's full collections held back while specs compile (and restored after)."""

from __future__ import annotations

import gc

import pytest
from conftest import ROOT

from croupier.driver import pipeline
from croupier.driver.compile import Level
from croupier.outputs import MANIFEST, OutputError


def results_with(files: dict[str, str]) -> list[pipeline.Compiled]:
    return [pipeline.Compiled("spec.rules", Level.ALL, None, [], artefacts=dict(files))]


def test_every_file_is_written_whole_and_listed(tmp_path):
    files = {f"d{i % 3}/f{i}.txt": f"text {i}\n" * (i + 1) for i in range(20)}
    written, removed = pipeline.write_artefacts(results_with(files), tmp_path)
    assert written == [tmp_path / rel for rel in sorted(files)]
    assert removed == []
    for rel, text in files.items():
        assert (tmp_path / rel).read_text(encoding="utf-8") == text
    assert sorted(p.name for p in tmp_path.rglob("*") if p.name.endswith(".tmp")) == []
    assert (tmp_path / MANIFEST).is_file()


def test_the_first_file_that_cannot_be_written_is_the_one_reported(tmp_path):
    (tmp_path / "a").write_text("a file where a folder must go", encoding="utf-8")
    (tmp_path / "b").write_text("another", encoding="utf-8")
    files = {"a/x.txt": "x", "b/y.txt": "y", "c/z.txt": "z"}
    with pytest.raises(OutputError) as info:
        pipeline.write_artefacts(results_with(files), tmp_path)
    assert info.value.path == str(tmp_path / "a")
    assert not (tmp_path / MANIFEST).exists()  # a failed build lists nothing


def test_full_collections_are_held_back_while_specs_compile_and_restored_after(monkeypatch):
    seen = []
    real = pipeline.compile_spec

    def spying(*args, **kwargs):
        seen.append(gc.get_threshold())
        return real(*args, **kwargs)

    monkeypatch.setattr(pipeline, "compile_spec", spying)
    before = gc.get_threshold()
    gc.set_threshold(before[0], before[1], 10)
    try:
        results, _ = pipeline.compile_all([ROOT / "spec" / "dragon_tiger.rules"], emit=False)
        assert gc.get_threshold() == (before[0], before[1], 10)
    finally:
        gc.set_threshold(*before)
    assert results[0].ok
    assert seen and all(t == (before[0], before[1], pipeline.FULL_COLLECTION_EVERY) for t in seen)
