"""The "Mathematics" section of a rule card: the exact analysis as display strings, and a chart.

The driver runs the analysis tool (`croupier.tools.analysis.card_analysis`) and hands its exact data
here: `mathematics(game, analysis, lang)` returns the section for the card templates, in the card's
language (fixed prose from the gettext catalogs, names from the spec's labels): outcome probabilities,
each bet's house edge and figures, the deck-count table, and for a variant the change of each bet's
house edge from its base's, or a seat game's policy figures; and the deck-count table drawn as an
inline SVG chart (`edge_chart`).
"""

from __future__ import annotations

from fractions import Fraction

from croupier.backends.cards import i18n
from croupier.backends.cards.edge_chart import chart_from_rows
from croupier.figures import dec, pct, sqrt_dec
from croupier.semantics.model import Game


def N_(message: str) -> str:  # noqa: N802 - the gettext marker for messages translated later
    return message


EDGE_TABLE = N_("House edge by deck count")


def mathematics(game: Game, analysis: dict, lang: str = "en") -> dict:
    """The section in one language: {"view": figures, "chart": SVG text} from `card_analysis`'s data."""
    view = math_view(game, analysis, lang)
    decks = [t["decks"] for t in analysis.get("by_decks", ())]
    _ = i18n.translations(lang).gettext
    return {"view": view, "chart": edge_chart_svg(view, decks, lang), "edges": bet_edges(game, analysis),
            "deck_key": _(EDGE_TABLE)}


def deck_label(n: int, lang: str = "en") -> str:
    return i18n.translations(lang).ngettext("%(n)s deck", "%(n)s decks", n) % {"n": n}


def math_view(game: Game, analysis: dict, lang: str = "en") -> dict:
    """The card's mathematics, as display strings, from `card_analysis`'s data."""
    if "seat" in analysis:
        return seat_view(game, analysis["seat"], lang)
    if "missing" in analysis:
        _ = i18n.translations(lang).gettext
        return {_("Analysis"): _("The exact analysis of this game is missing: %(why)s") % {"why": analysis["missing"]}}
    return round_view(game, analysis, lang)


def round_view(game: Game, analysis: dict, lang: str) -> dict:
    """The mathematics of a dealt-round game."""
    _ = i18n.translations(lang).gettext
    a = analysis["round"]
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
    table = analysis["by_decks"]
    view[_(EDGE_TABLE)] = [{bet: labels.get(name, name),
                            **{deck_label(t["decks"], lang): pct(t["bets"][name]["house_edge"]) for t in table}}
                           for name in a["bets"]]
    if analysis["base"] is not None:
        base = analysis["base"]["bets"]
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
    view[_("Reading the figures")] = " ".join([
        _("House edge: what the house keeps on average of each unit staked, over many rounds."),
        _("Expected return: what a unit staked comes back as on average, stake included (1 minus the house edge)."),
        _("Standard deviation: how far the result of one round typically lies from that average, per unit staked."),
        _("Hit frequency: how often the bet wins; push: how often its stake is simply returned."),
        _("Exact: each probability as a fraction, counted over every possible deal."),
    ])
    return view


def bet_edges(game: Game, analysis: dict | None) -> dict[str, str]:
    """Each bet's house edge as the card prints it beside the bet (none for a seat game or a missing analysis)."""
    if not analysis or "round" not in analysis:
        return {}
    return {name: pct(b["house_edge"]) for name, b in analysis["round"]["bets"].items()}


def seat_view(game: Game, a: dict, lang: str = "en") -> dict:
    """The mathematics of a seat game: one hand under the spec's policy, thresholds, banker edge."""
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
    }
    banker_game = game.settlement.scheme == "against-banker"
    if a["best"] is not None:
        best = (_("Best threshold (highest expected result against the banker)") if banker_game else
                _("Best threshold (highest expected result against one opponent)"))
        view[best] = dec(a["best"])
    if a["against"]:  # one table of policies, its best row the threshold named above
        result = (_("expected result against the banker hitting below %(t)s") if banker_game else
                  _("expected result against one opponent hitting below %(t)s")) % {"t": t}
        view[_("Threshold policies")] = [
            {below: dec(x), result: _("%(x)s (best)") % {"x": pct(r)} if x == a["best"] else pct(r),
             _("exact"): f"{r.numerator}/{r.denominator}"} for x, r in a["against"].items()]
    else:
        view[_("Threshold policies")] = [{below: dec(r["threshold"]), multiplier: dec(r["expected_multiplier"])[:10]}
                                         for r in a["table"]]
    if a["edge"] is not None:
        view[_("Banker against one player")] = _(
            "both hitting below %(t)s: the banker's edge is %(edge)s of the base bet (exact)"
        ) % {"t": t, "edge": pct(a["edge"]["banker_edge"])}
    said = [_("Expected multiplier: the average multiplier of one hand's type under this policy, a bust counting "
              "0; it is not the chance of winning."),
            _("Threshold policies: what a player gains or loses on average per unit staked when taking cards "
              "while below each threshold; the best row is the best threshold above.")]
    if a["edge"] is not None:
        said.append(_("Banker's edge: what the banker wins on average from one player, per unit of the base bet."))
    view[_("Reading the figures")] = " ".join(said)
    return view


def signed_points(x: Fraction) -> str:
    """A difference of percentages, as a signed number of percentage points (the unit is the caller's words)."""
    text = pct(abs(x)).replace(" %", "")
    return ("+" if x > 0 else "−" if x < 0 else "±") + text


def edge_chart_svg(view: dict, decks: list[int], lang: str = "en") -> str:
    """An inline SVG chart of each bet's house edge (%) against the deck count (`edge_chart`): the view's
    deck-count table, whose columns are the analyses of `decks`."""
    _ = i18n.translations(lang).gettext
    def join(names: list[str]) -> str:
        out = names[0]
        for name in names[1:]:
            out = _("%(first)s, %(item)s") % {"first": out, "item": name}
        return out

    return chart_from_rows(view.get(_(EDGE_TABLE)) or [], _("bet"), tuple(decks), _(EDGE_TABLE),
                           _("Decks in the shoe"), _("House edge (%)"), join)
