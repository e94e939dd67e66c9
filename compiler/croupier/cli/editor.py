"""`croupier lsp` (the language server, over standard input and output) and `croupier serve SPEC` (a live page).

Both live in `croupier.editor`; pygls, which the language server needs, is the optional extra
`croupier[lsp]`: without it, `croupier lsp` says how to install it.
"""

from __future__ import annotations

import sys
from pathlib import Path


def register(subparsers) -> None:
    """Add the `lsp` and `serve` sub-commands."""
    p = subparsers.add_parser("lsp", help="the language server for editors (standard input and output)")
    p.add_argument("--stdio", action="store_true", help="talk over standard input and output (the default)")
    p.set_defaults(func=cmd_lsp)
    s = subparsers.add_parser("serve", help="a local page with a spec's card, house edges and diff, live")
    s.add_argument("spec", help="the spec file to show")
    s.add_argument("--port", type=int, default=8765, help="the port on 127.0.0.1 (0: any free port; default 8765)")
    s.set_defaults(func=cmd_serve)


def cmd_lsp(args) -> int:
    try:
        from croupier.editor.server import serve_stdio
    except ImportError as exc:
        print(f"croupier: the language server needs pygls ({exc}): pip install 'croupier[lsp]'", file=sys.stderr)
        return 2
    serve_stdio()
    return 0


def cmd_serve(args) -> int:
    from croupier.editor.live import serve

    path = Path(args.spec)
    if not path.is_file():
        print(f"croupier: {path}: no such spec file", file=sys.stderr)
        return 2
    try:
        serve(path, args.port)
    except OSError as exc:
        print(f"croupier: cannot serve on 127.0.0.1:{args.port}: {exc}", file=sys.stderr)
        return 1
    return 0
