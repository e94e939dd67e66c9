"""The exact analyses a rule card's Mathematics section shows, as plain data for the cards back end.

`card_analysis(game)` runs the exact enumerator (the engine's analysis companion) for the spec's own
shoe and for 1, 2, 4, 6 and 8 decks (those the general enumerator plays in few rounds: `table_analysis`;
and for a variant, its base at the spec's shoe), or a seat
game's policy analysis, and returns the exact figures; the driver hands them to the cards back end
(`croupier.backends.cards.mathematics`), which words and draws them in each card language.
Analyses are cached per (engine and companion source, decks) for the life of the process, so
a build analyses a base once for all its variants; the sources are emitted once per process for the same
spec texts, name and path (a variant's base included).
"""

from __future__ import annotations

from croupier.backends.engine.loader import engine_path, estimated_rounds, exact_analysis, shared_engine, source_digest
from croupier.cache import cached
from croupier.semantics.model import Game
from croupier.tools.analysis.report import DECK_TABLE

TABLE_ROUNDS = 20_000  # the most rounds a general enumeration may play for each further deck count of the table


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
    return source_digest(source), shared_engine(source, f"math_{game.name}", engine_path(game.name))


def companion_of(game: Game) -> tuple[str, object]:
    """(digest of the analysis companion's source, the loaded companion), shared like the engine."""
    from croupier.backends.engine.analysis_emitter import emit_analysis_module

    source = _emitted("companion", game, emit_analysis_module)
    return source_digest(source), shared_engine(source, f"math_{game.name}_analysis", engine_path(f"{game.name}_analysis"))


def analysis_of(game: Game, decks: int | None = None) -> dict:
    """The exact analysis of a game by its engine's companion (cached per their sources and deck count)."""
    _digest, engine = engine_of(game)
    _plan_digest, companion = companion_of(game)
    decks = game.shoe.decks if decks is None else decks
    return exact_analysis(engine, companion, decks)


def table_analysis(game: Game, decks: int) -> dict | None:
    """The analysis of one more deck count for the card's table of house edges by deck count; None when the
    general enumeration would play more than TABLE_ROUNDS rounds for it (`estimated_rounds`): a game whose
    rules tell every card apart shows its own shoe only, instead of walking its rounds again for each count."""
    _digest, engine = engine_of(game)
    _plan_digest, companion = companion_of(game)
    guess = estimated_rounds(engine, companion, decks)
    if guess is not None and guess > TABLE_ROUNDS:
        return None
    return exact_analysis(engine, companion, decks)


def card_analysis(game: Game) -> dict | None:
    """A card's mathematics as exact data; None for a game the analysis does not cover. One of:

    - {"seat": figures}: a seat game under its policy (`seat_analysis`);
    - {"round": the analysis of the spec's shoe, "by_decks": one per deck count of `DECK_TABLE`,
      "base": the base's analysis at the spec's shoe, or None}: a dealt round;
    - {"missing": why}: a dealt round the exact enumeration cannot cover (the engine's EngineError).
    """
    if game.is_seat_game and game.policy_threshold is not None:
        return {"seat": seat_analysis(game)}
    if not game.is_dealt_round:
        return None
    try:
        a = analysis_of(game)
        by_decks = [analysis_of(game, n) if n == a["decks"] else table_analysis(game, n) for n in DECK_TABLE]
        by_decks = [t for t in by_decks if t is not None]
        base = analysis_of(game.base, a["decks"]) if game.base is not None and game.base.is_dealt_round else None
    except ValueError as exc:  # the engine's EngineError: a game the exact enumeration cannot cover
        return {"missing": str(exc)}
    return {"round": a, "by_decks": by_decks, "base": base}


def seat_analysis(game: Game) -> dict:
    """One hand of a seat game under the spec's policy: {"one": its figures, "table": the figures of every
    threshold, "edge": the banker's edge (or None), "best": the best threshold (or None), "against": the result
    of each threshold against the spec's}."""
    from croupier.tools.analysis.seat import SeatAnalysis, separable, stake_of

    digest, engine = engine_of(game)

    def compute() -> dict:
        sa = SeatAnalysis(engine, game.policy_threshold, stake_of(game), separable(game))
        t = game.policy_threshold
        table = [sa.one_hand(x) for x in sa.thresholds()]
        return {"one": sa.one_hand(t), "table": table, "edge": sa.banker_edge(t, t), "best": sa.best_threshold(t),
                "against": {x: r["net"] for x, r in sa.against(t).items()}}

    return cached("seat-analysis", f"{game.policy_threshold}\0{stake_of(game)}\0{digest}", compute)
