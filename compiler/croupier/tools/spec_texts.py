"""A spec and the bases it extends, as texts: what a cluster worker compiles and a checkpoint records.

A worker never reads a spec from its own disk and never receives code: it gets
these texts, compiles them with its own Croupier (`compile_texts`, the same parse,
resolve and emit as `play`), and checks that the engine source it emitted has the
digest the client's has, so that a worker running another version of Croupier
refuses to play rather than mix its results into the run.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from croupier.cache import text_digest
from croupier.semantics.resolve import Loader


@dataclass(frozen=True)
class SpecTexts:
    """The spec files one compile read: (key, text) pairs, the spec first, and the path the engine names."""

    sources: tuple[tuple[str, str], ...]
    shown: str

    @property
    def root(self) -> str:
        return self.sources[0][0]

    @property
    def digest(self) -> str:
        """The SHA-256 of the texts alone (the spec's, then its bases' in the order read), not of their paths."""
        return text_digest(json.dumps([text for _, text in self.sources]))

    @classmethod
    def of(cls, sources: dict[str, str], shown: str) -> SpecTexts:
        """From a loader's `sources` (filled in the order the files were read: the spec first)."""
        return cls(tuple(sources.items()), shown)

    def to_json(self) -> dict:
        return {"shown": self.shown, "sources": [list(pair) for pair in self.sources]}

    @classmethod
    def from_json(cls, data: object) -> SpecTexts:
        if not isinstance(data, dict) or not isinstance(data.get("shown"), str):
            raise ValueError("spec: not a spec and its texts")
        pairs = data.get("sources")
        if not isinstance(pairs, list) or not pairs or not all(
                isinstance(p, list) and len(p) == 2 and all(isinstance(x, str) for x in p) for p in pairs):
            raise ValueError("spec: the texts are not a list of [path, text] pairs")
        return cls(tuple((k, t) for k, t in pairs), data["shown"])


class TextLoader(Loader):
    """A loader that reads spec files from the texts it was given, never from the disk."""

    def __init__(self, texts: dict[str, str]) -> None:
        super().__init__()
        self.texts = texts

    def exists(self, shown: Path, opened: Path) -> bool:
        return str(shown) in self.texts

    def load(self, path: str, text: str | None = None, depth: int = 0, opened: str | Path | None = None):
        key = str(path)
        if text is None and key not in self._games and key in self.texts:
            text = self.texts[key]
        return super().load(key, text, depth)


class CompileError(Exception):
    """The texts do not compile here, or compile to another engine than the client's."""


def compile_texts(spec: SpecTexts, digest: str | None = None) -> tuple[object, str]:
    """(game, engine source) of the texts; with `digest`, the engine source must have that SHA-256."""
    from croupier.backends.engine.emitter import emit_engine
    from croupier.backends.engine.loader import source_digest
    from croupier.diagnostics import render_all

    loader = TextLoader(dict(spec.sources))
    game, diags = loader.load(spec.root)
    if game is None or any(d.is_error for d in diags):
        raise CompileError(f"the spec {spec.shown} does not compile here:\n{render_all(diags, loader.sources)}")
    source = emit_engine(game, spec.shown)
    if digest is not None and source_digest(source) != digest:
        raise CompileError(f"the spec {spec.shown} compiles here to another engine than the client's "
                           "(is this worker's croupier the same version?)")
    return game, source
