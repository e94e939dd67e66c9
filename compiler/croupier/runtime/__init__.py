"""The engine runtime: the library every generated engine and analysis companion runs on.

Standard library only, and a library like any other: each module imports on its own and is
tested as a module. A game reaches it as data (its decks, values, hands, deal order, rooms,
shoe procedure…, given to `DealtRound` or `SeatGame`) and as the functions generated from its
rules (events, draw decisions, the outcome, the bets, the fast path `deal_at`…). The build
writes these modules once, whole, as `generated/engines/croupier_runtime.py`
(`croupier.backends.engine.runtime_bundle`), which each generated module imports from beside
itself; modules import each other only as `from croupier.runtime.<module> import …`, and no
name is defined in two of them, so that the one file is their concatenation.
"""
