"""Resolve a parsed spec into the `model.Game`: names, values, variants, scopes.

A variant (`game x extends base`) starts from its base's model; a statement
that replaces something of the base must say `override`, and an `override` of
something the base lacks is an error. Every expression is checked against the
scope of its place. Problems come back as diagnostics; nothing here raises.
"""

from __future__ import annotations

import copy
import keyword
from fractions import Fraction
from pathlib import Path

from croupier.diagnostics import Diagnostic, Span, error
from croupier.semantics import model
from croupier.semantics.draw_grid import read_grid
from croupier.semantics.resolve_checks import (
    MAX_SEATS,
    apply_tiebreaks,
    check_expressions,
    check_hand_bounds,
    check_name_clashes,
    check_procedure_bounds,
    check_shoe_and_values,
    check_table_references,
    reserved_for,
)
from croupier.semantics.scopes import Checker
from croupier.syntax import ast
from croupier.syntax.parser import parse_text, read_spec
from croupier.syntax.printer import expr_text

DECK_KINDS = {"standard52": (model.STANDARD_RANKS, model.STANDARD_SUITS)}
MAX_BASE_DEPTH = 32  # variants in one chain; each level copies its base once


class Loader:
    """Reads spec files (and the bases they extend), keeping their text for diagnostics.

    Only regular files are read, and at most `MAX_SPEC_BYTES` + 1 bytes of one (a device or a FIFO
    never blocks or streams forever); a UTF-8 byte-order mark is dropped.
    """

    def __init__(self) -> None:
        self.sources: dict[str, str] = {}
        self._games: dict[str, tuple[model.Game | None, list[Diagnostic]]] = {}
        self.loading: list[Path] = []  # the specs being resolved, outermost first (to name a cycle)

    def load(self, path: str, text: str | None = None, depth: int = 0) -> tuple[model.Game | None, list[Diagnostic]]:
        key = str(path)
        if text is None and key in self._games:
            return self._games[key]
        if text is None:
            text, problem = read_spec(key)
            if problem is not None:
                self.sources[key] = ""
                return None, [problem]
        text = text.removeprefix("\ufeff")
        self.sources[key] = text
        spec, diags = parse_text(text, key)
        game = None
        if spec.statements:
            self.loading.append(Path(key).resolve())
            try:
                game, more = Resolver(self, spec, depth).run()
            finally:
                self.loading.pop()
            diags = diags + more
        self._games[key] = (game, diags)
        return game, diags


