"""The phone entry of a round (`referee serve --entry` only): a seat's page behind its capability link
``/e/<secret>``, plain HTML forms that work without JavaScript. Every write goes through ``games.battle.entry`` (the
drafts, append-only, version-checked) and every token is checked by the engine at once; nothing here records
a round: the moderator confirms it (`referee confirm`, or the table's page behind the moderator's link,
``web.moderator``).

With JavaScript (``/static/entry.js``, a static file under the page's Content-Security-Policy nonce), the same
forms are filled by taps on the board picture: the token, the province, then one of the places the engine
accepts for it there (``/e/<secret>/places``: ``@`` or a border, each asked of the one check of a token).

Hostile input is expected: the link is looked up by its hash, a form carries a CSRF token bound to the
seat's link and the browser's session cookie (``HttpOnly``, ``SameSite=Strict``), a body is at most
``MAX_BODY`` bytes, a link at most ``RATE`` requests a minute, and every string shown is escaped."""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from importlib.resources import files
from urllib.parse import parse_qs

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, JSONResponse, RedirectResponse, Response

from ..core.errors import RefereeError
from ..core.numerals import whole
from ..engine.battle import NotationError
from ..games.battle import entry as en
from ..games.battle.service import OpenGame
from ..store.events import LogError
from ..views.board_svg import board_svg
from ..views.game import public_score
from .pages import html

router = APIRouter(include_in_schema=False)
MAX_BODY = 4096  # bytes of a form
RATE = 120  # requests a minute for one link
COOKIE = "seat"
REFRESH = 5  # seconds between two reads of a submitted seat's page (the others' tokens, then the seal)


class RateLimit:
    """At most ``per_minute`` requests a minute for each key (a link's hash), in this process. The keys are kept in
    the order of their last request, so those idle for a minute (unknown secrets among them) are forgotten from
    the front, each once: a request costs the same with ten keys held or a hundred thousand."""

    def __init__(self, per_minute: int = RATE):
        self.per_minute, self.lock = per_minute, threading.Lock()
        self.seen: OrderedDict[str, deque[float]] = OrderedDict()

    def allow(self, key: str) -> bool:
        now = time.monotonic()
        with self.lock:
            while self.seen:  # the least recently asked first: stop at the first asked within the minute
                oldest = next(iter(self.seen.values()))
                if oldest and now - oldest[-1] <= 60:
                    break
                self.seen.popitem(last=False)
            q = self.seen.get(key)
            if q is None:
                q = self.seen[key] = deque()
            else:
                self.seen.move_to_end(key)
            while q and now - q[0] > 60:
                q.popleft()
            if len(q) >= self.per_minute:
                return False
            q.append(now)
            return True


def refused(
    message: str, status: int, heading: str = "Entry refused", moderator: bool = False, back: str = ""
) -> HTMLResponse:
    """The page of a refused link or form: what happened and what to do, on the entry pages' own template;
    ``back``: the page of a link that still works (a form refused, not its link), to go back to."""
    return html("entry_refused.html", status, message=message, heading=heading, moderator=moderator, back=back)


def open_link(request: Request, secret: str, moderator: bool = False):
    """(store, game, clan, log) of a link (a seat's link, or with ``moderator`` the moderator's), or the page
    refusing it: a seat's link does not open the moderator's page, nor the moderator's link a seat's."""
    limit: RateLimit = request.app.state.entry_rate
    if not limit.allow(en.link_hash(secret)):
        return refused("Too many requests for this link: wait a minute, then reload.", 429, "Too many requests")
    store = request.app.state.store
    try:
        game, clan = en.seat_of(store, secret)
        if (clan == en.MODERATOR) != moderator:
            raise en.EntryRefused("this entry link is not known: ask the moderator for your seat's link")
    except en.EntryRefused as exc:
        return refused(f"This link does not work: {exc}.", 404, "Link not valid", moderator)
    # A seat's page reads the game folded once per chain head, shared (read only); the moderator's page writes.
    log = OpenGame(store, game) if moderator else request.app.state.entry_games.read(store, game)
    return store, game, clan, log


_BOARDS: dict[tuple[str, int, str], str] = {}


