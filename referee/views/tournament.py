"""A tournament shown, in one place: every view as plain data (what `referee tournament ... --json` prints,
the venue pages and the JSON API render), the rows of the terminal's tables and the lines printed around them,
and the venue's pages with the projector's paging. Each view takes a ``Loaded`` tournament
(``referee.games.battle.tournaments.load(store, tid)``); the pages also take the organiser's venue notices, and show a
round's seating only once the organiser has posted it. (The CSV files and the printable seating sheet:
``tournament_exports.py``.)

    standings_view(loaded)               the standings, one row per player, with the tournament's settings
    explain_view(loaded, player)         one player's games, points and tie-breaks, with the settings
    seating_by_table(loaded, round)      each table: number, game, seats in order (player, name, clan)
    seating_by_player(loaded, round)     each player (by name): table, seat, clan, game; or sitting out
    table_status(loaded, round)          each table: game, round of play, finished/called/judged, objectives left
    player_view(loaded, player)          one player: registration, each round's table and result, rank
    players_view(loaded)                 every registered player with status
    points_race(loaded)                  the leaders' points after each round
    tournament_page, seating_page, player_page   the venue's pages (posted rounds only)
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ..engine.tournament import posting
from ..engine.tournament.events import TournamentError
from ..engine.tournament.scoring import show
from ..engine.tournament.standings import Loaded, Standings, standings, table_result


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

    from ..engine.tournament.scoring import aggregate

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
    return explanation(standings(loaded), t.player(player).id)


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
                "sealed_objectives_left": live.sealed_count if live else 0,
                "result": res is not None,
                "provisional": bool(res and res.provisional),
                "corrected": bool(res and res.corrected),
                "event": res.event if res else 0,  # the result's version: what a judge's entry --replaces
            }
        )
    return out


def player_view(loaded: Loaded, player: str) -> dict[str, Any]:
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
        "explain": explanation(st, p.id),
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


def explanation(st: Standings, player: str) -> dict[str, Any]:
    """One player's line of the standings explained: every game, the adjustments, the total, each tie-break."""
    row = st.row(player)
    return {
        "player": row.player,
        "name": row.name,
        "rank": row.rank,
        "shared": row.shared,
        "games": [g.to_dict() for g in row.games],
        "adjustment": str(row.adjustment),
        "adjustment_shown": show(row.adjustment),
        "total": str(row.total),
        "total_shown": show(row.total),
        "tiebreaks": {k: (row.h2h if k == "h2h" else str(row.key(k))) for k in st.tiebreaks},
        "tiebreaks_shown": {
            k: (
                str(row.h2h)
                if k == "h2h" and row.h2h is not None
                else "not used"
                if k == "h2h"
                else str(row.key(k))
                if k == "honor"
                else show(row.key(k))
            )
            for k in st.tiebreaks
        },
        "settings": st.settings,
    }


# --- the venue's pages ------------------------------------------------------------------------------------
SHORT = {"honor": "honor", "wins": "wins", "aop": "opp. pts", "h2h": "h2h"}


# where a table's result came from, when not its game log: the label every page shows beside it
SOURCE_LABEL = {"called": "called", "judge": "judge's entry"}


STATE_SOURCE = {"called": "called", "entered by the judge": "judge"}


def _cell(row: dict, key: str) -> str:
    return {
        "honor": lambda: str(row["honor"]),
        "wins": lambda: row["wins_shown"],
        "aop": lambda: row["aop_shown"],
        "h2h": lambda: "" if row["h2h"] is None else str(row["h2h"]),
    }[key]()


