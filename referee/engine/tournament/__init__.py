"""Tournaments: the pure part (standard library and ``referee.engine.battle`` only; no I/O, no clock, no randomness
other than a ``random.Random(seed)`` instance handed in).

    model     the tournament's events (frozen dataclasses) and the fold over them
    seating   table sizes, the seating cost, the seating algorithm, clans and seat positions
    scoring   the scoring systems: small pure functions of a table's size and honors (exact fractions)
    rounds    a round seated from the fold (roll call, history, algorithm), an amendment planned
    standings results per table, standings and tie-breaks
    imports   the CSV files read (players, a seating by hand, clan preferences)
    posting   which rounds the venue's pages show
    swiss     one-against-one Swiss rounds (the card game): pairing, results, standings, the cut
    swiss_desk  a Swiss tournament's events and the fold over them

Shown (every view's plain data, the terminal's listings, the pages, the CSV exports): ``referee.views.tournament``
and ``referee.views.tournament_exports``.
"""
