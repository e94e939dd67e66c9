"""The "Mathematics" section of a rule card: the exact analysis as display strings, and a chart.

`math_view(game, lang)` runs the exact enumerator (the engine's analysis companion) for the spec's own
shoe and for 1, 2, 4, 6 and 8 decks, and returns plain data for the card
templates, in the card's language (fixed prose from the gettext catalogs, names
from the spec's labels): outcome probabilities, each bet's house edge and
figures, the deck-count table, and for a variant the change of each bet's house
edge from its base's. `edge_chart_svg(view, lang)` draws the deck-count table as
an inline SVG.
Analyses are cached per (engine and companion source, decks) for the life of the process, so
a build analyses a base once for all its variants.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction
from html import escape

from croupier.backends.cards import i18n
from croupier.backends.engine.loader import load_engine
from croupier.cache import cached
from croupier.semantics.model import Game
from croupier.tools.analysis.report import DECK_TABLE, dec, pct, sqrt_dec

_ENGINES: dict[str, object] = {}


def N_(message: str) -> str:  # noqa: N802 - the gettext marker for messages translated later
    return message


EDGE_TABLE = N_("House edge by deck count")
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")


def engine_of(game: Game) -> tuple[str, object]:
    """(digest of the engine source, the loaded engine), cached per source."""
    from croupier.backends.engine.emitter import emit_engine

    source = emit_engine(game, game.path)
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    engine = _ENGINES.get(digest)
    if engine is None:
        engine = _ENGINES[digest] = load_engine(source, f"math_{game.name}")
    return digest, engine


def companion_of(game: Game) -> tuple[str, object]:
    """(digest of the analysis companion's source, the loaded companion), cached per source."""
    from croupier.backends.engine.analysis_emitter import emit_analysis_module

    source = emit_analysis_module(game, game.path)
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    companion = _ENGINES.get(digest)
    if companion is None:
        companion = _ENGINES[digest] = load_engine(source, f"math_{game.name}_analysis")
    return digest, companion


def analysis_of(game: Game, decks: int | None = None) -> dict:
    """The exact analysis of a game by its engine's companion (cached per their sources and deck count)."""
    digest, engine = engine_of(game)
    plan_digest, companion = companion_of(game)
    decks = game.shoe.decks if decks is None else decks
    return cached("analysis", f"{decks}\0{digest}\0{plan_digest}", lambda: companion.analyse(engine, decks))


def deck_label(n: int, lang: str = "en") -> str:
    return i18n.translations(lang).ngettext("%(n)s deck", "%(n)s decks", n) % {"n": n}


def math_view(game: Game, lang: str = "en") -> dict | None:
    """The card's mathematics for a dealt-round game; None for a game the analysis does not cover."""
    if game.is_seat_game and game.policy_threshold is not None:
        return seat_view(game, lang)
    if not game.is_dealt_round:
        return None
    _ = i18n.translations(lang).gettext
    try:
        return round_view(game, lang)
    except ValueError as exc:  # the engine's EngineError: a game the exact enumeration cannot cover
        return {_("Analysis"): _("The exact analysis of this game is missing: %(why)s") % {"why": str(exc)}}


def round_view(game: Game, lang: str) -> dict:
    """The mathematics of a dealt-round game (raises the engine's EngineError when it cannot be enumerated)."""
    _ = i18n.translations(lang).gettext
    a = analysis_of(game)
    labels = {name: b.label(lang) for name, b in game.bets.items()}
    bet, edge = _("bet"), _("house edge")
    view: dict = {
        _("Shoe"): _("%(decks)s, %(cards)s cards: every deal enumerated exactly, with card removal")
        % {"decks": deck_label(a["decks"], lang), "cards": a["cards"]},
        _("Outcomes"): [{_("outcome"): game.outcomes[k].label(lang) if k in game.outcomes else k,
                         _("probability"): pct(p), _("exact"): f"{p.numerator}/{p.denominator}"}
                        for k, p in a["outcomes"].items()],
        _("Bets"): [{
            bet: labels.get(name, name),
            edge: pct(b["house_edge"]),
            _("expected return"): dec(b["expected_return"])[:12],
            _("standard deviation"): sqrt_dec(b["variance"])[:8],
            _("hit frequency"): pct(b["hit"], 2),
            _("push"): pct(b["push"], 2),
        } for name, b in a["bets"].items()],
    }
    table = [analysis_of(game, n) for n in DECK_TABLE]
    view[_(EDGE_TABLE)] = [{bet: labels.get(name, name),
                            **{deck_label(t["decks"], lang): pct(t["bets"][name]["house_edge"]) for t in table}}
                           for name in a["bets"]]
    if game.base is not None and game.base.is_dealt_round:
        base = analysis_of(game.base, a["decks"])["bets"]
        rows = []
        for name, b in a["bets"].items():
            old = base.get(name)
            rows.append({
                bet: labels.get(name, name),
                _("base"): pct(old["house_edge"]) if old else "—",
                _("this game"): pct(b["house_edge"]),
                _("difference"): signed_points(b["house_edge"] - old["house_edge"]) if old else _("new bet"),
            })
        view[_("House edge against the base (%(base)s)") % {"base": game.base.labels.get(lang, game.base.name)}] = rows
    notes = [_("A bet's figures are per unit staked; a pushed bet counts as a bet placed.")]
    if not all(b["scales_linearly"] for b in a["bets"].values()):
        notes.append(_("Some payouts are rounded, so a small stake can fare worse than these figures."))
    if any(p.rounding for b in game.bets.values() for w in b.wins for p in w.payouts()):
        notes.append(_("Commission is taken unrounded (a unit stake, where rounding changes nothing)."))
    view[_("Notes")] = " ".join(notes)
    return view


def seat_view(game: Game, lang: str = "en") -> dict:
    """The mathematics of a seat game: one hand under the spec's policy, thresholds, banker edge."""
    from croupier.tools.analysis.seat import SeatAnalysis, stake_of

    digest, engine = engine_of(game)

    def compute() -> dict:
        sa = SeatAnalysis(engine, game.policy_threshold, stake_of(game))
        t = game.policy_threshold
        table = [sa.one_hand(x) for x in sa.thresholds()]
        return {"one": sa.one_hand(t), "table": table, "edge": sa.banker_edge(t, t)}

    a = cached("seat-analysis", f"{game.policy_threshold}\0{stake_of(game)}\0{digest}", compute)
    _ = i18n.translations(lang).gettext
    t = dec(game.policy_threshold)
    labels = {ht.name: ht.label(lang) for ht in game.types}
    best = max(a["table"], key=lambda r: (r["expected_multiplier"], -r["threshold"]))
    policy = (_("one hand from the full deck, hitting while its total is below %(t)s; every draw enumerated "
                "exactly, wild cards substituted as the engine does") if game.wild else
              _("one hand from the full deck, hitting while its total is below %(t)s; every draw enumerated "
                "exactly")) % {"t": t}
    below, multiplier = _("hit while total below"), _("expected multiplier")
    view: dict = {
        _("Policy"): policy,
        _("Hand types"): [{_("type"): labels.get(k, k), _("probability"): pct(p)}
                          for k, p in a["one"]["types"].items()],
        _("Expected multiplier"): dec(a["one"]["expected_multiplier"])[:10],
        _("Threshold policies"): [{below: dec(r["threshold"]), multiplier: dec(r["expected_multiplier"])[:10]}
                                  for r in a["table"]],
        _("Best threshold (highest expected multiplier)"): dec(best["threshold"]),
    }
    if a["edge"] is not None:
        view[_("Banker against one player")] = _(
            "both hitting below %(t)s: the banker's edge is %(edge)s of the base bet (exact)"
        ) % {"t": t, "edge": pct(a["edge"]["banker_edge"])}
    return view


def signed_points(x: Fraction) -> str:
    """A difference of percentages, as signed percentage points."""
    text = pct(abs(x)).replace(" %", " pp")
    return ("+" if x > 0 else "−" if x < 0 else "±") + text


def edge_chart_svg(view: dict, lang: str = "en") -> str:
    """An inline SVG line chart of each bet's house edge (%) against the deck count."""
    title = i18n.translations(lang).gettext(EDGE_TABLE)
    bet = i18n.translations(lang).gettext("bet")
    rows = view.get(title) or []
    if not rows:
        return ""
    columns = [k for k in rows[0] if k != bet]
    series = [(r[bet], [Fraction(r[c].replace(" %", "")) for c in columns]) for r in rows]
    top = max(max(v) for _n, v in series)
    low = min(min(v) for _n, v in series)
    y_max = max(Fraction(1), Fraction(int(top) + 1))
    y_min = min(Fraction(0), Fraction(int(low) - 1))
    width, height, left, right, top_pad, bottom = 560, 260, 48, 150, 16, 36
    plot_w, plot_h = width - left - right, height - top_pad - bottom

    def x(i: int) -> str:
        return f"{left + plot_w * i / max(1, len(columns) - 1):.1f}"

    def y(v: Fraction) -> str:
        return f"{top_pad + plot_h * float((y_max - v) / (y_max - y_min)):.1f}"

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="edge-chart" width="{width}" height="{height}" '
           f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}">',
           f"<title>{escape(title)}</title>",
           f'<line x1="{left}" y1="{y(y_min)}" x2="{left + plot_w}" y2="{y(y_min)}" stroke="#444"/>',
           f'<line x1="{left}" y1="{top_pad}" x2="{left}" y2="{y(y_min)}" stroke="#444"/>']
    step = max(1, int((y_max - y_min) / 5))
    tick = int(y_min)
    while tick <= y_max:
        out.append(f'<text x="{left - 6}" y="{y(Fraction(tick))}" font-size="10" text-anchor="end" '
                   f'dominant-baseline="middle">{tick} %</text>')
        tick += step
    for i, c in enumerate(columns):
        out.append(f'<text x="{x(i)}" y="{height - bottom + 16}" font-size="10" text-anchor="middle">'
                   f"{escape(c)}</text>")
    for k, (name, values) in enumerate(series):
        color = PALETTE[k % len(PALETTE)]
        points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
        out.append(f'<polyline fill="none" stroke="{color}" stroke-width="2" points="{points}"/>')
        out.extend(f'<circle cx="{x(i)}" cy="{y(v)}" r="2.5" fill="{color}"/>' for i, v in enumerate(values))
        ly = top_pad + 14 * k + 6
        out.append(f'<rect x="{width - right + 10}" y="{ly - 5}" width="10" height="10" fill="{color}"/>')
        out.append(f'<text x="{width - right + 26}" y="{ly}" font-size="11" dominant-baseline="middle">'
                   f"{escape(str(name))}</text>")
    out.append("</svg>")
    return "\n".join(out)
