"""Where the names of a spec are declared and used, read from its text and the texts of its bases.

An editor asks about a text that is often half typed, so this index is lexical over the lines, with
the declarations taken from whatever the parser could read (`parse_text` recovers statement by
statement): a `Definition` per declared name (hands, events, outcomes, bets, lets, sources,
assumptions, classes, hand types, decks, suits, rooms, the game itself), found in the spec and in each
base it extends, in order; a name's uses are the same word outside strings, comments and citations;
a source's uses are the citations that name it.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from croupier.syntax import ast
from croupier.syntax.parser import parse_text

WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
CITE = re.compile(r"\[([^\]\n]*)\]")
STRING = re.compile(r'"(?:[^"\\\n]|\\.)*"?')
MAX_BASES = 16  # a chain of `extends` longer than this (or a cycle) is not followed further

KINDS = {ast.GameStmt: "game", ast.HandStmt: "hand", ast.EventStmt: "event", ast.OutcomeStmt: "outcome",
         ast.BetStmt: "bet", ast.LetStmt: "let", ast.AssumeStmt: "assume", ast.ClassStmt: "class",
         ast.TypeStmt: "type", ast.DeckStmt: "deck", ast.SuitStmt: "suit", ast.RoomStmt: "room",
         ast.SettleStmt: "settle", ast.JokerStmt: "joker"}


@dataclass(frozen=True)
class Place:
    """A range on one line of a file: 1-based line and column, end column exclusive (as `Span`)."""

    file: Path
    line: int
    column: int
    end_column: int


@dataclass(frozen=True)
class Definition:
    """A declared name: its kind (`hand`, `bet`, `source`…), where its name is written, and its statement's line."""

    kind: str
    name: str
    place: Place
    text: str
    override: bool = False


def read_text(path: Path, open_texts: Callable[[Path], str | None]) -> str | None:
    """The text of a file as the editor holds it, else as the disk does; None when neither has it."""
    text = open_texts(path)
    if text is not None:
        return text
    try:
        return path.read_text(encoding="utf-8") if path.is_file() else None
    except (OSError, UnicodeDecodeError):
        return None


def masked(line: str) -> str:
    """The line with its comment, strings and citations blanked out (same length): only names remain."""
    out = STRING.sub(lambda m: " " * len(m.group()), line)
    out = CITE.sub(lambda m: " " * len(m.group()), out)
    hash_at = out.find("#")
    return out if hash_at < 0 else out[:hash_at] + " " * (len(out) - hash_at)


@lru_cache(maxsize=64)
def declarations(text: str, path: Path) -> tuple[tuple[Definition, ...], str | None]:
    """(the names one file declares, the base its `game` line extends, if any); kept for the same text, so that
    a base is parsed once while its variant is being typed."""
    spec, _diags = parse_text(text, str(path))
    lines = text.splitlines()
    out: list[Definition] = []
    base = None
    for stmt in spec.statements:
        line = lines[stmt.span.line - 1] if 0 < stmt.span.line <= len(lines) else ""
        kind = KINDS.get(type(stmt))
        if isinstance(stmt, ast.GameStmt):
            base = stmt.base
        if kind is not None and stmt.name and stmt.name_span is not None:
            s = stmt.name_span
            out.append(Definition(kind, stmt.name, Place(path, s.line, s.column, s.end_column), line.strip(),
                                  stmt.override))
        elif isinstance(stmt, ast.SourceStmt) and stmt.ident:
            at = line.find(f'"{stmt.ident}"')
            col = at + 2 if at >= 0 else stmt.span.column
            out.append(Definition("source", stmt.ident, Place(path, stmt.span.line, col, col + len(stmt.ident)),
                                  line.strip(), stmt.override))
    return tuple(out), base


