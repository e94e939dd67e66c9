"""The `croupier` command: init, build, check, play (and the analysis and simulation commands).

`build` and `check` without spec paths work on every spec of the project found from the
current folder (`croupier.project`); named specs work on the project they lie in, whatever
the current folder. Only this layer prints and exits.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import json
import sys
from pathlib import Path

from croupier import __version__
from croupier.cli import analyze, diff, editor, fmt, help_topics, init, simulate, test
from croupier.diagnostics import SpecError, render_all
from croupier.project import Project, ProjectError
from croupier.runtime.jsonl import MAX_LINE_BYTES


class UsageError(Exception):
    """A command that cannot run as given (exit status 2); the message says what to do."""


CONFIGS = "no croupier.toml, nor a pyproject.toml with [tool.croupier],"


def _select(args_specs: list[str]) -> tuple[Project | None, list[Path], bool]:
    """(project, specs, full build?): the named specs and the project they lie in, or every spec of
    the project of the current folder."""
    from croupier.project import find_project, project_of

    if not args_specs:
        project = find_project(Path.cwd())
        if project is None:
            raise UsageError(f"no Croupier project here ({CONFIGS} in this folder or above); "
                             "run `croupier init`, or name spec files")
        specs = project.specs()
        if not specs:
            print(f"croupier: note: no spec in {project.spec_dir}", file=sys.stderr)
        return project, specs, True
    specs = [Path(s) for s in args_specs]
    projects = {project_of(s) for s in specs}
    if len(projects) > 1:
        roots = sorted(str(p.root) if p is not None else "no project" for p in projects)
        raise UsageError(f"the specs belong to different projects ({', '.join(roots)}); run croupier once per project")
    return projects.pop(), specs, False


def _print_notes(project: Project | None) -> None:
    from croupier.driver import pipeline  # Jinja2 and Babel: only the commands that write cards

    for note in pipeline.language_notes(project):
        print(f"croupier: {note}", file=sys.stderr)


def _print_diags(diags: list, sources: dict[str, str], fmt: str, stream) -> None:
    from croupier.diagnostics import render_all, to_json

    if fmt == "json":
        print(to_json(diags), file=stream)
    elif diags:
        print(render_all(diags, sources), file=stream)


def cmd_build(args) -> int:
    from croupier.driver import pipeline  # Jinja2 and Babel: only the commands that write cards

    project, specs, full = _select(args.specs)
    if args.out:
        out = Path(args.out)
    elif project is not None:
        out = project.out_dir
    else:
        raise UsageError(f"{specs[0]} is in no Croupier project ({CONFIGS} in its folder or above): "
                         "give --out DIR, or run `croupier init`")
    _print_notes(project)
    results, sources = pipeline.compile_all(specs, project=project, jobs=_jobs_of(args))
    diags = _each_once(d for r in results for d in r.diagnostics)
    _print_diags(diags, _with_case_files(diags, sources, project), "text", sys.stderr)
    if not all(r.ok for r in results):
        print(f"croupier: {sum(1 for d in diags if d.is_error)} error(s); nothing written", file=sys.stderr)
        if args.json:
            print(json.dumps({**diagnostics_data(diags), "written": [], "removed": [], "ok": False}, indent=2))
        return 1
    from croupier.outputs import OutputError

    try:
        written, removed = pipeline.write_artefacts(results, out, full)
    except OutputError as exc:
        print(f"croupier: {exc}", file=sys.stderr)
        print("croupier: build stopped; every file is whole (as before or as built); fix this and build again",
              file=sys.stderr)
        return 1
    shown_out = project.display(out) if project is not None else str(out)
    for rel in removed:
        print(f"croupier: removed {shown_out}/{_under(out, rel)} (an earlier build wrote it; no spec writes it now)",
              file=sys.stderr)
    if args.json:
        print(json.dumps({**diagnostics_data(diags), "specs": len(results),
                          "out": shown_out,
                          "written": sorted(_under(out, w) for w in written), "removed": sorted(_under(out, r) for r in removed),
                          "ok": True}, ensure_ascii=False, indent=2))
        return 0
    shown = shown_out.encode("utf-8", "backslashreplace").decode("utf-8")
    print(f"croupier: built {len(results)} spec(s), {len(written)} file(s) in {shown}")
    return 0


def _with_case_files(diags: list, sources: dict[str, str], project: Project | None) -> dict[str, str]:
    """`sources` with the text of each other file a diagnostic points into (a reference-case file), to show
    its line."""
    out = dict(sources)
    for d in diags:
        if d.span.file not in out and project is not None:
            try:
                out[d.span.file] = (project.root / d.span.file).read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                out[d.span.file] = None
    return out


def _each_once(diags) -> list:
    """Diagnostics with repeats dropped: a case file or a base read for several specs is reported once."""
    return list(dict.fromkeys(diags))


def _under(out: Path, path) -> str:
    """A written file's path relative to the output folder (as the build manifest lists it)."""
    try:
        return Path(path).relative_to(out).as_posix()
    except ValueError:
        return Path(path).as_posix()


