"""The phone entry of a round: per-seat links and the players' drafts, kept in the event store.

- A **link** is a capability for one clan of one game: ``/e/<secret>``, the secret 192 random bits
  (``secrets.token_urlsafe(24)``). Only its SHA-256 is stored: the link's own stream (kind ``entry-link``),
  whose id is that hash; its first event ``LinkIssued`` names the game and the clan, a ``LinkRevoked`` event
  ends it. A link works while it is not revoked and its game is not over.
- A **draft** is what one clan has entered for one round: its own stream (kind ``entry-draft``), every change
  an event ``DraftChanged`` holding the whole list after the change, who made it (``phone`` or ``moderator``)
  and whether it is submitted. A writer names the version it read (the number of events); a write on another
  version is refused with what the other writer wrote (``DraftChanged`` error): the store's ``(stream, seq)``
  key makes the same check when two writers race. A draft's write does not wait for the disk (``Store.insert``
  ``synced=False``): a killed or restarted server loses none; a power cut may lose its last moments, as the
  phones' own screens show what they hold. Links (issued, revoked) and rounds are written synced.
- Nothing here records a round: the moderator's confirmation merges the drafts into a sheet, in seat order,
  and records it through ``OpenGame.read_round``/``record_sheet``, exactly as a typed sheet.

Both kinds live in their own family of tables (``entry``/``entry_event``): the games' list never shows them.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import secrets
import threading
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Any

from ...core.errors import RefereeError
from ...engine.battle import (
    Clan,
    Entry,
    GameState,
    Kind,
    NotationError,
    PlacementCount,
    Token,
    begin_round,
    describe_inventory,
    format_entry,
    parse_entry,
    placement_count,
)
from ...store.database import StoreError
from ...store.events import Event, LogError
from ...store.families import Family, UnknownGame
from ...store.storage import Store
from .fold import Fold
from .round_identity import last_seal
from .service import OpenGame, RoundSheet, check_token as game_check_token

LINK_KIND = "entry-link"
DRAFT_KIND = "entry-draft"
LINK_ISSUED, LINK_REVOKED, DRAFT_CHANGED = "LinkIssued", "LinkRevoked", "DraftChanged"
SECRET_BYTES = 24  # 192 bits
MODERATOR = "moderator"  # the moderator's link of a game: its table's page (``/m/<secret>``), no clan's seat


class DraftStale(LogError):
    """A draft written on a version that is no longer the last: nothing written."""

    def __init__(self, stream: str, seq: int):
        self.stream, self.seq = stream, seq
        self.draft: Draft | None = None
        super().__init__("this list was changed meanwhile (on another phone or by the moderator); nothing written")


def _changed(stream: str, seq: int) -> LogError:
    return DraftStale(stream, seq)


ENTRY = Family(
    "entry",
    "entry_event",
    "stream_id",
    "entry_event_seq",
    "the entry log is append-only",
    "referee_entry_append_only",
    changed=_changed,
    kinds=True,
)


def link_hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def draft_id(game: str, round_no: int, clan: str) -> str:
    return "d-" + hashlib.sha256(f"{game}\n{round_no}\n{clan}".encode()).hexdigest()[:40]


def csrf_token(secret: str, session: str) -> str:
    """A form's token: bound to the seat's link and the browser's session cookie."""
    return hmac.new(secret.encode(), b"csrf\n" + session.encode(), hashlib.sha256).hexdigest()


def csrf_ok(secret: str, session: str, token: str) -> bool:
    return bool(session) and bool(token) and hmac.compare_digest(csrf_token(secret, session), token)


@dataclass(frozen=True, slots=True)
class Link:
    game: str
    clan: str
    hash: str
    issued_at: str
    revoked: bool


@dataclass(frozen=True, slots=True)
class Draft:
    game: str
    round: int
    clan: str
    lines: tuple[str, ...] = ()
    submitted: bool = False
    version: int = 0  # events in the draft's stream
    by: str = ""
    at: str = ""

    @property
    def state(self) -> str:
        return "submitted" if self.submitted else "entering" if self.version else "not started"


class EntryRefused(RefereeError):
    """A link or a write the phone entry refuses, said in one line."""


# --- links ------------------------------------------------------------------------------------------
def links_of(store: Store, game: str) -> list[Link]:
    """Every link issued for ``game``, oldest first."""
    out = []
    for info in store.games(ENTRY, kind=LINK_KIND):
        if info.header.get("game") == game:
            out.append(Link(game, info.header["clan"], info.game, info.created_at, info.events > 1))
    return out


