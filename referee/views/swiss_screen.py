"""A Swiss tournament on the venue's screen (the projector): the posted round's pairing by player name (``Ann
Lee: table 4, vs Bo Chen``) and the standings, each paged to fill a 16:9 screen in type readable from the back
of the hall, the pages shown in turn; the round clock and the announcements above. The paging is the seated
tournaments' (``tournament.pages``); the data is ``swiss``'s."""

from __future__ import annotations

from typing import Any

from ..engine.tournament.swiss_desk import SwissTournament
from . import swiss as sv
from .tournament import STANDINGS_ROWS, pages

VIEWS = ("pairings", "standings")
NAME_ROWS = 16  # lines of the pairing by name in a column: type about 1/30 of the screen's height, as the standings
NAME_COLUMNS = 3  # columns of them on a screen: 48 players a screen


def screens(t: SwissTournament, venue) -> dict[str, Any]:
    """What the screen shows, computed once per state: the current round's pairing by name, and the standings."""
    view = sv.standings_view(t)
    shown = sv.shown_rounds(t, venue)
    current = shown[-1] if shown else None
    return {
        "round": current,
        "title": sv.round_title(t, current) if current else "",
        "names": sv.by_name(t, current) if current else [],
        "left": [str(i) for i in t.rounds[current].left] if current else [],
        "standings": view["rows"],
        "standings_title": view["title"],
    }


def screen(data: dict[str, Any], s: dict[str, Any], view: str, page: int, pause: int, seconds: int) -> dict[str, Any]:
    """One screen of the cycle: the view and page asked for (within bounds), what it shows, and where the cycle
    goes next (every page of the pairing, then every page of the standings)."""
    views = [v for v in VIEWS if v != "pairings" or data["names"]]
    view = view if view in views else views[0]
    per = {"pairings": NAME_ROWS * NAME_COLUMNS, "standings": STANDINGS_ROWS}
    items = {"pairings": data["names"], "standings": data["standings"]}
    screens = {v: pages(len(items[v]), per[v]) for v in views}
    page = max(1, min(page, len(screens[view])))
    first, end = screens[view][page - 1]
    if page < len(screens[view]):
        nxt, nxt_page = view, page + 1
    else:
        nxt, nxt_page = views[(views.index(view) + 1) % len(views)], 1
    shown = items[view][first:end]
    columns = max(1, min(NAME_COLUMNS, -(-len(shown) // NAME_ROWS))) if view == "pairings" else 1
    rows = max(1, -(-len(shown) // columns))
    base = f"/tournaments/{s['id']}/projector?seconds={seconds}"
    return {
        "view": view,
        "d": data,
        "shown": shown,
        "first": first,
        "total": len(items[view]),
        "page": page,
        "pages": len(screens[view]),
        "columns": columns,
        "rows": rows,
        "chars": max([24, *(len(r["line"]) for r in shown)]) if view == "pairings" else 0,
        "paused": bool(pause),
        "seconds": seconds,
        "next_view": nxt,
        "next_page": nxt_page,
        "next_url": f"{base}&view={nxt}&page={nxt_page}",
        "pause_url": f"{base}&view={view}&page={page}&pause=1",
        "resume_url": f"{base}&view={nxt}&page={nxt_page}",
    }