def diagnostics_data(diags: list) -> dict:
    """{"diagnostics": [...]}: the diagnostics as `croupier check --json` prints them, in file order."""
    from croupier.diagnostics import to_json

    return json.loads(to_json(diags))


def cmd_check(args) -> int:
    from croupier.driver import pipeline  # Jinja2 and Babel: only the commands that write cards

    project, specs, full = _select(args.specs)
    _print_notes(project)
    results, sources = pipeline.compile_all(specs, project=project, jobs=_jobs_of(args))
    diags = _each_once(d for r in results for d in r.diagnostics)
    if args.strict:
        diags += _uncited(results, sources)
    errors = [d for d in diags if d.is_error or args.strict and d.severity == "warning"]
    stale = []
    if project is None:
        print(f"croupier: note: {specs[0]} is in no Croupier project ({CONFIGS} in its folder or above): "
              "there are no generated files to compare it with", file=sys.stderr)
    elif not errors and not args.no_stale:
        stale = pipeline.stale(results, project.out_dir, full, project.display)
    as_json = args.json or args.format == "json"
    if as_json:
        print(json.dumps({**diagnostics_data(diags), "stale": stale, "ok": not (errors or stale)}, ensure_ascii=False,
                         indent=2))
    else:
        _print_diags(diags, _with_case_files(diags, sources, project), "text", sys.stderr)
        for s in stale:
            print(f"stale: {s}", file=sys.stderr)
        if stale:
            print(f"hint: run `croupier build` and commit {project.display(project.out_dir)}/", file=sys.stderr)
    if errors or stale:
        return 1
    if not as_json:
        warnings = sum(1 for d in diags if d.severity == "warning")
        print(f"croupier: {len(results)} spec(s) ok" + (f", {warnings} warning(s)" if warnings else ""))
    return 0


def _uncited(results: list, sources: dict[str, str]) -> list:
    """`check --strict`'s citation rule: a warning on every rule of a spec that resolved that cites no source."""
    from croupier.semantics.citations import uncited
    from croupier.syntax.parser import parse_text

    return [d for r in results if r.ok and r.spec in sources for d in uncited(parse_text(sources[r.spec], r.spec)[0])]


def compiled_or_exit(spec: str, level=None, model: bool = True):
    """One spec taken to a driver level (default: ENGINE, see `croupier.driver.compile`); print its
    diagnostics and exit with status 1 when it does not resolve or a check fails."""
    from croupier.driver.compile import Level, compile_spec

    c = compile_spec(spec, level or Level.ENGINE, model=model)
    if not c.ok:
        _print_diags(c.diagnostics, c.sources, "text", sys.stderr)
        raise SystemExit(1)
    return c


def load_game_engine(spec: str):
    """(game, engine) of one spec; exit with its diagnostics if it is bad."""
    c = compiled_or_exit(spec)
    return c.game, c.engine


