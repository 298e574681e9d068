"""The event store: every event stream of the referee (a game of any kind, a tournament) in one database,
written, chained, read and verified by one piece of code (the games' services are their wings',
``referee.games``). ``Database`` (``database``) opens a database; ``families`` builds each family's tables;
``rows`` reads and writes an event's row.

- A *family* of streams is one pair of tables built by ``stream_tables``: games in ``game``/``event``,
  tournaments in ``tournament``/``tournament_event``. The store reads and writes every family the same way:
  ``append`` (chain items after the last event read), ``insert`` (the one insert), ``events`` (the one
  reader), ``head``; the chain is ``events.chain`` and its check ``events.check_chain`` for every family.
- The unique key ``(stream, seq)`` is the version check: of two writers appending event N, the loser gets
  the family's "changed" error (``GameChanged`` for a game) and nothing is lost.
- No code path updates or deletes an event, and the database refuses it: triggers created with the
  schema (SQLite ``RAISE(ABORT)``, PostgreSQL a plpgsql function) abort any UPDATE or DELETE.
- Default database: ``saves/referee.db`` (SQLite); ``REFEREE_DB`` or the ``url`` argument select
  another SQLAlchemy URL (a bare path means a SQLite file).

The kind contract (how a new game is added without touching the store):

- A game's **kind** names which game its log records (``referee.games.kinds`` names them; ``DEFAULT_KIND``:
  every game recorded before kinds existed). It is given once, when the game is created:
  ``store.append(game, items, None, kind=KIND)``; it is stored in the ``game`` row's
  ``kind`` column, is never changed, and is not part of any event or hash. ``store.kind(game)`` reads it,
  ``store.games()`` lists it (``GameInfo.kind``). An older database gets the column on open.
- ``store.append(game, items, after)`` and ``store.events(game)`` work for every kind. Items are
  ``(type, payload)``: the type a name of at most 40 characters, the payload a JSON object (stored as
  canonical JSON, hashed into the chain). A type a game declared (``events.declare``) is written at its
  current payload version, any other type at version 1.
- The store never reads a payload: folding, validating and verifying the events beyond their chain is the
  kind's own package (its rules pure, its service in ``referee/log`` or its own package), and a command
  that only knows one kind checks ``store.kind(game)`` before folding.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import groupby
from typing import Any

from sqlalchemy import (
    func,
    select,
    text,
)
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from . import events as ev
from .database import (
    Database,
    StoreError,
)
from .events import DEFAULT_KIND, Event
from .families import GAMES, Family, UnknownGame
from .rows import _driver_query, _event, _row, _unsynced


# --- the store: every family's streams, read and written --------------------------------------------------
def utc_now() -> str:
    """The database's clock for a recorded row: UTC, to the second."""
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class GameInfo:
    """One game in the database, as `referee games` lists it."""

    game: str
    created_at: str
    events: int
    header: dict[str, Any]  # the first event's payload (a game's GameCreated, current version)
    kind: str = DEFAULT_KIND  # which game (a tournament: the default, unused)


