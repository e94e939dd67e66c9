"""Exact analysis of games (PAR sheets)."""
