"""Pages as responses: a ``site.Page`` or a template rendered with the served links, and the error pages."""

from __future__ import annotations

from fastapi import Request
from fastapi.responses import HTMLResponse, JSONResponse, Response
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..store.events import LogError
from ..views.html import render
from ..views.links import ServedLinks
from ..views.site import Page
from .reading import NotFound
from .security import new_nonce, page_policy

LINKS = ServedLinks()


def html(template: str, status_code: int = 200, **context) -> HTMLResponse:
    """A template as a served page: its inline style and script carry a fresh nonce that its policy names."""
    nonce = new_nonce()
    return HTMLResponse(
        render(template, web=True, u=LINKS, nonce=nonce, **context),
        status_code=status_code,
        headers={"Content-Security-Policy": page_policy(nonce)},
    )


def fresh(tid: str, tag: str) -> dict[str, str]:
    """A tournament page's freshness check, its URL and tag: the page polls it and offers a reload when the
    tournament moves."""
    return {"heads_url": f"/api/tournaments/{tid}/head", "etag": tag}


def respond(page: Page, **extra) -> Response:
    """A site page as served: a picture as it stands, an HTML page with ``extra`` (the freshness check's URL
    and tag) added to its data."""
    if not page.template:
        return Response(page.body, media_type=page.media_type)
    return html(page.template, **page.context, **extra)


def is_api(request: Request) -> bool:
    return request.url.path.startswith("/api/")


async def not_found(request: Request, exc: Exception) -> Response:
    message = exc.message if isinstance(exc, NotFound) else str(exc)
    if is_api(request):
        return JSONResponse({"detail": message}, status_code=404)
    return html("notfound.html", 404, message=message)


async def broken_log(request: Request, exc: Exception) -> Response:
    """A stored log the engine cannot replay: said plainly, never a traceback."""
    message = f"This log cannot be replayed ({exc}). `referee verify` names the first problem."
    if is_api(request):
        return JSONResponse({"detail": message}, status_code=500)
    return html("notfound.html", 500, message=message, heading="Cannot be shown")


async def http_error(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, StarletteHTTPException)
    if exc.status_code == 404 and not is_api(request):
        return html("notfound.html", 404, message="There is no page at this address.")
    return JSONResponse({"detail": exc.detail}, status_code=exc.status_code, headers=exc.headers)


HANDLERS = {NotFound: not_found, LogError: broken_log, StarletteHTTPException: http_error}
