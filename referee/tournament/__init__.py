"""Tournaments: the pure part (standard library and ``referee.engine`` only; no I/O, no clock, no randomness
other than a ``random.Random(seed)`` instance handed in).

    model     the tournament's events (frozen dataclasses) and the fold over them
    seating   table sizes, the seating cost, the seating algorithm, clans and seat positions
    scoring   the scoring systems: small pure functions of a table's size and honors (exact fractions)
    standings results per table, standings and tie-breaks, with their explanation
    views     the read side: plain data for each view (standings, seating, table status, a player's page)
    exports   CSV and JSON rows, the printable seating sheet
    swiss     one-against-one Swiss rounds (the card game): pairing, results, standings, the cut
"""
