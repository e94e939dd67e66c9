"""Write `standalone_parser.py`: the rules language's LALR parser as Lark's standalone generator makes it.

Building the parser from `croupier.lark` (Lark's meta-grammar, then the LALR analysis)
takes about 0.2 s, in every process that parses a spec. Lark's own standalone
generator (`python -m lark.tools.standalone`, here its `gen_standalone`) writes the
computed tables once, as Python data, together with the part of Lark that reads them;
`parser.parser()` loads it in a few milliseconds. This module writes it, with the
SHA-256 of the grammar text it was made from (`GRAMMAR_SHA256`, which the test suite
compares with the grammar's):

    python -m croupier.syntax.make_standalone

Run it after editing `croupier.lark`, and commit `standalone_parser.py`. (Lark numbers
the tables differently from one run to the next: the file changes whenever it is made.)
"""

from __future__ import annotations

import hashlib
import io
from pathlib import Path

GRAMMAR = Path(__file__).with_name("croupier.lark")
STANDALONE = Path(__file__).with_name("standalone_parser.py")
# how the tables are built (the indenter, `postlex`, is given when they are loaded)
OPTIONS = {"parser": "lalr", "lexer": "contextual", "propagate_positions": True, "maybe_placeholders": False}


def grammar_sha256() -> str:
    """The SHA-256 of the grammar text, as hex."""
    return hashlib.sha256(GRAMMAR.read_bytes()).hexdigest()


def standalone_text() -> str:
    """The text of `standalone_parser.py` for the grammar as it is now."""
    from lark import Lark
    from lark.tools.standalone import gen_standalone

    out = io.StringIO()
    gen_standalone(Lark.open(str(GRAMMAR), **OPTIONS), out=out)
    return out.getvalue() + f"GRAMMAR_SHA256 = {grammar_sha256()!r}  # of croupier.lark (make_standalone)\n"


def main() -> None:
    """Write `standalone_parser.py`."""
    STANDALONE.write_text(standalone_text(), encoding="utf-8")


if __name__ == "__main__":
    main()
