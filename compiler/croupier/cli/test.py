"""`croupier test [SPEC …]`: the reference cases of tests/cases/ against the engines, without pytest.

Each spec is compiled to its engine (from the cache when it is there), each case that applies to
it is answered by the engine and compared as the generated conformance tests compare (only the
keys a case writes; numbers exactly). Prints one line per failing case and a summary; exits 1
when a case fails or a spec does not compile.
"""

from __future__ import annotations

import json
import sys


def register(subparsers) -> None:
    """Add the `test` sub-command."""
    t = subparsers.add_parser("test", help="run the reference cases against the engines (no pytest needed)")
    t.add_argument("specs", nargs="*", help="spec files (default: every spec of the project's spec folder)")
    t.add_argument("--json", action="store_true", help="print every case's result as JSON")
    t.set_defaults(func=cmd_test)


def cmd_test(args) -> int:
    from croupier.cli.main import UsageError, _select, compiled_or_exit
    from croupier.semantics.cases import cases_for
    from croupier.tools.reference_cases import run_case

    project, specs, _full = _select(args.specs)
    if project is None:
        raise UsageError(f"{specs[0]} is in no Croupier project: its reference cases are found through croupier.toml")
    results, failed, problems = [], 0, []
    for spec in specs:
        compiled = compiled_or_exit(str(spec))
        cases, diags = cases_for(compiled.facts["name"], project.cases_dir)
        problems += [f"{d.span.file}:{d.span.line}:{d.span.column}: {d.message}" for d in diags]
        for case in cases:
            found = run_case(compiled.engine, case)
            failed += bool(found)
            results.append({"spec": project.display(spec), "case": case.id, "file": case.file, "ok": not found,
                            "mismatches": found})
    problems = list(dict.fromkeys(problems))
    if args.json:
        print(json.dumps({"cases": results, "problems": problems, "ok": not (failed or problems)},
                         ensure_ascii=False, indent=2))
    else:
        for p in problems:
            print(f"croupier: {p}", file=sys.stderr)
        for r in results:
            if not r["ok"]:
                print(f"FAIL {r['spec']}: case {r['case']} ({r['file']})")
                print("\n".join(f"  {m}" for m in r["mismatches"]))
        print(f"croupier: {len(results) - failed} of {len(results)} reference case(s) pass "
              f"({len(specs)} spec(s))")
    return 1 if failed or problems else 0
