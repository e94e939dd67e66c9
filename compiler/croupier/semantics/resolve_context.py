"""What the statement families of the resolver share while one spec file is read.

`Context` holds the game being built (a fresh one, or a copy of the base for a
variant), the diagnostics, the expressions waiting for the end of the file, and
what the late checks need (the statements of tie-breaks, rooms, squeeze, cut
card and burn); its helpers read labels, names and ranks and apply the variant
rules (`override`). The families (`resolve_cards`, `resolve_round`,
`resolve_bets`, `resolve_seats`, `resolve_table`) each map their statement
kinds to a function `(Context, statement) -> None`; `resolve` drives them.
"""

from __future__ import annotations

import keyword
from collections.abc import Callable
from typing import Any

from croupier.diagnostics import Diagnostic, Span, error
from croupier.semantics import model
from croupier.semantics.answer_fields import reserved_for
from croupier.semantics.resolve_exprs import Unresolved
from croupier.semantics.scopes import Checker
from croupier.suggest import did_you_mean
from croupier.syntax import ast


def split_card(text: str) -> tuple[str, str] | None:
    """(rank, suit) of a card written as its rank then one suit letter (`KD`, `10s`, `TD`), or None."""
    t = text.upper()
    if len(t) < 2 or not t[-1].isalpha() or not t[-1].isascii():
        return None
    rank = t[:-1]
    return ("10" if rank == "T" else rank), t[-1]


# a statement family's functions, by the statement kind each reads
Handlers = dict[type[ast.Stmt], Callable[["Context", Any], None]]


