"""The JSON API: the same data as the CLI's ``--json`` outputs, and cheap "heads" for freshness (ETag)."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from ..views import data as gdata, game as gv
from .reading import Read, etag_of

router = APIRouter(prefix="/api")


def tagged(request: Request, tag: str, body: dict) -> Response:
    """``body`` with its ETag, or 304 when the client already holds that tag."""
    headers = {"ETag": tag, "Cache-Control": "no-cache"}
    if request.headers.get("if-none-match") == tag:
        return Response(status_code=304, headers=headers)
    return JSONResponse(body, headers=headers)


# --- games --------------------------------------------------------------------------------------------------
@router.get("/games", summary="The games (as `referee games --json`)")
def games(read: Read):
    shown = read.shown_games()
    status = read.cache.get(
        ("states", tuple((g.game, g.events) for g in shown)),
        lambda: gdata.games_status(read.store.events(g.game) for g in shown),
    )
    return gdata.games_data(shown, status)


@router.get("/games/{game}", summary="A game's header, rounds and seals (as `referee show --json`)")
def show(game: str, read: Read):
    events, fold, _ = read.fold_of(game)
    return gv.public_header(fold, events)


@router.get("/games/{game}/board", summary="The board now or after a round (as `referee board --json`)")
def board(game: str, read: Read, round: str | None = None):
    _, fold, _ = read.fold_of(game)
    if round is None:
        return gv.public_board(fold)
    return gv.public_board(fold, fold.board_after(0 if round == "0" else read.round_of(fold, game, round)).state)


@router.get("/games/{game}/score", summary="Honor line by line (as `referee score --json`), provisional or final")
def score(game: str, read: Read):
    _, fold, _ = read.fold_of(game)
    return gv.public_score(fold)


@router.get("/games/{game}/replay", summary="Every event in order (as `referee replay --json`)")
def replay(game: str, read: Read):
    events, fold, key = read.fold_of(game)
    return read.cache.get(("replay",) + key, lambda: gv.public_replay(fold, events))


@router.get(
    "/games/{game}/rounds",
    summary="Every round (as `referee round --json`; the reports are those of `referee replay --json`)",
)
def rounds(game: str, read: Read):
    events, fold, _ = read.fold_of(game)
    seals = gv.round_seals(events)
    return [gv.public_round(fold, p.round, seals) for p in fold.rounds]


@router.get("/games/{game}/rounds/{round_no}", summary="One round's report (as `referee round --json`)")
def one_round(game: str, round_no: str, read: Read):
    events, fold, _ = read.fold_of(game)
    return gv.public_round(fold, read.round_of(fold, game, round_no), gv.round_seals(events))


@router.get(
    "/games/{game}/verify", summary="The log checked: chain, hashes, every digest re-run (as `referee verify --json`)"
)
def verify(game: str, read: Read):
    from ..games.battle.events import NO_SEAL_CHECKED
    from ..games.battle.replay import verify as verify_log
    from ..records.signing import check_stored

    events = read.battle_events_of(game)
    found = verify_log(events)
    signature = check_stored(read.store, "game", events, None).status
    notes = [NO_SEAL_CHECKED] if found is None else []
    return gdata.verify_data(game, events, found, status=gdata.verify_status(events, signature), notes=notes)


@router.get("/games/{game}/head", summary="A game's head: a cheap check for new results (ETag)")
def game_head(game: str, read: Read, request: Request):
    events = read.events_of(game)
    return tagged(request, read.head(events), {"game": game, "events": len(events), "last": events[-1].hash})


@router.get("/heads", summary="Every game's event count: a cheap check for new results (ETag)")
def heads(read: Read, request: Request):
    counts = {g.game: g.events for g in read.shown_games()}
    return tagged(request, etag_of(counts), {"games": counts})


# --- tournaments --------------------------------------------------------------------------------------------
@router.get("/tournaments", summary="The tournaments (as `referee tournament list --json`)")
def tournaments(read: Read):
    return read.tournaments()


@router.get("/tournaments/{tid}/standings", summary="Standings (as `referee tournament standings --json`)")
def standings(tid: str, read: Read):
    from ..views import tournament as tview

    loaded, _, _ = read.tournament_of(tid)
    return tview.standings_view(loaded)


@router.get(
    "/tournaments/{tid}/seating/{round_no}", summary="A posted round's seating (as `referee tournament seating --json`)"
)
def seating(tid: str, round_no: str, read: Read, by: str = "table"):
    from ..views import tournament as tview

    loaded, venue, _ = read.tournament_of(tid)
    n = read.posted_round(loaded, venue, tid, round_no)
    return tview.seating_by_player(loaded, n) if by == "player" else tview.seating_by_table(loaded, n)


@router.get(
    "/tournaments/{tid}/status/{round_no}", summary="Each table's status (as `referee tournament status --json`)"
)
def status(tid: str, round_no: str, read: Read):
    from ..views import tournament as tview

    loaded, venue, _ = read.tournament_of(tid)
    return tview.table_status(loaded, read.posted_round(loaded, venue, tid, round_no))


@router.get("/tournaments/{tid}/players/{player}", summary="A player's page as data")
def player(tid: str, player: str, read: Read):
    from ..views import tournament as tview

    loaded, venue, _ = read.tournament_of(tid)
    return tview.player_page(loaded, venue, read.player_of(loaded, tid, player))


@router.get("/tournaments/{tid}/head", summary="A tournament's head: a cheap check for new results (ETag)")
def tournament_head(tid: str, read: Read, request: Request):
    swiss = read.swiss_of(tid)
    _, _, tag = swiss if swiss is not None else read.tournament_of(tid)
    return tagged(request, tag, {"tournament": tid})