def issue_link(store: Store, game: str, clan: str) -> str:
    """A new link for ``clan`` of ``game`` (or its ``MODERATOR``; the live links of that seat revoked first);
    returns the secret, which is never stored."""
    log = OpenGame(store, game)
    clans = [str(c) for c in log.state.clans]
    if clan not in clans and clan != MODERATOR:
        raise EntryRefused(f"game {game!r}: {clan!r} does not play in this game ({', '.join(clans)})")
    log.check_open()
    revoke(store, game, clan)
    secret = secrets.token_urlsafe(SECRET_BYTES)
    store.append(link_hash(secret), [(LINK_ISSUED, {"game": game, "clan": clan})], None, kind=LINK_KIND, family=ENTRY)
    return secret


def seat_url(base: str, secret: str, clan: str = "") -> str:
    """A seat's link: the address the phones reach `referee serve --entry` by, then ``/e/<secret>`` (the
    moderator's: ``/m/<secret>``)."""
    return f"{base.rstrip('/')}/{'m' if clan == MODERATOR else 'e'}/{secret}"


@dataclass(frozen=True, slots=True)
class TableLinks:
    """The links of every seat of one game, issued at once: shown once (only their hashes are stored)."""

    game: str
    urls: dict[str, str]  # clan -> link, in seat order, then the moderator's
    revoked: int  # the live links these replace (each revoked by ``issue_link``)


def issue_table_links(store: Store, game: str, base: str) -> TableLinks:
    """A new link for every seat of ``game``, each through ``issue_link`` (which revokes the seat's live link
    first); ``EntryRefused``/``LogError`` when the game is over."""
    OpenGame(store, game).check_open()
    live = sum(1 for link in links_of(store, game) if not link.revoked)
    seats = [*(str(c) for c in OpenGame(store, game).state.clans), MODERATOR]
    urls = {c: seat_url(base, issue_link(store, game, c), c) for c in seats}
    return TableLinks(game, urls, live)


def revoke(store: Store, game: str, clan: str) -> int:
    """Revoke every live link of ``clan`` in ``game``; how many were revoked."""
    n = 0
    for link in links_of(store, game):
        if link.clan == clan and not link.revoked:
            last = store.events(link.hash, ENTRY)[-1]
            store.append(link.hash, [(LINK_REVOKED, {"clan": clan})], last, family=ENTRY)
            n += 1
    return n


def seat_of(store: Store, secret: str) -> tuple[str, str]:
    """The (game, clan) a secret opens; ``EntryRefused`` for an unknown or revoked link, or a finished game."""
    if not secret or len(secret) > 100:
        raise EntryRefused("this entry link is not known: ask the moderator for your seat's link")
    events = _stream(store, link_hash(secret))
    if not events or events[0].type != LINK_ISSUED:
        raise EntryRefused("this entry link is not known: ask the moderator for your seat's link")
    if any(e.type == LINK_REVOKED for e in events):
        raise EntryRefused("this entry link was revoked: ask the moderator for your seat's new link")
    first = events[0].payload
    return first["game"], first["clan"]


# --- the games the pages read -----------------------------------------------------------------------
class SharedGame(OpenGame):
    """A game as read at one chain head, shared by the requests of a server: read only (a write opens the
    game, ``OpenGame``, and moves its own fold on)."""

    def __init__(self, store: Store, game: str, events: list[Event]):
        self.store, self.game, self.events = store, game, events
        self.fold = Fold.of(events)
        self._checked: LogError | None | bool = False  # check_round()'s answer at this head, once asked

    def check_round(self, round: int | None = None) -> None:
        """As the game's (the answer for the next round is kept: this log does not move)."""
        if round is not None:
            return super().check_round(round)
        if self._checked is False:
            try:
                super().check_round()
                self._checked = None
            except LogError as exc:
                self._checked = exc
        if isinstance(self._checked, LogError):
            raise copy.copy(self._checked)
        return None

    def reload(self) -> None:
        raise TypeError("a shared game is read only: open the game (OpenGame) to write")

    def _append(self, type_: str, payload: dict[str, Any], outcome=None) -> Event:
        raise TypeError("a shared game is read only: open the game (OpenGame) to write")


class Games:
    """Games read and folded once per chain head: a request asks the game's head (one short query) and
    folds the log again only when it moved. The log only grows and every append is version-checked, so the
    head's hash names the whole log; thread-safe, at most ``size`` games kept."""

    def __init__(self, size: int = 256):
        self.size, self.lock = size, threading.Lock()
        self.items: OrderedDict[tuple[int, str], SharedGame] = OrderedDict()

    def read(self, store: Store, game: str) -> SharedGame:
        key = (id(store), game)
        head = store.head(game)
        with self.lock:
            hit = self.items.get(key)
            if hit is not None and hit.store is store and hit.events[-1].hash == head:
                self.items.move_to_end(key)
                return hit
        log = SharedGame(store, game, store.events(game))
        with self.lock:
            self.items[key] = log
            while len(self.items) > self.size:
                self.items.popitem(last=False)
        return log


