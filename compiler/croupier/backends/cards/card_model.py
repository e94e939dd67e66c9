"""The view of a game that rule-card templates render: plain data, one language, every rule in words.

Everything a card shows is derived here from the resolved model: each rule as a sentence in
the card's language (`sentences`, `words`: catalog messages, never code), with the rule as the
spec writes it and its file:line kept apart (`spec`) for the designer's collapsed detail; the
worked examples told in words (`worked`) and indexed by situation (`situations`), the glossary
(`glossary`), the table rules (rooms and limits, squeeze, valid bets, the shoe procedure, void
rounds) and the provenance (version, effective date, fingerprint of the spec texts). The
mathematics section comes in as data from the analysis tool that the driver runs (`math`).
Templates only lay it out. Spec text stays plain strings: the HTML template escapes it (and
marks text in another script than the page's with `lang`), the Markdown one passes it through
the `md` filter.
"""

from __future__ import annotations

from datetime import date
from fractions import Fraction
from types import ModuleType

from babel.dates import format_date
from babel.numbers import format_decimal

from croupier.backends.cards.examples import SUIT_SYMBOLS, card_chip, example_hands, suit_short_name
from croupier.backends.cards.glossary import glossary
from croupier.backends.cards.sentences import Sentences, money
from croupier.backends.cards.situations import lookup
from croupier.backends.cards.svg import flow_layout
from croupier.backends.cards.words import N_
from croupier.backends.cards.worked import worked_examples
from croupier.diagnostics import Span
from croupier.semantics.cases import Case
from croupier.semantics.expr import expr_text
from croupier.semantics.model import Bet, BetRule, DrawTable, Game
from croupier.syntax.printer import number_text

EXAMPLE_STAKE = 100


def spec_ref(code: str, span: Span | None, cite: str | None = None) -> dict:
    """A rule as the spec writes it, and where: for the designer's detail, never the player's text."""
    where = f"{span.file}:{span.line}" if span is not None else ""
    return {"code": code + (f" [{cite}]" if cite else ""), "where": where}


def rule(text: str, cite: str | None, code: str = "", span: Span | None = None) -> dict:
    return {"text": text, "cite": cite or "", "spec": spec_ref(code, span) if code else None}


def value_groups(game: Game, s: Sentences) -> list[dict]:
    """Ranks grouped by value, in the order the spec lists them; a run of number cards worth their number is
    one group ("2–9: the number on the card")."""
    groups: dict[Fraction, list[str]] = {}
    pips: list[str] = []
    for rank, value in game.values.items():
        if rank.isdigit() and value == int(rank):
            pips.append(rank)
        else:
            groups.setdefault(value, []).append(rank)
    named = {r: game.joker_labels[r].get(s.lang, r) for r in game.joker_labels}
    out = [{"ranks": [named.get(r, r) for r in ranks], "value": number_text(v)} for v, ranks in groups.items()]
    if pips:
        out.insert(min(1, len(out)), {"ranks": [s.ranks(pips)], "value": s.say(N_("the number on the card"))})
    return out


def draw_view(s: Sentences, t: DrawTable) -> dict:
    """One draw table as a grid, its axes and one sentence per row."""
    two = bool(t.cols)
    header = list(t.cols) if two else list(t.rows)

    def cell(row: int, col: int | None) -> dict:
        draws = t.cells.get((row, col))
        key = f"{row},{col}" if two else f"{row}"
        return {"key": key, "action": "none" if draws is None else ("draw" if draws else "stand")}

    if two:
        rows = [{"key": r, "cells": [cell(r, c) for c in t.cols]} for r in t.rows]
    else:
        rows = [{"key": "", "cells": [cell(r, None) for r in t.rows]}]
    rows_axis, cols_axis = s.axes(t)
    return {
        "ident": t.ident or "", "hand_name": t.hand, "hand": s.hand(t.hand), "title": s.table_title(t),
        "rows_axis": rows_axis, "cols_axis": cols_axis, "header": header, "rows": rows, "two_keys": two,
        "lines": s.rows(t), "cite": t.cite or "", "rule": s.draw_rule(t),
        "spec": spec_ref(t.describe(), t.span, t.cite),
    }


