"""`croupier help [TOPIC]`: the rules language reference that ships with the tool (croupier/docs/language.md).

Without a topic: the reference's introduction and the list of its topics. With one: every section whose
heading names it (`croupier help draw`, `croupier help "cut card"`), else every section that mentions it.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import croupier.docs

REFERENCE = Path(croupier.docs.__file__).resolve().parent / "language.md"


def sections() -> list[tuple[str, str]]:
    """(heading, text) of each `## ` section of the reference; the introduction's heading is ""."""
    text = REFERENCE.read_text(encoding="utf-8")
    parts = re.split(r"^## ", text, flags=re.M)
    return [("", parts[0])] + [(p.split("\n", 1)[0].strip(), "## " + p) for p in parts[1:]]


def topics() -> list[str]:
    """The topics `croupier help` takes: the headings of the reference's sections."""
    return [h for h, _ in sections() if h]


def register(subparsers) -> None:
    """Add the `help` sub-command."""
    h = subparsers.add_parser("help", help="show the rules language reference, or one topic of it")
    h.add_argument("topic", nargs="*", help="a statement or keyword, e.g. draw, bet, \"cut card\" (default: the "
                                            "list of topics)")
    h.set_defaults(func=cmd_help)


def cmd_help(args) -> int:
    found = sections()
    topic = " ".join(args.topic).strip().lower()
    if not topic:
        print(found[0][1].rstrip())
        print("\nTopics (croupier help TOPIC):\n  " + "\n  ".join(topics()))
        return 0
    named = [text for heading, text in found if heading and topic in heading.lower()]
    mentioned = [text for heading, text in found if heading and re.search(rf"\b{re.escape(topic)}\b", text.lower())]
    shown = named or mentioned
    if not shown:
        print(f"croupier: no topic `{topic}`; topics: {', '.join(topics())}", file=sys.stderr)
        return 2
    print("\n".join(t.rstrip() + "\n" for t in shown).rstrip())
    return 0