@dataclass
class SpecIndex:
    """The declarations of a spec and of its bases (the spec's first), and the files they lie in."""

    files: list[Path]
    definitions: list[Definition]

    def find(self, name: str, kind: str | None = None) -> Definition | None:
        """The declaration a use of `name` means: the spec's own (an override) before its base's."""
        for d in self.definitions:
            if d.name == name and (kind is None or (d.kind == "source") == (kind == "source")):
                return d
        return None

    def names(self) -> list[Definition]:
        """One declaration per name (the nearest), sources left out, in file order."""
        seen: dict[str, Definition] = {}
        for d in self.definitions:
            if d.kind != "source":
                seen.setdefault(d.name, d)
        return list(seen.values())

    def sources(self) -> dict[str, Definition]:
        return {d.name: d for d in reversed(self.definitions) if d.kind == "source"}


def spec_index(path: Path, text: str, open_texts: Callable[[Path], str | None]) -> SpecIndex:
    """The index of a spec's text and its chain of bases (read beside it, as the editor holds them)."""
    files, defs = [path], []
    own, base = declarations(text, path)
    defs.extend(own)
    folder = path.parent
    while base is not None and len(files) <= MAX_BASES:
        base_path = folder / f"{base}.rules"
        base_text = read_text(base_path, open_texts)
        if base_path in files or base_text is None:
            break
        files.append(base_path)
        more, base = declarations(base_text, base_path)
        defs.extend(more)
    return SpecIndex(files, defs)


def word_at(line: str, character: int) -> tuple[str, int] | None:
    """(the word under a 0-based character of a line, its 0-based start), or None."""
    for m in WORD.finditer(line):
        if m.start() <= character <= m.end():
            return m.group(), m.start()
    return None


def cite_at(line: str, character: int) -> tuple[str, int] | None:
    """(the source id of the citation under a 0-based character, its 0-based start), or None."""
    for m in CITE.finditer(masked_strings(line)):
        if m.start() <= character < m.end():
            inner = line[m.start(1):m.end(1)]
            ident = inner.split()[0] if inner.split() else ""
            return (ident, m.start(1) + inner.find(ident)) if ident else None
    return None


def masked_strings(line: str) -> str:
    """The line with its strings blanked out (same length), so that a `[` in a label is no citation."""
    return STRING.sub(lambda m: " " * len(m.group()), line)


def uses_in(text: str, path: Path, name: str, source: bool) -> Iterator[Place]:
    """Every place a name is written in a text: as a word outside strings, comments and citations, or (a
    source id) as the first word of a citation and in its `source` line."""
    for no, line in enumerate(text.splitlines(), 1):
        if source:
            plain = masked_strings(line)
            for m in CITE.finditer(plain):
                inner = line[m.start(1):m.end(1)]
                parts = inner.split()
                if parts and parts[0] == name:
                    col = m.start(1) + inner.find(name) + 1
                    yield Place(path, no, col, col + len(name))
            if line.lstrip().startswith(("source ", "override source ")) and f'"{name}"' in line:
                col = line.find(f'"{name}"') + 2
                yield Place(path, no, col, col + len(name))
            continue
        for m in WORD.finditer(masked(line)):
            if m.group() == name:
                yield Place(path, no, m.start() + 1, m.end() + 1)


def dependants(folder: Path, target: Path, open_texts: Callable[[Path], str | None]) -> list[Path]:
    """The specs of a folder whose chain of bases includes `target` (itself included)."""
    out = []
    for spec in sorted(folder.glob("*.rules")):
        text = read_text(spec, open_texts)
        if text is None:
            continue
        chain = chain_of(spec, text, open_texts)
        if target in chain:
            out.append(spec)
    return out


GAME_LINE = re.compile(r"^\s*game\s+[A-Za-z_]\w*\s+extends\s+([A-Za-z_]\w*)", re.MULTILINE)


def chain_of(path: Path, text: str, open_texts: Callable[[Path], str | None]) -> list[Path]:
    """A spec and the bases its `game … extends` lines name, read without parsing."""
    chain = [path]
    while len(chain) <= MAX_BASES:
        m = GAME_LINE.search(text)
        if m is None:
            break
        base = path.parent / f"{m.group(1)}.rules"
        text = read_text(base, open_texts)
        if base in chain or text is None:
            break
        chain.append(base)
    return chain
