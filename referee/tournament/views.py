"""The read side: one function per view, each returning plain data (dicts and lists of JSON values) that the
command line's ``--json`` prints and the venue pages render. Each takes a ``Loaded`` tournament
(``referee.log.tournaments.load(store, tid)``).

    standings_view(loaded)               the standings, one row per player, with the tournament's settings
    seating_by_table(loaded, round)      each table: number, game, seats in order (player, name, clan)
    seating_by_player(loaded, round)     each player (by name): table, seat, clan, game; or sitting out
    table_status(loaded, round)          each table: game, round of play, finished/called/judged, objectives left
    player_page(loaded, player)          one player: registration, each round's table and result, rank
    players_view(loaded)                 every registered player with status
"""

from __future__ import annotations

from typing import Any

from .model import TournamentError
from .standings import Loaded, Standings, explain, standings, table_result


def _seating(loaded: Loaded, round_no: int):
    t = loaded.tournament
    seating = t.seatings.get(round_no)
    if seating is None:
        raise TournamentError(
            f"round {round_no} of tournament {t.id!r} is not seated", hint=f"referee tournament seat {t.id} {round_no}"
        )
    return seating


def standings_view(loaded: Loaded) -> dict[str, Any]:
    return standings(loaded).to_dict()


def points_race(loaded: Loaded, top: int = 16, counted: Standings | None = None) -> dict[str, Any]:
    """The ``top`` leading players' points after each round, as the standings count them: the games up to that
    round through the tournament's aggregate (sum, best N, average) plus the adjustments given up to it (one of
    no round from the first); after the last round, every adjustment: the last point is the standings' total."""
    from fractions import Fraction

    from .scoring import aggregate, show

    st = counted or standings(loaded)  # ``counted``: the standings, when the caller has them already
    t = loaded.tournament
    info = t.created
    players = []
    for row in st.rows[:top]:
        points = []
        for n in st.rounds:
            total, _ = aggregate([(g.round, g.points) for g in row.games if g.round <= n], info.aggregate, info.best)
            last = n == st.rounds[-1]
            total += sum(
                (Fraction(a.points) for a in t.adjustments if a.player == row.player and (last or a.round <= n)),
                Fraction(0),
            )
            points.append(total)
        players.append(
            {
                "player": row.player,
                "name": row.name,
                "rank": row.rank,
                "points": [float(p) for p in points],
                "shown": [show(p) for p in points],
            }
        )
    return {"tournament": t.id, "name": st.name, "rounds": list(st.rounds), "players": players}


def explain_view(loaded: Loaded, player: str) -> dict[str, Any]:
    t = loaded.tournament
    return explain(standings(loaded), t.player(player).id)


def seating_by_table(loaded: Loaded, round_no: int) -> list[dict[str, Any]]:
    t = loaded.tournament
    seating = _seating(loaded, round_no)
    return [
        {
            "round": round_no,
            "table": tb.number,
            "game": tb.game,
            "seats": [
                {"seat": i + 1, "player": s.player, "name": t.name(s.player), "clan": s.clan}
                for i, s in enumerate(tb.seats)
            ],
        }
        for tb in sorted(seating.tables, key=lambda tb: tb.number)
    ]


def seating_by_player(loaded: Loaded, round_no: int) -> list[dict[str, Any]]:
    t = loaded.tournament
    seating = _seating(loaded, round_no)
    out = []
    for tb in seating.tables:
        for i, s in enumerate(tb.seats):
            out.append(
                {
                    "round": round_no,
                    "player": s.player,
                    "name": t.name(s.player),
                    "table": tb.number,
                    "seat": i + 1,
                    "clan": s.clan,
                    "game": tb.game,
                }
            )
    for pid in seating.sat_out:
        out.append(
            {
                "round": round_no,
                "player": pid,
                "name": t.name(pid),
                "table": None,
                "seat": None,
                "clan": None,
                "game": None,
            }
        )
    return sorted(out, key=lambda r: (r["name"].casefold(), r["player"]))


def table_status(loaded: Loaded, round_no: int) -> list[dict[str, Any]]:
    t = loaded.tournament
    seating = _seating(loaded, round_no)
    out = []
    for tb in sorted(seating.tables, key=lambda tb: tb.number):
        live = loaded.live.get(tb.game)
        res = table_result(loaded, round_no, tb)
        if res is not None and res.source == "judge":
            state = "entered by the judge"
        elif res is not None and res.source == "called":
            state = "called"
        elif live is None:
            state = "no game"
        elif live.finished:
            state = "finished"
        else:
            state = "playing"
        out.append(
            {
                "round": round_no,
                "table": tb.number,
                "game": tb.game,
                "players": [t.name(p) for p in tb.players],
                "round_of_play": min(live.rounds_played + 1, 5)
                if live and not live.finished
                else (live.rounds_played if live else 0),
                "rounds_played": live.rounds_played if live else 0,
                "state": state,
                "sealed_objectives_left": live.sealed_left if live else 0,
                "result": res is not None,
                "provisional": bool(res and res.provisional),
                "corrected": bool(res and res.corrected),
                "event": res.event if res else 0,  # the result's version: what a judge's entry --replaces
            }
        )
    return out


def player_page(loaded: Loaded, player: str) -> dict[str, Any]:
    t = loaded.tournament
    p = t.player(player)
    st = standings(loaded)
    row = st.row(p.id)
    rounds = []
    for r, seating in sorted(t.seatings.items()):
        tb = seating.table_of(p.id)
        game = next((g for g in row.games if g.round == r), None)
        rounds.append(
            {
                "round": r,
                "table": tb.number if tb else None,
                "game": tb.game if tb else None,
                "clan": next((s.clan for s in tb.seats if s.player == p.id), None) if tb else None,
                "opponents": [t.name(o) for o in tb.players if o != p.id] if tb else [],
                "shown": row.cells.get(r, ""),
                "result": game.to_dict() if game else None,
            }
        )
    return {
        "player": p.id,
        "name": p.name,
        "club": p.club,
        "dropped": p.dropped,
        "since_round": p.since_round,
        "rank": row.rank,
        "shared": row.shared,
        "total_shown": row.to_dict()["total_shown"],
        "rounds": rounds,
        "explain": explain(st, p.id),
    }


def players_view(loaded: Loaded) -> list[dict[str, Any]]:
    t = loaded.tournament
    return [
        {
            "player": p.id,
            "name": p.name,
            "club": p.club,
            "since_round": p.since_round,
            "status": "dropped" if p.dropped else "active",
            "fixed_table": t.fixed.get(p.id),
        }
        for p in sorted(t.players.values(), key=lambda p: (p.name.casefold(), p.id))
    ]
