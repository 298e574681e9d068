"""The seating service: a round seated (planned from the players' clan preferences and, when the tournament
groups by them, the standings; or by hand from a CSV's rows), recorded on the tournament's stream, and each
table's game created with its clans and players; and the seats' phone-entry links issued for a seated round."""

from __future__ import annotations

from typing import Any

from ..engine.tournament.events import RoundSeated
from ..store.events import LogError
from ..store.storage import Store
from .service import OpenTournament, create_games, load


def seat_round(
    store: Store,
    log: OpenTournament,
    round_no: int,
    *,
    by_hand: tuple[str, str] | None = None,
    preferences: tuple[str, str] | None = None,
) -> RoundSeated:
    """Seat round ``round_no`` of the open tournament: recorded, and each table's game created. ``by_hand``: a
    CSV's text ``table,seat,player,clan`` and where it came from; ``preferences``: a CSV's text ``player,clans``
    (clans in order, separated by ';') and where it came from."""
    event = plan(store, log, round_no, by_hand, preferences)
    log.record([event])
    create_games(store, log.t, list(log.t.seatings[round_no].tables))
    return event


def plan(
    store: Store,
    log: OpenTournament,
    round_no: int,
    by_hand: tuple[str, str] | None = None,
    preferences: tuple[str, str] | None = None,
) -> RoundSeated:
    """The seating of a round, not recorded: by hand from a CSV's text, or planned (with the players' clan
    preferences, and the standings when the tournament groups by them or the preferences rank the players)."""
    from ..engine.tournament.rounds import manual_round, plan_round, seed_of

    seed = seed_of(log.head)
    if by_hand is not None:
        from ..engine.tournament.imports import seating_csv_rows

        return manual_round(log.t, round_no, seating_csv_rows(*by_hand), seed)
    from ..engine.tournament.imports import preferences_csv
    from ..engine.tournament.standings import standings

    wishes = preferences_csv(log.t, *preferences) if preferences is not None else None
    needed = log.t.seatings and (wishes or log.t.created.group_by_standings)
    ranking = [r.player for r in standings(load(store, log.tid, log.t)).rows] if needed else []
    return plan_round(log.t, round_no, seed, wishes, ranking)


def issue_links(store: Store, t: Any, round_no: int, base: str) -> dict[str, Any]:
    """Every seat's phone-entry link of a seated round, for the address ``base`` (as `referee links` issues a
    table's: the old links revoked): the links by game, the games refused (over) with why, how many revoked."""
    from ..games.battle import entry as en

    links: dict[str, dict[str, str]] = {}
    refused: dict[str, str] = {}
    revoked = 0
    for tb in t.seatings[round_no].tables:
        try:
            got = en.issue_table_links(store, tb.game, base)
        except (LogError, en.EntryRefused) as exc:  # the game is over: the sheet says so under its table
            refused[tb.game] = str(exc)
            continue
        links[tb.game], revoked = got.urls, revoked + got.revoked
    return {"base": base, "links": links, "refused": refused, "revoked": revoked}
