"""A tournament's pages: standings, a posted round's seating, tables and printable sheet, a player's page, and
the projector paging through standings, seating and the tables' boards."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse

from ..games.battle.fold import Fold
from ..views import game as gv, site, tournament as tview
from . import swiss
from .pages import fresh, html, respond
from .reading import Read

router = APIRouter(prefix="/tournaments/{tid}", include_in_schema=False)

VIEWS = ("standings", "seating", "boards")


@router.get("", response_class=HTMLResponse)
def standings(tid: str, read: Read):
    if (found := read.swiss_of(tid)) is not None:  # one against one: web/swiss.py
        return swiss.standings(read, tid, *found)
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
    if (found := read.swiss_of(tid)) is not None:
        return swiss.player(read, tid, player, *found)
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
def projector(
    tid: str, read: Read, view: str = "standings", page: int = 1, pause: int = 0, top: int = 0, seconds: int = 20
):
    """The venue's screen: each view paged to fill it (standings rows, seating cards, boards), the pages shown in
    turn; ``top``: the most boards on one screen (0: by the count of tables). A Swiss tournament's: web/swiss.py."""
    from ..views.board_svg import board_svg

    if (found := read.swiss_of(tid)) is not None:
        return swiss.projector(read, tid, *found, view, page, pause, max(5, min(seconds, 300)))
    loaded, venue, tag = read.tournament_of(tid)
    view = view if view in VIEWS else "standings"
    top, seconds = max(0, min(top, 40)), max(5, min(seconds, 300))
    tp = read.tournament_page(loaded, venue, tag)
    s = tview.seating_page(loaded, venue, tp["current"]) if tp["current"] else None
    screens = {
        "standings": tview.pages(len(tp["rows"]), tview.STANDINGS_ROWS),
        "seating": tview.pages(len(s["tables"]) if s else 0, tview.SEATING_CARDS),
        "boards": tview.pages(len(tp["status"]), top or tview.GRID_BOARDS),
    }
    page = max(1, min(page, len(screens[view])))
    first, end = screens[view][page - 1]
    if page < len(screens[view]):
        nxt, nxt_page = view, page + 1
    else:
        nxt, nxt_page = VIEWS[(VIEWS.index(view) + 1) % len(VIEWS)], 1
    base = f"/tournaments/{tid}/projector?seconds={seconds}" + (f"&top={top}" if top else "")
    boards = []
    if view == "boards":
        for x in tp["status"][first:end]:
            svg = ""
            if x["game"] and x["game"] in loaded.live:
                _, fold, key = read.fold_of(x["game"])

                # called at once by the cache, on this table's fold
                def grid_svg(fold: Fold = fold, x: dict[str, Any] = x) -> str:
                    return board_svg(
                        gv.public_state(fold),
                        cards=False,
                        title=f"Table {x['table']}: the board",
                        ids=f"t{x['table']}-",
                        key=False,
                    )

                svg = read.cache.get(("grid",) + key, grid_svg)
            source = tview.SOURCE_LABEL.get(tview.STATE_SOURCE.get(x["state"], ""), "")
            boards.append({**x, "svg": svg, "source": source})
    shown = {"standings": tp["rows"][first:end], "seating": s["tables"][first:end] if s else [], "boards": boards}[view]
    total = {"standings": len(tp["rows"]), "seating": len(s["tables"]) if s else 0, "boards": len(tp["status"])}[view]
    cols, rows = tview.grid_shape(len(shown), {"seating": 1.6, "boards": tview.BOARD_ASPECT}.get(view, 1.0))
    return html(
        "projector.html",
        200,
        **fresh(tid, tag),
        tp=tp,
        view=view,
        s=s,
        shown=shown,
        first=first,
        page=page,
        pages=len(screens[view]),
        cols=cols,
        grid_rows=rows,
        total=total,
        paused=bool(pause),
        seconds=seconds,
        next_view=nxt,
        next_page=nxt_page,
        next_url=f"{base}&view={nxt}&page={nxt_page}",
        pause_url=f"{base}&view={view}&page={page}&pause=1",
        resume_url=f"{base}&view={nxt}&page={nxt_page}",
    )
