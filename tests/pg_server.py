"""A throwaway PostgreSQL server for the store tests, and the ``any_db`` fixture (SQLite and PostgreSQL).

The server is pytest-postgresql's: its ``PostgreSQLExecutor`` makes a fresh cluster (``pg_ctl initdb``,
trust authentication) in a temporary folder of the session, starts it listening on 127.0.0.1 only at a
free port (``port_for``), waits for it and stops it when the session ends; its ``DatabaseJanitor``
creates each test's own database. The binaries are Debian's ``postgresql`` package (``pg_ctl`` under
``/usr/lib/postgresql/*/bin``), which ``.ci/run`` installs.

Written here, because pytest-postgresql cannot do it: running the tests as root. The server refuses to
run as root, and pytest-postgresql runs ``pg_ctl`` as the user running pytest. As root the cluster's
folder belongs to the ``postgres`` user, and the executor is given, as its ``pg_ctl``, a two-line
script that runs the real one through ``runuser -u postgres --``.

``REFEREE_TEST_PG`` changes what happens:

    unset         start a throwaway server; skip the PostgreSQL tests, with the reason, where it cannot
    require       the same, but fail instead of skipping (CI: the PostgreSQL tests must run)
    off           skip the PostgreSQL tests
    <a URL>       use that server instead (postgresql+psycopg://user@host:port/db, a user allowed to
                  CREATE DATABASE); nothing is started
"""

from __future__ import annotations

import glob
import itertools
import os
import re
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ENV = "REFEREE_TEST_PG"
BACKENDS = ("sqlite", "postgresql")
SERVER_OPTIONS = "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200"


@dataclass
class PgServer:
    url: str | None = None  # SQLAlchemy URL of the maintenance database; None: not available
    reason: str = ""  # why not
    version: str = ""
    databases: int = 0
    _names: itertools.count = field(default_factory=lambda: itertools.count(1))

    def new_database(self) -> str:
        """A new, empty database on the server (pytest-postgresql's janitor); its SQLAlchemy URL."""
        from pytest_postgresql.janitor import DatabaseJanitor
        from sqlalchemy.engine import make_url

        server = make_url(self.url)
        name = f"referee_t{os.getpid()}_{next(self._names)}"
        DatabaseJanitor(
            user=server.username or "postgres",
            host=server.host or "127.0.0.1",
            port=server.port or 5432,
            dbname=name,
            maintenance_dbname=server.database or "postgres",
            password=server.password,
        ).init()
        self.databases += 1
        return server.set(database=name).render_as_string(hide_password=False)


def libpq_url(url: str) -> str:
    """The SQLAlchemy URL as a plain libpq connection string (for psycopg.connect)."""
    from sqlalchemy.engine import make_url

    return make_url(url).set(drivername="postgresql").render_as_string(hide_password=False)


def _binary(name: str) -> str | None:
    def version(path: str) -> tuple[int, ...]:
        return tuple(int(x) for x in re.findall(r"\d+", path.split("/postgresql/")[-1].split("/")[0]))

    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"), key=version)
    return found[-1] if found else shutil.which(name)


def _free_port() -> int:
    import port_for

    return port_for.select_random()


class Cluster:
    def __init__(self) -> None:
        self.root: Path | None = None
        self.executor = None

    def start(self, options: str = SERVER_OPTIONS) -> PgServer:
        """Start the server with ``options`` (the tests': durability off, for speed; a benchmark passes its own)."""
        try:
            import psycopg  # noqa: F401
            from pytest_postgresql.executors import PostgreSQLExecutor
        except ImportError as exc:
            return PgServer(reason=f"{exc.name} is not installed (pip install -e '.[test]')")
        pg_ctl = _binary("pg_ctl")
        if not pg_ctl:
            return PgServer(reason="PostgreSQL is not installed (no pg_ctl; Debian: apt-get install postgresql)")
        self.root = Path(tempfile.mkdtemp(prefix="referee-pg-"))  # not under pytest's root-only tmp folders
        if os.geteuid() == 0:  # the server refuses to run as root: pg_ctl runs as the postgres user
            runuser = shutil.which("runuser")
            if not runuser:
                return PgServer(reason="running as root and runuser is missing (the server refuses to run as root)")
            try:
                shutil.chown(self.root, "postgres", "postgres")
            except (LookupError, OSError) as exc:
                return PgServer(reason=f"running as root and no 'postgres' user to run the server as ({exc})")
            wrapper = Path(tempfile.mkdtemp(prefix="referee-pgctl-")) / "pg_ctl"
            wrapper.write_text(f'#!/bin/sh\nexec {runuser} -u postgres -- {pg_ctl} "$@"\n')
            wrapper.chmod(0o755)
            pg_ctl = str(wrapper)
        last = ""
        for _ in range(3):  # a free port can be taken between choosing and binding it
            port = _free_port()
            self.executor = PostgreSQLExecutor(
                executable=pg_ctl,
                host="127.0.0.1",
                port=port,
                datadir=str(self.root / "data"),
                unixsocketdir=str(self.root),
                logfile=str(self.root / "server.log"),
                startparams="-w -t 60",
                dbname="postgres",
                user="postgres",
                password=None,
                postgres_options=f"-c listen_addresses=127.0.0.1 {options}",
                timeout=120,
            )
            try:
                self.executor.start()
            except Exception as exc:  # noqa: BLE001 - whatever stops it, the tests are skipped with the reason
                log = self.root / "server.log"
                last = (log.read_text(errors="replace") if log.exists() else "")[-300:] or repr(exc)[-300:]
                self.executor = None
                continue
            return PgServer(
                url=f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres",
                version=f"PostgreSQL {self.executor.version} (pytest-postgresql)",
            )
        return PgServer(reason=f"PostgreSQL did not start: {last}")

    def stop(self) -> None:
        if self.executor is not None:
            self.executor.stop()
            self.executor = None
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server():
    """The session's PostgreSQL server (see the module's docstring)."""
    setting = os.environ.get(ENV, "").strip()
    cluster = Cluster()
    if setting == "off":
        server = PgServer(reason=f"{ENV}=off")
    elif "://" in setting:
        server = PgServer(url=setting, version="external server")
    else:
        server = cluster.start()
    _STATUS["server"] = server
    try:
        yield server
    finally:
        cluster.stop()


@pytest.fixture
def pg_url(pg_server: PgServer) -> str:
    """A fresh, empty PostgreSQL database of its own for one test (its SQLAlchemy URL)."""
    if pg_server.url is None:
        if os.environ.get(ENV, "").strip() == "require":
            pytest.fail(f"{ENV}=require but no PostgreSQL server: {pg_server.reason}", pytrace=False)
        pytest.skip(f"PostgreSQL tests skipped: {pg_server.reason}")
    _STATUS["tests"] += 1
    return pg_server.new_database()


@pytest.fixture(params=BACKENDS)
def any_db(request, tmp_path) -> str:
    """A fresh, empty database on each backend: a SQLite file path, or a PostgreSQL URL."""
    if request.param == "sqlite":
        return str(tmp_path / "games.db")
    return request.getfixturevalue("pg_url")


_STATUS: dict = {"server": None, "tests": 0}


def summary_lines() -> list[str]:
    server: PgServer | None = _STATUS["server"]
    if server is None:
        return []
    if server.url is None:
        return [f"PostgreSQL: not available, its tests were skipped: {server.reason}"]
    return [
        f"PostgreSQL: {server.version}; {_STATUS['tests']} test(s) ran against it, "
        f"{server.databases} throwaway database(s)"
    ]
