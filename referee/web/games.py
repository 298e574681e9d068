"""A game's pages: the board now with the last round, each round's page, and their pictures."""

from __future__ import annotations

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from ..views import site
from .pages import html, respond
from .reading import Read

router = APIRouter(include_in_schema=False)


@router.get("/", response_class=HTMLResponse)
def index(read: Read):
    games = [
        {
            "game": g.game,
            "clans": g.header.get("clans") or [],
            "event": g.header.get("event", ""),
            "table": g.header.get("table", ""),
        }
        for g in read.shown_games()
    ]
    return html("index.html", games=games, tournaments=[t["tournament"] for t in read.tournaments()])


@router.get("/favicon.ico")
def favicon():
    return Response(status_code=204)  # no icon: browsers stop asking


@router.get("/games/{game}/board.svg")
def board_picture(game: str, read: Read):
    _, _, _, g = read.game_page(game)
    return respond(site.board_picture(game, g["board_svg"]))


@router.get("/games/{game}/rounds/{round_no}.svg")
def round_picture(game: str, round_no: str, read: Read):
    _, fold, key = read.fold_of(game)
    n = read.round_of(fold, game, round_no)
    return respond(site.round_picture(game, n, read.round_svg(fold, key, n)))


@router.get("/games/{game}", response_class=HTMLResponse)
def game_page(game: str, read: Read):
    from ..log.ccg import is_match

    matched = read.events_of(game)
    champions = read.champions_page(matched)
    if champions is not None:  # a Champions of Rokugan scenario or campaign: its own page
        return respond(champions, heads_url=f"/api/games/{game}/head", etag=read.head(matched))
    if is_match(matched):  # a card game match: its own page
        from ..views.ccg import match_page

        m = read.cache.get(("match", game, len(matched), matched[-1].hash), lambda: match_page(matched))
        return respond(site.match(m), heads_url=f"/api/games/{game}/head", etag=read.head(matched))
    events, _, _, g = read.game_page(game)
    at = read.game_table(game) if g.get("table") else None
    signed = read.signature(events)
    return respond(site.game(g, at, signed), heads_url=f"/api/games/{game}/head", etag=read.head(events))


@router.get("/games/{game}/rounds/{round_no}", response_class=HTMLResponse)
def round_page(game: str, round_no: str, read: Read):
    events, fold, key, g = read.game_page(game, pictures="none")
    n = read.round_of(fold, game, round_no)
    return respond(
        site.game_round(g, n, read.round_svg(fold, key, n)), heads_url=f"/api/games/{game}/head", etag=read.head(events)
    )
