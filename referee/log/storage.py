"""The event store: SQLModel tables ``game`` and ``event``, append-only for real (the game service is ``game``).

- The unique key ``(game_id, seq)`` is the concurrency guard: of two writers appending event N, the
  loser gets ``GameChanged`` and nothing is lost.
- No code path updates or deletes an event, and the database refuses it: triggers created with the
  schema (SQLite ``RAISE(ABORT)``, PostgreSQL a plpgsql function) abort any UPDATE or DELETE.
- Default database: ``saves/referee.db`` (SQLite); ``REFEREE_DB`` or the ``url`` argument select
  another SQLAlchemy URL (a bare path means a SQLite file).
"""

from __future__ import annotations

import json
import logging
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import groupby
from pathlib import Path
from typing import Any

from sqlalchemy import Text, TextClause, UniqueConstraint, create_engine, event as sa_event, func, inspect, text
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, IntegrityError
from sqlalchemy.pool import StaticPool
from sqlmodel import Field, SQLModel, select

from . import append_only, events as ev
from .events import Event, LogError
from .storage_errors import on_connect, storage_hint

DEFAULT_DB = Path("saves") / "referee.db"
ENV_DB = "REFEREE_DB"
SCHEMA_ATTEMPTS = 5  # creating the tables, when another process is creating them at the same moment
ENV_TIMEOUT = "REFEREE_DB_TIMEOUT"  # seconds a SQLite writer waits for a lock before giving up


class StoreError(LogError):
    """The database cannot be used (damaged, foreign, unreachable)."""


DOCTOR_HINT = "nothing more was written to it; `referee doctor` checks it page by page and game by game"
CREATE_HINT = (
    "`referee new GAME --clans ...` creates it (so do `referee tournament new`, `referee demo` and the two "
    "`import` commands); --db or REFEREE_DB selects another database"
)
SCHEMA_VERSION = 1  # SQLite: PRAGMA user_version; PostgreSQL: the comment on the event table
DAMAGED = ("malformed", "corrupt", "disk i/o error")  # SQLite's words for a damaged file


URL_HINT = (
    "--db or REFEREE_DB takes a SQLite file path or a SQLAlchemy URL, such as "
    "postgresql+psycopg://user:password@host/dbname (pip install 'psycopg[binary]')"
)


class UnknownGame(LogError):
    def __init__(self, game: str, where: str | None = None):
        self.game = game
        super().__init__(
            f"no game {game!r} in {where or 'this database'}",
            hint="`referee games` lists the games; --db or REFEREE_DB selects another database",
        )


class GameExists(LogError):
    def __init__(self, game: str, where: str | None = None):
        self.game = game
        super().__init__(f"a game {game!r} already exists in {where or 'this database'}")


class GameChanged(LogError):
    """Someone appended to the game between reading it and writing to it: nothing was recorded."""

    def __init__(self, game: str, seq: int):
        self.game = game
        self.seq = seq
        self.recorded: list[Event] = []  # what the other moderator recorded, when the game was read again
        super().__init__(
            f"game {game!r}: another moderator wrote to the game first (event {seq}); nothing of yours was recorded",
            hint=f"see what was recorded (referee show {game}) before entering anything again",
        )


# --- the tables -------------------------------------------------------------------------------------
class GameRow(SQLModel, table=True):
    __tablename__ = "game"
    id: str = Field(primary_key=True, max_length=64)
    created_at: str


class EventRow(SQLModel, table=True):
    __tablename__ = "event"
    __table_args__ = (UniqueConstraint("game_id", "seq", name="event_game_seq"),)
    id: int | None = Field(default=None, primary_key=True)
    game_id: str = Field(foreign_key="game.id", index=True, max_length=64)
    seq: int
    type: str = Field(max_length=40)
    payload_version: int
    payload: str = Field(sa_type=Text)  # canonical JSON
    prev_hash: str = Field(max_length=64)
    hash: str = Field(max_length=64)
    recorded_at: str = Field(max_length=40)


TABLES = [SQLModel.metadata.tables[GameRow.__tablename__], SQLModel.metadata.tables[EventRow.__tablename__]]
EVENT_COLUMNS = ("game_id", "seq", "type", "payload_version", "payload", "prev_hash", "hash", "recorded_at")

