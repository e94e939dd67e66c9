"""`croupier analyze SPEC [--decks N] [--json] [--deck-table]`: the exact PAR sheet of a spec.

The spec is compiled in memory (or its engine and the engine's analysis
companion taken from the engine cache when neither the spec nor the compiler
changed since, see `engine_cache`) and the companion's exact enumerator does the
work on the engine; this module only parses options and prints. Imports stay lazy so that the command starts quickly.
"""

from __future__ import annotations

import json
import sys


def register(subparsers) -> None:
    """Add the `analyze` sub-command."""
    a = subparsers.add_parser("analyze", help="exact analysis (PAR sheet) of a spec: odds, house edges")
    a.add_argument("spec")
    a.add_argument("--decks", type=int, help="analyse a shoe of this many decks (default: the spec's own)")
    a.add_argument("--json", action="store_true", help="print the analysis as JSON")
    a.add_argument("--deck-table", action="store_true", help="add the house edges for 1, 2, 4, 6 and 8 decks")
    a.add_argument("--threshold", help="seat games: the hit-while-below threshold (default: the spec's policy)")
    a.set_defaults(func=cmd_analyze)


def compile_engine(spec: str):
    """(game, engine) of one spec, kept in the engine cache when it is a dealt round; exit with
    its diagnostics when it does not resolve."""
    from croupier.driver.spec_engine import compile_spec

    c = compile_spec(spec)
    if c.game.is_dealt_round:
        from croupier.driver import engine_cache

        engine_cache.store(spec, c.shown, c.sources, game_facts(c.game, c.engine, c.shown), c.source)
    return c.game, c.engine, c.shown


def game_facts(game, engine, shown: str) -> dict:
    """What the report of a dealt round needs of the game besides its engine: its facts and the
    source of the engine's analysis companion (text, compiled again when used)."""
    from croupier.backends.engine.analysis_emitter import emit_analysis_module

    return {"name": game.name, "label": game.labels.get("en", game.name),
            "rounded": [b.name for b in game.bets.values() if any(p.rounding for w in b.wins for p in w.payouts())],
            "digest": engine.SOURCE_DIGEST, "analysis": emit_analysis_module(game, shown)}


def companion(facts: dict):
    """The engine's analysis companion, loaded from its source in the game's facts."""
    from croupier.backends.engine.loader import load_engine

    return load_engine(facts["analysis"], f"{facts['name']}_analysis")


def cached_engine(spec: str):
    """(facts of the game, engine) of a dealt-round spec compiled before and unchanged since, else None."""
    from pathlib import Path

    from croupier.backends.engine.loader import module_from_code
    from croupier.driver import engine_cache
    from croupier.paths import display_path

    hit = engine_cache.lookup(spec, display_path(Path(spec)))
    if hit is None or not isinstance(hit[0].get("analysis"), str):
        return None
    facts, code = hit
    return facts, module_from_code(code, facts["name"], facts["digest"])


def cmd_analyze(args) -> int:
    from croupier.tools.analysis import report

    hit = cached_engine(args.spec)
    if hit is not None:
        facts, engine = hit
    else:
        game, engine, shown = compile_engine(args.spec)
        if game.is_seat_game:
            from croupier.tools.analysis.seat import cmd_seat

            return cmd_seat(game, engine, args)
        if not game.is_dealt_round:
            print(f"croupier: {args.spec} has no exact analysis", file=sys.stderr)
            return 2
        facts = game_facts(game, engine, shown)
    exact = companion(facts)
    try:
        a = exact.analyse(engine, args.decks)
        table = [exact.analyse(engine, d) for d in report.DECK_TABLE] if args.deck_table else None
    except engine.EngineError as exc:
        print(f"croupier: {exc}", file=sys.stderr)
        return 1
    notes = report.notes(facts["rounded"], a)
    if args.json:
        data = {"game": facts["name"], **report.round_report(a), "notes": notes}
        if table:
            data["deck_table"] = report.deck_table(table)
        print(json.dumps(data, ensure_ascii=False, indent=1))
    else:
        sys.stdout.write(report.text_report(a, facts["label"]))
        sys.stdout.write("\n" + "\n".join(notes) + "\n")
        if table:
            sys.stdout.write("\n" + report.text_deck_table(table))
    return 0
