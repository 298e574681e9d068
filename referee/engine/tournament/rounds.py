"""Seating a round from the tournament's fold: who plays (roll call, standbys), the history, the algorithm, and
the round's tables as a ``RoundSeated`` event. Pure: the seed is handed in (the tournament log's chain head
when the round is seated), so no one can predict later seatings at registration."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import TypedDict

from .events import RoundSeated, SeatingAmended, TournamentError, table_game_id
from .model import Tournament
from .roster import Seat, Seating, Table
from .seating import ALGORITHM, VERSION, History, SeatingError, seat_players, seat_table, seating_cost, table_sizes


class SeatRow(TypedDict):
    player: str
    clan: str


class TableRow(TypedDict):
    """A table as a ``RoundSeated`` event holds it."""

    table: int
    game: str
    seats: list[SeatRow]


def seed_of(head_hash: str) -> int:
    return int(head_hash[:16], 16)


def seating_history(t: Tournament, before: int) -> History:
    tables = [
        [(s.player, s.clan) for s in tb.seats]
        for r, seating in sorted(t.seatings.items())
        if r < before
        for tb in seating.tables
    ]
    return History.of(tables, max(t.created.sizes))


def apart_groups(t: Tournament) -> list[list[str]]:
    """Players kept apart: each club (or family) registered, and each group named with `apart`."""
    clubs: dict[str, list[str]] = {}
    for p in t.players.values():
        if p.club:
            clubs.setdefault(p.club.casefold(), []).append(p.id)
    return [g for g in clubs.values() if len(g) > 1] + [list(a.players) for a in t.apart]


def who_plays(t: Tournament, round_no: int) -> tuple[list[str], list[str]]:
    """The players to seat and those sitting out. Present and late players play; standbys join, in the order
    they registered, while one more fills a short table without adding a table, or while the players present
    cannot be seated at all."""
    statuses = t.statuses(round_no)
    playing = [p for p, s in statuses.items() if s in ("present", "late")]
    standby = [p for p, s in statuses.items() if s == "standby"]
    largest = max(t.created.sizes)

    def seatable(n: int) -> bool:
        try:
            table_sizes(n, t.created.sizes, t.created.copies)
            return True
        except SeatingError:
            return False

    while standby:
        n = len(playing)
        fills_short = n % largest != 0 and -(-(n + 1) // largest) == -(-n // largest) and seatable(n + 1)
        if seatable(n) and not fills_short:
            break
        playing.append(standby.pop(0))
    return playing, standby


def preference_picks(
    players: Sequence[str], preferences: Mapping[str, Sequence[str]], ranking: Sequence[str], rng: random.Random
) -> dict[str, str]:
    """Clans by preference at one table: the lowest-ranked player chooses first, each taking the first clan of their
    list still free; players level in the ranking (or unranked) choose in an order drawn by ``rng``."""
    position = {p: i for i, p in enumerate(ranking)}
    order = list(players)
    rng.shuffle(order)
    order.sort(key=lambda p: -position.get(p, len(ranking)))
    picks: dict[str, str] = {}
    for p in order:
        choice = next((c for c in preferences.get(p, ()) if c not in picks.values()), None)
        if choice is not None:
            picks[p] = choice
    return picks


def plan_round(
    t: Tournament,
    round_no: int,
    seed: int,
    preferences: Mapping[str, Sequence[str]] | None = None,
    ranking: Sequence[str] = (),
) -> RoundSeated:
    """Seat a round. ``preferences``: player -> clans in order of preference (clans by preference, the lowest-ranked
    in ``ranking``, best first, choosing first); else clans are given automatically, with the fewest repeats."""
    if round_no in t.seatings:
        raise TournamentError(f"round {round_no} is already seated", hint="`referee tournament amend` changes a table")
    t._round(round_no)
    if round_no > 1 and round_no - 1 not in t.seatings:
        raise TournamentError(f"round {round_no}: round {round_no - 1} is not seated yet")
    playing, sat_out = who_plays(t, round_no)
    try:
        sizes = table_sizes(len(playing), t.created.sizes, t.created.copies)
    except SeatingError as exc:
        raise TournamentError(
            f"round {round_no}: {exc}", hint="mark players standby or absent in the roll call, or give more --copies"
        ) from None
    rng = random.Random(seed)
    h = seating_history(t, round_no)
    grouped = t.created.group_by_standings and round_no > 1
    if grouped and round_no - 1 not in t.closed:
        raise TournamentError(
            f"round {round_no}: this tournament groups by standings: close round {round_no - 1} first",
            hint=f"referee tournament close {t.id} {round_no - 1}",
        )
    groups = seat_players(
        playing,
        sizes,
        h,
        rng,
        apart=apart_groups(t),
        fixed=t.fixed,
        future=t.created.rounds - round_no,
        ranking=list(ranking) if grouped else None,
    )
    tables: list[TableRow] = []
    for i, players in enumerate(groups, 1):
        picks = preference_picks(players, preferences, ranking, rng) if preferences else None
        seats = seat_table(players, h, rng, fixed_clans=picks)
        tables.append(
            {
                "table": i,
                "game": table_game_id(t.id, round_no, i),
                "seats": [{"player": p, "clan": c} for p, c in seats],
            }
        )
    cost = seating_cost(
        [[(s["player"], s["clan"]) for s in tb["seats"]] for tb in tables], h, apart_groups(t), max(t.created.sizes)
    )
    algorithm = f"{ALGORITHM}-grouped" if grouped else ALGORITHM
    return RoundSeated(
        round_no, tables, algorithm, VERSION, cost, seed, sat_out, "preference" if preferences else "auto"
    )


def manual_round(t: Tournament, round_no: int, rows: Sequence[tuple[int, int, str, str]], seed: int) -> RoundSeated:
    """A round seated by hand from (table, seat, player, clan) rows: checked like an automatic seating."""
    if round_no in t.seatings:
        raise TournamentError(f"round {round_no} is already seated", hint="`referee tournament amend` changes a table")
    by_table: dict[int, list[tuple[int, str, str]]] = {}
    for table, seat, player, clan in rows:
        by_table.setdefault(table, []).append((seat, t.player(player).id, clan))
    tables: list[TableRow] = []
    for number in sorted(by_table):
        seats = sorted(by_table[number])
        if [s for s, _, _ in seats] != list(range(1, len(seats) + 1)):
            raise TournamentError(f"round {round_no}, table {number}: seats must be numbered 1 to {len(seats)}")
        tables.append(
            {
                "table": number,
                "game": table_game_id(t.id, round_no, number),
                "seats": [{"player": p, "clan": c} for _, p, c in seats],
            }
        )
    seated = {s["player"] for tb in tables for s in tb["seats"]}
    statuses = t.statuses(round_no)
    missing = [p for p, s in statuses.items() if s in ("present", "late") and p not in seated]
    if missing:
        raise TournamentError(f"round {round_no}: present but not seated: {', '.join(t.name(p) for p in missing)}")
    h = seating_history(t, round_no)
    cost = seating_cost(
        [[(s["player"], s["clan"]) for s in tb["seats"]] for tb in tables], h, apart_groups(t), max(t.created.sizes)
    )
    sat_out = [p for p, s in statuses.items() if s == "standby" and p not in seated]
    return RoundSeated(round_no, tables, "manual", 1, cost, seed, sat_out, "manual")


def recompute_cost(t: Tournament, round_no: int, tables: list[Table]) -> int:
    h = seating_history(t, round_no)
    return seating_cost(
        [[(s.player, s.clan) for s in tb.seats] for tb in tables], h, apart_groups(t), max(t.created.sizes)
    )


def plan_amendment(
    t: Tournament,
    round_no: int,
    kind: str,
    players: list[str],
    reason: str,
    seed: int,
    games_started: set[str],
    table_no: int | None = None,
) -> SeatingAmended:
    """A seat amendment: swap two players, replace a seated player by one not seated, or re-seat one table (seat
    order and clans drawn again). An amended table gets a new game; a table whose game has begun cannot change."""
    seating = t.seatings.get(round_no)
    if seating is None:
        raise TournamentError(f"round {round_no} is not seated: nothing to amend")
    if not reason.strip():
        raise TournamentError(f"round {round_no}: an amendment needs a reason (--reason)")
    ids = [t.player(p).id for p in players]
    if kind == "swap":
        changed = _swap(t, seating, round_no, *ids)
    elif kind == "replace":
        changed = _replace(t, seating, round_no, *ids)
    elif kind == "reseat":
        changed = _reseat(t, seating, round_no, table_no, seed)
    else:
        raise TournamentError(f"unknown amendment {kind!r}")
    _new_games(t, seating, round_no, changed, games_started)
    tables = [changed.get(tb.number, tb) for tb in seating.tables]
    return SeatingAmended(
        round_no,
        kind,
        ids,
        reason.strip(),
        [tb.to_dict() for tb in changed.values()],
        recompute_cost(t, round_no, tables),
    )


def _copy(tb: Table) -> Table:
    return Table(tb.number, tb.game, [Seat(s.player, s.clan) for s in tb.seats])


def _swap(t: Tournament, seating: Seating, round_no: int, a: str, b: str) -> dict[int, Table]:
    """Two seated players swap seats (at one table or two): the tables changed, by number."""
    ta, tb = seating.table_of(a), seating.table_of(b)
    for pid, tab in ((a, ta), (b, tb)):
        if tab is None:
            raise TournamentError(f"round {round_no}: {t.name(pid)} is not seated; use --replace")
    assert ta is not None and tb is not None, "the loop above refuses a player who is not seated"
    changed = {ta.number: _copy(ta)}
    changed.setdefault(tb.number, _copy(tb))
    sa = next(s for s in changed[ta.number].seats if s.player == a)
    sb = next(s for s in changed[tb.number].seats if s.player == b)
    sa.player, sb.player = b, a
    return changed


def _replace(t: Tournament, seating: Seating, round_no: int, a: str, b: str) -> dict[int, Table]:
    """``b``, not seated, takes ``a``'s seat: the table changed, by number."""
    ta = seating.table_of(a)
    if ta is None:
        raise TournamentError(f"round {round_no}: {t.name(a)} is not seated: nobody to replace")
    if seating.table_of(b) is not None:
        raise TournamentError(f"round {round_no}: {t.name(b)} is already seated; use --swap")
    if t.players[b].dropped:
        raise TournamentError(f"round {round_no}: {t.name(b)} has dropped")
    ca = _copy(ta)
    next(s for s in ca.seats if s.player == a).player = b
    return {ca.number: ca}


def _reseat(t: Tournament, seating: Seating, round_no: int, table_no: int | None, seed: int) -> dict[int, Table]:
    """One table's seat order and clans drawn again: the table changed, by number."""
    tb = seating.table(table_no or 0)
    if tb is None:
        raise TournamentError(f"round {round_no}: no table {table_no}")
    seats = seat_table(tb.players, seating_history(t, round_no), random.Random(seed))
    return {tb.number: Table(tb.number, tb.game, [Seat(p, c) for p, c in seats])}


def _new_games(t: Tournament, seating: Seating, round_no: int, changed: dict[int, Table], started: set[str]) -> None:
    """Each changed table's new game (its k-th amendment: ``-a<k>``); refused for a table whose game has begun."""
    for number, tb in changed.items():
        old = seating.table(number)
        assert old is not None, "every changed table is a table of this seating"
        if old.game in started:
            raise TournamentError(
                f"round {round_no}, table {number}: its game {old.game} has begun; a judge enters "
                "the result instead (`referee tournament result`)"
            )
        tb.game = table_game_id(
            t.id, round_no, number, 1 + sum(1 for a in seating.amendments for x in a.tables if x["table"] == number)
        )