def cmd_play(args) -> int:
    if args.jsonl and not (args.log or args.replay):  # only the engine answers: it may come from the disk cache
        engine = compiled_or_exit(args.spec, model=False).engine
        engine.run_jsonl(sys.stdin, sys.stdout.write, args.max_line_bytes)
        return 0
    if args.cards is not None and not (args.jsonl or args.replay or args.log):
        c = compiled_or_exit(args.spec, model=False)  # the engine alone: it may come from the disk cache
        if c.facts["seat_game"]:
            print("croupier: --cards is for dealt-round games; use --hand or --table", file=sys.stderr)
            return 2
        return play_round(args, c.engine)
    from croupier.tools.explain import explain_hand, explain_table
    from croupier.tools.replay import RoundLog, answer_and_log

    game, engine = load_game_engine(args.spec)
    if (args.replay or args.log) and not game.is_dealt_round:
        print("croupier: --replay and --log are for dealt-round games", file=sys.stderr)
        return 2
    if args.replay:
        return cmd_replay(engine, args.replay)
    if args.jsonl:
        if args.log:
            from croupier.cli.simulate import output_clash

            clash = output_clash({"--log": args.log}, [args.spec])
            if clash:
                print(f"croupier: {clash}", file=sys.stderr)
                return 2
            try:
                log = RoundLog(args.log)  # opened before the first line: a log that cannot be written stops here
            except OSError as exc:
                print(f"croupier: cannot write the log {args.log}: {exc.strerror or exc}", file=sys.stderr)
                return 2
            try:
                answer_and_log(engine, sys.stdin, sys.stdout.write, log, args.max_line_bytes)
            finally:
                log.commit()
            if log.error is not None:
                print(f"croupier: the log {args.log} could not be written: {log.error.strerror or log.error}",
                      file=sys.stderr)
                return 1
        else:
            engine.run_jsonl(sys.stdin, sys.stdout.write, args.max_line_bytes)
        return 0
    try:
        if args.hand is not None:
            if not game.is_seat_game:
                print("croupier: --hand is for games with hand types", file=sys.stderr)
                return 2
            data, text = explain_hand(game, engine, args.hand)
        elif args.table is not None:
            if not game.is_seat_game:
                print("croupier: --table is for seat games; use --cards or --jsonl", file=sys.stderr)
                return 2
            data, text = explain_table(game, engine, engine.read_json(args.table))
        else:
            print("croupier: play needs --cards, --hand, --table or --jsonl", file=sys.stderr)
            return 2
    except engine.EngineError as exc:
        return _play_error(args, str(exc))
    except Exception as exc:  # last resort: an unforeseen exception is reported, never a traceback
        return _play_error(args, engine.internal_error(exc)["error"])
    print(json.dumps(data, ensure_ascii=False, indent=2) if args.json else text)
    return 0


def play_round(args, engine) -> int:
    """`play --cards … [--bet B=S …] [--room R]`: one round explained step by step, or its JSON."""
    from croupier.tools.explain import explain_round

    bets = {}
    for b in args.bet or []:
        name, equals, stake = b.partition("=")
        if not equals:
            return _play_error(args, f"--bet {b!r} is not BET=STAKE (for example banker=100)")
        if name.strip() in bets:
            return _play_error(args, f"--bet {name.strip()} is given twice: one stake per bet")
        bets[name.strip()] = stake.strip()
    try:
        data, text = explain_round(engine, args.cards, bets, args.room)
    except engine.EngineError as exc:
        return _play_error(args, str(exc))
    except Exception as exc:  # last resort: an unforeseen exception is reported, never a traceback
        return _play_error(args, engine.internal_error(exc)["error"])
    print(json.dumps(data, ensure_ascii=False, indent=2) if args.json else text)
    return 0


def _play_error(args, message: str) -> int:
    if args.json:
        print(json.dumps({"error": message}))
    else:
        print(f"croupier: {message}", file=sys.stderr)
    return 1


def cmd_replay(engine, path: str) -> int:
    """Adjudicate a round log again and report every mismatch by round number."""
    from croupier.tools.replay import replay_lines

    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            checked, problems = replay_lines(engine, f)
    except OSError as exc:
        print(f"croupier: cannot read {path}: {exc.strerror}", file=sys.stderr)
        return 2
    for p in problems:
        print(p)
    rounds = len({p.split(":", 1)[0] for p in problems})  # each problem starts with its line: `line 7: …`
    print(f"croupier: {checked} round(s) replayed, {rounds} with a mismatch ({len(problems)} field(s) differ)"
          if problems else f"croupier: {checked} round(s) replayed, every one as logged", file=sys.stderr)
    return 1 if problems else 0


MAX_LINE_BYTES_CEILING = 1 << 30  # the most `--max-line-bytes` may raise it to


def _line_bytes(text: str) -> int:
    if not text.isascii() or not text.isdigit() or not 1 <= int(text) <= MAX_LINE_BYTES_CEILING:
        raise argparse.ArgumentTypeError(f"the longest line is a whole number of bytes from 1 to "
                                         f"{MAX_LINE_BYTES_CEILING:,}, not {text!r}")
    return int(text)


def _jobs(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"the number of jobs must be a whole number of at least 1, not {text!r}")
    return int(text)


def _jobs_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--jobs", "-j", type=_jobs, metavar="N",
                   help="specs compiled at once, each in a worker process (default: $CROUPIER_JOBS, else one per "
                        "core; 1: all in this process)")


