"""Croupier: a rules-as-data compiler for card games.

The stages, each in its own folder: syntax → semantics → checks → backends
(engine, cards, conformance) → tools → driver → cli.
"""
