"""What the venue may see of a tournament: a round's seating names the players and clans at each table, so
that round's seating and its tables' games stay off every page (served or published) until the organiser
posts the round (`referee tournament post`). A Swiss tournament's round likewise, its pairing being what a
seating is there: `swiss pair` posts the round it pairs unless told to hold it (`--hold`, to check it or take
it back first). The one place that rule is written: `referee serve` and `referee tournament publish` both
ask it."""

from __future__ import annotations

from .model import Tournament
from .swiss_desk import SwissTournament


def posted_rounds(t: Tournament, posted: int) -> list[int]:
    """The seated rounds the venue sees, in order; ``posted``: the last round the organiser posted (0: none)."""
    return [r for r in sorted(t.seatings) if r <= posted]


def is_posted(t: Tournament, posted: int, round_no: int) -> bool:
    return round_no in t.seatings and round_no <= posted


def posted_games(t: Tournament, posted: int) -> list[str]:
    """The games of the posted rounds' tables, round by round and table by table."""
    return [tb.game for r in posted_rounds(t, posted) for tb in t.seatings[r].tables if tb.game]


def unposted_games(t: Tournament, posted: int) -> set[str]:
    """The games of the rounds seated but not posted: kept off the pages, their headers included."""
    return {tb.game for r, s in t.seatings.items() if r > posted for tb in s.tables if tb.game}


def swiss_shown(t: SwissTournament, posted: int, posts: int) -> list[int]:
    """The paired rounds of a Swiss tournament the venue sees, in order: those up to the last posted
    (``posted``); every one when no round was ever posted (``posts`` 0: a record from before rounds were
    posted, or one imported without the organiser's notices)."""
    return [r for r in sorted(t.rounds) if not posts or r <= posted]
