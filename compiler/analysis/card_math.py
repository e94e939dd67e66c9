"""The "Mathematics" section of a rule card: the exact analysis as display strings, and a chart.

`math_view(game)` runs the engine's exact enumerator for the spec's own shoe and
for 1, 2, 4, 6 and 8 decks, and returns plain data for the card templates:
outcome probabilities, each bet's house edge and figures, the deck-count table,
and for a variant the change of each bet's house edge from its base's.
`edge_chart_svg(view)` draws the deck-count table as an inline SVG.
Analyses are cached per (engine source, decks) for the life of the process, so
a build analyses a base once for all its variants.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction
from html import escape

from ..cache import cached
from ..engine_loader import load_engine
from ..model import Game
from .report import DECK_TABLE, dec, pct, sqrt_dec

_ENGINES: dict[str, object] = {}
EDGE_TABLE = "House edge by deck count"
PALETTE = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf")


def engine_of(game: Game) -> tuple[str, object]:
    """(digest of the engine source, the loaded engine), cached per source."""
    from ..emit.engine import emit_engine

    source = emit_engine(game, game.path)
    digest = hashlib.sha256(source.encode("utf-8")).hexdigest()
    engine = _ENGINES.get(digest)
    if engine is None:
        engine = _ENGINES[digest] = load_engine(source, f"math_{game.name}")
    return digest, engine


def analysis_of(game: Game, decks: int | None = None) -> dict:
    """The engine's exact analysis of a game (cached per engine source and deck count)."""
    digest, engine = engine_of(game)
    decks = game.shoe.decks if decks is None else decks
    return cached("analysis", f"{decks}\0{digest}", lambda: engine.analyse(decks))


def deck_label(n: int) -> str:
    return f"{n} deck" + ("" if n == 1 else "s")


def math_view(game: Game) -> dict | None:
    """The card's mathematics for a dealt-round game; None for a game the analysis does not cover."""
    if game.is_seat_game and game.policy_threshold is not None:
        return seat_view(game)
    if not game.is_dealt_round:
        return None
    a = analysis_of(game)
    labels = {name: b.label("en") for name, b in game.bets.items()}
    view: dict = {
        "Shoe": f"{deck_label(a['decks'])}, {a['cards']} cards: every deal enumerated exactly, with card removal",
        "Outcomes": [{"outcome": game.outcomes[k].label("en") if k in game.outcomes else k,
                      "probability": pct(p), "exact": f"{p.numerator}/{p.denominator}"}
                     for k, p in a["outcomes"].items()],
        "Bets": [{
            "bet": labels.get(name, name),
            "house edge": pct(b["house_edge"]),
            "expected return": dec(b["expected_return"])[:12],
            "standard deviation": sqrt_dec(b["variance"])[:8],
            "hit frequency": pct(b["hit"], 2),
            "push": pct(b["push"], 2),
        } for name, b in a["bets"].items()],
    }
    table = [analysis_of(game, n) for n in DECK_TABLE]
    view[EDGE_TABLE] = [{"bet": labels.get(name, name),
                         **{deck_label(t["decks"]): pct(t["bets"][name]["house_edge"]) for t in table}}
                        for name in a["bets"]]
    if game.base is not None and game.base.is_dealt_round:
        base = analysis_of(game.base, a["decks"])["bets"]
        rows = []
        for name, b in a["bets"].items():
            old = base.get(name)
            rows.append({
                "bet": labels.get(name, name),
                "base": pct(old["house_edge"]) if old else "—",
                "this game": pct(b["house_edge"]),
                "difference": signed_points(b["house_edge"] - old["house_edge"]) if old else "new bet",
            })
        view[f"House edge against the base ({game.base.labels.get('en', game.base.name)})"] = rows
    notes = ["A bet's figures are per unit staked; a pushed bet counts as a bet placed."]
    if not all(b["scales_linearly"] for b in a["bets"].values()):
        notes.append("Some payouts are rounded, so a small stake can fare worse than these figures.")
    if any(w.payout.rounding for b in game.bets.values() for w in b.wins):
        notes.append("Commission is taken unrounded (a unit stake, where rounding changes nothing).")
    view["Notes"] = " ".join(notes)
    return view


def seat_view(game: Game) -> dict:
    """The mathematics of a seat game: one hand under the spec's policy, thresholds, banker edge."""
    from .seat import SeatAnalysis

    digest, engine = engine_of(game)

    def compute() -> dict:
        sa = SeatAnalysis(engine, game.policy_threshold)
        t = game.policy_threshold
        table = [sa.one_hand(x) for x in sa.thresholds()]
        return {"one": sa.one_hand(t), "table": table, "edge": sa.banker_edge(t, t)}

    a = cached("seat-analysis", f"{game.policy_threshold}\0{digest}", compute)
    t = dec(game.policy_threshold)
    labels = {ht.name: ht.label("en") for ht in game.types}
    best = max(a["table"], key=lambda r: (r["expected_multiplier"], -r["threshold"]))
    view: dict = {
        "Policy": f"one hand from the full deck, hitting while its total is below {t}; every draw enumerated "
                  "exactly" + (", wild cards substituted as the engine does" if game.wild else ""),
        "Hand types": [{"type": labels.get(k, k), "probability": pct(p)} for k, p in a["one"]["types"].items()],
        "Expected multiplier": dec(a["one"]["expected_multiplier"])[:10],
        "Threshold policies": [{"hit while total below": dec(r["threshold"]),
                                "expected multiplier": dec(r["expected_multiplier"])[:10]} for r in a["table"]],
        "Best threshold (highest expected multiplier)": dec(best["threshold"]),
    }
    if a["edge"] is not None:
        view["Banker against one player"] = (f"both hitting below {t}: the banker's edge is "
                                             f"{pct(a['edge']['banker_edge'])} of the base bet (exact)")
    return view


def signed_points(x: Fraction) -> str:
    """A difference of percentages, as signed percentage points."""
    text = pct(abs(x)).replace(" %", " pp")
    return ("+" if x > 0 else "−" if x < 0 else "±") + text


def edge_chart_svg(view: dict) -> str:
    """An inline SVG line chart of each bet's house edge (%) against the deck count."""
    rows = view.get(EDGE_TABLE) or []
    if not rows:
        return ""
    columns = [k for k in rows[0] if k != "bet"]
    series = [(r["bet"], [Fraction(r[c].replace(" %", "")) for c in columns]) for r in rows]
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
           f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(EDGE_TABLE)}">',
           f"<title>{escape(EDGE_TABLE)}</title>",
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
