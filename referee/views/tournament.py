"""A tournament's pages as plain data: standings, seating (by table and by player name), table status,
player pages and the projector, from the tournament's read side (``referee.tournament.views``) and the
organiser's venue notices. A round's seating appears only once the organiser has posted it."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from ..tournament import posting, views as tv

SHORT = {"honor": "honor", "wins": "wins", "aop": "opp. pts", "h2h": "h2h"}


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


def posted_rounds(loaded, venue) -> list[int]:
    return posting.posted_rounds(loaded.tournament, venue.posted)


def tournament_page(loaded, venue) -> dict[str, Any]:
    t = loaded.tournament
    counted = tv.standings(loaded)
    st = counted.to_dict()
    keys = [k for k in st["tiebreaks"] if k != "points"]
    rows = [
        {**r, "tiebreaks": [_cell(r, k) for k in keys], "cells": [r["rounds"].get(str(n), "") for n in st["rounds"]]}
        for r in st["standings"]
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
        "provisional": any("*" in c for r in rows for c in r["cells"]),
        **_points_race(loaded, counted),
    }


def _points_race(loaded, counted) -> dict[str, Any]:
    from .charts import points_race_svg

    race = tv.points_race(loaded, counted=counted)
    return {"race": race, "race_svg": points_race_svg(race) if race["players"] and race["rounds"] else ""}


def seating_page(loaded, venue, round_no: int, query: str = "") -> dict[str, Any]:
    by_player = tv.seating_by_player(loaded, round_no)
    q = query.strip().casefold()
    found = [p for p in by_player if q in p["name"].casefold()] if q else by_player
    return {
        "round": round_no,
        "tables": tv.seating_by_table(loaded, round_no),
        "players": found,
        "query": query,
        "matches": len(found),
    }


def player_page(loaded, venue, player: str) -> dict[str, Any]:
    page = tv.player_page(loaded, player)
    posted = set(posted_rounds(loaded, venue))
    page["rounds"] = [r for r in page["rounds"] if r["round"] in posted]  # an unposted seating stays hidden
    return page


def visible(loaded, venue, round_no: int) -> bool:
    return posting.is_posted(loaded.tournament, venue.posted, round_no)
