"""`croupier analyze SPEC [--decks N] [--json] [--deck-table]`: the exact PAR sheet of a spec.

The driver takes the spec to its engine and the source of the engine's analysis
companion (for a dealt round, from the disk cache when the spec, its bases and the
compiler are unchanged since, without parsing; see `croupier.driver.compile`) and
the companion's exact enumerator does the work on the engine; this module only
parses options and prints. Imports stay lazy so that the command starts quickly.
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


def companion(facts: dict):
    """The engine's analysis companion, loaded from its source in the game's facts."""
    from croupier.backends.engine.loader import load_engine

    return load_engine(facts["analysis"], f"{facts['name']}_analysis")


def cmd_analyze(args) -> int:
    from croupier.cli.main import compiled_or_exit
    from croupier.tools.analysis import report

    c = compiled_or_exit(args.spec, model=False)  # a dealt round's engine may come from the disk cache
    facts, engine = c.facts, c.engine
    if facts["seat_game"]:
        from croupier.tools.analysis.seat import cmd_seat

        c = compiled_or_exit(args.spec)  # the seat analysis reads the game model too
        return cmd_seat(c.game, c.engine, args)
    if not isinstance(facts.get("analysis"), str):
        print(f"croupier: {args.spec} has no exact analysis", file=sys.stderr)
        return 2
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
