"""A tournament's pages as plain data: standings, seating (by table and by player name), table status,
player pages and the projector, from the tournament's read side (``referee.tournament.views``) and the
organiser's venue notices. A round's seating appears only once the organiser has posted it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ..tournament import posting, views as tv

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


def posted_rounds(loaded, venue) -> list[int]:
    return posting.posted_rounds(loaded.tournament, venue.posted)


def tournament_page(loaded, venue) -> dict[str, Any]:
    t = loaded.tournament
    counted = tv.standings(loaded)
    st = counted.to_dict()
    keys = [k for k in st["tiebreaks"] if k != "points"]
    rows = [
        {**r, "tiebreaks": [_cell(r, k) for k in keys], "cells": _round_cells(r, st["rounds"])} for r in st["standings"]
    ]
    posted = posted_rounds(loaded, venue)
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
        "status": tv.table_status(loaded, current) if current else [],
        "clock": clock_view(venue.clock),
        "announcements": [text for _, text in venue.announcements],
        "provisional": any("*" in c["text"] for r in rows for c in r["cells"]),
        **_points_race(loaded, counted),
        "signed": loaded.signed,
    }


def _points_race(loaded, counted) -> dict[str, Any]:
    from .charts import points_race_svg

    race = tv.points_race(loaded, counted=counted)
    return {"race": race, "race_svg": points_race_svg(race) if race["players"] and race["rounds"] else ""}


def seating_page(loaded, venue, round_no: int, query: str = "") -> dict[str, Any]:
    by_player = tv.seating_by_player(loaded, round_no)
    q = query.strip().casefold()
    found = [p for p in by_player if q in p["name"].casefold()] if q else by_player
    state = {x["table"]: x["state"] for x in tv.table_status(loaded, round_no)}
    tables = [
        {**tb, "source": SOURCE_LABEL.get(STATE_SOURCE.get(state.get(tb["table"], ""), ""), "")}
        for tb in tv.seating_by_table(loaded, round_no)
    ]
    return {
        "round": round_no,
        "tables": tables,
        "players": found,
        "query": query,
        "matches": len(found),
    }


def player_page(loaded, venue, player: str) -> dict[str, Any]:
    page = tv.player_page(loaded, player)
    posted = set(posted_rounds(loaded, venue))
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