class Resolver:
    """Builds one game from one parsed spec file."""

    def __init__(self, loader: Loader, spec: ast.SpecFile, depth: int) -> None:
        self.loader = loader
        self.spec = spec
        self.depth = depth
        self.diags: list[Diagnostic] = []
        self.check = Checker(self.diags)
        self.game: model.Game | None = None
        self.variant = False
        self.pending_tiebreaks: list[ast.TiebreakStmt] = []
        self.pending_rooms: list[tuple[model.Room, ast.RoomStmt]] = []
        self.pending_squeeze: ast.SqueezeStmt | None = None
        self.pending_burn: ast.BurnStmt | None = None
        self.pending_cut: ast.CutCardStmt | None = None
        self.hand_size_span: Span | None = None

    # ---- helpers ---------------------------------------------------------------
    def err(self, code: str, msg: str, span: Span, hint: str = "") -> None:
        self.diags.append(error(code, msg, span, hint))

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
            self.game.differences.append(model.Difference("override" if exists else "add", kind, name, stmt.span))
        return True

    # ---- the run -------------------------------------------------------------------
    def run(self) -> tuple[model.Game | None, list[Diagnostic]]:
        stmts = self.spec.statements
        head = stmts[0]
        if not isinstance(head, ast.GameStmt):
            self.err("E0100", "a spec starts with a `game` line", head.span,
                     'for example: game baccarat "Baccarat"')
            return None, self.diags
        self.base_names: dict[str, set[str]] = {}
        if head.base:
            base = self.load_base(head)
            if base is None:
                return None, self.diags
            # the base's own bases are shared, not copied: a chain of n variants copies n games, not n² ones
            game = copy.deepcopy(base, {id(base.base): base.base} if base.base is not None else {})
            game.base = base
            game.differences = []
            game.name, game.labels, game.path, game.span = head.name, self.labels(head.labels), self.spec.path, head.span
            self.variant = True
            self.base_names = self.names_of(base)
        else:
            game = model.Game(head.name, self.labels(head.labels), self.spec.path, head.span)
        game.source_text = self.spec.text
        self.game = game
        seen_singletons: set[str] = set()
        for stmt in stmts[1:]:
            if isinstance(stmt, ast.GameStmt):
                self.err("E0103", "a spec has one `game` line", stmt.span, "split the file into two specs")
                continue
            try:
                self.statement(stmt, seen_singletons)
            except (KeyError, IndexError, TypeError, ValueError, AttributeError) as exc:
                self.err("E0199", f"cannot use this statement ({exc})", stmt.span)
        self.finish()
        return game, self.diags

    def load_base(self, head: ast.GameStmt) -> model.Game | None:
        base_path = Path(self.spec.path).parent / f"{head.base}.rules"
        chain = self.loader.loading
        if base_path.resolve() in chain:
            names = [p.stem for p in chain[chain.index(base_path.resolve()):]] + [head.base]
            self.err("E0118", "variants extend each other in a cycle: " + " → ".join(names), head.base_span,
                     "a variant extends a base that extends nothing, or another variant")
            return None
        if self.depth >= MAX_BASE_DEPTH:
            self.err("E0113", f"a chain of more than {MAX_BASE_DEPTH} variants", head.base_span,
                     "extend a spec nearer the start of the chain")
            return None
        if not base_path.exists():
            self.err("E0113", f"the base spec `{head.base}` is not found", head.base_span,
                     f"expected the file {base_path}")
            return None
        base, diags = self.loader.load(str(base_path), depth=self.depth + 1)
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
        }

    # ---- statements -------------------------------------------------------------------
    def singleton(self, stmt: ast.Stmt, key: str, exists: bool, seen: set[str]) -> bool:
        if key in seen:
            self.err("E0103", f"a second `{key}` statement", stmt.span, "keep one")
            return False
        seen.add(key)
        return self.replace_check(stmt, exists, key, key)

    def statement(self, stmt: ast.Stmt, seen: set[str]) -> None:  # noqa: C901 - one branch per statement kind
        g = self.game
        if isinstance(stmt, ast.SourceStmt):
            g.sources.append(model.Source(stmt.ident, stmt.description, stmt.span))
        elif isinstance(stmt, ast.AssumeStmt):
            if self.replace_check(stmt, stmt.name in g.assumptions, "assumption", stmt.name):
                g.assumptions[stmt.name] = self.item(model.Assumption, stmt)
                if not stmt.labels:
                    self.err("E0108", f"assumption `{stmt.name}` says nothing", stmt.span, 'add its text: "…"')
        elif isinstance(stmt, ast.ShoeStmt):
            if self.singleton(stmt, "shoe", g.shoe is not None, seen):
                self.shoe(stmt)
        elif isinstance(stmt, ast.JokerStmt):
            g.joker_labels[self.norm_rank(stmt.name)] = self.labels(stmt.labels)
        elif isinstance(stmt, ast.ValueStmt):
            if self.singleton(stmt, "value", bool(g.values), seen):
                self.values(stmt)
        elif isinstance(stmt, ast.ClassStmt):
            if self.replace_check(stmt, stmt.name in g.classes, "class", stmt.name):
                g.classes[stmt.name] = self.item(model.CardClass, stmt,
                                                 ranks=self.ranks(stmt.ranks, self.universe(), "a card class"))
        elif isinstance(stmt, ast.WildStmt):
            if self.singleton(stmt, "wild", g.wild is not None, seen):
                g.wild = model.Wild(self.ranks(stmt.wilds, self.universe(), "the wild cards"),
                                    self.ranks(stmt.stands_for, self.universe(), "what a wild stands for"),
                                    tuple(stmt.best_by) or ("type", "total"), stmt.span, stmt.cite)
        elif isinstance(stmt, ast.TotalStmt):
            if self.singleton(stmt, "total", g.modulus is not None or g.total_cite is not None, seen):
                g.modulus, g.total_cite = stmt.modulus, stmt.cite or ""
        elif isinstance(stmt, ast.OrderStmt):
            self.order(stmt, seen)
        elif isinstance(stmt, ast.HandStmt):
            if self.replace_check(stmt, stmt.name in g.hands, "hand", stmt.name):
                g.hands[stmt.name] = self.item(model.Item, stmt)
        elif isinstance(stmt, ast.DealStmt):
            if self.singleton(stmt, "deal", bool(g.deal_order), seen):
                g.deal_order, g.deal_cite = tuple(r.text for r in stmt.order), stmt.cite
                for r in stmt.order:
                    if r.text not in g.hands:
                        self.err("E0101", f"unknown hand `{r.text}` in the deal", r.span,
                                 f"hands: {', '.join(g.hands) or 'none (declare them with `hand`)'}")
        elif isinstance(stmt, ast.EventStmt):
            if self.replace_check(stmt, stmt.name in g.events, "event", stmt.name):
                g.events[stmt.name] = self.item(model.Event, stmt, when=stmt.when)
        elif isinstance(stmt, ast.StandStmt):
            if self.singleton(stmt, "stand", g.stand_when is not None, seen):
                g.stand_when, g.stand_cite = stmt.when, stmt.cite
        elif isinstance(stmt, ast.DrawStmt):
            self.draw(stmt)
        elif isinstance(stmt, ast.OutcomeStmt):
            if self.replace_check(stmt, stmt.name in g.outcomes, "outcome", stmt.name):
                g.outcomes[stmt.name] = self.item(model.Outcome, stmt, when=stmt.when)
        elif isinstance(stmt, ast.BetStmt):
            if self.replace_check(stmt, stmt.name in g.bets, "bet", stmt.name):
                self.bet(stmt)
        elif isinstance(stmt, ast.SeatsStmt):
            key = stmt.what
            if self.singleton(stmt, key, (g.seats if key == "seats" else g.hand_size) is not None, seen):
                if stmt.low > stmt.high or stmt.low < 1:
                    self.err("E0115", f"the {key} range {stmt.low}..{stmt.high} is empty or starts below 1", stmt.span)
                if key == "seats":
                    if stmt.high > MAX_SEATS:
                        self.err("E0133", f"a table of {stmt.high} seats is more than {MAX_SEATS}", stmt.span,
                                 f"seats 2..{MAX_SEATS} at most")
                    g.seats = (stmt.low, stmt.high)
                else:
                    self.hand_size_span = stmt.span
                    g.hand_size = (stmt.low, stmt.high)
                    g.hand_size_span = stmt.span
        elif isinstance(stmt, ast.TypeStmt):
            existing = g.type_named(stmt.name)
            if self.replace_check(stmt, existing is not None, "hand type", stmt.name):
                self.hand_type(stmt, existing)
        elif isinstance(stmt, ast.TiebreakStmt):
            self.pending_tiebreaks.append(stmt)
        elif isinstance(stmt, ast.LetStmt):
            if self.replace_check(stmt, stmt.name in g.formulas, "formula", stmt.name):
                g.formulas[stmt.name] = self.item(model.Formula, stmt, expr=stmt.expr)
        elif isinstance(stmt, ast.SettleStmt):
            if self.singleton(stmt, "settle", g.settlement is not None, seen):
                g.settlement = model.Settlement(stmt.scheme, stmt.clauses, stmt.span, stmt.cite,
                                                self.labels(stmt.labels), stmt.stakes)
        elif isinstance(stmt, ast.PolicyStmt):
            if self.singleton(stmt, "policy", g.policy_threshold is not None, seen):
                g.policy_threshold = stmt.threshold
        elif isinstance(stmt, ast.RoomStmt):
            if self.replace_check(stmt, stmt.name in g.rooms, "room", stmt.name):
                room = self.item(model.Room, stmt)
                for lim in stmt.limits:
                    if lim.low > lim.high:
                        self.err("E0115", f"the limit {lim.low}..{lim.high} is empty", lim.span)
                    for b in lim.bets:
                        if b.text in room.limits:
                            self.err("E0103", f"two limits for bet `{b.text}` in room `{stmt.name}`", b.span)
                        room.limits[b.text] = (lim.low, lim.high)
                g.rooms[stmt.name] = room
                self.pending_rooms.append((room, stmt))
        elif isinstance(stmt, ast.SqueezeStmt):
            if self.singleton(stmt, "squeeze", g.squeeze is not None, seen):
                g.squeeze = model.Squeeze(tuple(b.text for b in stmt.bets), stmt.ties_to,
                                          tuple(o.text for o in stmt.order), stmt.span, stmt.cite)
                self.pending_squeeze = stmt
        elif isinstance(stmt, ast.ValidBetStmt) and stmt.pushed:
            if self.singleton(stmt, "valid bets pushed", g.valid_bets_pushed_none, seen):
                g.valid_bets_pushed_none, g.valid_bets_pushed_cite = True, stmt.cite
        elif isinstance(stmt, ast.ValidBetStmt):
            if self.singleton(stmt, "valid bets", g.valid_bets_none_when is not None, seen):
                g.valid_bets_none_when, g.valid_bets_cite = stmt.when, stmt.cite
        elif isinstance(stmt, ast.CutCardStmt):
            if self.singleton(stmt, "cut card", g.procedure.cut_low is not None, seen):
                if stmt.low > stmt.high:
                    self.err("E0115", "the cut-card range runs backwards", stmt.span)
                g.procedure.cut_low, g.procedure.cut_high = stmt.low, stmt.high
                g.procedure.cites["cut"] = stmt.cite
                self.pending_cut = stmt
        elif isinstance(stmt, ast.BurnStmt):
            if self.singleton(stmt, "burn", bool(g.procedure.burn_reveal), seen):
                g.procedure.burn_reveal = stmt.reveal
                g.procedure.cites["burn"] = stmt.cite
                self.pending_burn = stmt
        elif isinstance(stmt, ast.LastRoundStmt):
            if self.singleton(stmt, "last round", g.procedure.last_round is not None, seen):
                g.procedure.last_round = stmt.rule
                g.procedure.cites["last"] = stmt.cite
        elif isinstance(stmt, ast.VoidStmt):
            if self.singleton(stmt, "void", g.void_returns_stakes, seen):
                g.void_returns_stakes, g.void_cite = True, stmt.cite
        else:
            self.err("E0199", f"this statement is not supported here ({stmt.kind})", stmt.span)

    def shoe(self, stmt: ast.ShoeStmt) -> None:
        kind = DECK_KINDS.get(stmt.deck)
        if kind is None:
            self.err("E0120", f"unknown deck kind `{stmt.deck}`", stmt.deck_span,
                     f"deck kinds: {', '.join(DECK_KINDS)}")
            kind = DECK_KINDS["standard52"]
        if not 1 <= stmt.decks <= 16:
            self.err("E0121", f"a shoe of {stmt.decks} decks is outside 1–16", stmt.decks_span,
                     "regulators allow 6 to 8 decks for baccarat; a hand game uses 1")
        jokers = tuple(self.norm_rank(j.text) for j in stmt.jokers)
        for j in stmt.jokers:
            if self.norm_rank(j.text) in kind[0]:
                self.err("E0122", f"joker `{j.text}` has the name of a rank", j.span, "name jokers BJ and SJ")
        if len(set(jokers)) != len(jokers):
            self.err("E0103", "a joker is named twice", stmt.span)
        self.game.shoe = model.Shoe(stmt.decks, stmt.deck, kind[0], kind[1], jokers, stmt.span, stmt.cite)

    def values(self, stmt: ast.ValueStmt) -> None:
        g = self.game
        g.values = {}
        g.value_cite = stmt.cite
        for item in stmt.items:
            for r in self.ranks(item.ranks, self.universe(), "a value"):
                if r in g.values:
                    self.err("E0103", f"rank {r} is given two values", item.span, "give each rank one value")
                if item.points is None:
                    if not r.isdigit():
                        self.err("E0123", f"rank {r} has no pip value", item.span, "give it a number")
                        continue
                    g.values[r] = Fraction(int(r))
                else:
                    g.values[r] = item.points
        self.value_span = stmt.span

    def order(self, stmt: ast.OrderStmt, seen: set[str]) -> None:
        key = f"{stmt.what} order"
        g = self.game
        if not self.singleton(stmt, key, bool(g.card_order if stmt.what == "card" else g.suit_order), seen):
            return
        items = tuple(self.norm_rank(i.text) for i in stmt.items)
        if len(set(items)) != len(items):
            self.err("E0103", f"the {key} names a card twice", stmt.span)
        if stmt.what == "card":
            universe = self.universe()
            for i in stmt.items:
                if self.norm_rank(i.text) not in universe:
                    self.err("E0106", f"unknown rank `{i.text}` in the card order", i.span)
            missing = [r for r in universe if r not in items]
            if missing:
                self.err("E0124", f"the card order leaves out {' '.join(missing)}", stmt.span,
                         "list every rank of the shoe, highest first")
            g.card_order = items
        else:
            suits = g.shoe.suits if g.shoe else model.STANDARD_SUITS
            for i in stmt.items:
                if i.text.upper() not in suits:
                    self.err("E0106", f"unknown suit `{i.text}`", i.span, f"suits: {' '.join(suits)}")
            missing = [s for s in suits if s not in items]
            if missing:
                self.err("E0124", f"the suit order leaves out {' '.join(missing)}", stmt.span)
            g.suit_order = tuple(i.upper() for i in items)

    def draw(self, stmt: ast.DrawStmt) -> None:
        g = self.game
        table = model.DrawTable(stmt.hand, stmt.when, stmt.row_key, stmt.col_key, (), (), {}, {}, stmt.span,
                                stmt.cite, origin=g.name)
        if stmt.hand not in g.hands:
            self.err("E0101", f"unknown hand `{stmt.hand}` in a draw table", stmt.hand_span,
                     f"hands: {', '.join(g.hands) or 'none'}")
        read_grid(stmt, table, self.err)
        # identity for variants: hand + condition text
        cond = expr_text(stmt.when) if stmt.when is not None else ""
        same = [t for t in g.draws if t.hand == stmt.hand and (expr_text(t.when) if t.when else "") == cond]
        label = f"{stmt.hand}{' when ' + cond if cond else ''}"
        if self.replace_check(stmt, bool(same), "draw table", label):
            if same:
                g.draws[g.draws.index(same[0])] = table
            else:
                g.draws.append(table)

    def bet(self, stmt: ast.BetStmt) -> None:
        bet = self.item(model.Bet, stmt)
        for w in stmt.wins:
            p = w.payout
            if p.ratio <= 0:
                self.err("E0401", f"bet `{stmt.name}` pays {p.text}: a payout must be above zero", p.span,
                         "a winning bet returns more than nothing")
            if p.commission is not None and not 0 <= p.commission < 1:
                self.err("E0402", "a commission is a percentage from 0 to under 100", p.span)
            if p.unit is not None and p.unit <= 0:
                self.err("E0402", "a rounding unit must be above zero", p.span)
            bet.wins.append(model.BetRule(w.when, model.Payout(p.style, p.ratio, p.commission, p.rounding, p.unit,
                                                                p.text), w.span, w.cite))
        bet.pushes = [p.when for p in stmt.pushes]
        if not stmt.wins:
            self.err("E0403", f"bet `{stmt.name}` never wins", stmt.span, "add a `wins when …, pays …` line")
        self.game.bets[stmt.name] = bet

    def hand_type(self, stmt: ast.TypeStmt, existing: model.HandType | None) -> None:
        g = self.game
        t = self.item(model.HandType, stmt, when=stmt.when, multiplier=stmt.multiplier or Fraction(0))
        if stmt.when is None:
            self.err("E0104", f"hand type `{stmt.name}` has no `when` clause", stmt.span,
                     "say which hands are of this type: when count = 5 and …")
        if stmt.multiplier is None:
            self.err("E0104", f"hand type `{stmt.name}` has no `multiplier`", stmt.span, "add: multiplier 1")
        elif stmt.multiplier < 0:
            self.err("E0401", "a multiplier cannot be negative", stmt.multiplier_span)
        if existing is not None:
            t.tiebreak = existing.tiebreak
            g.types[g.types.index(existing)] = t
        else:
            g.types.append(t)

    # ---- after all statements: cross references and expression scopes ------------------
    def finish(self) -> None:
        g = self.game
        apply_tiebreaks(g, self.pending_tiebreaks, self.err)
        check_table_references(g, self.pending_rooms, self.pending_squeeze, self.err)
        if self.pending_burn is not None:
            universe = self.universe()
            for item in self.pending_burn.items:
                for r in self.ranks(item.ranks, universe, "the burn rule"):
                    g.procedure.burn_values[r] = int(item.points) if item.points is not None else int(r)
        check_shoe_and_values(self.game, self.err, getattr(self, "value_span", self.game.span))
        check_procedure_bounds(g, self.pending_cut, self.pending_burn, self.err)
        check_hand_bounds(g, self.hand_size_span, self.err)
        check_name_clashes(g, self.err)
        check_expressions(self.game, self.check, self.err)


def resolve_file(path: str, text: str | None = None, loader: Loader | None = None):
    """Parse and resolve one spec file: (game or None, diagnostics, loader with sources)."""
    loader = loader or Loader()
    game, diags = loader.load(path, text)
    return game, diags, loader
