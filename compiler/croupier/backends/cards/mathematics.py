"""The "Mathematics" section of a rule card: the exact analysis as display strings, and a chart.

`math_view(game, lang)` runs the exact enumerator (the engine's analysis companion) for the spec's own
shoe and for 1, 2, 4, 6 and 8 decks, and returns plain data for the card
templates, in the card's language (fixed prose from the gettext catalogs, names
from the spec's labels): outcome probabilities, each bet's house edge and
figures, the deck-count table, and for a variant the change of each bet's house
edge from its base's. `edge_chart_svg(view, lang)` draws the deck-count table as
an inline SVG.
Analyses are cached per (engine and companion source, decks) for the life of the process, so
a build analyses a base once for all its variants; the sources are emitted once per process for the same
spec texts, name and path (a variant's base included).
"""

from __future__ import annotations

from fractions import Fraction

from croupier.backends.cards import i18n
from croupier.backends.engine.loader import exact_analysis, shared_engine, source_digest
from croupier.cache import cached
from croupier.semantics.model import Game
from croupier.tools.analysis.edge_chart import chart_from_rows
from croupier.tools.analysis.report import DECK_TABLE, dec, pct, sqrt_dec


def N_(message: str) -> str:  # noqa: N802 - the gettext marker for messages translated later
    return message


EDGE_TABLE = N_("House edge by deck count")


def _emitted(kind: str, game: Game, emit) -> str:
    """The source `emit(game, game.path)` gives, emitted once per process for the same rules: a variant's base
    (a game object of its own, resolved with the variant) is the game its own spec resolves to when their spec
    texts (`Game.fingerprint`), name and path agree, and so has the same engine and companion."""
    if not game.source_text:  # a game not resolved from a spec text: nothing to know it again by
        return emit(game, game.path)
    key = (kind, game.fingerprint, game.name, game.path)
    source = _SOURCES.get(key)
    if source is None:
        source = _SOURCES[key] = emit(game, game.path)
    return source


_SOURCES: dict[tuple[str, str, str, str], str] = {}


def engine_of(game: Game) -> tuple[str, object]:
    """(digest of the engine source, the loaded engine), the module shared with the checks (`shared_engine`)."""
    from croupier.backends.engine.emitter import emit_engine

    source = _emitted("engine", game, emit_engine)
    return source_digest(source), shared_engine(source, f"math_{game.name}")


def companion_of(game: Game) -> tuple[str, object]:
    """(digest of the analysis companion's source, the loaded companion), shared like the engine."""
    from croupier.backends.engine.analysis_emitter import emit_analysis_module

    source = _emitted("companion", game, emit_analysis_module)
    return source_digest(source), shared_engine(source, f"math_{game.name}_analysis")


def analysis_of(game: Game, decks: int | None = None) -> dict:
    """The exact analysis of a game by its engine's companion (cached per their sources and deck count)."""
    _digest, engine = engine_of(game)
    _plan_digest, companion = companion_of(game)
    decks = game.shoe.decks if decks is None else decks
    return exact_analysis(engine, companion, decks)


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
                _("difference"): _("%(x)s pp") % {"x": signed_points(b["house_edge"] - old["house_edge"])}
                if old else _("new bet"),
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
    from croupier.tools.analysis.seat import SeatAnalysis, separable, stake_of

    digest, engine = engine_of(game)

    def compute() -> dict:
        sa = SeatAnalysis(engine, game.policy_threshold, stake_of(game), separable(game))
        t = game.policy_threshold
        table = [sa.one_hand(x) for x in sa.thresholds()]
        return {"one": sa.one_hand(t), "table": table, "edge": sa.banker_edge(t, t), "best": sa.best_threshold(t),
                "against": {x: r["net"] for x, r in sa.against(t).items()}}

    a = cached("seat-analysis", f"{game.policy_threshold}\0{stake_of(game)}\0{digest}", compute)
    _ = i18n.translations(lang).gettext
    t = dec(game.policy_threshold)
    labels = {ht.name: ht.label(lang) for ht in game.types}
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
    }
    banker_game = game.settlement.scheme == "against-banker"
    if a["best"] is not None:
        best = (_("Best threshold (highest expected result against the banker)") if banker_game else
                _("Best threshold (highest expected result against one opponent)"))
        view[best] = dec(a["best"])
    if a["against"]:
        title = (_("Expected result against the banker hitting below %(t)s, by threshold") if banker_game else
                 _("Expected result against one opponent hitting below %(t)s, by threshold")) % {"t": t}
        result = _("expected result per unit staked")
        view[title] = [{below: _("%(t)s (best)") % {"t": dec(x)} if x == a["best"] else dec(x),
                        result: pct(r), _("exact"): f"{r.numerator}/{r.denominator}"}
                       for x, r in a["against"].items()]
    if a["edge"] is not None:
        view[_("Banker against one player")] = _(
            "both hitting below %(t)s: the banker's edge is %(edge)s of the base bet (exact)"
        ) % {"t": t, "edge": pct(a["edge"]["banker_edge"])}
    return view


def signed_points(x: Fraction) -> str:
    """A difference of percentages, as a signed number of percentage points (the unit is the caller's words)."""
    text = pct(abs(x)).replace(" %", "")
    return ("+" if x > 0 else "−" if x < 0 else "±") + text


def edge_chart_svg(view: dict, lang: str = "en") -> str:
    """An inline SVG chart of each bet's house edge (%) against the deck count (`edge_chart`)."""
    _ = i18n.translations(lang).gettext
    def join(names: list[str]) -> str:
        out = names[0]
        for name in names[1:]:
            out = _("%(first)s, %(item)s") % {"first": out, "item": name}
        return out

    return chart_from_rows(view.get(_(EDGE_TABLE)) or [], _("bet"), DECK_TABLE, _(EDGE_TABLE),
                           _("Decks in the shoe"), _("House edge (%)"), join)