# The statements every command runs, as plain SQL that both backends take: SQLAlchemy would compile its
# expression forms again in each new process, which costs a one-shot command more than running them.
GAME_EXISTS = text("SELECT 1 FROM game WHERE id = :game")
EVENTS_OF_GAME = text(f"SELECT {', '.join(EVENT_COLUMNS)} FROM event WHERE game_id = :game ORDER BY seq")
HEAD_OF_GAME = text("SELECT hash FROM event WHERE game_id = :game ORDER BY seq DESC LIMIT 1")
INSERT_GAME = text("INSERT INTO game (id, created_at) VALUES (:id, :created_at)")
INSERT_EVENT = text(
    f"INSERT INTO event ({', '.join(EVENT_COLUMNS)}) VALUES ({', '.join(':' + c for c in EVENT_COLUMNS)})"
)


REFUSED = "the game log is append-only"
append_only.guard(TABLES, REFUSED, "referee_append_only")  # created with the schema, in the same transaction


# --- the store ----------------------------------------------------------------------------------------
def database_url(url: str | None = None) -> str:
    """The argument, else $REFEREE_DB, else saves/referee.db; a bare path is a SQLite file."""
    url = url or os.environ.get(ENV_DB) or str(DEFAULT_DB)
    return url if "://" in url else f"sqlite:///{url}"


def _lock_timeout() -> float:
    try:
        return max(0.0, float(os.environ.get(ENV_TIMEOUT, "30")))
    except ValueError:
        raise StoreError(f"{ENV_TIMEOUT}={os.environ[ENV_TIMEOUT]!r}: expected a number of seconds") from None


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True)
class GameInfo:
    """One game in the database, as `referee games` lists it."""

    game: str
    created_at: str
    events: int
    header: dict[str, Any]  # the GameCreated payload (current version)


