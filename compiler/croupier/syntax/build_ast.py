"""Turn Lark's parse tree into the dataclass syntax tree of `ast`, with spans."""

from __future__ import annotations

from fractions import Fraction

from croupier.diagnostics import Diagnostic, Span, error
from croupier.syntax import ast
from croupier.syntax.build_bets import BetsBuilder
from croupier.syntax.build_cards import CardsBuilder
from croupier.syntax.standalone_parser import Token, Tree, v_args


def _num(text: str) -> Fraction:
    return Fraction(text)


@v_args(meta=True)
class BuildAst(CardsBuilder, BetsBuilder):
    """Build `ast` nodes; anything odd becomes a diagnostic, never an exception.

    A Lark transformer: each rule's method takes the node's meta and its transformed children
    (`v_args(meta=True)`); a rule without one keeps its tree (`__default__`)."""

    def __init__(self, path: str) -> None:
        super().__init__(visit_tokens=False)  # no method is named after a token's type: a token stays itself
        self.path = path
        self.diagnostics: list[Diagnostic] = []
        self.citations: list[tuple[str, Span]] = []  # every `[…]` citation, as written, where it stands

    # ---- helpers --------------------------------------------------------------
    def span(self, meta) -> Span:
        if getattr(meta, "empty", True) and not hasattr(meta, "line"):
            return Span(self.path, 1, 1)
        return Span(self.path, meta.line, meta.column, meta.end_line, meta.end_column)

    def tspan(self, tok: Token) -> Span:
        return Span(self.path, tok.line or 1, tok.column or 1, tok.end_line or tok.line or 1,
                    tok.end_column or (tok.column or 1) + len(str(tok)))

    def ref(self, tok: Token) -> ast.RankRef:
        return ast.RankRef(str(tok), self.tspan(tok))

    @staticmethod
    def _cite(children) -> str | None:
        for c in children:
            if isinstance(c, tuple) and len(c) == 2 and c[0] == "cite":
                return c[1]
        return None

    @staticmethod
    def _labels(children) -> list[ast.Label]:
        for c in children:
            if isinstance(c, tuple) and len(c) == 2 and c[0] == "labels":
                return c[1]
        return []

    @staticmethod
    def _tokens(children, type_: str) -> list[Token]:
        return [c for c in children if isinstance(c, Token) and c.type == type_]

    @staticmethod
    def _exprs(children) -> list[ast.Expr]:
        return [c for c in children if isinstance(c, ast.Expr)]

    def _string(self, tok: Token) -> str:
        raw = str(tok)[1:-1]
        if "\\" not in raw:
            return raw  # no escape: the loop below would copy it character by character
        out, i = [], 0
        while i < len(raw):
            ch = raw[i]
            if ch == "\\" and i + 1 < len(raw):
                nxt = raw[i + 1]
                out.append({"n": "\n", "t": "\t", '"': '"', "\\": "\\"}.get(nxt, nxt))
                i += 2
                continue
            out.append(ch)
            i += 1
        return "".join(out)

    # ---- top level --------------------------------------------------------------
    def start(self, meta, children):
        return [c for c in children if isinstance(c, ast.Stmt)]

    def override(self, meta, children):
        stmt = children[0]
        stmt.override = True
        stmt.span = self.span(meta)
        return stmt

    def cite(self, meta, children):
        text = str(children[0])[1:-1].strip()
        self.citations.append((text, self.span(meta)))
        return ("cite", text)

    def label_item(self, meta, children):
        lang = None
        text_tok = children[-1]
        if len(children) == 2:
            lang = str(children[0])
        return ast.Label(lang, self._string(text_tok), self.span(meta))

    def labels(self, meta, children):
        return ("labels", list(children))

    def label_block(self, meta, children):
        return ("labels", list(children))

    def game(self, meta, children):
        names = self._tokens(children, "NAME")
        stmt = ast.GameStmt(self.span(meta), name=str(names[0]), name_span=self.tspan(names[0]),
                            labels=self._labels(children), cite=self._cite(children))
        if len(names) > 1:
            stmt.base, stmt.base_span = str(names[1]), self.tspan(names[1])
        return stmt

    def source(self, meta, children):
        ident = self._tokens(children, "STRING")[0]
        labels = self._labels(children)
        english = next((lab.text for lab in labels if lab.lang in (None, "en")), labels[0].text if labels else "")
        written = [c for c in children if isinstance(c, tuple) and c[0] == "written"]
        return ast.SourceStmt(self.span(meta), ident=self._string(ident), description=english, labels=labels,
                              lang=written[0][1] if written else None, cite=self._cite(children))

    def source_lang(self, meta, children):
        return ("written", str(self._tokens(children, "SOURCE_LANG")[0]))

    def version(self, meta, children):
        return ast.VersionStmt(self.span(meta), text=self._string(self._tokens(children, "STRING")[0]),
                               cite=self._cite(children))

    def effective(self, meta, children):
        return ast.EffectiveStmt(self.span(meta), date=str(self._tokens(children, "DATE")[0]),
                                 cite=self._cite(children))

    def assume(self, meta, children):
        name = self._tokens(children, "NAME")[0]
        labels = []
        for c in children:
            if isinstance(c, tuple) and c[0] == "labels":
                labels.extend(c[1])
        return ast.AssumeStmt(self.span(meta), name=str(name), name_span=self.tspan(name), labels=labels,
                              cite=self._cite(children))

    # ---- rounds ----------------------------------------------------------------------
    def hand(self, meta, children):
        name = self._tokens(children, "NAME")[0]
        return ast.HandStmt(self.span(meta), name=str(name), name_span=self.tspan(name),
                            labels=self._labels(children), cite=self._cite(children))

    def deal(self, meta, children):
        return ast.DealStmt(self.span(meta), order=[self.ref(t) for t in self._tokens(children, "NAME")],
                            cite=self._cite(children))

    def event(self, meta, children):
        name = self._tokens(children, "NAME")[0]
        return ast.EventStmt(self.span(meta), name=str(name), name_span=self.tspan(name),
                             labels=self._labels(children), when=self._exprs(children)[0], cite=self._cite(children))

    def stand(self, meta, children):
        return ast.StandStmt(self.span(meta), when=self._exprs(children)[0], cite=self._cite(children))

    def grid(self, meta, children):
        rows = []
        for tok in children:
            if not isinstance(tok, Token):
                continue
            text = str(tok)
            cells: list[tuple[str, Span]] = []
            i = 0
            while i < len(text):
                ch = text[i]
                if ch in " \t":
                    i += 1
                    continue
                if ch == "|":
                    cells.append(("|", Span(self.path, tok.line, tok.column + i, tok.line, tok.column + i + 1)))
                    i += 1
                    continue
                j = i
                while j < len(text) and text[j] not in " \t|":
                    j += 1
                cells.append((text[i:j], Span(self.path, tok.line, tok.column + i, tok.line, tok.column + j)))
                i = j
            rows.append(ast.GridLine(cells, self.tspan(tok)))
        return ("grid", rows)

    def draw_when(self, meta, children):
        return ("draw_when", children[0])

    def draw_key(self, meta, children):
        return ("draw_key", children[0])

    def draw(self, meta, children):
        name = self._tokens(children, "NAME")[0]
        grid = next(c[1] for c in children if isinstance(c, tuple) and c[0] == "grid")
        keys = [c[1] for c in children if isinstance(c, tuple) and c[0] == "draw_key"]
        when = next((c[1] for c in children if isinstance(c, tuple) and c[0] == "draw_when"), None)
        if len(keys) == 1 and isinstance(keys[0], ast.Binary) and keys[0].op == "*" and len(grid) > 2:
            keys = [keys[0].left, keys[0].right]  # `ROW * COLUMN` over a grid of labelled rows: `*` read as `×`
        return ast.DrawStmt(self.span(meta), hand=str(name), hand_span=self.tspan(name), grid=grid, when=when,
                            row_key=keys[0], col_key=keys[1] if len(keys) > 1 else None, cite=self._cite(children))

    def draw_while(self, meta, children):
        name = self._tokens(children, "NAME")[0]
        return ast.DrawWhileStmt(self.span(meta), hand=str(name), hand_span=self.tspan(name),
                                 when=self._exprs(children)[0], cite=self._cite(children))

    def outcome(self, meta, children):
        name = self._tokens(children, "NAME")[0]
        return ast.OutcomeStmt(self.span(meta), name=str(name), name_span=self.tspan(name),
                               labels=self._labels(children), when=self._exprs(children)[0], cite=self._cite(children))

    # ---- seat games ----------------------------------------------------------------------
    def seats(self, meta, children):
        lo, hi = self._tokens(children, "INT")
        return ast.SeatsStmt(self.span(meta), what="seats", low=int(lo), high=int(hi), cite=self._cite(children))

    def hand_size(self, meta, children):
        lo, hi = self._tokens(children, "INT")
        return ast.SeatsStmt(self.span(meta), what="hand size", low=int(lo), high=int(hi), cite=self._cite(children))

    def type_when(self, meta, children):
        return ("when", self._exprs(children)[0], self.span(meta))

    def multiplier(self, meta, children):
        return ("multiplier", _num(str(children[0])), self.span(meta))

    def hand_type(self, meta, children):
        name = self._tokens(children, "NAME")[0]
        stmt = ast.TypeStmt(self.span(meta), name=str(name), name_span=self.tspan(name),
                            labels=self._labels(children), cite=self._cite(children))
        for c in children:
            if isinstance(c, tuple) and c[0] == "when":
                if stmt.when is not None:
                    self.diagnostics.append(error("E0104", f"hand type `{stmt.name}` has two `when` clauses", c[2],
                                                  "join the conditions with `and`"))
                stmt.when = c[1]
            elif isinstance(c, tuple) and c[0] == "multiplier":
                stmt.multiplier, stmt.multiplier_span = c[1], c[2]
        return stmt

    def tiebreak_key(self, meta, children):
        return ast.RankRef(" ".join(str(c) for c in children), self.span(meta))

    def tiebreak(self, meta, children):
        types = [self.ref(t) for t in self._tokens(children, "NAME")]
        keys = [c for c in children if isinstance(c, ast.RankRef)]
        return ast.TiebreakStmt(self.span(meta), types=types, keys=keys, cite=self._cite(children))

    def let(self, meta, children):
        name = self._tokens(children, "NAME")[0]
        return ast.LetStmt(self.span(meta), name=str(name), name_span=self.tspan(name),
                           labels=self._labels(children), expr=self._exprs(children)[0], cite=self._cite(children))

    def settle_let(self, meta, children):
        name = self._tokens(children, "NAME")[0]
        return ast.SettleClause("let", str(name), self._exprs(children)[0], None, self.span(meta), self._cite(children))

    def settle_draw(self, meta, children):
        return ast.SettleClause("draw", None, self._exprs(children)[0], None, self.span(meta), self._cite(children))

    def settle_verdict(self, meta, children):
        verdict = self._tokens(children, "VERDICT")[0]
        return ast.SettleClause(str(verdict), None, self._exprs(children)[0], None, self.span(meta),
                                self._cite(children))

    def settle_pay(self, meta, children):
        exprs = self._exprs(children)
        return ast.SettleClause("pay", None, exprs[0], exprs[1] if len(exprs) > 1 else None, self.span(meta),
                                self._cite(children))

    def settle_stake(self, meta, children):
        name = self._tokens(children, "NAME")[0]
        return ast.SettleStake(str(name), self.span(meta), self.tspan(name), self._cite(children))

    def settle(self, meta, children):
        scheme = self._tokens(children, "SCHEME")[0]
        stmt = ast.SettleStmt(self.span(meta), name=str(scheme), name_span=self.tspan(scheme),
                              labels=self._labels(children), scheme=str(scheme), cite=self._cite(children))
        stmt.clauses = [c for c in children if isinstance(c, ast.SettleClause)]
        stmt.stakes = [c for c in children if isinstance(c, ast.SettleStake)]
        return stmt

    def policy(self, meta, children):
        return ast.PolicyStmt(self.span(meta), threshold=_num(str(self._tokens(children, "NUMBER")[0])),
                              cite=self._cite(children))

    def turn(self, meta, children):
        parts: dict[str, object] = {}
        for kind, value in (c for c in children if isinstance(c, tuple) and c[0] != "cite"):
            parts[kind] = value
        return ast.TurnStmt(self.span(meta), parts=parts, cite=self._cite(children))

    def turn_deal(self, meta, children):
        return ("deal", int(self._tokens(children, "INT")[0]))

    def turn_up(self, meta, children):
        return ("up", int(self._tokens(children, "INT")[0]))

    def turn_hit(self, meta, children):
        return ("hit", str(self._tokens(children, "HIT_HOW")[0]))

    def turn_limit(self, meta, children):
        return ("limit", int(self._tokens(children, "INT")[0]))

    def turn_timer(self, meta, children):
        secs = self._tokens(children, "INT")
        return ("timer", int(secs[0]) if secs else 0)

    def turn_order(self, meta, children):
        return ("order", str(self._tokens(children, "PLAY_ORDER")[0]))

    # ---- table operations ----------------------------------------------------------------
    def limit(self, meta, children):
        bets = [self.ref(t) for t in self._tokens(children, "NAME")]
        numbers = self._tokens(children, "NUMBER")
        if not numbers:  # `no limit`
            return ast.Limit(bets, None, None, self.span(meta))
        lo, hi = numbers
        return ast.Limit(bets, _num(str(lo)), _num(str(hi)), self.span(meta))

    def room(self, meta, children):
        name = self._tokens(children, "NAME")[0]
        return ast.RoomStmt(self.span(meta), name=str(name), name_span=self.tspan(name),
                            labels=self._labels(children), limits=[c for c in children if isinstance(c, ast.Limit)],
                            cite=self._cite(children))

    def name_list(self, meta, children):
        return ("names", [self.ref(t) for t in children])

    def squeeze(self, meta, children):
        lists = [c[1] for c in children if isinstance(c, tuple) and c[0] == "names"]
        ties = self._tokens(children, "NAME")[0]
        return ast.SqueezeStmt(self.span(meta), bets=lists[0], ties_to=str(ties), order=lists[1],
                               cite=self._cite(children))

    def valid_bet(self, meta, children):
        return ast.ValidBetStmt(self.span(meta), when=self._exprs(children)[0], cite=self._cite(children))

    def valid_pushed(self, meta, children):
        return ast.ValidBetStmt(self.span(meta), pushed=True, cite=self._cite(children))

    def cut_card(self, meta, children):
        lo, hi = self._tokens(children, "INT")
        return ast.CutCardStmt(self.span(meta), low=int(lo), high=int(hi), cite=self._cite(children))

    def burn(self, meta, children):
        n = self._tokens(children, "INT")[0]
        return ast.BurnStmt(self.span(meta), reveal=int(n), items=[c for c in children if isinstance(c, ast.ValueItem)],
                            cite=self._cite(children))

    def last_round(self, meta, children):
        return ast.LastRoundStmt(self.span(meta), rule=str(self._tokens(children, "LAST_RULE")[0]),
                                 cite=self._cite(children))

    def void(self, meta, children):
        return ast.VoidStmt(self.span(meta), cite=self._cite(children))

    def shuffle(self, meta, children):
        return ast.ShuffleStmt(self.span(meta), cite=self._cite(children))

    # ---- expressions -------------------------------------------------------------------------
    def number(self, meta, children):
        tok = children[0]
        return ast.Num(self.span(meta), _num(str(tok)), str(tok))

    def percent(self, meta, children):
        tok = children[0]
        return ast.Num(self.span(meta), _num(str(tok)) / 100, f"{tok}%")

    def name(self, meta, children):
        return ast.Name(self.span(meta), str(children[0]))

    def call(self, meta, children):
        func = children[0]
        args = [c for c in children[1:] if isinstance(c, ast.Expr)]
        return ast.Call(self.span(meta), str(func), args)

    def binary(self, meta, children):
        left, op, right = children
        return ast.Binary(self.span(meta), str(op), left, right)

    def negate(self, meta, children):
        return ast.Negate(self.span(meta), children[0])

    def compare(self, meta, children):
        left, op, right = children
        return ast.Compare(self.span(meta), str(op), left, right)

    def in_range(self, meta, children):
        value, low, high = children
        return ast.InRange(self.span(meta), value, low, high)

    def is_test(self, meta, children):
        subject, what = children
        return ast.IsTest(self.span(meta), str(subject), str(what), self.tspan(subject), self.tspan(what))

    def or_expr(self, meta, children):
        return children[0] if len(children) == 1 else ast.BoolOp(self.span(meta), "or", list(children))

    def and_expr(self, meta, children):
        return children[0] if len(children) == 1 else ast.BoolOp(self.span(meta), "and", list(children))

    def not_expr(self, meta, children):
        return ast.Not(self.span(meta), children[0])

    def if_expr(self, meta, children):
        cond, then, other = children
        return ast.IfElse(self.span(meta), cond, then, other)

    def __default__(self, data, children, meta):
        return Tree(data, children, meta)