def board_picture(log: OpenGame) -> str:
    """The board the round is entered on (its picture without the cards and the key, to fit a phone), drawn
    once per game and round."""
    key = (log.game, log.state.round, log.events[-1].hash if log.events else "")
    if key not in _BOARDS:
        if len(_BOARDS) > 200:
            _BOARDS.clear()
        _BOARDS[key] = board_svg(log.state, cards=False, key=False, title=f"The board: round {log.state.round}")
    return _BOARDS[key]


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
    chosen: dict[str, str] | None = None,
) -> Response:
    """A seat's page; ``chosen``: a refused Add form's choices, selected again on the form."""
    session = request.cookies.get(COOKIE) or secrets.token_urlsafe(16)
    r = log.state.round
    closed = None
    over = log.fold.closed() is not None  # the game is over: its page says so, with the result
    try:
        log.check_round()  # the game open, round 1 after the setup (p.4)
    except LogError as exc:
        closed = f"No round can be entered now: {exc}."
        if over:  # the link no longer works
            status = 410
    draft = en.draft_of(store, game, r, clan)
    drafts = [] if over else [en.draft_of(store, game, r, str(c)) for c in log.state.clans]
    listed = en.read_list(log.state, draft.lines)  # the seat's tokens become entries once for the whole page
    left = [] if closed else en.left_of(log.state, clan, listed)
    count = en.count_of(log.state, clan, listed)
    seal_round = len(log.fold.rounds)
    response = html(
        "entry.html",
        status,
        game=game,
        clan=clan,
        round=r,
        draft=draft,
        closed=closed,
        over=over,
        result=public_score(log.fold) if over else None,
        message=message,
        refused=refused_msg,
        left=left,
        count=count,
        blessings=[] if count.full else [t for t, _ in left if t.startswith("blessing")],
        blessed=[en.blessings_of(e) for e in listed],
        provinces=sorted(log.state.board.provinces),
        chosen=chosen or {},
        board=board_picture(log) if not closed else "",
        # each clan's state once this seat submitted; their tokens once every clan has (the moderator sees all)
        others=drafts if draft.submitted or closed else [],
        everyone=bool(drafts) and all(d.submitted for d in drafts),
        seal_round=seal_round,
        seal=en.seal_of(store, game, seal_round) if seal_round else None,
        base=f"/e/{secret}",
        csrf=en.csrf_token(secret, session),
        refresh=REFRESH,
    )
    secure = request.url.scheme == "https"  # over TLS (or a TLS proxy): never sent back in plain HTTP
    response.set_cookie(COOKIE, session, httponly=True, samesite="strict", path=f"/e/{secret}", secure=secure)
    return response


@router.get("/e/{secret}", response_class=HTMLResponse)
def seat_page(secret: str, request: Request):
    seat = open_link(request, secret)
    if isinstance(seat, Response):
        return seat
    return _page(request, secret, *seat)


async def _form(request: Request) -> dict[str, str] | Response:
    declared = request.headers.get("content-length")
    if declared is not None and ((size := whole(declared)) is None or size > MAX_BODY):
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


class _Refusal(Exception):
    """A form naming what is not there (an index past the list): its page, nothing written."""

    def __init__(self, response: Response):
        self.response = response


def _index(form: dict[str, str], lines: list[str]) -> int:
    index = whole(form.get("index", ""))
    if index is None or index >= len(lines):
        raise _Refusal(refused("There is no such token in your list: reload the page.", 400, "Not in your list"))
    return index


def _add(log: OpenGame, clan: str, lines: list[str], form: dict[str, str]) -> None:
    lines.append(en.check_token(log.state, clan, lines, _line(clan, form)))


def _remove(log: OpenGame, clan: str, lines: list[str], form: dict[str, str]) -> None:
    del lines[_index(form, lines)]


def _bless(log: OpenGame, clan: str, lines: list[str], form: dict[str, str]) -> None:
    """A blessing put on a token already listed (its line gets ``+ blessing``), checked as that line typed."""
    i, blessing = _index(form, lines), form.get("blessing", "").strip()
    if not blessing:
        raise en.EntryRefused("choose a blessing")
    others = lines[:i] + lines[i + 1 :]
    lines[i] = en.check_token(log.state, clan, others, f"{lines[i]} + {blessing}")


def _unbless(log: OpenGame, clan: str, lines: list[str], form: dict[str, str]) -> None:
    """One blessing taken off a listed token (a blessing pressed beside the wrong token is put right)."""
    i = _index(form, lines)
    lines[i] = en.without_blessing(log.state, clan, lines, i, form.get("blessing", "").strip())


EDITS: dict[str, Callable[[OpenGame, str, list[str], dict[str, str]], None]] = {
    "add": _add,
    "remove": _remove,
    "bless": _bless,
    "unbless": _unbless,
}
SUBMITS = {"submit": True, "reopen": False}


def _round_of(store, game: str, r: int, form: dict[str, str], back: str = "") -> Response | None:
    """The refusal of a form that cannot be read or names another round than the one being entered."""
    version, round_no = whole(form.get("version", "")), whole(form.get("round", ""))
    if version is None or round_no is None:
        return refused("This form could not be read: reload the page.", 400, "Form not readable", back=back)
    if round_no != r:
        seal = en.seal_of(store, game, round_no) if 0 < round_no < r else None
        done = f" (recorded, seal {seal})" if seal else ""
        return refused(f"Round {round_no} is closed{done}: the game is at round {r}.", 409, "Round closed", back=back)
    return None


