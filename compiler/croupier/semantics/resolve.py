"""Resolve a parsed spec into the `model.Game`: names, values, variants, scopes.

A variant (`game x extends base`) starts from its base's model; a statement
that replaces something of the base must say `override`, and an `override` of
something the base lacks is an error. Every expression is checked against the
scope of its place. Problems come back as diagnostics; nothing here raises.

`Loader` reads spec files (and the bases they extend); `Resolver` drives the
statement families over one file (`resolve_cards`, `resolve_round`,
`resolve_bets`, `resolve_seats`, `resolve_table`: each maps its statement kinds
to a function), then runs the late checks (`resolve_checks`) and resolves the
expressions (`resolve_exprs`).
"""

from __future__ import annotations

import copy
from dataclasses import replace
from datetime import date
from pathlib import Path

from croupier.diagnostics import Diagnostic, Span, error
from croupier.project import ProjectError, project_of
from croupier.semantics import model, resolve_bets, resolve_cards, resolve_round, resolve_seats, resolve_table
from croupier.semantics.citations import undeclared_sources
from croupier.semantics.resolve_checks import (
    apply_tiebreaks,
    check_hand_bounds,
    check_name_clashes,
    check_procedure_bounds,
    check_removed,
    check_shoe_and_values,
    check_table_references,
    draw_ident,
)
from croupier.semantics.resolve_context import Context, Handlers
from croupier.semantics.resolve_exprs import check_expressions
from croupier.syntax import ast
from croupier.syntax.parser import parse_text, read_spec


def _follows_from_syntax(d: Diagnostic, spec: ast.SpecFile) -> bool:
    """An unknown name that a statement with a syntax error would have declared: reported with that error."""
    if d.code != "E0101" or not spec.lost_names or d.span.file != spec.path or d.span.end_line != d.span.line:
        return False
    lines = spec.text.split("\n")
    text = lines[d.span.line - 1][d.span.column - 1:d.span.end_column - 1] if d.span.line <= len(lines) else ""
    return text in spec.lost_names


MAX_BASE_DEPTH = 32  # variants in one chain; each level copies its base once


def source(cx: Context, stmt: ast.SourceStmt) -> None:
    if not stmt.labels:
        cx.err("E0108", f"source `{stmt.ident}` has no title", stmt.span, 'add its title: source "000" "Title"')
    cx.game.sources.append(model.Source(stmt.ident, stmt.description, stmt.span, cx.labels(stmt.labels), stmt.lang))


def _once(cx: Context, stmt: ast.Stmt, key: str) -> bool:
    """A statement a spec states once; not a rule, so a variant states its own without `override`."""
    if key in cx.seen:
        cx.err("E0103", f"a second `{key}` statement", stmt.span, "keep one")
        return False
    cx.seen.add(key)
    return True


def version(cx: Context, stmt: ast.VersionStmt) -> None:
    if _once(cx, stmt, "version"):
        cx.game.version, cx.game.version_cite = stmt.text, stmt.cite
        if not stmt.text.strip():
            cx.err("E0160", "the version is empty", stmt.span, 'write it like: version "2025.1"')


def effective(cx: Context, stmt: ast.EffectiveStmt) -> None:
    if _once(cx, stmt, "effective"):
        try:
            date.fromisoformat(stmt.date)
        except ValueError:
            cx.err("E0160", f"`{stmt.date}` is not a day of the calendar", stmt.span,
                   "write the date as YYYY-MM-DD, like 2025-01-31")
            return
        cx.game.effective = stmt.date


def assumption(cx: Context, stmt: ast.AssumeStmt) -> None:
    g = cx.game
    if cx.replace_check(stmt, stmt.name in g.assumptions, "assumption", stmt.name):
        g.assumptions[stmt.name] = cx.item(model.Assumption, stmt)
        if not stmt.labels:
            cx.err("E0108", f"assumption `{stmt.name}` says nothing", stmt.span, 'add its text: "…"')


# every statement kind after the `game` line, and the function that reads it
STATEMENTS: Handlers = {
    ast.SourceStmt: source,
    ast.AssumeStmt: assumption,
    ast.VersionStmt: version,
    ast.EffectiveStmt: effective,
    **resolve_cards.STATEMENTS,
    **resolve_round.STATEMENTS,
    **resolve_bets.STATEMENTS,
    **resolve_seats.STATEMENTS,
    **resolve_table.STATEMENTS,
}