def _jobs_of(args) -> int:
    from croupier.driver.parallel import default_jobs

    return args.jobs if args.jobs is not None else default_jobs()


def parser() -> argparse.ArgumentParser:
    """The command line's parser: every sub-command, in the order `--help` lists them."""
    p = argparse.ArgumentParser(prog="croupier", description="Compile card-game rules into engines, cards and tests.")
    p.add_argument("--version", action="version", version=f"croupier {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    init.register(sub)
    _register_build(sub)
    _register_check(sub)
    test.register(sub)
    _register_play(sub)
    for module in (analyze, simulate, fmt, diff, editor, help_topics):
        module.register(sub)
    return p


def _register_build(sub) -> None:
    b = sub.add_parser("build", help="compile specs into the project's output folder (generated/)")
    b.add_argument("specs", nargs="*", help="spec files (default: every spec of the project's spec folder)")
    b.add_argument("--out", help="output folder (default: the project's, generated/)")
    b.add_argument("--json", action="store_true", help="print what was written and removed, and the diagnostics, as JSON")
    _jobs_option(b)
    b.set_defaults(func=cmd_build)


def _register_check(sub) -> None:
    c = sub.add_parser("check", help="parse and check specs; fail when the project's generated files are stale")
    c.add_argument("specs", nargs="*", help="spec files (default: every spec of the project's spec folder)")
    c.add_argument("--strict", action="store_true",
                   help="treat warnings as errors, and want a citation on every rule (and labels in every language the "
                        "project lists, and no other)")
    c.add_argument("--json", action="store_true", help="print the diagnostics and stale files as JSON")
    c.add_argument("--format", choices=("text", "json"), default="text", help=argparse.SUPPRESS)  # the old --json
    c.add_argument("--no-stale", action="store_true", help=argparse.SUPPRESS)
    _jobs_option(c)
    c.set_defaults(func=cmd_check)


def _register_play(sub) -> None:
    pl = sub.add_parser("play", help="adjudicate rounds or tables with a spec's engine")
    pl.add_argument("spec", help="the spec file of the game to play")
    pl.add_argument("--cards", help='cards in dealing order, e.g. "3S 2H 4D 2C 6H AS"')
    pl.add_argument("--bet", action="append", help="a bet, e.g. banker=100 (repeatable)")
    pl.add_argument("--room", help="check the stakes against this room's limits")
    pl.add_argument("--hand", help='one hand to evaluate, e.g. "JS QH BJ"')
    pl.add_argument("--table", help="one table as JSON (hands, stakes, coins[, banker])")
    pl.add_argument("--json", action="store_true", help="print the result as JSON")
    pl.add_argument("--jsonl", action="store_true", help="read requests as JSON Lines on stdin")
    pl.add_argument("--log", help="with --jsonl: also write each answered round as a JSON Lines round record")
    pl.add_argument("--max-line-bytes", type=_line_bytes, default=MAX_LINE_BYTES, metavar="N",
                    help=f"with --jsonl: the longest request line, in bytes (default {MAX_LINE_BYTES:,}); a longer "
                         "line is answered with an error")
    pl.add_argument("--replay", metavar="LOG", help="adjudicate a round log again and report every mismatch")
    pl.set_defaults(func=cmd_play)



def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    with terminal_streams():
        args = parser().parse_args(argv)
        return _run(args)


@contextlib.contextmanager
def terminal_streams():
    """stdout and stderr written through `diagnostics.terminal_text` while a command runs: no control,
    bidirectional or invisible character of a spec, a case, a file name or a request reaches the terminal
    raw (JSON output keeps its meaning: the escapes are JSON's own)."""
    from croupier.diagnostics import TerminalStream

    saved = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = TerminalStream(sys.stdout), TerminalStream(sys.stderr)
    try:
        yield
    finally:
        sys.stdout, sys.stderr = saved


def _run(args) -> int:
    try:
        return args.func(args)
    except SpecError as exc:  # an internal error found while emitting, shown as a diagnostic
        print(render_all(exc.diagnostics, exc.sources), file=sys.stderr)
        return 1
    except (ProjectError, UsageError) as exc:
        print(f"croupier: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:  # every file written so far is whole (see `outputs`); workers end with this process
        print("croupier: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


def run() -> int:
    """The `croupier` command (the console script)."""
    gc.freeze()  # what importing left alive (modules, classes) is never garbage: later collections skip it
    return main()


if __name__ == "__main__":
    raise SystemExit(run())
