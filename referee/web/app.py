"""The venue web app, put together: the routers by resource (a game's pages, a tournament's pages, the JSON
API), the error pages, and the guard around it all (Host check, security headers, HEAD). The routers read
through ``reading.Reader``, which each request receives as a dependency on the app's store and cache. The app
only reads: nothing here records anything."""

from __future__ import annotations

from collections.abc import Iterable

from fastapi import FastAPI

from ..log import Store
from . import api, games, pages, tournaments
from .reading import Cache
from .security import LOOPBACK, Guard, ServedNames


def venue_app(db: str | None = None, *, store: Store | None = None, names: Iterable[str] = LOOPBACK) -> FastAPI:
    """The read-only venue pages over ``store`` (or the database ``db``, which must exist: nothing is made),
    answering to the host ``names`` only."""
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
    # A router per resource; a future one (the phone entry of a round) is included here the same way.
    for router in (games.router, tournaments.router, api.router):
        app.include_router(router)
    app.add_middleware(Guard, served=app.state.served)
    return app