class Loader:
    """Reads spec files (and the bases they extend), keeping their text for diagnostics.

    Only regular files are read, and at most `MAX_SPEC_BYTES` + 1 bytes of one (a device or a FIFO
    never blocks or streams forever); a UTF-8 byte-order mark is dropped.
    """

    def __init__(self) -> None:
        self.root: Path | None = None  # the project's root: a spec or base resolving outside it is not read
        self.sources: dict[str, str] = {}
        self._games: dict[str, tuple[model.Game | None, list[Diagnostic]]] = {}
        self.loading: list[Path] = []  # the specs being resolved, outermost first (to name a cycle)
        self.opened: dict[str, str] = {}  # shown path → the path its file is opened by

    def load(self, path: str, text: str | None = None, depth: int = 0,
             opened: str | Path | None = None) -> tuple[model.Game | None, list[Diagnostic]]:
        """Load the spec shown as `path` (in diagnostics and the model), read from `opened`
        (by default the same path)."""
        key = str(path)
        if text is None and key in self._games:
            return self._games[key]
        real = self.opened[key] = str(opened) if opened is not None else self.opened.get(key, key)
        if text is None:
            problem = self.outside(key, real)
            text, problem = ("", problem) if problem is not None else read_spec(real)
            if problem is not None:
                self.sources[key] = ""
                return None, [replace(problem, span=replace(problem.span, file=key))]
        text = text.removeprefix("\ufeff")
        self.sources[key] = text
        spec, diags = parse_text(text, key)
        game = None
        if spec.statements:
            self.loading.append(Path(real).resolve())
            try:
                game, more = Resolver(self, spec, depth).run()
            finally:
                self.loading.pop()
            diags = diags + [d for d in more if not _follows_from_syntax(d, spec)]
        self._games[key] = (game, diags)
        return game, diags

    def outside(self, shown: str, real: str) -> Diagnostic | None:
        """The error for a spec file that resolves (through symbolic links) outside the project's root; its
        text is never read, so none of it can be quoted."""
        if not self.loading:  # the spec named, not a base: its project (found where it is named) bounds both
            try:
                project = project_of(real)
            except ProjectError:
                project = None
            self.root = project.root if project is not None else None
        if self.root is None:
            return None
        try:
            Path(real).resolve().relative_to(self.root)
            return None
        except (ValueError, OSError, RuntimeError):
            return error("E0000", "cannot read the spec: it resolves outside the project (a symbolic link to "
                         "a file elsewhere); it is not read", Span(shown, 1, 1),
                         "keep every spec and base inside the project's folder, as a file, not a link out of it")

    def beside(self, shown: str, name: str) -> tuple[Path, Path]:
        """(shown path, path to open) of the file `name` in the folder of the spec shown as `shown`."""
        return Path(shown).parent / name, Path(self.opened.get(shown, shown)).parent / name

    def exists(self, shown: Path, opened: Path) -> bool:
        """Whether a spec (a base being looked for, shown as `shown`, read from `opened`) can be read."""
        return opened.exists()


