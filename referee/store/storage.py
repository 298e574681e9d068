"""The event store: every event stream of the referee (a game of any kind, a tournament) in one database,
written, chained, read and verified by one piece of code (the game service is ``game``).

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

import json
import logging
import os
import re
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cached_property
from itertools import groupby
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import (
    Column,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    TextClause,
    UniqueConstraint,
    create_engine,
    event as sa_event,
    func,
    inspect,
    select,
    text,
)
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, IntegrityError
from sqlalchemy.pool import StaticPool
from sqlmodel import SQLModel

from . import append_only, events as ev
from .events import DEFAULT_KIND, Event, LogError
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


# --- the tables: one pair per family of streams, built from one base ----------------------------------


def stream_tables(stream: str, events: str, key: str, unique: str, *extra: Column) -> tuple[Table, Table]:
    """A family's two tables: ``stream`` (one row a stream: its id, when it was made, ``extra`` columns) and
    ``events`` (its events, chained; ``(key, seq)`` unique: the version check of every append)."""
    streams = Table(
        stream,
        SQLModel.metadata,
        Column("id", String(64), primary_key=True),
        Column("created_at", String, nullable=False),
        *extra,
    )
    rows = Table(
        events,
        SQLModel.metadata,
        Column("id", Integer, primary_key=True),
        Column(key, String(64), ForeignKey(f"{stream}.id"), nullable=False, index=True),
        Column("seq", Integer, nullable=False),
        Column("type", String(40), nullable=False),
        Column("payload_version", Integer, nullable=False),
        Column("payload", Text, nullable=False),  # canonical JSON
        Column("prev_hash", String(64), nullable=False),
        Column("hash", String(64), nullable=False),
        Column("recorded_at", String(40), nullable=False),
        UniqueConstraint(key, "seq", name=unique),
    )
    return streams, rows


def _unknown_game(game: str, where: str | None) -> LogError:
    return UnknownGame(game, where)


def _game_exists(game: str, where: str | None) -> LogError:
    return GameExists(game, where)


def _game_changed(game: str, seq: int) -> LogError:
    return GameChanged(game, seq)


@dataclass(frozen=True, eq=False)
class Family:
    """A family of event streams kept in one pair of tables: the games (of every kind) or the tournaments.
    Every family is written, read and chained by the same code; only its names and its errors differ.
    Constructing a family defines its tables (once per process)."""

    stream: str  # the streams' table: "game"
    events_table: str  # the events' table: "event"
    key: str  # the events' column naming their stream: "game_id"
    unique: str  # the name of the (key, seq) constraint
    refused: str  # the start of the append-only triggers' message
    function: str  # PostgreSQL: the append-only trigger function
    unknown: Callable[[str, str | None], Exception] = _unknown_game
    exists: Callable[[str, str | None], Exception] = _game_exists
    changed: Callable[[str, int], Exception] = _game_changed
    version: Callable[[str], int] = lambda type_: ev.CURRENT_VERSION.get(type_, 1)  # an event type's payload version
    kinds: bool = False  # its streams record a kind (games: which game)
    tables: list[Table] = field(init=False)
    columns: tuple[str, ...] = field(init=False)

    def __post_init__(self) -> None:
        extra = (
            [Column("kind", String(40), nullable=False, server_default=DEFAULT_KIND, default=DEFAULT_KIND)]
            if self.kinds
            else []
        )
        tables = list(stream_tables(self.stream, self.events_table, self.key, self.unique, *extra))
        append_only.guard(tables, self.refused, self.function)  # created with the schema, in the same transaction
        object.__setattr__(self, "tables", tables)
        object.__setattr__(
            self, "columns", (self.key, "seq", "type", "payload_version", "payload", "prev_hash", "hash", "recorded_at")
        )

    # The statements every command runs, as plain SQL that both backends take: SQLAlchemy would compile its
    # expression forms again in each new process, which costs a one-shot command more than running them.
    @cached_property
    def select_exists(self) -> TextClause:
        return text(f"SELECT 1 FROM {self.stream} WHERE id = :id")

    @cached_property
    def select_events(self) -> TextClause:
        return text(f"SELECT {', '.join(self.columns)} FROM {self.events_table} WHERE {self.key} = :id ORDER BY seq")

    @cached_property
    def select_head(self) -> TextClause:
        return text(f"SELECT hash FROM {self.events_table} WHERE {self.key} = :id ORDER BY seq DESC LIMIT 1")

    @cached_property
    def insert_stream(self) -> TextClause:
        kind = (", kind", ", :kind") if self.kinds else ("", "")
        return text(f"INSERT INTO {self.stream} (id, created_at{kind[0]}) VALUES (:id, :created_at{kind[1]})")

    @cached_property
    def insert_events(self) -> TextClause:
        cols = self.columns
        return text(f"INSERT INTO {self.events_table} ({', '.join(cols)}) VALUES ({', '.join(':' + c for c in cols)})")


GAMES = Family(
    "game", "event", "game_id", "event_game_seq", "the game log is append-only", "referee_append_only", kinds=True
)
TABLES = GAMES.tables  # made when a store opens; another family's tables are made on its first use
EVENT_COLUMNS = GAMES.columns
EVENTS_OF_GAME = text(str(GAMES.select_events).replace(":id", ":game"))  # doctor reads each game with it
EVENTS_BETWEEN = text(  # ... or a run of games in one pass (ids in the database's order)
    f"SELECT {', '.join(EVENT_COLUMNS)} FROM event WHERE game_id >= :first AND game_id <= :last ORDER BY game_id, seq"
)
REFUSED = GAMES.refused
# Columns added after the first schema (an older database gets them on open): their SQL definition.
MIGRATED = {("game", "kind"): f"VARCHAR(40) NOT NULL DEFAULT '{DEFAULT_KIND}'"}


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
        self._owner = threading.get_ident()  # the thread head()'s kept connection serves (the one that opened)
        self._ready: set[str] = set()  # the families whose tables are known to be there
        self.unmigrated: set[tuple[str, str]] = set()  # MIGRATED columns this database lacks (read-only)
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
        self._create(GAMES, check=True)
        self._migrate()

    def _create(self, family: Family, check: bool = False) -> None:
        """Make a family's tables and triggers where missing (``check``: first refuse a foreign database)."""
        for attempt in range(1, SCHEMA_ATTEMPTS + 1):
            fresh = check and not self._check_schema()
            if fresh and not self.create:
                raise StoreError(f"{self.where}: no referee tables in this database", hint=CREATE_HINT)
            try:
                SQLModel.metadata.create_all(self.engine, tables=family.tables)
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
            with self._errors(), self.engine.begin() as conn:
                for table in family.tables:
                    for sql in append_only.sqlite_triggers(table.name, family.refused):
                        conn.execute(text(sql))
        self._ready.add(family.stream)

    def _family(self, family: Family) -> Family:
        """A family's tables, made on its first use in this database (the games' are made on open)."""
        if family.stream not in self._ready:
            with self._errors(), self.engine.connect() as conn:
                have = set(inspect(conn).get_table_names())
            if not {t.name for t in family.tables} <= have:
                self._create(family)
            self._ready.add(family.stream)
        return family

    def _migrate(self) -> None:
        """Add the columns a newer schema has to an older database (events are never touched). A database
        that cannot take them (read-only) is read as if each held its default."""
        with self._errors(), self.engine.connect() as conn:
            found = inspect(conn)
            todo = [
                (t, c)
                for t, c in MIGRATED
                if found.has_table(t) and c not in {col["name"] for col in found.get_columns(t)}
            ]
        for table, column in todo:
            try:
                with self.engine.begin() as conn:
                    conn.execute(text(f"ALTER TABLE {table} ADD COLUMN {column} {MIGRATED[(table, column)]}"))
            except DatabaseError:  # another process added it first, or the file is read-only
                with self.engine.connect() as conn:
                    if column not in {col["name"] for col in inspect(conn).get_columns(table)}:
                        self.unmigrated.add((table, column))

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
        self._ready.add(GAMES.stream)
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
                    missing = sorted(set(table.columns.keys()) - have - {c for t, c in MIGRATED if t == table.name})
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

    def write_ahead(self) -> bool:
        """SQLite file: switch the database to write-ahead logging (WAL), for a server taking many small
        writes (`referee serve --entry`). Each commit is still synced to disk before it returns (SQLite's
        default ``synchronous=FULL``): one sync of the log instead of the rollback journal's several, so a
        draft's write takes about a millisecond instead of a disk's 15-20 ms, and readers never wait for a
        writer. The mode stays with the file (other commands then use it too); while a connection is open
        the database is the file with its ``-wal`` and ``-shm`` files beside it, and the last connection
        to close folds the log back into the file. Whether the database is (now) in WAL mode: a file that
        cannot switch (read-only, locked) keeps its rollback journal, slower and as safe."""
        if not self.is_sqlite or self.memory:
            return False
        try:
            with self.engine.connect() as conn:
                mode = conn.exec_driver_sql("PRAGMA journal_mode=WAL").scalar()
        except DatabaseError:
            return False
        return str(mode).lower() == "wal"

    def close(self) -> None:
        self._close_reader()
        self.engine.dispose()

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

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


