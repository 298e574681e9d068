"""A tournament's pages: standings, a posted round's seating, tables and printable sheet, a player's page, and
the projector cycling standings, seating and the top tables' boards."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ..log import Fold
from ..views import game as gv, site, tournament as tview
from .pages import html, respond
from .reading import Read

router = APIRouter(prefix="/tournaments/{tid}", include_in_schema=False)

VIEWS = ("standings", "seating", "boards")


def fresh(tid: str, tag: str) -> dict[str, str]:
    """The freshness check's URL and tag: a page polls it and offers a reload when the tournament moves."""
    return {"heads_url": f"/api/tournaments/{tid}/head", "etag": tag}


@router.get("", response_class=HTMLResponse)
def standings(tid: str, read: Read):
    loaded, venue, tag = read.tournament_of(tid)
    return respond(site.standings(read.tournament_page(loaded, venue, tag)), **fresh(tid, tag))


@router.get("/seating/{round_no}", response_class=HTMLResponse)
def seating(tid: str, round_no: str, read: Read, q: str = ""):
    loaded, venue, tag = read.tournament_of(tid)
    n = read.posted_round(loaded, venue, tid, round_no)
    tp = read.tournament_page(loaded, venue, tag)
    return respond(site.seating(tp, tview.seating_page(loaded, venue, n, q[:100])), **fresh(tid, tag))


@router.get("/tables/{round_no}", response_class=HTMLResponse)
def tables(tid: str, round_no: str, read: Read):
    loaded, venue, tag = read.tournament_of(tid)
    n = read.posted_round(loaded, venue, tid, round_no)
    return respond(site.tables(loaded, read.tournament_page(loaded, venue, tag), n), **fresh(tid, tag))


@router.get("/players/{player}", response_class=HTMLResponse)
def player(tid: str, player: str, read: Read):
    loaded, venue, tag = read.tournament_of(tid)
    pid = read.player_of(loaded, tid, player)
    p = read.cache.get(("player", tid, tag, pid), lambda: tview.player_page(loaded, venue, pid))
    return respond(site.player(read.tournament_page(loaded, venue, tag), p), **fresh(tid, tag))


@router.get("/sheet/{round_no}", response_class=HTMLResponse)
def sheet(tid: str, round_no: str, read: Read, request: Request):
    loaded, venue, tag = read.tournament_of(tid)
    n = read.posted_round(loaded, venue, tid, round_no)
    url = request.app.state.served.url_of(request) + f"/tournaments/{tid}"
    return respond(site.sheet(read.tournament_page(loaded, venue, tag), tview.seating_page(loaded, venue, n), url))


@router.get("/projector", response_class=HTMLResponse)
def projector(tid: str, read: Read, view: str = "standings", pause: int = 0, top: int = 8, seconds: int = 20):
    from ..views.board_svg import board_svg

    loaded, venue, tag = read.tournament_of(tid)
    view = view if view in VIEWS else "standings"
    top, seconds = max(1, min(top, 40)), max(5, min(seconds, 300))
    tp = read.tournament_page(loaded, venue, tag)
    nxt = VIEWS[(VIEWS.index(view) + 1) % len(VIEWS)]
    base = f"/tournaments/{tid}/projector?top={top}&seconds={seconds}"
    s = tview.seating_page(loaded, venue, tp["current"]) if view == "seating" and tp["current"] else None
    boards, more = [], 0
    if view == "boards" and tp["current"]:
        status = tp["status"]
        for x in status[:top]:
            if x["game"] and x["game"] in loaded.live:
                _, fold, key = read.fold_of(x["game"])

                # called at once by the cache, on this table's fold
                def grid_svg(fold: Fold = fold, x: dict[str, Any] = x) -> str:
                    return board_svg(
                        gv.public_state(fold),
                        cards=False,
                        title=f"Table {x['table']}: the board",
                        ids=f"t{x['table']}-",
                    )

                boards.append({**x, "svg": read.cache.get(("grid",) + key, grid_svg)})
        more = max(0, len(status) - top)
    return html(
        "projector.html",
        200,
        **fresh(tid, tag),
        tp=tp,
        view=view,
        s=s,
        boards=boards,
        more=more,
        paused=bool(pause),
        seconds=seconds,
        top_rows=max(10, top * 3),
        next_view=nxt,
        next_url=f"{base}&view={nxt}",
        pause_url=f"{base}&view={view}&pause=1",
        resume_url=f"{base}&view={nxt}",
    )