class Resolver(Context):
    """Builds one game from one parsed spec file."""

    def __init__(self, loader: Loader, spec: ast.SpecFile, depth: int) -> None:
        super().__init__()
        self.loader = loader
        self.spec = spec
        self.depth = depth

    # ---- the run -------------------------------------------------------------------
    def run(self) -> tuple[model.Game | None, list[Diagnostic]]:
        stmts = self.spec.statements
        head = stmts[0]
        if not isinstance(head, ast.GameStmt):
            self.err("E0100", "a spec starts with a `game` line", head.span,
                     'for example: game my_game "My game"')
            return None, self.diags
        if head.base:
            base = self.load_base(head)
            if base is None:
                return None, self.diags
            # the base's own bases are shared, not copied: a chain of n variants copies n games, not n² ones
            game = copy.deepcopy(base, {id(base.base): base.base} if base.base is not None else {})
            game.base = base
            game.differences = []
            game.version = game.effective = game.version_cite = None  # a variant states its own
            game.name, game.labels, game.path, game.span = head.name, self.labels(head.labels), self.spec.path, head.span
            self.variant = True
            self.base_names = self.names_of(base)
        else:
            game = model.Game(head.name, self.labels(head.labels), self.spec.path, head.span)
        game.source_text = self.spec.text
        game.rules_text = repr(ast.meaning(self.spec.statements))
        self.game = game
        for stmt in stmts[1:]:
            if isinstance(stmt, ast.GameStmt):
                self.err("E0103", "a spec has one `game` line", stmt.span, "split the file into two specs")
                continue
            try:
                self.statement(stmt)
            except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
                self.err("E0199", f"cannot use this statement ({exc})", stmt.span)
        self.finish()
        return game, self.diags

    def load_base(self, head: ast.GameStmt) -> model.Game | None:
        base_path, base_file = self.loader.beside(self.spec.path, f"{head.base}.rules")
        chain = self.loader.loading
        if base_file.resolve() in chain:
            names = [p.stem for p in chain[chain.index(base_file.resolve()):]] + [head.base]
            self.err("E0118", "variants extend each other in a cycle: " + " → ".join(names), head.base_span,
                     "a variant extends a base that extends nothing, or another variant")
            return None
        if self.depth >= MAX_BASE_DEPTH:
            self.err("E0113", f"a chain of more than {MAX_BASE_DEPTH} variants", head.base_span,
                     "extend a spec nearer the start of the chain")
            return None
        if not self.loader.exists(base_path, base_file):
            self.err("E0113", f"the base spec `{head.base}` is not found", head.base_span,
                     f"expected the file {base_path}")
            return None
        base, diags = self.loader.load(str(base_path), depth=self.depth + 1, opened=base_file)
        cycles = [d for d in diags if d.code == "E0118"]
        if cycles:
            self.err("E0118", cycles[0].message, head.base_span, cycles[0].hint)
            return None
        if base is None or any(d.is_error for d in diags):
            self.err("E0114", f"the base spec `{head.base}` has errors", head.base_span,
                     f"run `croupier check {base_path}`")
            return None
        return base

    @staticmethod
    def names_of(game: model.Game) -> dict[str, set[str]]:
        return {
            "bet": set(game.bets), "outcome": set(game.outcomes), "event": set(game.events),
            "hand": set(game.hands), "hand type": {t.name for t in game.types}, "formula": set(game.formulas),
            "room": set(game.rooms), "assumption": set(game.assumptions), "class": set(game.classes),
            "deck": set(game.decks),
        }

    # ---- statements -------------------------------------------------------------------
    def statement(self, stmt: ast.Stmt) -> None:
        read = STATEMENTS.get(type(stmt))
        if read is None:
            self.err("E0199", f"this statement is not supported here ({stmt.kind})", stmt.span)
            return
        read(self, stmt)

    # ---- after all statements: cross references and expression scopes ------------------
    def finish(self) -> None:
        g = self.game
        apply_tiebreaks(g, self.pending_tiebreaks, self.err)
        check_table_references(g, self.pending_rooms, self.pending_squeeze, self.err)
        resolve_table.burn_values(self)
        check_shoe_and_values(g, self.err, self.value_span or g.span)
        resolve_table.shuffle_conflicts(self)
        check_procedure_bounds(g, self.pending_cut, self.pending_burn, self.err)
        check_hand_bounds(g, self.hand_size_span, self.err)
        for hand, tables in g.hand_draws():
            for i, t in enumerate(tables, 1):
                t.ident = draw_ident(hand, i, len(tables))
        check_name_clashes(g, self.err)
        check_expressions(g, self.check, self.err, self.waiting)
        check_removed(g, self.removed, self.err)
        self.diags.extend(undeclared_sources(self.spec, g.sources))
        if g.is_seat_game:
            for c in g.classes.values():
                if c.cards:
                    resolve_cards.single_card(self, c.cards[0], c.span, f"card class `{c.name}` of a seat game")


def resolve_file(path: str, text: str | None = None, loader: Loader | None = None):
    """Parse and resolve one spec file: (game or None, diagnostics, loader with sources)."""
    loader = loader or Loader()
    game, diags = loader.load(path, text)
    return game, diags, loader