def _bet_terms(s: Sentences, game: Game, name: str) -> list[str]:
    """A bet's rules in words, in the order they are tried, for a variant's comparison with its base."""
    bet = game.bets.get(name)
    if bet is None:
        return []
    base = Sentences(game, s.lang, s.engine)
    return [r["text"] if r["kind"] != "wins" else base.p.sentences([r["text"], base.say(N_("Pays %(odds)s."),
                                                                                        odds=r["odds"])])
            for r in flat_rules(rule_views(base, bet))]


def provenance(game: Game, lang: str) -> dict:
    """Which rules these are: version, effective date (in the language's date format), fingerprint, spec files."""
    locale = Sentences(game, lang).p.locale
    effective = format_date(date.fromisoformat(game.effective), format="long", locale=locale) if game.effective else ""
    files = []
    g: Game | None = game
    while g is not None:
        files.append(g.path)
        g = g.base
    return {"version": game.version or "", "effective": effective, "effective_iso": game.effective or "",
            "fingerprint": game.fingerprint, "files": files}


def describe_game(game: Game, lang: str) -> str:
    """A one-line description of a game, from its model."""
    s = Sentences(game, lang)
    g = game
    if g.base is not None:
        changed = [d for d in g.differences if d.what == "override" and d.kind == "bet"
                   and _bet_terms(s, g.base, d.name) != _bet_terms(s, g, d.name)]  # rules that read differently
        added = [d for d in g.differences if d.what == "add" and d.kind == "bet"]
        removed = [d for d in g.differences if d.what == "remove" and d.kind == "bet"]
        text = s.say(N_("A variant of %(base)s; changed bets: %(bets)s."), base=g.base.labels.get(lang, g.base.name),
                     bets=s.p.nouns([s.bet(d.name) for d in changed])) if changed else \
            s.say(N_("A variant of %(base)s."), base=g.base.labels.get(lang, g.base.name))
        if added:
            text = s.p.sentences([text, s.say(N_("Added bets: %(bets)s."), bets=s.p.nouns([s.bet(d.name) for d in added]))])
        if removed:
            text = s.p.sentences([text, s.say(N_("Removed bets: %(bets)s."),
                                              bets=s.p.nouns([g.base.bets[d.name].label(lang) for d in removed
                                                              if d.name in g.base.bets]))])
        return text
    if g.is_dealt_round and g.shoe is not None:
        return s.p.ngettext("%(hands)s, dealt from %(n)s deck; bets on %(bets)s.",
                        "%(hands)s, dealt from %(n)s decks; bets on %(bets)s.", g.shoe.decks,
                        hands=s.p.nouns([s.hand(h) for h in g.hands]),
                        bets=s.p.nouns([b.label(lang) for b in g.bets.values()]))
    if g.types and g.seats:
        top, bottom = g.types[0].label(lang), g.types[-1].label(lang)
        return s.say(N_("%(lo)s to %(hi)s players; hand types from %(top)s down to %(bottom)s; %(scheme)s."),
                     lo=g.seats[0], hi=g.seats[1], top=top, bottom=bottom,
                     scheme=g.settlement.labels.get(lang, "") if g.settlement else "")
    return g.labels.get(lang, g.name)


