"""A Swiss tournament's pages (one against one: the card game's Kotei): the standings with the cut's bracket,
each round's pairing and results, each player's page. The pages are ``site``'s, as `referee tournament publish`
writes them; their data is computed once per state of the tournament (its events' count and last hash)."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from fastapi import APIRouter
from fastapi.responses import HTMLResponse, Response

from ..engine.tournament.swiss_desk import SwissTournament
from ..views import site, swiss as sv
from .pages import fresh, respond
from .reading import NotFound, Read, Reader

router = APIRouter(prefix="/tournaments/{tid}", include_in_schema=False)


def _cached(read: Reader, tid: str, tag: str, what: tuple, make: Callable[[], Any]) -> Any:
    return read.cache.get(("swiss-page", tid, tag, *what), make)


def standings(read: Reader, tid: str, t: SwissTournament, tag: str) -> Response:
    page = _cached(read, tid, tag, ("standings",), lambda: sv.standings_page(t))
    return respond(site.swiss_standings(page), **fresh(tid, tag))


def player(read: Reader, tid: str, pid: str, t: SwissTournament, tag: str) -> Response:
    if pid not in t.players:
        raise NotFound(f"Tournament {tid!r} has no player {pid!r}.")
    s = _cached(read, tid, tag, ("header",), lambda: sv.header(t))
    p = _cached(read, tid, tag, ("player", pid), lambda: sv.player_page(t, pid))
    return respond(site.swiss_player(s, p), **fresh(tid, tag))


@router.get("/rounds/{round_no}", response_class=HTMLResponse)
def round_page(tid: str, round_no: str, read: Read):
    found = read.swiss_of(tid)
    if found is None:
        raise NotFound(f"No Swiss tournament {tid!r} in this database.")
    t, tag = found
    if not re.fullmatch(r"[0-9]{1,2}", round_no or "") or int(round_no) not in t.rounds:
        raise NotFound(f"Tournament {tid!r}: round {round_no!r} has not been paired.")
    n = int(round_no)
    s = _cached(read, tid, tag, ("header",), lambda: sv.header(t))
    r = _cached(read, tid, tag, ("round", n), lambda: sv.round_page(t, n))
    return respond(site.swiss_round(s, r), **fresh(tid, tag))
