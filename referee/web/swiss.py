"""A Swiss tournament's pages (one against one: the card game's Kotei): the standings with the cut's bracket,
each round's pairing and results and its printable match slips, each player's page, and the projector. The
pages are ``site``'s, as `referee tournament publish` writes them (the projector aside: a screen, not a page to
publish); their data is computed once per state of the tournament and its notices (its events' count and last
hash, the notices' count), the clock's minutes left at each request. A round held back (`swiss pair --hold`)
is on no page until posted (``tournament.posting``)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from ..engine.tournament.swiss_desk import SwissTournament
from ..views import site, swiss as sv, swiss_screen, tournament as tview
from .pages import fresh, html, respond
from .reading import NotFound, Read, Reader

router = APIRouter(prefix="/tournaments/{tid}", include_in_schema=False)


def _cached(read: Reader, tid: str, tag: str, what: tuple, make: Callable[[], Any]) -> Any:
    return read.cache.get(("swiss-page", tid, tag, *what), make)


def _header(read: Reader, tid: str, t: SwissTournament, venue, tag: str) -> dict[str, Any]:
    s = _cached(read, tid, tag, ("header",), lambda: sv.header(t, venue))
    return {**s, "clock": tview.clock_view(venue.clock)}


def standings(read: Reader, tid: str, t: SwissTournament, venue, tag: str) -> Response:
    page = _cached(read, tid, tag, ("standings",), lambda: sv.standings_page(t, venue))
    return respond(site.swiss_standings({**page, "clock": tview.clock_view(venue.clock)}), **fresh(tid, tag))


def player(read: Reader, tid: str, pid: str, t: SwissTournament, venue, tag: str) -> Response:
    if pid not in t.players:
        raise NotFound(f"Tournament {tid!r} has no player {pid!r}.")
    p = _cached(read, tid, tag, ("player", pid), lambda: sv.player_page(t, pid, venue))
    return respond(site.swiss_player(_header(read, tid, t, venue, tag), p), **fresh(tid, tag))


def _swiss(read: Reader, tid: str):
    found = read.swiss_of(tid)
    if found is None:
        raise NotFound(f"No Swiss tournament {tid!r} in this database.")
    return found


def _shown_round(t: SwissTournament, venue, tid: str, round_no: str) -> int:
    if not re.fullmatch(r"[0-9]{1,2}", round_no or "") or int(round_no) not in sv.shown_rounds(t, venue):
        raise NotFound(f"Tournament {tid!r}: round {round_no!r} is not paired, or not posted.")
    return int(round_no)


@router.get("/rounds/{round_no}", response_class=HTMLResponse)
def round_page(tid: str, round_no: str, read: Read):
    t, venue, tag = _swiss(read, tid)
    n = _shown_round(t, venue, tid, round_no)
    r = _cached(read, tid, tag, ("round", n), lambda: sv.round_page(t, n))
    return respond(site.swiss_round(_header(read, tid, t, venue, tag), r), **fresh(tid, tag))


@router.get("/rounds/{round_no}/slips", response_class=HTMLResponse)
def slips(tid: str, round_no: str, read: Read):
    t, venue, tag = _swiss(read, tid)
    n = _shown_round(t, venue, tid, round_no)
    r = _cached(read, tid, tag, ("slips", n), lambda: sv.slips_page(t, n))
    return respond(site.swiss_slips(_header(read, tid, t, venue, tag), r), **fresh(tid, tag))


def projector(read: Reader, tid: str, t: SwissTournament, venue, tag: str, view: str, page: int, pause: int,
              seconds: int) -> Response:  # fmt: skip
    """The venue's screen: the current round's pairing by name and the standings, each paged to fill the
    screen and shown in turn, with the round clock and the announcements."""
    s = _header(read, tid, t, venue, tag)
    screens = _cached(read, tid, tag, ("screens",), lambda: swiss_screen.screens(t, venue))
    shown = swiss_screen.screen(screens, s, view, page, pause, seconds)
    return html("swiss_projector.html", 200, **fresh(tid, tag), s=s, **shown)