def round_rules(s: Sentences, g: Game) -> list[dict]:
    out = []
    if g.deal_order:
        out.append(rule(s.deal(), g.deal_cite, "deal " + ", ".join(g.deal_order), g.deal_span))
    for e in g.events.values():
        out.append(rule(s.event(e), e.cite, f"event {e.name} when {expr_text(e.when)}", e.span))
    if g.stand_when is not None:
        out.append(rule(s.stand(), g.stand_cite, "stand all when " + expr_text(g.stand_when), g.stand_span))
    for t in g.draws:
        out.append(rule(s.draw_rule(t), t.cite, t.describe(), t.span))
    for rep in g.repeats.values():
        out.append(rule(s.draw_while(rep), rep.cite, rep.describe(), rep.span))
    turn = g.turn
    for i, text in enumerate(s.turn()):  # the statement's citation and spec line once, on its first sentence
        first = turn is not None and i == 0
        out.append(rule(text, turn.cite if first else None, turn.describe() if first else "", turn.span if first else None))
    for o in g.outcomes.values():
        out.append(rule(s.outcome(o), o.cite, f"outcome {o.name} when {expr_text(o.when)}", o.span))
    return out


def win_view(s: Sentences, rule: BetRule, text: str, payout, code: str) -> dict:
    return {"kind": "wins", "text": text, "odds": s.odds(payout), "cite": rule.cite or "",
            "payout": s.p.sentences([x for x in (s.payout(payout, EXAMPLE_STAKE), s.rounding(payout)) if x]),
            "spec": spec_ref(code, rule.span, rule.cite)}


def flat_rules(rules: list[dict]) -> list[dict]:
    """A bet's rule views with each payout table's rows in its place, each row a winning rule of its own."""
    return [x for r in rules for x in (r["rows"] if r["kind"] == "table" else [r])]


def rule_views(s: Sentences, bet: Bet) -> list[dict]:
    """A bet's rules in words, in the order they are tried; a payout table as one rule with its rows (each row
    also a winning rule of its own, with its full sentence, for `flat_rules`)."""
    out: list[dict] = []
    for rule in bet.clauses:
        code = rule.describe()
        if rule.kind == "push":
            out.append({"kind": "push", "text": s.push(rule.when), "cite": rule.cite or "",
                        "spec": spec_ref(code, rule.span, rule.cite)})
        elif rule.kind == "loses":
            out.append({"kind": "loses", "text": s.loses(rule.when, rule.part), "cite": rule.cite or "",
                        "spec": spec_ref(code, rule.span, rule.cite)})
        elif rule.table is not None:
            rows = []
            for row in rule.table.rows:
                text = s.table_row(rule.when, rule.table.key, row)
                view = win_view(s, rule, text, row.payout, f"{code} | {row.label()} | {row.payout.text} |")
                rows.append({**view, "key": s.table_cell(row),
                             "returns": money(s.returns(row.payout, Fraction(EXAMPLE_STAKE)))})
            out.append({"kind": "table", "text": s.table_head(rule.when, rule.table.key), "cite": rule.cite or "",
                        "key": s.table_key(rule.table.key), "rows": rows,
                        "returns_head": s.say(N_("A stake of %(stake)s returns"), stake=EXAMPLE_STAKE),
                        "spec": spec_ref(code, rule.span, rule.cite)})
        else:
            out.append(win_view(s, rule, s.wins(rule.when), rule.payout,
                                f"{code}".rstrip(", ")))
    return out


def bet_views(s: Sentences, g: Game) -> list[dict]:
    out = []
    for b in g.bets.values():
        rules = rule_views(s, b)
        ordered = len(b.clauses) > 1 and any(c.kind != "wins" for c in b.clauses)
        order = s.say(N_("The first of these rules that applies decides.")) if ordered else ""
        loses = s.say(N_("Otherwise the bet loses."))
        out.append({"name": b.name, "label": b.label(s.lang), "cite": b.cite or "", "rules": rules,
                    "wins": [r for r in flat_rules(rules) if r["kind"] == "wins"],
                    "order": order, "loses": loses, "note": s.p.sentences([x for x in (order, loses) if x]),
                    "spec": spec_ref("bet " + b.name, b.span, b.cite)})
    return out