class Store:
    """One database of games. Use as a context manager, or call ``close()``.

    ``create``: make the database (and the default ``saves/`` folder) when there is none; otherwise a
    missing database is an error and nothing is made. Either way a database that holds tables other than
    the referee's, or the referee's at an unknown schema version, is refused before anything is written."""

    def __init__(self, url: str | None = None, *, create: bool = True):
        self.url = database_url(url)
        self.create = create
        self.checked = False  # SQLite: the pages were checked before this store's first write
        self.memory = False  # an in-memory SQLite database (one connection, shared)
        self._reader: Connection | None = None  # head()'s connection, kept between askings
        self._ask_head: Callable[[str], Any] | None = None  # head()'s query on that connection's driver
        self.where: str | None = re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", self.url)  # until the URL is understood
        try:
            parsed = make_url(self.url)
            self.is_sqlite = parsed.get_backend_name() == "sqlite"
            self.where = parsed.database if self.is_sqlite else parsed.render_as_string(hide_password=True)
            self.engine = self._engine(parsed)
            with self._errors():
                self._open()
        except (ArgumentError, ImportError, ValueError) as exc:  # an unknown scheme or driver, a bad URL option
            raise StoreError(f"{self.where}: not a usable database URL ({exc})", hint=URL_HINT) from None

    def _engine(self, parsed) -> Engine:
        if not self.is_sqlite:
            # psycopg logs a warning when an insert refused inside its pipeline is cleaned up ("error ignored
            # terminating <Pipeline>"): the refusal itself reaches the moderator as the referee's message, so
            # the driver's log line would only be a stray line on stderr.
            logging.getLogger("psycopg").addHandler(logging.NullHandler())
            return create_engine(self.url, pool_pre_ping=True)
        memory = self.memory = parsed.database in (None, "", ":memory:")
        if not memory:
            self._sqlite_file(Path(parsed.database))
        engine = create_engine(
            self.url,
            connect_args={"timeout": _lock_timeout(), "check_same_thread": False},
            **({"poolclass": StaticPool} if memory else {}),
        )
        sa_event.listen(engine, "connect", on_connect)
        return engine

    def _sqlite_file(self, path: Path) -> None:
        """A missing file is made only by a command that creates, and only the default folder is made."""
        if path.exists():
            if not path.is_file():
                raise StoreError(f"{path}: not a database file", hint="--db or REFEREE_DB selects another database")
            return
        if not self.create:
            raise StoreError(f"{path}: no database here", hint=CREATE_HINT)
        folder = path.parent
        if not folder.is_dir():
            if folder != DEFAULT_DB.parent:
                raise StoreError(
                    f"{path}: the folder {folder} does not exist",
                    hint="make it first, or name a database in an existing folder (--db or REFEREE_DB)",
                )
            try:
                folder.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise StoreError(
                    f"{path}: cannot make the database's folder ({exc.strerror or exc})",
                    hint="--db or REFEREE_DB selects another database",
                ) from None

    def _open(self) -> None:
        if self.is_sqlite and self._sqlite_ready():
            return
        for attempt in range(1, SCHEMA_ATTEMPTS + 1):
            fresh = not self._check_schema()
            if fresh and not self.create:
                raise StoreError(f"{self.where}: no referee tables in this database", hint=CREATE_HINT)
            try:
                SQLModel.metadata.create_all(self.engine, tables=TABLES)
                if fresh:
                    self._mark_version()
                break
            except DatabaseError as exc:  # moderators opening a new database at once: one creates the schema
                if attempt == SCHEMA_ATTEMPTS:
                    reason = str(getattr(exc, "orig", exc)).splitlines()[0]
                    raise StoreError(
                        f"{self.where}: cannot use this database ({reason})",
                        hint=storage_hint(reason),
                    ) from None
                time.sleep(0.05 * attempt)
        if self.is_sqlite:  # triggers dropped by hand come back on the next open
            with self.engine.begin() as conn:
                for table in TABLES:
                    for sql in append_only.sqlite_triggers(table.name, REFUSED):
                        conn.execute(text(sql))

    def _sqlite_ready(self) -> bool:
        """The everyday case in one query: both tables with every column, and their append-only triggers."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT m.type, m.name, c.name, (SELECT user_version FROM pragma_user_version) "
                    "FROM sqlite_master AS m LEFT JOIN pragma_table_info(m.name) AS c ON m.type = 'table'"
                )
            ).all()
        if any(kind == "table" and not is_referee_table(name) for kind, name, _, _ in rows) or any(
            version not in (0, SCHEMA_VERSION) for *_, version in rows
        ):
            return False  # the full check below names what is wrong
        named = [(kind, name, column) for kind, name, column, _ in rows]
        have = {(kind, name) for kind, name, _ in named}
        columns = {(table, column) for kind, table, column in named if kind == "table"}
        for table in TABLES:
            triggers = append_only.trigger_names([table.name], "sqlite")
            wanted = {("table", table.name)} | {("trigger", name) for name in triggers}
            if not wanted <= have or not {(table.name, c) for c in table.columns.keys()} <= columns:
                return False  # the full check below names what is missing, and makes what can be made
        return True

    def _check_schema(self) -> bool:
        """Refuse a database that is not the referee's (whole, before any write); whether it has any tables."""
        with self.engine.connect() as conn:
            found = inspect(conn)
            names = found.get_table_names()
            foreign = sorted(n for n in names if not is_referee_table(n))
            if foreign:
                raise StoreError(
                    f"{self.where} is not a referee database: it holds the table(s) {', '.join(foreign)}",
                    hint="--db or REFEREE_DB selects another database",
                )
            version = self._version(conn) if names else SCHEMA_VERSION
            if version not in (0, SCHEMA_VERSION):  # 0: written before the version was marked
                raise StoreError(
                    f"{self.where}: referee database schema version {version}, but this referee knows "
                    f"version {SCHEMA_VERSION}",
                    hint="a newer referee wrote it; upgrade to use it",
                )
            for table in TABLES:
                if found.has_table(table.name):
                    have = {c["name"] for c in found.get_columns(table.name)}
                    missing = sorted(set(table.columns.keys()) - have)
                    if missing:
                        raise StoreError(
                            f"{self.where} is not a referee database: its table {table.name!r} "
                            f"lacks {', '.join(missing)}"
                        )
            return bool(names)

    def _version(self, conn) -> int:
        if self.is_sqlite:
            return int(conn.execute(text("PRAGMA user_version")).scalar() or 0)
        comment = conn.execute(text("SELECT obj_description(to_regclass('event'), 'pg_class')")).scalar() or ""
        m = re.fullmatch(r"referee schema (\d+)", comment)
        return int(m.group(1)) if m else 0

    def _mark_version(self) -> None:
        with self.engine.begin() as conn:
            if self.is_sqlite:
                conn.execute(text(f"PRAGMA user_version = {SCHEMA_VERSION}"))
            else:
                conn.execute(text(f"COMMENT ON TABLE event IS 'referee schema {SCHEMA_VERSION}'"))

    def _check_pages(self) -> None:
        """SQLite, before this store's first write: a damaged file takes no more writes (quick_check reads
        every page: about 25 ms for a file of 10,000 games)."""
        if not self.is_sqlite or self.checked:
            return
        with self._errors(), self.engine.connect() as conn:
            rows = [r[0] for r in conn.execute(text("PRAGMA quick_check(5)")).all()]
        if rows != ["ok"]:
            raise StoreError(f"{self.where} is damaged: {rows[0]}", hint=DOCTOR_HINT)
        self.checked = True

    @contextmanager
    def _errors(self) -> Iterator[None]:
        try:
            yield
        except IntegrityError:
            raise
        except DatabaseError as exc:
            reason = str(getattr(exc, "orig", exc)).splitlines()[0]
            if self.is_sqlite and any(word in reason.lower() for word in DAMAGED):
                raise StoreError(f"{self.where} is damaged ({reason})", hint=DOCTOR_HINT) from None
            raise StoreError(
                f"{self.where}: cannot use this database ({reason})",
                hint=storage_hint(reason),
            ) from None

    def close(self) -> None:
        self._close_reader()
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- reading --------------------------------------------------------------------------------------
    def exists(self, game: str) -> bool:
        with self._errors(), self.engine.connect() as conn:
            return conn.execute(GAME_EXISTS, {"game": game}).first() is not None

    def events(self, game: str) -> list[Event]:
        with self._errors(), self.engine.connect() as conn:
            rows = conn.execute(EVENTS_OF_GAME, {"game": game}).all()
        if not rows:  # a game row without events is never written here: a foreign or damaged file
            if self.exists(game):
                raise StoreError(
                    f"{self.where}: game {game!r} has no events: not a referee database, or a damaged one",
                    hint="--db or REFEREE_DB selects another database",
                )
            raise UnknownGame(game, self.where)
        return [_event(r) for r in rows]

    def head(self, game: str) -> str | None:
        """The hash of the game's last event (None: no such game): one short query, to see whether
        another moderator wrote since a session last read the game. A table session asks before every
        line, so the query runs on a connection kept for it, in autocommit: each asking sees the latest
        write and holds no lock between lines (an in-memory database has one connection: asked on it)."""
        if self.memory:
            with self._errors(), self.engine.connect() as conn:
                return conn.execute(HEAD_OF_GAME, {"game": game}).scalar()
        if self._ask_head is not None:
            try:
                return self._ask_head(game)
            except Exception:  # the database's own error: asked again below, where it is named
                self._close_reader()
        with self._errors():
            if self._reader is None:
                self._reader = self.engine.connect().execution_options(isolation_level="AUTOCOMMIT")
            try:
                head = self._reader.execute(HEAD_OF_GAME, {"game": game}).scalar()
            except Exception:
                self._close_reader()  # the next asking connects again
                raise
            self._ask_head = _driver_query(self._reader, HEAD_OF_GAME, "game")
            return head

    def _close_reader(self) -> None:
        reader, self._reader, self._ask_head = self._reader, None, None
        if reader is not None:
            with suppress(Exception):  # closing a broken connection may fail too: nothing to keep
                reader.close()

    def stream(self) -> Iterator[list[Event]]:
        """Every game's events, one game at a time, without holding the whole database in memory."""
        with self._errors(), self.engine.connect() as conn:
            result = conn.execution_options(yield_per=2000).execute(self._event_query())
            for _, rows in groupby(result, key=lambda r: r.game_id):
                yield [_event(r) for r in rows]

    def _event_query(self):
        cols = [getattr(EventRow, c) for c in EVENT_COLUMNS]
        return select(*cols).order_by(EventRow.game_id, EventRow.seq)

    def games(self) -> list[GameInfo]:
        with self._errors(), self.engine.connect() as conn:
            counts = conn.execute(select(EventRow.game_id, func.count()).group_by(EventRow.game_id)).all()
            heads = conn.execute(self._event_query().where(EventRow.seq == 1)).all()
            rows = conn.execute(select(GameRow.id, GameRow.created_at).order_by(GameRow.created_at, GameRow.id)).all()
        for g, at in rows:
            if not isinstance(g, str) or not isinstance(at, str):
                raise StoreError(
                    f"{self.where} is not a referee database, or a damaged one: a game row holds {g!r}, {at!r}",
                    hint="--db or REFEREE_DB selects another database",
                )
        n = dict(counts)
        header = {r.game_id: _event(r) for r in heads}
        return [GameInfo(g, at, n.get(g, 0), header[g].data if g in header else {}) for g, at in rows]

    # --- writing (inserts only) ---------------------------------------------------------------------
    def append(self, game: str, items: Sequence[tuple[str, dict[str, Any]]], after: Event | None) -> list[Event]:
        """Chain ``(type, payload)`` items after ``after`` (None: a new game) and insert them at once."""
        if after is not None and self.head(game) is None:  # a game is never without events: asked as a session asks
            raise UnknownGame(game, self.where)
        now = _now()
        out: list[Event] = []
        for type_, payload in items:
            after = ev.chain(game, after, type_, payload, recorded_at=now)
            out.append(after)
        try:
            self._insert([out], new_game=out[0].seq == 1)
        except IntegrityError:
            if out[0].seq == 1:
                raise GameExists(game, self.where) from None
            raise GameChanged(game, out[0].seq) from None
        return out

    def import_logs(self, logs: Iterable[Sequence[Event]]) -> int:
        """Store whole, already chained (and verified) logs as new games, in one transaction."""
        whole = [list(log) for log in logs]
        for log in whole:
            if self.exists(log[0].game):
                raise GameExists(log[0].game, self.where)
        try:
            self._insert(whole, new_game=True)
        except IntegrityError:
            raise GameExists(", ".join(log[0].game for log in whole), self.where) from None
        return len(whole)

    def _insert(self, logs: list[list[Event]], new_game: bool) -> None:
        now = _now()
        games = [{"id": log[0].game, "created_at": log[0].recorded_at or now} for log in logs]
        rows = [_row(e) for log in logs for e in log]
        self._check_pages()
        with self._errors(), self.engine.begin() as conn:
            if new_game:
                conn.execute(INSERT_GAME, games)
            conn.execute(INSERT_EVENT, rows)


