"""Tournaments: seating, scoring and standings, Swiss pairing with a cut, their event streams and commands."""
