"""`croupier analyze SPEC [--decks N] [--json] [--deck-table]`: the exact PAR sheet of a spec.

The spec is compiled in memory and its engine's own exact enumerator does the
work; this module only parses options and prints. Imports stay lazy so that the
command starts quickly.
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
    """(game, engine) of one spec; exit with its diagnostics when it does not resolve.

    Only parsing and resolving run here, not the static checks of `croupier check`
    (they enumerate rounds themselves and would double the time); a table with a
    missing cell still stops the analysis, with the engine's own error.
    """
    from pathlib import Path

    from .diagnostics import render_all
    from .emit.engine import emit_engine
    from .engine_loader import load_engine
    from .paths import display_path
    from .resolve import Loader

    loader = Loader()
    shown = display_path(Path(spec))
    game, diags = loader.load(spec)
    if game is None or any(d.is_error for d in diags):
        print(render_all(diags, loader.sources), file=sys.stderr)
        raise SystemExit(1)
    return game, load_engine(emit_engine(game, shown), game.name)


def cmd_analyze(args) -> int:
    from .analysis import report

    game, engine = compile_engine(args.spec)
    if game.is_seat_game:
        from .analysis.seat import cmd_seat

        return cmd_seat(game, engine, args)
    if not hasattr(engine, "analyse"):
        print(f"croupier: {args.spec} has no exact analysis", file=sys.stderr)
        return 2
    try:
        a = engine.analyse(args.decks)
        table = [engine.analyse(d) for d in report.DECK_TABLE] if args.deck_table else None
    except engine.EngineError as exc:
        print(f"croupier: {exc}", file=sys.stderr)
        return 1
    if args.json:
        data = {"game": game.name, **report.round_report(a), "notes": report.notes(game, a)}
        if table:
            data["deck_table"] = report.deck_table(table)
        print(json.dumps(data, ensure_ascii=False, indent=1))
    else:
        sys.stdout.write(report.text_report(a, game.labels.get("en", game.name)))
        sys.stdout.write("\n" + "\n".join(report.notes(game, a)) + "\n")
        if table:
            sys.stdout.write("\n" + report.text_deck_table(table))
    return 0