# The tournaments' tables and the venue's notices live in the same database; log/tournaments.py and
# log/venue.py create them on first use.
TOURNAMENT_TABLES = frozenset({"tournament", "tournament_event"})
VENUE_TABLES = frozenset({"venue_notice"})


def is_referee_table(name: str) -> bool:
    return (
        name in {t.name for t in TABLES}
        or name in TOURNAMENT_TABLES
        or name in VENUE_TABLES
        or name.startswith("sqlite_")  # sqlite_sequence, sqlite_stat1...
    )


def _row(e: Event) -> dict[str, Any]:
    return {
        "game_id": e.game,
        "seq": e.seq,
        "type": e.type,
        "payload_version": e.payload_version,
        "payload": ev.canonical_json(e.payload),
        "prev_hash": e.prev_hash,
        "hash": e.hash,
        "recorded_at": e.recorded_at,
    }  # as given: an imported log keeps its own times


ROW_TYPES = {
    "game_id": str,
    "seq": int,
    "type": str,
    "payload_version": int,
    "prev_hash": str,
    "hash": str,
    "recorded_at": str,
}
PLAIN_ROW = (str, int, str, int, str, str, str)  # the types of an event row's columns but its payload, in order


def _driver_query(conn: Connection, query: TextClause, name: str) -> Callable[[str], Any]:
    """``query``'s first column for one value of its one parameter ``name``, asked on ``conn``'s driver
    connection directly: a table session asks for the game's head before every line, and the driver
    answers in a seventh of the time the same query takes through SQLAlchemy's execution layer
    (parameters, result objects). Compiled once, in the database's own parameter style."""
    compiled = query.compile(dialect=conn.dialect)
    sql = str(compiled)
    cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]  # an open connection has one
    positional = compiled.positional

    def ask(value: str) -> Any:
        cursor.execute(sql, (value,) if positional else {name: value})
        rows = cursor.fetchall()  # to the end: the statement is done, and holds no lock between askings
        return rows[0][0] if rows else None

    return ask


def _event(row) -> Event:
    game, seq, type_, version, text, prev_hash, hash_, recorded_at = row  # EVENT_COLUMNS
    if tuple(map(type, (game, seq, type_, version, prev_hash, hash_, recorded_at))) != PLAIN_ROW:
        _check_row(row)  # SQLite stores any value in any column: a foreign or damaged file
    try:
        payload = json.loads(text)
    except (TypeError, ValueError):
        payload = {"unreadable": str(text)[:80]}  # verify names it: the hash no longer matches
        return Event(game, seq, type_, version, payload, prev_hash, hash_, recorded_at)
    stored = ev.StoredPayload(text, payload) if isinstance(payload, dict) else None
    return Event(game, seq, type_, version, payload, prev_hash, hash_, recorded_at, stored)


def _check_row(row) -> None:
    for name, kind in ROW_TYPES.items():
        value = getattr(row, name)
        if not isinstance(value, kind) or isinstance(value, bool):
            raise StoreError(
                f"not a referee database, or a damaged one: an event row's {name} is {value!r}",
                hint="--db or REFEREE_DB selects another database",
            )