def table_view(s: Sentences, g: Game) -> dict:
    """Rooms and limits, squeeze, valid bets, the shoe procedure and void rounds."""
    groups: list[tuple[list[str], list]] = []
    for name in g.bets:
        limits = [r.limits.get(name, "missing") for r in g.rooms.values()]
        same = next((grp for grp in groups if grp[1] == limits), None)
        if same is not None:
            same[0].append(name)
        else:
            groups.append(([name], limits))
    loc = s.p.locale

    def limit(lim) -> str:
        if lim == "missing":  # only in a spec with errors (E0146)
            return "—"
        if lim is None:
            return s.say(N_("no limit"))
        return f"{format_decimal(lim[0], locale=loc)}–{format_decimal(lim[1], locale=loc)}"

    cites = list(dict.fromkeys(r.cite for r in g.rooms.values() if r.cite))
    rooms = {"columns": [s.p.nouns([s.bet(b) for b in names]) for names, _ in groups], "cite": "; ".join(cites),
             "rows": [{"label": r.label(s.lang), "cells": [limit(lims[i]) for _, lims in groups]}
                      for i, r in enumerate(g.rooms.values())]}
    p = g.procedure

    def joined(*cites: str | None) -> str:
        return "; ".join(dict.fromkeys(c for c in cites if c))

    return {
        "rooms": rooms if g.rooms else None,
        "squeeze": s.squeeze(), "squeeze_cite": joined(g.squeeze.cite) if g.squeeze else "",
        "valid": s.valid_bets(), "valid_cite": joined(g.valid_bets_cite, g.valid_bets_pushed_cite),
        "procedure": s.procedure(),
        "procedure_cite": joined(p.cites.get("shuffle"), p.cites.get("cut"), p.cites.get("burn"), p.cites.get("last"),
                                 g.void_cite),
    }


def script_hints(game: Game) -> dict[str, str]:
    """Every label text of the game in each Chinese script, to tell which script a Han run of another page is in."""
    texts: dict[str, list[str]] = {}
    g: Game | None = game
    while g is not None:
        items = [g.labels, *(x.labels for grp in (g.hands, g.bets, g.events, g.outcomes, g.assumptions, g.classes,
                                                  g.formulas, g.rooms) for x in grp.values()),
                 *(t.labels for t in g.types), *(s.labels for s in g.sources), *g.joker_labels.values()]
        for labels in items:
            for lang, text in labels.texts.items():
                texts.setdefault(lang, []).append(text)
        g = g.base
    return {lang: "\n".join(v) for lang, v in texts.items() if lang.startswith("zh")}