# --- drafts -----------------------------------------------------------------------------------------
def _stream(store: Store, stream: str) -> list[Event]:
    """A link's or a draft's events, none when there is no such stream: one query when there is. When the first
    read finds none, the stream is asked for first and its events read after: a writer creating it between the
    store's two reads (its events, then whether it exists) would otherwise read as a stream without events."""
    try:
        return store.events(stream, ENTRY)
    except (UnknownGame, StoreError):
        return store.events(stream, ENTRY) if store.exists(stream, ENTRY) else []


def _draft_events(store: Store, game: str, round_no: int, clan: str) -> list[Event]:
    return _stream(store, draft_id(game, round_no, clan))


def draft_of(store: Store, game: str, round_no: int, clan: str) -> Draft:
    events = _draft_events(store, game, round_no, clan)
    if not events:
        return Draft(game, round_no, clan)
    p = events[-1].payload
    return Draft(game, round_no, clan, tuple(p["lines"]), p["submitted"], len(events), p["by"], events[-1].recorded_at)


def history(store: Store, game: str, round_no: int, clan: str) -> list[Draft]:
    """Every version of a draft: who entered what, when (for a dispute)."""
    out = []
    for i, e in enumerate(_draft_events(store, game, round_no, clan), 1):
        p = e.payload
        out.append(Draft(game, round_no, clan, tuple(p["lines"]), p["submitted"], i, p["by"], e.recorded_at))
    return out


def write_draft(store: Store, draft: Draft, lines: list[str], submitted: bool, version: int, by: str) -> Draft:
    """Write a new version of a draft read at ``version``; a stale version is refused (``DraftStale``, with
    the draft as the other writer left it). ``lines`` were made from ``draft``: a draft read at another
    version than ``version`` (the one its writer saw) is refused too, so that an edit is never applied to
    a list its writer did not see."""
    events = _draft_events(store, draft.game, draft.round, draft.clan)
    stream = draft_id(draft.game, draft.round, draft.clan)
    payload: dict[str, Any] = {
        "game": draft.game,
        "round": draft.round,
        "clan": draft.clan,
        "lines": list(lines),
        "submitted": submitted,
        "by": by,
    }
    try:
        if len(events) != version or draft.version != version:
            raise DraftStale(stream, len(events))
        if events:
            written = store.append(stream, [(DRAFT_CHANGED, payload)], events[-1], family=ENTRY, synced=False)
        else:
            written = store.append(
                stream, [(DRAFT_CHANGED, payload)], None, kind=DRAFT_KIND, family=ENTRY, synced=False
            )
    except (DraftStale, LogError) as exc:
        if not isinstance(exc, DraftStale) and store.head(stream, ENTRY) == (events[-1].hash if events else None):
            raise
        stale = exc if isinstance(exc, DraftStale) else DraftStale(stream, version)
        stale.draft = draft_of(store, draft.game, draft.round, draft.clan)
        raise stale from None
    return Draft(draft.game, draft.round, draft.clan, tuple(lines), submitted, version + 1, by, written[-1].recorded_at)


# --- the engine's answers ---------------------------------------------------------------------------
def check_token(state: GameState, clan: str, lines: list[str], line: str) -> str:
    """One token added to a clan's list, checked by the game service's one check of a token entered
    (``game.check_token``, as `referee round` checks a typed line): its canonical line, or ``RefereeError``
    with the same one-line reasons (R-08, the notation's own message)."""
    entry = game_check_token(state, lines, line)
    if str(entry.clan) != clan:
        raise EntryRefused(f"round {state.round}, {clan}: a seat enters its own clan's tokens only")
    return format_entry(entry)


def read_list(state: GameState, lines: list[str] | tuple[str, ...]) -> tuple[Entry | None, ...]:
    """Each token of a clan's list as the engine reads it, read once (``None``: a line that no longer reads,
    which no count takes and the round's check names)."""
    out: list[Entry | None] = []
    for line in lines:
        try:
            out.append(parse_entry(line, state.board))
        except NotationError:
            out.append(None)
    return tuple(out)


