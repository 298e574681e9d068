"""What every response carries and every request must show, as one ASGI middleware around the app:

- the ``Host`` header must name this server (one of the served names): a page fetched through another name is
  refused with 421, so a web page elsewhere cannot read these pages by pointing its own name at this address (DNS
  rebinding), and the QR code of a printed sheet can only carry a served name;
- a Content-Security-Policy (no script or style but the page's own, marked with a fresh nonce; nothing from
  another address; no framing), ``X-Content-Type-Options: nosniff``, ``Referrer-Policy: no-referrer``;
- ``HEAD`` answered as ``GET`` without the body.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

LOOPBACK = ("localhost", "127.0.0.1", "::1")

# Every response: nothing loads, nothing frames it. A page built from a template gets ``page_policy(nonce)``.
POLICY = "default-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
# FastAPI's own API page loads Swagger UI from its CDN and starts it with an inline script (no user data in it).
DOCS_POLICY = (
    "default-src 'none'; script-src https://cdn.jsdelivr.net 'unsafe-inline'; style-src https://cdn.jsdelivr.net; "
    "img-src https://fastapi.tiangolo.com data:; connect-src 'self'; base-uri 'none'; frame-ancestors 'none'"
)
HEADERS = {"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY"}


def page_policy(nonce: str) -> str:
    """A page's policy: its own inline style and script (``nonce``), its pictures from this server, its
    freshness check to this server."""
    return (
        f"default-src 'none'; script-src 'nonce-{nonce}'; style-src 'nonce-{nonce}'; img-src 'self' data:; "
        "connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    )


def new_nonce() -> str:
    return secrets.token_urlsafe(16)


def host_name(header: str) -> str:
    """The name in a Host header, without its port, lower case ("" when it is not a host)."""
    try:
        return (urlsplit("//" + header).hostname or "") if header and "/" not in header else ""
    except ValueError:  # a bracket left open, a port that is not a number
        return ""


@dataclass(frozen=True)
class ServedNames:
    """The names this server answers to (the Host header's name, without the port)."""

    names: frozenset[str]

    @classmethod
    def of(cls, names: Iterable[str]) -> ServedNames:
        return cls(frozenset(n.strip("[]").lower() for n in names if n))

    def accepts(self, host_header: str) -> bool:
        return host_name(host_header) in self.names

    @staticmethod
    def url_of(request: Request) -> str:
        """The address a request reached, once its Host was accepted: what a printed sheet's QR code carries."""
        return f"{request.url.scheme}://{request.headers['host']}"


class Guard:
    """The ASGI middleware: the Host check, the headers, HEAD."""

    def __init__(self, app: ASGIApp, served: ServedNames):
        self.app, self.served = app, served

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        head = scope["method"] == "HEAD"
        policy = DOCS_POLICY if scope["path"] == "/api/docs" else POLICY

        async def send_guarded(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if "content-security-policy" not in headers:
                    headers["Content-Security-Policy"] = policy
                for name, value in HEADERS.items():
                    headers[name] = value
            elif message["type"] == "http.response.body" and head:
                message = {**message, "body": b""}
            await send(message)

        if not self.served.accepts(Headers(scope=scope).get("host", "")):
            refused = PlainTextResponse(
                "This server does not answer to that name: open it by its address.", status_code=421
            )
            await refused(scope, receive, send_guarded)
            return
        await self.app({**scope, "method": "GET"} if head else scope, receive, send_guarded)