# The tournaments' tables and the venue's notices live in the same database; log/tournaments.py and
# log/venue.py create them on first use.
TOURNAMENT_TABLES = frozenset({"tournament", "tournament_event"})
VENUE_TABLES = frozenset({"venue_notice"})
SIGNING_TABLES = frozenset(  # log/signing.py: the key stream's family, its legacy table, the signatures
    {"key_stream", "key_stream_event", "organiser_key_event", "record_signature", "record_key_change"}
)
ENTRY_TABLES = frozenset({"entry", "entry_event"})  # the phone entry's links and drafts (log/entry.py)


def is_referee_table(name: str) -> bool:
    return (
        name in {t.name for t in TABLES}
        or name in TOURNAMENT_TABLES
        or name in VENUE_TABLES
        or name in SIGNING_TABLES
        or name in ENTRY_TABLES
        or name.startswith("sqlite_")  # sqlite_sequence, sqlite_stat1...
    )


@contextmanager
def _unsynced(conn: Connection, relaxed: bool) -> Iterator[None]:
    """The commits made inside it do not wait for the disk when ``relaxed`` (``Store.insert``)."""
    if not relaxed:
        yield
        return
    if conn.dialect.name != "sqlite":
        conn.exec_driver_sql("SET LOCAL synchronous_commit = off")  # this transaction only
        yield
        return
    driver = conn.connection.dbapi_connection  # a PRAGMA on the driver: outside any transaction
    was = driver.execute("PRAGMA synchronous").fetchone()[0]  # type: ignore[union-attr]
    driver.execute("PRAGMA synchronous=NORMAL")  # type: ignore[union-attr]
    try:
        yield
    finally:
        with suppress(Exception):  # a broken connection is dropped by the pool anyway
            driver.execute(f"PRAGMA synchronous={int(was)}")  # type: ignore[union-attr]


