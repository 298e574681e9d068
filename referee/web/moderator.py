"""The moderator's page of a table (`referee serve --entry` only), behind the moderator's capability link
``/m/<secret>`` (`referee links` issues it, stored as a hash as the seats' links are): each clan's state
(not started / entering / submitted, the page refreshing itself), the merged sheet, the placement check of the
whole round once every clan submitted, an edit of any seat's list (version-checked against the phones: the
second write is refused with what the first wrote), and ``Resolve round N?``, which records the merged sheet
through the game service exactly as `referee confirm` and a typed sheet do (the round read and resolved once,
by ``table_state``, then ``record_sheet``). The phones then show the round's seal.

The same guards as a seat's page (``web.entry``): the link looked up by its hash, CSRF tokens bound to the
link and the session cookie, the body size and the per-link rate limits, every string escaped."""

from __future__ import annotations

import secrets

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from ..core.errors import RefereeError
from ..core.numerals import whole
from ..engine.battle import NotationError
from ..games.battle import entry as en
from ..games.battle.service import OpenGame
from ..store.events import LogError
from .entry import COOKIE, REFRESH, checked_form, open_link, refused
from .pages import html

router = APIRouter(include_in_schema=False)


def table_version(t: en.TableState) -> int:
    """The version of the whole table: the drafts' versions added up (any change to any draft changes it)."""
    return sum(d.version for d in t.drafts)


def _moderator_page(request: Request, secret: str, game: str, template: str, status: int = 200, **extra) -> Response:
    store = request.app.state.store
    session = request.cookies.get(COOKIE) or secrets.token_urlsafe(16)
    log = OpenGame(store, game)
    t = en.table_state(log)
    seal_round = len(log.fold.rounds)
    response = html(
        template,
        status,
        t=t,
        game=game,
        version=table_version(t),
        seal_round=seal_round,
        seal=en.seal_of(store, game, seal_round) if seal_round else None,
        base=f"/m/{secret}",
        csrf=en.csrf_token(secret, session),
        refresh=REFRESH,
        **extra,
    )
    secure = request.url.scheme == "https"  # over TLS (or a TLS proxy): never sent back in plain HTTP
    response.set_cookie(COOKIE, session, httponly=True, samesite="strict", path=f"/m/{secret}", secure=secure)
    return response


@router.get("/m/{secret}", response_class=HTMLResponse)
def table_page(secret: str, request: Request):
    seat = open_link(request, secret, moderator=True)
    if isinstance(seat, Response):
        return seat
    return _moderator_page(request, secret, seat[1], "moderator.html")


def _clan_of(log: OpenGame, clan: str) -> str | None:
    return clan if clan in [str(c) for c in log.state.clans] else None


@router.get("/m/{secret}/edit/{clan}", response_class=HTMLResponse)
def edit_page(secret: str, clan: str, request: Request):
    seat = open_link(request, secret, moderator=True)
    if isinstance(seat, Response):
        return seat
    store, game, _, log = seat
    if _clan_of(log, clan) is None:
        return refused(f"Game {game}: no clan {clan!r} plays at this table.", 404, "No such seat", True)
    draft = en.draft_of(store, game, log.state.round, clan)
    text = "\n".join(draft.lines)
    return _moderator_page(request, secret, game, "moderator_edit.html", draft=draft, text=text, ticked=draft.submitted)


def checked_lines(log: OpenGame, clan: str, text: str) -> tuple[list[str], list[str]]:
    """A list typed by the moderator for one seat, each line checked in turn as a phone's token is (the one
    check of a token entered): (the canonical lines, every refusal, one line each). A line may leave out its
    ``clan:``."""
    lines: list[str] = []
    problems: list[str] = []
    for typed in filter(None, (x.strip() for x in text.splitlines())):
        line = typed if ":" in typed else f"{clan}: {typed}"
        try:
            lines.append(en.check_token(log.state, clan, lines, line))
        except (NotationError, RefereeError) as exc:
            problems.append(f"{typed}: {str(exc).splitlines()[0]}")
    return lines, problems


@router.post("/m/{secret}/edit", response_class=HTMLResponse)
async def edit_seat(secret: str, request: Request):
    checked = await checked_form(request, secret, moderator=True)
    if isinstance(checked, Response):
        return checked
    form, (store, game, _, log) = checked
    clan, version, round_no = (form.get(k, "") for k in ("clan", "version", "round"))
    if _clan_of(log, clan) is None or whole(version) is None or round_no != str(log.state.round):
        said = "This form is out of date or could not be read: reload the table."
        return refused(said, 409, "Form out of date", True)
    draft = en.draft_of(store, game, log.state.round, clan)
    text = form.get("lines", "")
    lines, problems = checked_lines(log, clan, text)
    again = {"draft": draft, "text": text, "ticked": form.get("submitted") == "1"}  # the form shown as it was sent
    if problems:
        return _moderator_page(request, secret, game, "moderator_edit.html", 422, problems=problems, **again)
    try:
        en.write_draft(store, draft, lines, form.get("submitted") == "1", int(version), en.MODERATOR)
    except en.DraftStale as exc:
        now = exc.draft.lines if exc.draft else ()
        said = f"Not written: {exc}. {clan}'s list is now: {'; '.join(now) or 'empty'}."
        return _moderator_page(request, secret, game, "moderator_edit.html", 409, problems=[said], **again)
    return RedirectResponse(f"/m/{secret}", status_code=303)


@router.post("/m/{secret}/resolve", response_class=HTMLResponse)
async def resolve(secret: str, request: Request):
    """``Resolve round N?`` answered yes: the table as the moderator read it (its version) recorded through the
    game service, exactly as `referee confirm` records it."""
    checked = await checked_form(request, secret, moderator=True)
    if isinstance(checked, Response):
        return checked
    form, (store, game, _, log) = checked
    t = en.table_state(log)
    if form.get("round") != str(t.round) or form.get("version") != str(table_version(t)):
        message = "The table changed since this page was read (a seat's list, or the round): nothing recorded."
        return _moderator_page(request, secret, game, "moderator.html", 409, message=message)
    waiting = [d.clan for d in t.drafts if not d.submitted]
    if waiting or t.problems:
        said = f"Not every clan has submitted ({', '.join(waiting)})" if waiting else "; ".join(t.problems)
        return _moderator_page(request, secret, game, "moderator.html", 409, message=f"{said}: nothing recorded.")
    try:
        assert t.read is not None  # the game open (``checked_form``), every clan submitted, the round's check passed
        log.record_sheet(t.read)
    except (RefereeError, LogError) as exc:
        return _moderator_page(request, secret, game, "moderator.html", 409, message=str(exc).splitlines()[0])
    return RedirectResponse(f"/m/{secret}", status_code=303)