def clock_view(clock: str, now: datetime | None = None) -> dict | None:
    """The round clock: when the round ends and the minutes left (None: no clock set)."""
    if not clock:
        return None
    ends = datetime.fromisoformat(clock)
    now = now or datetime.now(UTC)
    left = int((ends - now).total_seconds() // 60)
    return {"ends": ends.astimezone().strftime("%H:%M"), "left": max(left, 0), "over": left < 0, "iso": clock}


def _round_cells(row: dict, rounds: list[int]) -> list[dict]:
    """Each round's cell of a standings row: what it shows, and where a result came from when a judge
    entered it or the game was called (labelled on every page)."""
    source = {g["round"]: g["source"] for g in row["games"]}
    return [{"text": row["rounds"].get(str(n), ""), "source": SOURCE_LABEL.get(source.get(n, ""), "")} for n in rounds]


def tournament_page(loaded, venue) -> dict[str, Any]:
    t = loaded.tournament
    counted = standings(loaded)
    st = counted.to_dict()
    keys = [k for k in st["tiebreaks"] if k != "points"]
    rows = [
        {**r, "tiebreaks": [_cell(r, k) for k in keys], "cells": _round_cells(r, st["rounds"])} for r in st["standings"]
    ]
    posted = posting.posted_rounds(loaded.tournament, venue.posted)
    current = posted[-1] if posted else None
    return {
        "id": t.id,
        "name": t.info.name,
        "date": t.info.date,
        "planned": t.info.rounds,
        "rounds": st["rounds"],
        "tiebreaks": [SHORT.get(k, k) for k in keys],
        "rows": rows,
        "settings": st["settings"],
        "clans": st["clans"],
        "closed": sorted(t.closed),
        "posted": posted,
        "current": current,
        "hidden": [r for r in sorted(t.seatings) if r not in posted],
        "status": table_status(loaded, current) if current else [],
        "clock": clock_view(venue.clock),
        "announcements": [text for _, text in venue.announcements],
        "provisional": any("*" in c["text"] for r in rows for c in r["cells"]),
        **_points_race(loaded, counted),
        "signed": loaded.signed,
    }


def _points_race(loaded, counted) -> dict[str, Any]:
    from .charts import points_race_svg

    race = points_race(loaded, counted=counted)
    return {"race": race, "race_svg": points_race_svg(race) if race["players"] and race["rounds"] else ""}


def seating_page(loaded, venue, round_no: int, query: str = "") -> dict[str, Any]:
    by_player = seating_by_player(loaded, round_no)
    q = query.strip().casefold()
    found = [p for p in by_player if q in p["name"].casefold()] if q else by_player
    state = {x["table"]: x["state"] for x in table_status(loaded, round_no)}
    tables = [
        {**tb, "source": SOURCE_LABEL.get(STATE_SOURCE.get(state.get(tb["table"], ""), ""), "")}
        for tb in seating_by_table(loaded, round_no)
    ]
    return {
        "round": round_no,
        "tables": tables,
        "players": found,
        "query": query,
        "matches": len(found),
    }


SEAT_QR = "Scan to enter your clan's tokens on your phone"


def links_sheet(loaded, round_no: int, issued: dict[str, Any] | None = None) -> dict[str, Any]:
    """The printed seating of a round by table, one slip a seat, cut apart. With ``issued`` (``base``: the address
    the phones reach; ``links``: game -> clan -> link, shown this once; ``refused``: game -> why none was issued;
    ``revoked``: the live links these replace), each seat's slip carries its own phone-entry link and QR code
    alone, and the table's moderator has a slip of their own: the table's page's link and how the round is
    confirmed."""
    from .qr import qr_svg

    t = loaded.tournament
    links = (issued or {}).get("links", {})
    refused = (issued or {}).get("refused", {})
    tables = []
    for tb in seating_by_table(loaded, round_no):
        urls = links.get(tb["game"], {})
        seats = [{**s, "url": urls.get(s["clan"], "")} for s in tb["seats"]]
        seats = [{**s, "qr": qr_svg(s["url"], SEAT_QR) if s["url"] else ""} for s in seats]
        moderator = urls.get("moderator", "")
        tables.append(
            {
                **tb,
                "seats": seats,
                "refused": refused.get(tb["game"], ""),
                "moderator": moderator,
                "moderator_qr": qr_svg(moderator, "Scan to open the table's page: each seat's state, confirm the round")
                if moderator
                else "",
            }
        )
    return {
        "id": t.id,
        "name": t.info.name,
        "round": round_no,
        "tables": tables,
        "issued": issued is not None,
        "base": (issued or {}).get("base", ""),
        "revoked": (issued or {}).get("revoked", 0),
        "at": datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "signed": loaded.signed,
    }


def player_page(loaded, venue, player: str) -> dict[str, Any]:
    page = player_view(loaded, player)
    posted = set(posting.posted_rounds(loaded.tournament, venue.posted))
    page["rounds"] = [r for r in page["rounds"] if r["round"] in posted]  # an unposted seating stays hidden
    for r in page["rounds"]:
        r["source"] = SOURCE_LABEL.get((r["result"] or {}).get("source", ""), "")
    return page


def visible(loaded, venue, round_no: int) -> bool:
    return posting.is_posted(loaded.tournament, venue.posted, round_no)


def game_table(t, posted: int, game: str) -> dict[str, Any] | None:
    """The tournament table a game is played at (its seating posted), and where its result came from when not
    its log (a judge's entry first, then a called game, as the standings take them): for the game's page."""
    found = t.table_of_game(game)
    if found is None or not 0 < found[0] <= posted:
        return None
    r, tb = found
    entered, called = t.entered.get((r, tb.number)), t.called.get(game)
    source, reason = ("judge", entered.reason) if entered else ("called", called.reason) if called else ("", "")
    return {
        "tournament": t.id,
        "name": t.info.name,
        "round": r,
        "table": tb.number,
        "source": SOURCE_LABEL.get(source, ""),
        "reason": reason,
        "after_round": called.after_round if called and not entered else None,
    }


# --- the projector: every view paged to fill a 16:9 screen -----------------------------------------------
STANDINGS_ROWS = 16  # the most standings rows on a screen: type about 1/30 of its height (readable from 8 m)


SEATING_CARDS = 12  # the most seating cards on a screen (4 x 3)


GRID_BOARDS = 8  # the most boards on a screen (4 x 2)


BOARD_ASPECT = 0.62  # a board picture's width over its height, without the cards


def pages(count: int, most: int) -> list[tuple[int, int]]:
    """``count`` items on screens of at most ``most``, balanced (200 rows by 18: 12 screens of 16 or 17, not
    11 full and one of 2): each screen's (first, end)."""
    n = max(1, -(-count // most))
    size, extra = divmod(count, n)
    out, first = [], 0
    for i in range(n):
        end = first + size + (1 if i < extra else 0)
        out.append((first, end))
        first = end
    return out


def grid_shape(count: int, aspect: float, screen: float = 16 / 9 * 0.9) -> tuple[int, int]:
    """Columns and rows for ``count`` pictures of width/height ``aspect`` on a screen area of width/height
    ``screen``: the shape that draws them largest."""
    best = (0.0, 1, 1)
    for cols in range(1, max(count, 1) + 1):
        rows = -(-max(count, 1) // cols)
        scale = min(screen / cols / aspect, 1 / rows)  # a picture's height, as a share of the screen's
        if scale > best[0] + 1e-9:
            best = (scale, cols, rows)
    return best[1], best[2]
