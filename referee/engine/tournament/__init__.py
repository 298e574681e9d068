"""Tournaments: the pure part (standard library, the core and ``referee.engine.battle`` only; no I/O, no clock, no
randomness other than a ``random.Random(seed)`` instance handed in).

    events    the tournament's events (frozen dataclasses), the ids they carry, the check of its creation
    roster    players, tables and seatings, and the fold of the roster and the seatings
    model     the fold of the results (``Tournament``, extending the roster's)
    seating   table sizes, the seating cost, the seating algorithm, clans and seat positions
    scoring   the scoring systems: small pure functions of a table's size and honors (exact fractions)
    rounds    a round seated from the fold (roll call, history, algorithm), an amendment planned
    standings results per table, standings and tie-breaks
    imports   the CSV files read (players, a seating by hand, clan preferences)
    posting   which rounds the venue's pages show
    swiss     one-against-one Swiss rounds (the card game): pairing, results, standings, the cut
    swiss_desk  a Swiss tournament's events and the fold over them

Shown (every view's plain data and the pages, the terminal's listings, the CSV exports): ``referee.views.tournament``,
``referee.views.tournament_listings`` and ``referee.views.tournament_exports``.
"""
