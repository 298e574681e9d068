"""The venue web app, put together: the routers by resource (a game's pages, a tournament's pages, the JSON
API), the error pages, and the guard around it all (Host check, security headers, HEAD). The routers read
through ``reading.Reader``, which each request receives as a dependency on the app's store and cache. The app
only reads, except the phone entry
(``entry``, asked for explicitly): the seats' pages write drafts, never a round; the moderator's page records
a round as `referee confirm` does."""

from __future__ import annotations

from collections.abc import Iterable

from fastapi import FastAPI

from ..games.battle import entry as en
from ..store.storage import Store
from . import api, entry as entry_pages, games, moderator, pages, swiss, tournaments
from .entry import RATE, RateLimit
from .reading import Cache
from .security import LOOPBACK, Guard, ServedNames


def venue_app(
    db: str | None = None,
    *,
    store: Store | None = None,
    names: Iterable[str] = LOOPBACK,
    entry: bool = False,
    rate: int = RATE,
) -> FastAPI:
    """The read-only venue pages over ``store`` (or the database ``db``, which must exist: nothing is made),
    answering to the host ``names`` only. ``entry``: the seats' phone pages as well (``/e/<secret>``, which
    write players' drafts, never a round) and the moderator's table page (``/m/<secret>``, which records a round
    through the game service), at most ``rate`` requests a minute per link."""
    store = store or Store(db, create=False)
    app = FastAPI(
        title="referee",
        summary="Battle for Rokugan games, read-only: the same data as the CLI's --json.",
        version="1",
        docs_url="/api/docs",
        redoc_url=None,
        openapi_url="/api/openapi.json",
    )
    app.state.store = store
    app.state.cache = Cache()  # the benchmarks empty it to time a cold request
    app.state.served = ServedNames.of(names)
    for exc, handler in pages.HANDLERS.items():
        app.add_exception_handler(exc, handler)
    # A router per resource; the phone entry only when asked for (`referee serve --entry`).
    phone = [entry_pages.router, moderator.router] if entry else []
    for router in (games.router, tournaments.router, swiss.router, api.router, *phone):
        app.include_router(router)
    app.state.entry_rate = RateLimit(rate)
    app.state.entry_games = en.Games()
    if entry:
        store.write_ahead()  # SQLite: WAL for the drafts' many small writes (Store.write_ahead)
    app.add_middleware(Guard, served=app.state.served)
    return app
