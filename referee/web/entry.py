"""The phone entry of a round (`referee serve --entry` only): a seat's page behind its capability link
``/e/<secret>``, plain HTML forms that work without JavaScript. Every write goes through ``log.entry`` (the
drafts, append-only, version-checked) and every token is checked by the engine at once; nothing here records
a round: the moderator confirms it (`referee confirm`).

Hostile input is expected: the link is looked up by its hash, a form carries a CSRF token bound to the
seat's link and the browser's session cookie (``HttpOnly``, ``SameSite=Strict``), a body is at most
``MAX_BODY`` bytes, a link at most ``RATE`` requests a minute, and every string shown is escaped."""

from __future__ import annotations

import secrets
import threading
import time
from collections import defaultdict, deque
from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..engine import NotationError, RefereeError
from ..log import LogError, OpenGame, entry as en
from .pages import html

router = APIRouter(include_in_schema=False)
MAX_BODY = 4096  # bytes of a form
RATE = 120  # requests a minute for one link
COOKIE = "seat"


class RateLimit:
    """At most ``per_minute`` requests a minute for each key (a link's hash), in this process."""

    def __init__(self, per_minute: int = RATE):
        self.per_minute, self.lock = per_minute, threading.Lock()
        self.seen: dict[str, deque[float]] = defaultdict(deque)

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        with self.lock:
            q = self.seen[key]
            while q and now - q[0] > 60:
                q.popleft()
            if len(self.seen) > 10_000:  # forget the links idle for a minute (unknown secrets among them)
                for k in [k for k, v in self.seen.items() if not v or now - v[-1] > 60]:
                    del self.seen[k]
                q = self.seen[key]
            if len(q) >= self.per_minute:
                return False
            q.append(now)
            return True


def refused(message: str, status: int, heading: str = "Entry refused") -> HTMLResponse:
    return html("notfound.html", status, message=message, heading=heading)


def _seat(request: Request, secret: str):
    """(store, game, clan, log) of a link, or the page refusing it."""
    limit: RateLimit = request.app.state.entry_rate
    if not limit.allow(en.link_hash(secret)):
        return refused("Too many requests for this link: wait a minute.", 429)
    store = request.app.state.store
    try:
        game, clan = en.seat_of(store, secret)
    except en.EntryRefused as exc:
        return refused(str(exc), 404)
    log = OpenGame(store, game)
    return store, game, clan, log


def _page(
    request: Request,
    secret: str,
    store,
    game: str,
    clan: str,
    log: OpenGame,
    message: str = "",
    refused_msg: bool = False,
    status: int = 200,
) -> Response:
    session = request.cookies.get(COOKIE) or secrets.token_urlsafe(16)
    r = log.state.round
    closed = None
    try:
        log.check_round()  # the game open, round 1 after the setup (p.4)
    except LogError as exc:
        closed = f"No round can be entered now: {exc}."
        if log.fold.closed() is not None:  # the game is over: the link no longer works (its page says why)
            status = 410
    draft = en.draft_of(store, game, r, clan)
    drafts = [en.draft_of(store, game, r, str(c)) for c in log.state.clans]
    left = [] if closed else en.tokens_left(log.state, clan, list(draft.lines))
    seal_round = len(log.fold.rounds)
    response = html(
        "entry.html",
        status,
        game=game,
        clan=clan,
        round=r,
        draft=draft,
        closed=closed,
        message=message,
        refused=refused_msg,
        left=left,
        blessings=[t for t, _ in left if t.startswith("blessing")],
        provinces=sorted(log.state.board.provinces),
        others=drafts if draft.submitted or closed else [],
        seal_round=seal_round,
        seal=en.seal_of(store, game, seal_round) if seal_round else None,
        base=f"/e/{secret}",
        csrf=en.csrf_token(secret, session),
    )
    response.set_cookie(COOKIE, session, httponly=True, samesite="strict", path=f"/e/{secret}")
    return response


@router.get("/e/{secret}", response_class=HTMLResponse)
def seat_page(secret: str, request: Request):
    seat = _seat(request, secret)
    if isinstance(seat, Response):
        return seat
    return _page(request, secret, *seat)


async def _form(request: Request) -> dict[str, str] | Response:
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > MAX_BODY):
        return refused(f"This form is too large (at most {MAX_BODY} bytes).", 413)
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            return refused(f"This form is too large (at most {MAX_BODY} bytes).", 413)
    try:
        fields = parse_qs(body.decode("utf-8"), keep_blank_values=True, max_num_fields=20)
    except (UnicodeDecodeError, ValueError):
        return refused("This form could not be read.", 400)
    return {k: v[0] for k, v in fields.items()}


@router.post("/e/{secret}/{action}", response_class=HTMLResponse)
async def seat_action(secret: str, action: str, request: Request):
    if action not in ("add", "remove", "submit", "reopen"):
        return refused("There is no such action.", 404)
    form = await _form(request)
    if isinstance(form, Response):
        return form
    seat = _seat(request, secret)
    if isinstance(seat, Response):
        return seat
    store, game, clan, log = seat
    if not en.csrf_ok(secret, request.cookies.get(COOKIE, ""), form.get("csrf", "")):
        return refused("This form has expired or did not come from your seat's page: reload the page.", 403)
    try:
        log.check_round()
    except LogError as exc:
        return refused(f"No round can be entered now: {exc}.", 409)
    r = log.state.round
    version, round_no = form.get("version", ""), form.get("round", "")
    if not version.isdigit() or not round_no.isdigit():
        return refused("This form could not be read.", 400)
    if int(round_no) != r:
        seal = en.seal_of(store, game, int(round_no)) if 0 < int(round_no) < r else None
        done = f" (recorded, seal {seal})" if seal else ""
        return refused(f"Round {round_no} is closed{done}: the game is at round {r}. Reload the page.", 409)
    draft = en.draft_of(store, game, r, clan)
    lines = list(draft.lines)
    submitted = draft.submitted
    try:
        if action == "add":
            line = _line(clan, form)
            lines.append(en.check_token(log.state, clan, lines, line))
        elif action == "remove":
            index = form.get("index", "")
            if not index.isdigit() or int(index) >= len(lines):
                return refused("There is no such token in your list: reload the page.", 400)
            del lines[int(index)]
        elif action == "submit":
            submitted = True
        else:
            submitted = False
        if draft.submitted and action in ("add", "remove"):
            raise en.EntryRefused("your tokens are submitted: press 'Change my tokens' first")
        en.write_draft(store, draft, lines, submitted, int(version), "phone")
    except en.DraftStale as exc:
        now = exc.draft.lines if exc.draft else ()
        message = f"Not written: {exc}. Your list is now: {'; '.join(now) or 'empty'}."
        return _page(request, secret, store, game, clan, log, message, True, 409)
    except (NotationError, RefereeError, LogError) as exc:
        return _page(request, secret, store, game, clan, log, str(exc).splitlines()[0], True, 422)
    return RedirectResponse(f"/e/{secret}", status_code=303)


def _line(clan: str, form: dict[str, str]) -> str:
    """The notation line of an added token: ``clan: token @ to`` or ``clan: token from > to`` (+ blessing)."""
    token, to, source, blessing = (form.get(k, "").strip() for k in ("token", "to", "from", "blessing"))
    if not token or not to:
        raise en.EntryRefused("choose a token and a province")
    place = f"@ {to}" if not source else f"{source} > {to}"
    return f"{clan}: {token} {place}" + (f" + {blessing}" if blessing else "")
