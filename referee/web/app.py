"""The read-only web app: game pages, their JSON twins, and a cheap "heads" endpoint for freshness.

Every id in a URL is checked against the id grammar before the database is asked anything; an unknown
or malformed id is a 404 page with a link back. The app only reads: nothing here records anything.
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..log import Fold, LogError, Store, UnknownGame
from ..views import data as gdata, game as gv
from ..views.html import render
from ..views.links import ServedLinks

GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")  # the log's game id grammar
ROUND_NO = re.compile(r"[1-5]")
LINKS = ServedLinks()


class NotFound(Exception):
    def __init__(self, message: str):
        self.message = message


def check_game(game: str) -> str:
    if not GAME_ID.fullmatch(game or ""):
        raise NotFound("No such game: a game id is letters, digits, '-', '_' or '.'.")
    return game


class Cache:
    """Folds and page data by (game, events, last hash): a log only grows, so that key names its content."""

    def __init__(self, size: int = 512):
        self.size, self.lock = size, threading.Lock()
        self.items: OrderedDict[Hashable, Any] = OrderedDict()

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        with self.lock:
            if key in self.items:
                self.items.move_to_end(key)
                return self.items[key]
        value = make()
        with self.lock:
            self.items[key] = value
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return value


def etag_of(value: Any) -> str:
    return '"' + hashlib.sha256(json.dumps(value, sort_keys=True).encode()).hexdigest()[:20] + '"'


def create_app(db: str | None = None, *, store: Store | None = None) -> FastAPI:
    store = store or Store(db)
    cache = Cache()
    app = FastAPI(
        title="referee",
        summary="Battle for Rokugan games, read-only: the same data as the CLI's --json.",
        version="1",
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.store = store
    app.state.cache = cache  # the benchmarks empty it to time a cold request

    def page(template: str, status_code: int = 200, **context) -> HTMLResponse:
        return HTMLResponse(render(template, web=True, u=LINKS, **context), status_code=status_code)

    def hidden_games() -> frozenset[str]:
        """The games of tournament rounds whose seating is not posted: their headers name the players and
        clans of each table, so they stay off the pages until the organiser posts the round."""
        from ..log import tournaments as tlog, venue as venue_log

        listed = tlog.list_tournaments(store)
        if not listed:
            return frozenset()
        key = ("hidden", tuple((t["tournament"], t["events"]) for t in listed), venue_log.total(store))

        def compute() -> frozenset[str]:
            out: set[str] = set()
            for t in listed:
                tour = tlog.fold(tlog.read_events(store, t["tournament"]))
                posted = venue_log.read(store, t["tournament"]).posted
                for r, seating in tour.seatings.items():
                    if r > posted:
                        out.update(tb.game for tb in seating.tables if tb.game)
            return frozenset(out)

        return cache.get(key, compute)

    def events_of(game: str):
        check_game(game)
        if game in hidden_games():
            raise NotFound(f"No game {game!r} in this database.")
        try:
            events = store.events(game)
        except UnknownGame:
            raise NotFound(f"No game {game!r} in this database.") from None
        if not events:
            raise NotFound(f"No game {game!r} in this database.")
        return events

    def fold_of(game: str):
        events = events_of(game)
        key = (game, len(events), events[-1].hash)
        return events, cache.get(("fold",) + key, lambda: Fold.of(events)), key

    def head(events) -> str:
        return etag_of([events[0].game, len(events), events[-1].hash])

    def round_of(fold, game: str, round_no: str) -> int:
        if not ROUND_NO.fullmatch(round_no) or int(round_no) > len(fold.rounds):
            raise NotFound(f"Game {game!r} has no round {round_no!r}: {len(fold.rounds)} played.")
        return int(round_no)

    @app.exception_handler(NotFound)
    async def not_found(request: Request, exc: NotFound):
        if request.url.path.startswith("/api/"):
            return JSONResponse({"detail": exc.message}, status_code=404)
        return page("notfound.html", 404, message=exc.message)

    @app.exception_handler(LogError)
    async def broken_log(request: Request, exc: LogError):
        """A stored log the engine cannot replay: said plainly, never a traceback."""
        message = f"This log cannot be replayed ({exc}). `referee verify` names the first problem."
        if request.url.path.startswith("/api/"):
            return JSONResponse({"detail": message}, status_code=500)
        return page("notfound.html", 500, message=message, heading="Cannot be shown")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException):
        if exc.status_code == 404 and not request.url.path.startswith("/api/"):
            return page("notfound.html", 404, message="There is no page at this address.")
        return JSONResponse({"detail": exc.detail}, status_code=exc.status_code)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon():
        return Response(status_code=204)  # no icon: browsers stop asking

    @app.get("/games/{game}/board.svg", include_in_schema=False)
    def board_picture(game: str):
        events, fold, key = fold_of(game)
        g = cache.get(("page",) + key, lambda: gv.game_page(events, fold=fold))
        return Response(g["board_svg"], media_type="image/svg+xml")

    @app.get("/games/{game}/rounds/{round_no}.svg", include_in_schema=False)
    def round_picture(game: str, round_no: str):
        events, fold, key = fold_of(game)
        n = round_of(fold, game, round_no)
        return Response(cache.get(("svg", n) + key, lambda: gv.round_svg(fold, n)), media_type="image/svg+xml")

    # --- pages ------------------------------------------------------------------------------------------
    @app.get("/", response_class=HTMLResponse, include_in_schema=False)
    def index():
        from ..log.tournaments import list_tournaments

        hidden = hidden_games()
        games = [
            {
                "game": g.game,
                "clans": g.header.get("clans") or [],
                "event": g.header.get("event", ""),
                "table": g.header.get("table", ""),
            }
            for g in store.games()
            if g.game not in hidden
        ]
        return page("index.html", games=games, tournaments=[t["tournament"] for t in list_tournaments(store)])

    @app.get("/games/{game}", response_class=HTMLResponse, include_in_schema=False)
    def game_page(game: str):
        events, fold, key = fold_of(game)
        g = cache.get(("page",) + key, lambda: gv.game_page(events, fold=fold))
        return page("game.html", g=g, heads_url=f"/api/games/{game}/head", etag=head(events))

    @app.get("/games/{game}/rounds/{round_no}", response_class=HTMLResponse, include_in_schema=False)
    def round_page(game: str, round_no: str):
        events, fold, key = fold_of(game)
        n = round_of(fold, game, round_no)
        g = cache.get(("rounds",) + key, lambda: gv.game_page(events, fold=fold, pictures="none"))
        svg = cache.get(("svg", n) + key, lambda: gv.round_svg(fold, n))
        return page(
            "round.html",
            g=g,
            r={**g["rounds"][n - 1], "svg": svg},
            heads_url=f"/api/games/{game}/head",
            etag=head(events),
        )

    # --- data (the CLI's --json outputs) ------------------------------------------------------------------
    @app.get("/api/games", summary="The games (as `referee games --json`)")
    def api_games():
        hidden = hidden_games()
        shown = [g for g in store.games() if g.game not in hidden]
        status = cache.get(
            ("states", tuple((g.game, g.events) for g in shown)),
            lambda: gdata.games_status(store.events(g.game) for g in shown),
        )
        return gdata.games_data(shown, status)

    @app.get("/api/games/{game}", summary="A game's header, rounds and seals (as `referee show --json`)")
    def api_show(game: str):
        events, fold, _ = fold_of(game)
        return gv.header_data(fold, events)

    @app.get("/api/games/{game}/board", summary="The board now or after a round (as `referee board --json`)")
    def api_board(game: str, round: str | None = None):
        events, fold, _ = fold_of(game)
        if round is None:
            return gv.board_data(fold)
        if round == "0":
            return gv.board_data(fold, fold.start)
        return gv.board_data(fold, fold.played(round_of(fold, game, round)).after)

    @app.get("/api/games/{game}/score", summary="Honor line by line (as `referee score --json`), provisional or final")
    def api_score(game: str):
        _, fold, _ = fold_of(game)
        return gv.score_data(fold)

    @app.get("/api/games/{game}/replay", summary="Every event in order (as `referee replay --json`)")
    def api_replay(game: str):
        events, fold, key = fold_of(game)
        return cache.get(("replay",) + key, lambda: gv.replay_data(fold, events))

    @app.get(
        "/api/games/{game}/rounds",
        summary="Every round (as `referee round --json`; the reports are those of `referee replay --json`)",
    )
    def api_rounds(game: str):
        events, fold, _ = fold_of(game)
        seals = gv.round_seals(events)
        return [gv.round_data(fold, p.round, seals) for p in fold.rounds]

    @app.get("/api/games/{game}/rounds/{round_no}", summary="One round's report (as `referee round --json`)")
    def api_round(game: str, round_no: str):
        events, fold, _ = fold_of(game)
        return gv.round_data(fold, round_of(fold, game, round_no), gv.round_seals(events))

    @app.get(
        "/api/games/{game}/verify",
        summary="The log checked: chain, hashes, every digest re-run (as `referee verify --json`)",
    )
    def api_verify(game: str):
        from ..log import verify

        events = events_of(game)
        return gdata.verify_data(game, events, verify(events), status=gdata.verify_status(events))

    @app.get("/api/games/{game}/head", summary="A game's head: a cheap check for new results (ETag)")
    def api_head(game: str, request: Request):
        events = events_of(game)
        tag = head(events)
        if request.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers={"ETag": tag, "Cache-Control": "no-cache"})
        return JSONResponse(
            {"game": game, "events": len(events), "last": events[-1].hash},
            headers={"ETag": tag, "Cache-Control": "no-cache"},
        )

    @app.get("/api/heads", summary="Every game's event count: a cheap check for new results (ETag)")
    def api_heads(request: Request):
        hidden = hidden_games()
        heads = {g.game: g.events for g in store.games() if g.game not in hidden}
        tag = etag_of(heads)
        if request.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers={"ETag": tag, "Cache-Control": "no-cache"})
        return JSONResponse({"games": heads}, headers={"ETag": tag, "Cache-Control": "no-cache"})

    # --- tournaments --------------------------------------------------------------------------------------
    from ..log import tournaments as tlog, venue as venue_log
    from ..tournament.model import PLAYER_ID, TOURNAMENT_ID
    from ..views import tournament as tview
    from ..views.board_svg import board_svg

    def tournament_of(tid: str):
        if not TOURNAMENT_ID.fullmatch(tid or ""):
            raise NotFound("No such tournament: a tournament id is lower-case letters, digits and '-'.")
        try:
            events = tlog.read_events(store, tid)
        except tlog.UnknownTournament:
            raise NotFound(f"No tournament {tid!r} in this database.") from None
        t = cache.get(("tournament", tid, len(events), events[-1].hash), lambda: tlog.fold(events))
        loaded = tlog.load(store, tid, t)
        venue = venue_log.read(store, tid)
        tag = etag_of(
            [tid, len(events), events[-1].hash, venue.count, sorted((g, v.head) for g, v in loaded.live.items())]
        )
        return loaded, venue, tag

    def tp_of(loaded, venue, tag: str) -> dict:
        """The tournament page's data, computed once per state of the tournament, its games and notices (the
        tag names it); the clock's minutes left are counted at each request."""
        tp = cache.get(("tp", loaded.tournament.id, tag), lambda: tview.tournament_page(loaded, venue))
        return {**tp, "clock": tview.clock_view(venue.clock)}

    def posted_round(loaded, venue, tid: str, round_no: str) -> int:
        if not re.fullmatch(r"[0-9]{1,2}", round_no or "") or not tview.visible(loaded, venue, int(round_no)):
            raise NotFound(f"Tournament {tid!r}: the seating of round {round_no!r} is not posted.")
        return int(round_no)

    def tpage(template: str, tid: str, tag: str, **context) -> HTMLResponse:
        return page(template, heads_url=f"/api/tournaments/{tid}/head", etag=tag, **context)

    @app.get("/tournaments/{tid}", response_class=HTMLResponse, include_in_schema=False)
    def tournament_page(tid: str):
        loaded, venue, tag = tournament_of(tid)
        return tpage("tournament.html", tid, tag, tp=tp_of(loaded, venue, tag))

    @app.get("/tournaments/{tid}/seating/{round_no}", response_class=HTMLResponse, include_in_schema=False)
    def seating_page(tid: str, round_no: str, q: str = ""):
        loaded, venue, tag = tournament_of(tid)
        n = posted_round(loaded, venue, tid, round_no)
        return tpage(
            "seating.html", tid, tag, tp=tp_of(loaded, venue, tag), s=tview.seating_page(loaded, venue, n, q[:100])
        )

    @app.get("/tournaments/{tid}/tables/{round_no}", response_class=HTMLResponse, include_in_schema=False)
    def tables_page(tid: str, round_no: str):
        loaded, venue, tag = tournament_of(tid)
        n = posted_round(loaded, venue, tid, round_no)
        from ..tournament import views as tv

        return tpage(
            "tables.html", tid, tag, tp=tp_of(loaded, venue, tag), round=n, tables_status=tv.table_status(loaded, n)
        )

    @app.get("/tournaments/{tid}/players/{player}", response_class=HTMLResponse, include_in_schema=False)
    def player_page(tid: str, player: str):
        loaded, venue, tag = tournament_of(tid)
        if not PLAYER_ID.fullmatch(player or "") or player not in loaded.tournament.players:
            raise NotFound(f"Tournament {tid!r} has no player {player!r}.")
        return tpage(
            "player.html",
            tid,
            tag,
            tp=tp_of(loaded, venue, tag),
            p=cache.get(("player", tid, tag, player), lambda: tview.player_page(loaded, venue, player)),
        )

    @app.get("/tournaments/{tid}/sheet/{round_no}", response_class=HTMLResponse, include_in_schema=False)
    def sheet_page(tid: str, round_no: str, request: Request):
        loaded, venue, tag = tournament_of(tid)
        n = posted_round(loaded, venue, tid, round_no)
        from ..views.qr import qr_svg

        url = str(request.base_url).rstrip("/") + f"/tournaments/{tid}"
        return page(
            "sheet.html", tp=tp_of(loaded, venue, tag), s=tview.seating_page(loaded, venue, n), url=url, qr=qr_svg(url)
        )

    VIEWS = ("standings", "seating", "boards")

    @app.get("/tournaments/{tid}/projector", response_class=HTMLResponse, include_in_schema=False)
    def projector(tid: str, view: str = "standings", pause: int = 0, top: int = 8, seconds: int = 20):
        loaded, venue, tag = tournament_of(tid)
        view = view if view in VIEWS else "standings"
        top, seconds = max(1, min(top, 40)), max(5, min(seconds, 300))
        tp = tp_of(loaded, venue, tag)
        nxt = VIEWS[(VIEWS.index(view) + 1) % len(VIEWS)]
        base = f"/tournaments/{tid}/projector?top={top}&seconds={seconds}"
        s = tview.seating_page(loaded, venue, tp["current"]) if view == "seating" and tp["current"] else None
        boards, more = [], 0
        if view == "boards" and tp["current"]:
            status = tp["status"]
            for x in status[:top]:
                if x["game"] and x["game"] in loaded.live:
                    events, fold, key = fold_of(x["game"])

                    # called at once by the cache, on this table's fold
                    def grid_svg(fold: Fold = fold, x: dict[str, Any] = x) -> str:
                        return board_svg(
                            gv.public_state(fold),
                            cards=False,
                            title=f"Table {x['table']}: the board",
                            ids=f"t{x['table']}-",
                        )

                    svg = cache.get(("grid",) + key, grid_svg)
                    boards.append({**x, "svg": svg})
            more = max(0, len(status) - top)
        return tpage(
            "projector.html",
            tid,
            tag,
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

    @app.get("/api/tournaments", summary="The tournaments (as `referee tournament list --json`)")
    def api_tournaments():
        return tlog.list_tournaments(store)

    @app.get("/api/tournaments/{tid}/standings", summary="Standings (as `referee tournament standings --json`)")
    def api_standings(tid: str):
        loaded, _, _ = tournament_of(tid)
        from ..tournament import views as tv

        return tv.standings_view(loaded)

    @app.get(
        "/api/tournaments/{tid}/seating/{round_no}",
        summary="A posted round's seating (as `referee tournament seating --json`)",
    )
    def api_seating(tid: str, round_no: str, by: str = "table"):
        loaded, venue, _ = tournament_of(tid)
        n = posted_round(loaded, venue, tid, round_no)
        from ..tournament import views as tv

        return tv.seating_by_player(loaded, n) if by == "player" else tv.seating_by_table(loaded, n)

    @app.get(
        "/api/tournaments/{tid}/status/{round_no}",
        summary="Each table's status (as `referee tournament status --json`)",
    )
    def api_status(tid: str, round_no: str):
        loaded, venue, _ = tournament_of(tid)
        from ..tournament import views as tv

        return tv.table_status(loaded, posted_round(loaded, venue, tid, round_no))

    @app.get("/api/tournaments/{tid}/players/{player}", summary="A player's page as data")
    def api_player(tid: str, player: str):
        loaded, venue, _ = tournament_of(tid)
        if not PLAYER_ID.fullmatch(player or "") or player not in loaded.tournament.players:
            raise NotFound(f"Tournament {tid!r} has no player {player!r}.")
        return tview.player_page(loaded, venue, player)

    @app.get("/api/tournaments/{tid}/head", summary="A tournament's head: a cheap check for new results (ETag)")
    def api_tournament_head(tid: str, request: Request):
        _, _, tag = tournament_of(tid)
        if request.headers.get("if-none-match") == tag:
            return Response(status_code=304, headers={"ETag": tag, "Cache-Control": "no-cache"})
        return JSONResponse({"tournament": tid}, headers={"ETag": tag, "Cache-Control": "no-cache"})

    return app
