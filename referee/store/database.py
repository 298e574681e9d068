"""A database opened for the store: its URL (a SQLite file by default, ``saves/referee.db``; ``REFEREE_DB`` or
the ``url`` argument select another SQLAlchemy URL), its engine, its tables made or checked (a database holding
tables other than the referee's, or the referee's at an unknown schema version, is refused before anything is
written), its older columns migrated, and its errors named in one line.
"""

from __future__ import annotations

import logging
import os
import re
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Self

from sqlalchemy import (
    create_engine,
    event as sa_event,
    inspect,
    text,
)
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import ArgumentError, DatabaseError, IntegrityError
from sqlalchemy.pool import StaticPool
from sqlmodel import SQLModel

from . import append_only
from .events import LogError
from .families import GAMES, MIGRATED, TABLES, Family, is_referee_table
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


class Database:
    """A database opened for the store. Use as a context manager, or call ``close()``.

    ``create``: make the database (and the default ``saves/`` folder) when there is none; otherwise a
    missing database is an error and nothing is made. Either way a database that holds tables other than
    the referee's, or the referee's at an unknown schema version, is refused before anything is written."""

    def __init__(self, url: str | None = None, *, create: bool = True):
        self.url = database_url(url)
        self.create = create
        self.checked = False  # SQLite: the pages were checked before this store's first write
        self.memory = False  # an in-memory SQLite database (one connection, shared)
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
        self.engine.dispose()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