async def checked_form(request: Request, secret: str, moderator: bool = False):
    """(form, (store, game, clan, log)) of a posted form: its size, its link, its CSRF token and the game open
    for a round; or the page refusing it."""
    form = await _form(request)
    if isinstance(form, Response):
        return form
    seat = open_link(request, secret, moderator)
    if isinstance(seat, Response):
        return seat
    back = f"/m/{secret}" if moderator else f"/e/{secret}"  # the link works: only the form is refused
    if not en.csrf_ok(secret, request.cookies.get(COOKIE, ""), form.get("csrf", "")):
        return refused("This form has expired or did not come from your page.", 403, "Form expired", moderator, back)
    try:
        seat[3].check_round()
    except LogError as exc:
        return refused(f"No round can be entered now: {exc}.", 409, "Round closed", moderator, back)
    return form, seat


@router.post("/e/{secret}/{action}", response_class=HTMLResponse)
async def seat_action(secret: str, action: str, request: Request):
    if action not in EDITS and action not in SUBMITS:
        return refused("There is no such action.", 404, "No such action")
    checked = await checked_form(request, secret)
    if isinstance(checked, Response):
        return checked
    form, (store, game, clan, log) = checked
    r = log.state.round
    wrong = _round_of(store, game, r, form, f"/e/{secret}")
    if wrong is not None:
        return wrong
    draft = en.draft_of(store, game, r, clan)
    lines = list(draft.lines)
    try:
        if draft.submitted and action in EDITS:
            raise en.EntryRefused("your tokens are submitted: press 'Change my tokens' first")
        if action in EDITS:
            EDITS[action](log, clan, lines, form)
        submitted = SUBMITS.get(action, draft.submitted)
        en.write_draft(store, draft, lines, submitted, int(form["version"]), "phone")
    except _Refusal as exc:
        return exc.response
    except en.DraftStale as exc:
        now = exc.draft.lines if exc.draft else ()
        message = f"Not written: {exc}. Your list is now: {'; '.join(now) or 'empty'}."
        return _page(request, secret, store, game, clan, log, message, True, 409)
    except (NotationError, RefereeError, LogError) as exc:
        chosen = form if action == "add" else None
        return _page(request, secret, store, game, clan, log, str(exc).splitlines()[0], True, 422, chosen)
    return RedirectResponse(f"/e/{secret}", status_code=303)


@router.get("/e/{secret}/places")
def seat_places(secret: str, request: Request, token: str = "", to: str = ""):
    """Where ``token`` can go in province ``to`` this round, as the engine checks it with the clan's list so
    far: ``@`` and each border (the sea, each neighbouring province) the one check of a token accepts, in
    that order; with the refusal of ``@`` when nothing is accepted. Nothing is written."""
    seat = open_link(request, secret)
    if isinstance(seat, Response):
        return seat
    store, game, clan, log = seat
    board = log.state.board
    if len(token) > 40 or to not in board.provinces:
        return JSONResponse({"places": [], "refused": "tap a province on the board"})
    lines = list(en.draft_of(store, game, log.state.round, clan).lines)
    sources = ["", *(["sea"] if board.provinces[to].coastal else []), *sorted(board.neighbours.get(to, ()))]
    places, first_refusal = [], ""
    for source in sources:
        try:
            line = en.check_token(log.state, clan, lines, _line(clan, {"token": token, "to": to, "from": source}))
        except (NotationError, RefereeError) as exc:
            first_refusal = first_refusal or str(exc).splitlines()[0]
            continue
        places.append({"from": source, "line": line})
    return JSONResponse({"places": places, "refused": "" if places else first_refusal})


SCRIPT = files("referee.web").joinpath("static", "entry.js")


@router.get("/static/entry.js")
def entry_script():
    """The seat page's taps (progressive enhancement: the page's forms work without it)."""
    return Response(
        SCRIPT.read_text(encoding="utf-8"),
        media_type="text/javascript",
        headers={"Cache-Control": "public, max-age=300"},
    )


def _line(clan: str, form: dict[str, str]) -> str:
    """The notation line of an added token: ``clan: token @ to`` or ``clan: token from > to`` (+ blessing)."""
    token, to, source, blessing = (form.get(k, "").strip() for k in ("token", "to", "from", "blessing"))
    if not token or not to:
        raise en.EntryRefused("choose a token and a province")
    place = f"@ {to}" if not source else f"{source} > {to}"
    return f"{clan}: {token} {place}" + (f" + {blessing}" if blessing else "")