def left_of(state: GameState, clan: str, entries: tuple[Entry | None, ...]) -> list[tuple[str, int]]:
    """The clan's tokens still available this round (the engine's inventory less its list read, ``entries``)."""
    avail = dict(describe_inventory(begin_round(state), Clan(clan))["available"])
    for e in entries:
        if e is None:
            continue
        for t in (e.token, *(Token(Kind.BLESSING, b) for b in e.blessings)):
            avail[str(t)] = avail.get(str(t), 0) - 1
    return [(t, n) for t, n in avail.items() if n > 0]


def count_of(state: GameState, clan: str, entries: tuple[Entry | None, ...]) -> PlacementCount:
    """The tokens a clan's list (read once, ``read_list``) places, blessings included, against how many it
    places this round (p.7): the one count the phone, the moderator's page, `referee confirm` and `referee
    table`'s `phones` show (``4 of 5``). A line that no longer reads is not counted (the round's check names
    it)."""
    return placement_count(begin_round(state), Clan(clan), [e for e in entries if e is not None])


def count_said(count: PlacementCount) -> str:
    """A clan's count as the moderator's commands print it: ``4 of 5 tokens; 1 missing: exactly 5 ...``."""
    return count.tokens() + (f"; {count.needs()}" if count.missing else "")


def blessings_of(entry: Entry | None) -> list[str]:
    """The blessings written on a listed token read already (``blessing 3``...)."""
    return [] if entry is None else [str(Token(Kind.BLESSING, b)) for b in entry.blessings]


def blessings_on(state: GameState, line: str) -> list[str]:
    """The blessings written on a listed token (``blessing 3``...), as the notation reads its line."""
    return blessings_of(read_list(state, [line])[0])


def without_blessing(state: GameState, clan: str, lines: list[str], index: int, blessing: str) -> str:
    """A listed token's line with one of its blessings taken off, checked as that line typed."""
    line = lines[index]
    if blessing not in blessings_on(state, line):
        raise EntryRefused(f"round {state.round}, {clan}: {line.split(': ', 1)[-1]} carries no {blessing}")
    e = parse_entry(line, state.board)
    kept = list(e.blessings)
    kept.remove(int(blessing.split()[-1]))
    retyped = format_entry(Entry(e.clan, e.token, e.province, e.source, tuple(kept)))
    return check_token(state, clan, lines[:index] + lines[index + 1 :], retyped)


# --- the moderator ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TableState:
    game: str
    round: int
    drafts: tuple[Draft, ...]
    sheet: str  # the merged sheet, seat order
    problems: tuple[str, ...]  # the placement check of the whole round (once every clan submitted)
    closed: str | None  # why no round can be entered (the game over), else None
    counts: tuple[PlacementCount, ...] = ()  # each draft's tokens, blessings included (``count_of``)
    # once every clan submitted and the round passes its check: the round read and resolved on the open game's
    # fold, which records it as it is (``OpenGame.record_sheet``): the table's round is read and resolved once
    read: RoundSheet | None = field(default=None, compare=False, repr=False)

    @property
    def all_submitted(self) -> bool:
        return all(d.submitted for d in self.drafts)


def merged_sheet(round_no: int, drafts: list[Draft]) -> str:
    return "\n".join([f"round: {round_no}", *(line for d in drafts for line in d.lines)]) + "\n"


def table_state(log: OpenGame) -> TableState:
    """The table of an open game as the phones entered its round: each seat's draft, the merged sheet, and
    once every clan submitted, the round read, checked and resolved on the game's fold (``read``)."""
    store, game = log.store, log.game
    r = log.state.round
    closed = None
    try:
        log.check_round()  # the game open, round 1 after the setup (p.4)
    except LogError as exc:
        closed = str(exc)
    drafts = [draft_of(store, game, r, str(c)) for c in log.state.clans]
    sheet = merged_sheet(r, drafts)
    lists = [read_list(log.state, d.lines) for d in drafts]  # each seat's tokens become entries once
    problems: list[str] = []
    read = None
    if closed is None and all(d.submitted for d in drafts):
        entries = [e for listed in lists for e in listed]
        try:
            if all(e is not None for e in entries):
                read = log.read_entries([e for e in entries if e is not None], r)
            else:  # a line that no longer reads: the sheet's reading names it, by its line of the merged sheet
                read = log.read_round(sheet, r)
        except (RefereeError, LogError) as exc:
            problems = str(exc).splitlines()
    counts = tuple(count_of(log.state, d.clan, listed) for d, listed in zip(drafts, lists, strict=True))
    return TableState(game, r, tuple(drafts), sheet, tuple(problems), closed, counts, read)


def seal_of(store: Store, game: str, round_no: int) -> str | None:
    return last_seal(store.events(game), round_no)
