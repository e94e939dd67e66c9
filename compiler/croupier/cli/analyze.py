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
    a.add_argument("spec", help="the spec file of the game to analyse")
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

    known = analysed_before(args)
    if known is not None:
        return known
    c = compiled_or_exit(args.spec, model=False)  # the engine (and its facts) may come from the disk cache
    if not c.facts["seat_game"]:
        return dealt_round(args, c)
    from croupier.tools.analysis.seat import cmd_seat
    from croupier.tools.analysis.seat_facts import inputs_of, seat_inputs

    facts = c.facts  # the model's part of the analysis is in the facts, else read from the model
    if inputs_of(facts) is None:
        c = compiled_or_exit(args.spec)
        facts = {**c.facts, "seat": seat_inputs(c.game)}
    return cmd_seat(args, c.engine, facts)


def analysed_before(args) -> int | None:
    """Print the analysis of a dealt round that the disk cache holds for the spec's content as it is now
    and for every deck count asked (kept by an earlier `analyze`, `check` or `build` with this compiler),
    or a seat game's report kept by an earlier `analyze` (`seat.recalled_seat`), without compiling
    anything; None, having printed nothing, when any part is missing."""
    from croupier.paths import cache_dir

    if cache_dir() is None:  # no disk cache: nothing from an earlier process to find
        return None
    from croupier.backends.engine.loader import recalled_analyses
    from croupier.driver.compile import engine_entry
    from croupier.tools.analysis import report

    entry = engine_entry(args.spec)
    if entry is None:
        return None
    facts, source = entry
    if facts.get("seat_game"):
        from croupier.tools.analysis.seat import recalled_seat

        return recalled_seat(args, facts, source)
    decks = facts.get("decks") if args.decks is None else args.decks
    if not isinstance(facts.get("analysis"), str) or not isinstance(decks, int):
        return None
    a, *table = recalled_analyses(source, facts["analysis"], [decks, *(report.DECK_TABLE if args.deck_table else ())])
    if a is None or None in table:
        return None
    return print_analysis(args, facts, a, table or None)


def dealt_round(args, c) -> int:
    """The exact analysis of a dealt round, printed (and kept in the cache, see `exact_analysis`)."""
    from croupier.backends.engine.loader import exact_analysis
    from croupier.tools.analysis import report

    facts, engine = c.facts, c.engine
    if not isinstance(facts.get("analysis"), str):
        print(f"croupier: {args.spec} has no exact analysis", file=sys.stderr)
        return 2
    exact = companion(facts)
    try:
        a = exact_analysis(engine, exact, engine.DECKS if args.decks is None else args.decks)
        table = [exact_analysis(engine, exact, d) for d in report.DECK_TABLE] if args.deck_table else None
    except engine.EngineError as exc:
        print(f"croupier: {exc}", file=sys.stderr)
        return 1
    return print_analysis(args, facts, a, table)


def print_analysis(args, facts: dict, a: dict, table: list[dict] | None) -> int:
    """Print an exact analysis (and the deck table) as text or JSON."""
    from croupier.tools.analysis import report

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