def _row(e: Event, key: str = "game_id") -> dict[str, Any]:
    return {
        key: e.game,
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
        payload = _loads(text)
    except (TypeError, ValueError):
        payload = {"unreadable": str(text)[:80]}  # verify names it: the hash no longer matches
        return Event(game, seq, type_, version, payload, prev_hash, hash_, recorded_at)
    stored = ev.StoredPayload(text, payload) if isinstance(payload, dict) else None
    return Event(game, seq, type_, version, payload, prev_hash, hash_, recorded_at, stored)


def _loads(text: str) -> Any:
    """A payload's JSON read with orjson (every archive pass reads every payload: about twice as fast), the
    same value as ``json.loads``: orjson reads an integer beyond 64 bits as a float, so a value holding any
    float is read again by ``json`` (a recorded payload holds none: the walk that finds out costs what the
    parse does); what orjson refuses and ``json`` reads (NaN, 1e400, a lone surrogate) is read by ``json``
    too, and ``json`` raises as before on what is not JSON at all."""
    if isinstance(text, str):
        try:
            value = orjson.loads(text)
        except orjson.JSONDecodeError:
            pass
        else:
            if not _holds_float(value):
                return value
    return json.loads(text)


def _holds_float(value: Any) -> bool:
    stack = [value]
    while stack:
        v = stack.pop()
        kind = type(v)
        if kind is float:
            return True
        if kind is dict:
            stack.extend(v.values())
        elif kind is list:
            stack.extend(v)
    return False


def _check_row(row) -> None:
    values = (row[0], row[1], row[2], row[3], row[5], row[6], row[7])  # EVENT_COLUMNS but the payload
    for (name, kind), value in zip(ROW_TYPES.items(), values, strict=True):
        if not isinstance(value, kind) or isinstance(value, bool):
            raise StoreError(
                f"not a referee database, or a damaged one: an event row's {name} is {value!r}",
                hint="--db or REFEREE_DB selects another database",
            )
