"""Croupier: a rules-as-data compiler for card games.

The stages, each in its own folder: syntax → semantics → checks → backends
(engine, cards, conformance) → tools → driver → cli.
"""

__version__ = "0.1.0"  # the version in pyproject.toml (tests/test_driver.py compares them)
