"""Tournaments over the games: the tournament's and the Swiss tournament's streams, their tables' games,
and the venue's notices."""