def card_view(game: Game, lang: str, examples: list[Case], engine: ModuleType | None = None,
              langs: tuple[str, ...] = (), math: dict | None = None) -> dict:
    """Everything a rule card shows, for one language; `math` is the mathematics section in that
    language ({"view": figures, "chart": SVG text}), or None for a card without one."""
    g = game
    s = Sentences(g, lang, engine)
    shown = worked_examples(g, lang, examples, engine)
    cards = {c.id: c.input["cards"] for c in examples if isinstance(c.input.get("cards"), list)}
    view: dict = {
        "lang": lang,
        "langs": list(langs or (lang,)),
        "name": g.name,
        "title": g.labels.get(lang, g.name),
        "description": describe_game(g, lang),
        "spec_path": g.path,
        "provenance": provenance(g, lang),
        "base": None,
        "differences": [],
        "sources": [{"ident": x.ident, "title": x.title(lang), "lang": x.lang} for x in g.sources],
        "source_langs": {x.ident: x.lang for x in g.sources if x.lang},
        "assumptions": [{"name": a.name, "text": a.label(lang), "cite": a.cite or "",
                         "spec": spec_ref("assume " + a.name, a.span)} for a in g.assumptions.values()],
        "shoe": s.shoe(), "shoe_cite": (g.shoe.cite or "") if g.shoe else "",
        "values": value_groups(g, s), "value_cite": g.value_cite or "", "modulus": g.modulus or 0,
        "wild": s.wild(), "wild_cite": (g.wild.cite or "") if g.wild else "", "soft": s.soft(),
        "deal": [s.hand(h) for h in g.deal_order],
        "deal_hands": [s.hand(h) for h in g.hands],
        "round": round_rules(s, g),
        "stand": s.stand(),
        "draws": [draw_view(s, t) for t in g.draws],
        "outcomes": [o.label(lang) for o in g.outcomes.values()],
        "bets": bet_views(s, g),
        "types": [], "seats": s.seats(),
        "hand_size": list(g.hand_size) if g.hand_size else None,
        "card_order": [g.joker_labels[r].get(lang, r) if r in g.joker_labels else r for r in g.card_order],
        "suit_order": [suit_short_name(g, x, lang) if x in g.suit_labels else SUIT_SYMBOLS.get(x, x)
                       for x in g.suit_order],
        "settlement": None,
        "table": table_view(s, g),
        "examples": shown,
        "lookup": lookup(g, lang, engine, shown, cards),
        "glossary": glossary(g, lang, with_math=bool(math)),
        "math": math,
        "hints": script_hints(g),
    }
    for b in view["bets"]:  # each bet's house edge beside it, from the mathematics section
        b["edge"] = (math or {}).get("edges", {}).get(b["name"], "")
    if g.base is not None:
        view["base"] = {"name": g.base.name, "title": g.base.labels.get(lang, g.base.name)}
        view["differences"] = [x for d in g.differences if (x := _difference(s, g, d, lang)) is not None]
    samples = example_hands(g, engine)
    for t in g.types:
        view["types"].append({
            "name": t.name, "label": t.label(lang), "cite": t.cite or "",
            "when": s.p.sentence(s.cond(t.when)) + s.say(N_(".")) if t.when is not None else "",
            "multiplier": number_text(t.multiplier), "tiebreak": list(t.tiebreak),
            "example": [card_chip(g, c, lang) for c in samples.get(t.name, [])],
            "spec": spec_ref(f"type {t.name} when {expr_text(t.when)}" if t.when is not None else f"type {t.name}",
                             t.span, t.cite),
        })
    if g.settlement is not None:
        st = g.settlement
        view["settlement"] = {
            "scheme": s.scheme(), "cite": st.cite or "", "label": st.labels.get(lang, ""),
            "stake": s.stake_line(), "stake_cite": (st.stake_lines[0].cite or "") if st.stake_lines else "",
            "formulas": [rule(s.formula(f), f.cite, f"let {f.name} = {expr_text(f.expr)}", f.span)
                         for f in g.formulas.values()],
            "clauses": [rule(s.clause(c), c.cite, clause_code(c), c.span) for c in st.clauses],
        }
    view["flow"] = flow_layout(view, s.p)
    return view


def clause_code(c) -> str:
    """A settlement clause as the spec writes it."""
    head = {"let": f"let {c.name} =", "pay": "pay", "draw": "draw when"}.get(c.kind, f"{c.kind} when")
    text = f"{head} {expr_text(c.expr)}"
    return text + (f" unless {expr_text(c.unless)}" if c.unless is not None else "")


def _label(game: Game, kind: str, name: str, lang: str) -> str:
    group = {"bet": game.bets, "outcome": game.outcomes, "event": game.events, "hand": game.hands,
             "formula": game.formulas, "room": game.rooms}.get(kind, {})  # (an assumption's text is in the card's assumptions)
    return group[name].label(lang) if name in group else ""


def _difference(s: Sentences, g: Game, d, lang: str) -> dict | None:
    """One line of a variant's differences: what changed, its label, and its content before and after;
    None for an override whose content reads exactly as the base's (nothing a player would see changed)."""
    before = _terms(s, g.base, d) if d.what != "add" else []
    after = _terms(s, g, d) if d.what != "remove" else []
    label = _label(g, d.kind, d.name, lang) or _label(g.base, d.kind, d.name, lang)
    base_label = _label(g.base, d.kind, d.name, lang)
    if d.what == "override" and before == after and (not base_label or base_label == label):
        return None
    return {"what": d.what, "kind": d.kind, "name": d.name, "label": label,
            "before": before, "after": after, "same": False}