class Store(Database):
    """One database of games and every other stream: read and written by family (``Database`` opens it).
    Use as a context manager, or call ``close()``."""

    def __init__(self, url: str | None = None, *, create: bool = True):
        self._reader: Connection | None = None  # head()'s connection, kept between askings
        self._ask_head: Callable[[str], Any] | None = None  # head()'s query on that connection's driver
        self._owner = threading.get_ident()  # the thread head()'s kept connection serves (the one that opened)
        super().__init__(url, create=create)

    def close(self) -> None:
        self._close_reader()
        super().close()

    # --- reading (every family) -----------------------------------------------------------------------
    def exists(self, game: str, family: Family = GAMES) -> bool:
        with self._errors(), self.engine.connect() as conn:
            return conn.execute(self._family(family).select_exists, {"id": game}).first() is not None

    def events(self, game: str, family: Family = GAMES) -> list[Event]:
        """A stream's events in order (``UnknownGame``, or the family's own error, when there is none)."""
        with self._errors(), self.engine.connect() as conn:
            rows = conn.execute(self._family(family).select_events, {"id": game}).all()
        if not rows:  # a stream row without events is never written here: a foreign or damaged file
            if self.exists(game, family):
                raise StoreError(
                    f"{self.where}: {family.stream} {game!r} has no events: not a referee database, or a damaged one",
                    hint="--db or REFEREE_DB selects another database",
                )
            raise family.unknown(game, self.where)
        return [_event(r) for r in rows]

    def kind(self, game: str) -> str:
        """Which game a game's log records (``DEFAULT_KIND`` for a game recorded before games had kinds)."""
        if ("game", "kind") in self.unmigrated:
            if not self.exists(game):
                raise UnknownGame(game, self.where)
            return DEFAULT_KIND
        with self._errors(), self.engine.connect() as conn:
            found = conn.execute(text("SELECT kind FROM game WHERE id = :id"), {"id": game}).scalar()
        if found is None:
            raise UnknownGame(game, self.where)
        return str(found)

    def head(self, game: str, family: Family = GAMES) -> str | None:
        """The hash of the stream's last event (None: no such stream): one short query, to see whether
        another moderator wrote since a session last read the game. A table session asks before every
        line, so a game's query runs on a connection kept for it, in autocommit: each asking sees the latest
        write and holds no lock between lines (an in-memory database has one connection: asked on it). The
        kept connection serves the thread that opened the store only: a web server's threads share the store,
        and each of their askings takes a pooled connection of its own."""
        query = self._family(family).select_head
        if self.memory or family is not GAMES or threading.get_ident() != self._owner:  # a web server's threads
            with self._errors(), self.engine.connect() as conn:
                return conn.execute(query, {"id": game}).scalar()
        if self._ask_head is not None:
            try:
                return self._ask_head(game)
            except Exception:  # the database's own error: asked again below, where it is named
                self._close_reader()
        with self._errors():
            if self._reader is None:
                self._reader = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            try:
                head = self._reader.execute(query, {"id": game}).scalar()
            except Exception:
                self._close_reader()  # the next asking connects again
                raise
            self._ask_head = _driver_query(self._reader, query, "id")
            return head

    def _close_reader(self) -> None:
        reader, self._reader, self._ask_head = self._reader, None, None
        if reader is not None:
            with suppress(Exception):  # closing a broken connection may fail too: nothing to keep
                reader.close()

    def stream(self, family: Family = GAMES) -> Iterator[list[Event]]:
        """Every stream's events, one stream at a time, without holding the whole database in memory."""
        with self._errors(), self.engine.connect() as conn:
            result = conn.execution_options(yield_per=2000).execute(self._event_query(family))
            for _, rows in groupby(result, key=lambda r: r[0]):
                yield [_event(r) for r in rows]

    def _event_query(self, family: Family):
        table = self._family(family).tables[1]
        return select(*[table.c[c] for c in family.columns]).order_by(table.c[family.key], table.c.seq)

    def games(self, family: Family = GAMES, kind: str | None = None) -> list[GameInfo]:
        """Every stream of the family, oldest first, with its event count, kind and first event's payload;
        ``kind``: only the streams of that kind (a family that records kinds), the others never read."""
        streams, events = self._family(family).tables
        key = events.c[family.key]
        kinds = [streams.c.kind] if family.kinds and ("game", "kind") not in self.unmigrated else []
        listed = select(streams.c.id, streams.c.created_at, *kinds).order_by(streams.c.created_at, streams.c.id)
        count, first = select(key, func.count()).group_by(key), self._event_query(family).where(events.c.seq == 1)
        if kind is not None:
            if not kinds:
                raise ValueError(f"the {family.stream} streams record no kind")
            listed = listed.where(streams.c.kind == kind)
            ids = select(streams.c.id).where(streams.c.kind == kind)
            count, first = count.where(key.in_(ids)), first.where(key.in_(ids))
        with self._errors(), self.engine.connect() as conn:
            counts = conn.execute(count).all()
            heads = conn.execute(first).all()
            rows = conn.execute(listed).all()
        for g, at, *_ in rows:
            if not isinstance(g, str) or not isinstance(at, str):
                raise StoreError(
                    f"{self.where} is not a referee database, or a damaged one: "
                    f"a {family.stream} row holds {g!r}, {at!r}",
                    hint="--db or REFEREE_DB selects another database",
                )
        n: dict[str, int] = dict(counts)  # type: ignore[arg-type]  # (stream, count) rows
        header = {r[0]: _event(r) for r in heads}
        out = []
        for g, at, *rest in rows:
            kind = rest[0] if rest else DEFAULT_KIND
            first = header.get(g)
            payload = {} if first is None else first.data if family.kinds and kind == DEFAULT_KIND else first.payload
            out.append(GameInfo(g, at, n.get(g, 0), payload, kind))
        return out

    def last_seqs(self, games: Sequence[str], family: Family = GAMES) -> dict[str, int]:
        """The number of events of each of ``games`` that exists (asked 500 at a time)."""
        streams, events = self._family(family).tables
        key = events.c[family.key]
        rows: list[Any] = []
        with self._errors(), self.engine.connect() as conn:
            for i in range(0, len(games), 500):
                chunk = list(games[i : i + 500])
                rows += conn.execute(select(key, func.max(events.c.seq)).where(key.in_(chunk)).group_by(key)).all()
        return {g: int(n) for g, n in rows}

    # --- writing (inserts only, every family) ----------------------------------------------------------
    def append(
        self,
        game: str,
        items: Sequence[tuple[str, dict[str, Any]]],
        after: Event | None,
        *,
        kind: str | None = None,
        family: Family = GAMES,
        synced: bool = True,
    ) -> list[Event]:
        """Chain ``(type, payload)`` items after ``after`` (None: a new stream, of ``kind`` for a game) and
        insert them at once; the unique ``(stream, seq)`` key refuses them all if another writer was first.
        ``synced``: see ``insert``."""
        if after is not None and self.head(game, family) is None:  # never without events: asked as a session asks
            raise family.unknown(game, self.where)
        if kind is not None and (after is not None or not family.kinds):
            raise ValueError("a kind is given when a game is created, and only to a game")
        now = utc_now()
        out: list[Event] = []
        for type_, payload in items:
            after = ev.chain(game, after, type_, payload, version=family.version(type_), recorded_at=now)
            out.append(after)
        self.insert([out], family, kind=kind or DEFAULT_KIND, synced=synced)
        return out

    def import_logs(self, logs: Iterable[Sequence[Event]], family: Family = GAMES, kind: str = DEFAULT_KIND) -> int:
        """Store whole, already chained (and verified) logs as new streams, in one transaction."""
        whole = [list(log) for log in logs]
        for log in whole:
            if self.exists(log[0].game, family):
                raise family.exists(log[0].game, self.where)
        self.insert(whole, family, kind=kind)
        return len(whole)

    def insert(
        self, logs: list[list[Event]], family: Family = GAMES, kind: str = DEFAULT_KIND, synced: bool = True
    ) -> None:
        """The one insert: chained events, each list new events of one stream (from seq 1: a new stream,
        refused if it exists; else refused if another writer took a seq first).

        ``synced=False`` (a phone's draft, never a record): the commit does not wait for the disk. The write
        is in the database as soon as it returns, so a killed or restarted server loses nothing; a power
        cut of the server's machine may lose the last moments of such writes, never a round nor anything
        written synced (SQLite: ``synchronous=NORMAL`` for this commit, which in WAL mode syncs at the
        next synced commit or checkpoint; PostgreSQL: ``synchronous_commit = off`` for this transaction)."""
        now = utc_now()
        new = logs[0][0].seq == 1
        streams = [{"id": log[0].game, "created_at": log[0].recorded_at or now, "kind": kind} for log in logs]
        rows = [_row(e, family.key) for log in logs for e in log]
        self._family(family)
        self._check_pages()
        try:
            with self._errors(), self.engine.connect() as conn, _unsynced(conn, not synced):
                if new:
                    conn.execute(family.insert_stream, streams)
                conn.execute(family.insert_events, rows)
                conn.commit()
        except IntegrityError:
            if new:
                raise family.exists(", ".join(log[0].game for log in logs), self.where) from None
            raise family.changed(logs[0][0].game, logs[0][0].seq) from None