class Context:
    """The state of one spec file's resolution, and the helpers every statement family uses."""

    def __init__(self) -> None:
        self.diags: list[Diagnostic] = []
        self.check = Checker(self.diags)
        self.waiting = Unresolved()  # this file's expressions, resolved once every statement is read
        self.game: model.Game | None = None
        self.variant = False
        self.base_names: dict[str, set[str]] = {}
        self.seen: set[str] = set()  # the singleton statements read so far (`shoe`, `deal`, …)
        self.pending_tiebreaks: list[ast.TiebreakStmt] = []
        self.pending_rooms: list[tuple[model.Room, ast.RoomStmt]] = []
        self.pending_squeeze: ast.SqueezeStmt | None = None
        self.pending_burn: ast.BurnStmt | None = None
        self.pending_cut: ast.CutCardStmt | None = None
        self.pending_last: ast.LastRoundStmt | None = None
        self.pending_shuffle: ast.ShuffleStmt | None = None
        self.hand_size_span: Span | None = None
        self.value_span: Span | None = None
        self.removed: list[tuple[str, str, Span]] = []  # (kind, name, where) of each `remove`

    def err(self, code: str, msg: str, span: Span, hint: str = "", suggestion: str = "") -> None:
        self.diags.append(error(code, msg, span, hint, suggestion))

    def unknown(self, msg: str, span: Span, word: str, known, listing: str) -> None:
        """E0101 for a name that is not among `known`: the nearest known name suggested, then `listing`."""
        guess, suggestion = did_you_mean(word, known)
        self.err("E0101", msg, span, f"{guess} {listing}".strip(), suggestion)

    def labels(self, items: list[ast.Label]) -> model.Labels:
        out = model.Labels()
        for lab in items:
            lang = lab.lang or "en"
            if lang in out.texts:
                self.err("E0105", f"two labels in language `{lang}`", lab.span, "keep one")
            out.texts[lang] = lab.text
            out.span = out.span or lab.span
        return out

    def item(self, cls, stmt: ast.Named, **kw):
        kind = {model.Item: "hand", model.Event: "event", model.Formula: "formula"}.get(cls, "other")
        self.check_name(stmt, kind)
        return cls(stmt.name, self.labels(stmt.labels), stmt.span, stmt.cite, origin=self.game.name, **kw)

    def check_name(self, stmt: ast.Named, kind: str) -> None:
        """A declared name becomes part of the engine's Python and of its answers: no keywords, no dunders,
        and for a hand, an event or a formula not a field the engine's answer already has (`error`,
        `returns`, …, declared in `answer_fields`)."""
        name = stmt.name
        span = stmt.name_span or stmt.span
        if keyword.iskeyword(name) or keyword.issoftkeyword(name) or name.startswith("__"):
            self.err("E0109", f"`{name}` is a reserved word and cannot name a {stmt.kind}", span,
                     "choose another name")
        elif name in reserved_for(kind):
            self.err("E0116", f"`{name}` is a field of the engine's answer and cannot name a {stmt.kind}", span,
                     f"choose another name; the answer's own fields: {', '.join(sorted(reserved_for(kind)))}")

    def ranks(self, rs: ast.RankSet, universe: tuple[str, ...], what: str) -> tuple[str, ...]:
        out: list[str] = []
        for first, last in rs.parts:
            a = self.norm_rank(first.text)
            if a not in universe:
                self.err("E0106", f"unknown rank `{first.text}` in {what}", first.span,
                         f"ranks of this shoe: {' '.join(universe)}")
                continue
            if last is None:
                out.append(a)
                continue
            b = self.norm_rank(last.text)
            if b not in universe:
                self.err("E0106", f"unknown rank `{last.text}` in {what}", last.span,
                         f"ranks of this shoe: {' '.join(universe)}")
                continue
            i, j = universe.index(a), universe.index(b)
            if j < i:
                self.err("E0107", f"the range {first.text}..{last.text} runs backwards", first.span,
                         f"write {last.text}..{first.text}")
                continue
            out.extend(universe[i:j + 1])
        return tuple(out)

    def ranks_or_cards(self, rs: ast.RankSet, what: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The ranks of the shoe a rank set names, and the single cards (`KD`) it names: (ranks, cards)."""
        shoe = self.game.shoe
        cards = shoe.codes() if shoe is not None else ()
        return self.names_in(rs, self.universe(), tuple(c for c in cards if c not in self.universe()), what)

    def names_in(self, rs: ast.RankSet, ranks: tuple[str, ...], cards: tuple[str, ...],
                 what: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """What a rank set names among `ranks` (ranges in their order) and single `cards` (`KD`): (ranks, cards)."""
        single: list[str] = []
        plain = ast.RankSet([], rs.span)
        for first, last in rs.parts:
            parts = split_card(first.text) if last is None else None
            if last is None and self.norm_rank(first.text) not in ranks and parts is not None \
                    and model.card_code(*parts) in cards:
                single.append(model.card_code(*parts))
            else:
                plain.parts.append((first, last))
        found = self.ranks(plain, ranks, what) if plain.parts else ()
        return found, tuple(single)

    @staticmethod
    def norm_rank(text: str) -> str:
        t = text.upper()
        return "10" if t == "T" else t

    def universe(self) -> tuple[str, ...]:
        shoe = self.game.shoe
        if shoe is None:
            return model.STANDARD_RANKS
        return shoe.ranks + shoe.jokers

    def replace_check(self, stmt: ast.Stmt, exists: bool, kind: str, name: str) -> bool:
        """Apply the variant rules; return False when the statement must be ignored."""
        span = getattr(stmt, "name_span", None) or stmt.span
        if stmt.override and not self.variant:
            self.err("E0110", f"`override` in a game that extends nothing ({kind} `{name}`)", stmt.span,
                     "remove `override`, or add `extends BASE` to the game line")
            return True
        if stmt.override and not exists:
            guess, suggestion = did_you_mean(name, self.base_names.get(kind, ()))
            if guess:
                self.err("E0111", f"the base has no {kind} `{name}`; {guess}", span,
                         f"or remove `override` to add {kind} `{name}` as new", suggestion)
            else:
                self.err("E0111", f"this variant overrides {kind} `{name}`, which its base lacks", span,
                         "remove `override` to add it as new")
            return False
        if exists and not stmt.override:
            where = "its base" if self.variant and name in self.base_names.get(kind, set()) else "this file"
            if where == "its base":
                self.err("E0112", f"{kind} `{name}` is already defined in {where}", span,
                         f"write `override` before the statement to replace the base's {kind}")
            else:
                self.err("E0103", f"duplicate {kind} `{name}`", span, "each name may be defined once")
            return False
        if self.variant:
            self.differs("override" if exists else "add", kind, name, stmt.span)
        return True

    def differs(self, what: str, kind: str, name: str, span: Span) -> None:
        """Note how the variant differs from its base, once per item (a room a `remove bet` changed and an
        `override room` replaces is one change)."""
        if not any(d.what == what and d.kind == kind and d.name == name for d in self.game.differences):
            self.game.differences.append(model.Difference(what, kind, name, span))

    def singleton(self, stmt: ast.Stmt, key: str, exists: bool) -> bool:
        """A statement a game has once (`shoe`, `deal`, …): a second one in the file is an error."""
        if key in self.seen:
            self.err("E0103", f"a second `{key}` statement", stmt.span, "keep one")
            return False
        self.seen.add(key)
        return self.replace_check(stmt, exists, key, key)
