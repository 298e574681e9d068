"""`referee serve`: the read-only venue pages (FastAPI, Jinja2 templates from referee.views, uvicorn).
Loaded only by that command: the CLI's other commands never import the web stack.

    app          ``venue_app``: the routers put together, with the guard around them
    games        a game's pages and pictures
    tournaments  a tournament's pages and the projector
    api          the JSON API (the CLI's --json) and the freshness heads
    reading      what the pages read (the store and cache as dependencies), ids checked first
    pages        templates and site pages as responses; the error pages
    security     the Host check, the security headers, HEAD
"""

from .app import venue_app

__all__ = ["venue_app"]
