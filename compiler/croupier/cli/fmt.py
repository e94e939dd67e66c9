"""`croupier fmt [SPEC…] [--check]`: lay specs out canonically (see `croupier.syntax.formatter`).

A SPEC is a `.rules` file or a folder (every `.rules` file in it, sorted); without
one, every spec of the project of the current folder. Files are rewritten
atomically and only when their layout changes, as the user left them: a symbolic link is
written through (the file it names is formatted, the link kept), the file keeps its mode, and
a read-only file or one with several hard links (a rewrite would break them) is refused. `--check` writes nothing and exits
1 when a spec is not in its canonical layout (for CI). A spec with syntax errors
gets its diagnostics and is left alone (exit 1).
"""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path


def register(subparsers) -> None:
    """Add the `fmt` sub-command."""
    f = subparsers.add_parser("fmt", help="lay specs out canonically (statement order, names and comments kept)")
    f.add_argument("specs", nargs="*", help="spec files or folders (default: every spec of the project)")
    f.add_argument("--check", action="store_true", help="write nothing; exit 1 when a spec is not laid out")
    f.set_defaults(func=cmd_fmt)


def spec_files(args_specs: list[str]) -> list[Path]:
    """The spec files named (folders expanded), or every spec of the current folder's project."""
    if not args_specs:
        from croupier.cli.main import _select

        return _select([])[1]
    out: list[Path] = []
    for name in args_specs:
        path = Path(name)
        out.extend(sorted(path.glob("*.rules")) if path.is_dir() else [path])
    return out


def writable_spec(path: Path) -> tuple[Path, str | None]:
    """(the file to write for the spec `path`: the one a symbolic link names, why it may not be rewritten
    or None)."""
    target = Path(os.path.realpath(path))
    try:
        st = os.stat(target)
    except OSError as exc:
        return target, f"cannot be read ({exc.strerror or exc})"
    if not stat.S_ISREG(st.st_mode):
        return target, "is not a regular file"
    if not st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH):
        return target, "is read-only (chmod u+w to let fmt rewrite it)"
    if st.st_nlink > 1:
        return target, f"has {st.st_nlink} hard links, which a rewrite would break"
    return target, None


def cmd_fmt(args) -> int:
    from croupier.diagnostics import render_all
    from croupier.outputs import OutputError, write_if_changed
    from croupier.syntax.concrete import normalised
    from croupier.syntax.formatter import FormatError, format_text
    from croupier.syntax.parser import read_spec

    status = 0
    changed = 0
    files = spec_files(args.specs)
    for path in files:
        shown = str(path)
        text, problem = read_spec(shown)
        if problem is not None:
            print(render_all([problem], {}), file=sys.stderr)
            status = 1
            continue
        try:
            result, diags = format_text(text, shown)
        except FormatError as exc:
            print(f"croupier: internal error: {exc}", file=sys.stderr)
            status = 1
            continue
        if result is None:
            print(render_all(diags, {shown: text}), file=sys.stderr)
            status = 1
            continue
        if result == normalised(text) and not text.startswith("\ufeff"):
            continue
        changed += 1
        if args.check:
            print(f"would reformat {shown}", file=sys.stderr)
            status = 1
            continue
        target, refused = writable_spec(path)
        if refused:
            print(f"croupier: {shown}: {refused}; left as it is", file=sys.stderr)
            status = 1
            continue
        try:
            write_if_changed(target, result.encode("utf-8"), mode=stat.S_IMODE(os.stat(target).st_mode))
        except OSError as exc:
            print(f"croupier: cannot write {target}: {exc.strerror or exc}", file=sys.stderr)
            status = 1
            continue
        except OutputError as exc:
            print(f"croupier: {exc}", file=sys.stderr)
            status = 1
            continue
        print(f"reformatted {shown}")
    verb = "would reformat" if args.check else "reformatted"
    print(f"croupier: {len(files)} spec(s), {changed} {verb}", file=sys.stderr)
    return status