def _terms(s: Sentences, game: Game, d) -> list[str]:
    """What a changed, added or removed item says in `game` (the base or the variant), a sentence per rule,
    for the list under the difference: none where `game` lacks it."""
    if d.kind == "bet":
        return _bet_terms(s, game, d.name)
    w = Sentences(game, s.lang, s.engine)
    g = game
    def values() -> str:
        return w.say(N_("Card values: %(x)s."), x=w.p.nouns(
            [w.say(N_("%(ranks)s = %(value)s"), ranks=" ".join(v["ranks"]), value=v["value"])
             for v in value_groups(g, w)], "list"))

    def orders() -> str:
        said = [w.say(N_("Card order: %(x)s"), x=" > ".join(g.card_order)) if g.card_order else "",
                w.say(N_("Suit order: %(x)s"), x=" > ".join(g.suit_order)) if g.suit_order else ""]
        return w.p.sentences([x for x in said if x])

    single = {  # statements a game has once: what the card says of each
        "shoe": w.shoe, "wild": w.wild, "deal": w.deal, "stand": w.stand, "seats": w.seats,
        "hand size": w.seats, "settle": w.scheme, "policy": w.policy,
        "total": lambda: w.soft() or w.total(), "value": values, "card order": orders, "suit order": orders,
    }
    lists = {"turn": w.turn, "squeeze": w.squeeze, "valid bets": w.valid_bets, "valid bets pushed": w.valid_bets,
             "cut card": w.procedure, "burn": w.procedure, "last round": w.procedure, "void": w.procedure}
    if d.kind == "shuffle" and g.procedure.shuffle_each_round:  # the shoe procedure's own sentence
        return list(w.procedure())[:1]
    if d.kind in single:
        text = single[d.kind]()
        return [text] if text else []
    if d.kind in lists:
        return list(lists[d.kind]())
    if d.kind == "formula" and d.name in g.formulas:
        return [w.formula(g.formulas[d.name])]
    if d.kind == "assumption" and d.name in g.assumptions:
        return [g.assumptions[d.name].label(s.lang)]
    if d.kind == "event" and d.name in g.events:
        return [w.event(g.events[d.name])]
    if d.kind == "outcome" and d.name in g.outcomes:
        return [w.outcome(g.outcomes[d.name])]
    if d.kind == "repeated draw" and d.name in g.repeats:
        return [w.draw_while(g.repeats[d.name])]
    if d.kind == "draw table":
        return [w.draw_rule(t) + " " + " ".join(w.rows(t)) for t in g.draws
                if f"{t.hand}{' when ' + expr_text(t.when) if t.when is not None else ''}" == d.name]
    if d.kind == "hand type" and g.type_named(d.name) is not None:
        return [w.hand_type(g.type_named(d.name))]
    if d.kind == "class" and d.name in g.classes:
        c = g.classes[d.name]
        return [w.say(N_("%(term)s: %(text)s"), term=c.label(s.lang), text=w.ranks(list(c.ranks + c.cards)))]
    if d.kind == "hand" and d.name in g.hands:
        return [g.hands[d.name].label(s.lang)]
    if d.kind == "room" and d.name in g.rooms:
        room = g.rooms[d.name]
        return [w.say(N_("%(term)s: %(text)s"), term=room.label(s.lang), text=w.p.nouns(
            [w.say(N_("%(bet)s %(low)s–%(high)s"), bet=w.bet(b), low=number_text(lim[0]), high=number_text(lim[1]))
             for b, lim in room.limits.items() if isinstance(lim, tuple)], "list"))]
    if d.kind == "deck" and d.name in g.decks:
        return [g.decks[d.name].label(s.lang)]
    return []
