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

One server serves the whole run, however many processes run the tests (pytest-xdist's workers): the run's
controller starts it the first time a test asks for one and stops it when the run ends (``RunServer``); its
files are in the run's shared folder. Each test gets a database of its own on it.
"""

from __future__ import annotations

import glob
import itertools
import json
import os
import re
import shutil
import tempfile
import threading
import time
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

    def start(self, options: str = SERVER_OPTIONS, where: Path | None = None) -> PgServer:
        """Start the server with ``options`` (the tests': durability off, for speed; a benchmark passes its own),
        its files in a new folder in ``where`` (else the temporary folder)."""
        try:
            import psycopg  # noqa: F401
        except ImportError as exc:
            return PgServer(reason=f"{exc.name} is not installed (pip install -e '.[test]')")
        pg_ctl = _binary("pg_ctl")
        if not pg_ctl:
            return PgServer(reason="PostgreSQL is not installed (no pg_ctl; Debian: apt-get install postgresql)")
        self.root = Path(tempfile.mkdtemp(prefix="referee-pg-", dir=where))  # not in pytest's root-only folders
        if os.geteuid() == 0:  # the server refuses to run as root: pg_ctl runs as the postgres user
            runuser = shutil.which("runuser")
            if not runuser:
                return PgServer(reason="running as root and runuser is missing (the server refuses to run as root)")
            try:
                shutil.chown(self.root, "postgres", "postgres")
            except (LookupError, OSError) as exc:
                return PgServer(reason=f"running as root and no 'postgres' user to run the server as ({exc})")
            wrapper = self.root / "pg_ctl"  # removed with the cluster's folder
            wrapper.write_text(f'#!/bin/sh\nexec {runuser} -u postgres -- {pg_ctl} "$@"\n')
            wrapper.chmod(0o755)
            pg_ctl = str(wrapper)
        last = ""
        for _ in range(3):  # a free port can be taken between choosing and binding it
            port = _free_port()
            self.executor = _executor(pg_ctl, self.root, port, options)
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


def _executor(pg_ctl: str, root: Path, port: int, options: str):
    from pytest_postgresql.executors import PostgreSQLExecutor

    return PostgreSQLExecutor(
        executable=pg_ctl,
        host="127.0.0.1",
        port=port,
        datadir=str(root / "data"),
        unixsocketdir=str(root),
        logfile=str(root / "server.log"),
        startparams="-w -t 60",
        dbname="postgres",
        user="postgres",
        password=None,
        postgres_options=f"-c listen_addresses=127.0.0.1 {options}",
        timeout=120,
    )


class RunServer:
    """The run's one server, its files in the run's shared ``folder``. The run's controller owns it: it starts
    the server the first time a process asks for it (``get``: the controller's own tests directly, a worker
    by leaving a note the controller's watcher answers) and stops it at the end (``stop``). pytest-postgresql
    stops a server when the process that started it ends, so a worker, which may end first, never starts it."""

    WAIT = 240  # seconds a worker waits for the server

    def __init__(self, folder: Path, owner: bool) -> None:
        self.folder, self.owner = folder, owner
        self.info, self.wanted = folder / "postgresql.json", folder / "postgresql.wanted"
        self._starting = threading.Lock()
        self._done = threading.Event()
        self._cluster: Cluster | None = None

    def get(self) -> PgServer:
        if self.owner:
            self._start()
        else:
            self.wanted.touch()
            deadline = time.monotonic() + self.WAIT
            while not self.info.exists():
                if time.monotonic() > deadline:
                    return PgServer(reason=f"the run's controller started no PostgreSQL server in {self.WAIT} s")
                time.sleep(0.05)
        return PgServer(**json.loads(self.info.read_text())["server"])

    def _start(self) -> None:
        with self._starting:
            if self.info.exists():
                return
            self._cluster = Cluster()  # held until ``stop``: the executor stops its server when let go
            server = self._cluster.start(where=self.folder)
            said = {"url": server.url, "reason": server.reason, "version": server.version}
            part = self.info.with_suffix(".part")
            part.write_text(json.dumps({"server": said}))
            part.rename(self.info)  # whole, or not there

    def watch(self) -> None:
        """In the controller: start the server when a worker first asks for it (a thread, until ``stop``)."""

        def answer() -> None:
            while not self._done.wait(0.05):
                if self.wanted.exists():
                    self._start()
                    return

        threading.Thread(target=answer, name="postgresql-on-request", daemon=True).start()

    def stop(self) -> None:
        self._done.set()
        with self._starting:
            if self._cluster is not None:
                self._cluster.stop()
                self._cluster = None


_RUN: dict[str, RunServer] = {}


def run_server(folder: Path, owner: bool) -> RunServer:
    """This process's handle on the run's server, in the folder every process of the run sees (conftest sets
    it up: the controller as the ``owner``, each worker not)."""
    _RUN["server"] = RunServer(folder, owner)
    return _RUN["server"]


@pytest.fixture(scope="session")
def pg_server():
    """The run's PostgreSQL server (see the module's docstring)."""
    setting = os.environ.get(ENV, "").strip()
    if setting == "off":
        server = PgServer(reason=f"{ENV}=off")
    elif "://" in setting:
        server = PgServer(url=setting, version="external server")
    else:
        server = _RUN["server"].get()
    _STATUS["server"] = server
    return server


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


def status() -> dict:
    """What this process saw of the server, for the run's summary (merged over processes by ``summary_lines``)."""
    server: PgServer | None = _STATUS["server"]
    if server is None:
        return {}
    return {
        "url": server.url,
        "reason": server.reason,
        "version": server.version,
        "tests": _STATUS["tests"],
        "databases": server.databases,
    }


def summary_lines(statuses: list[dict]) -> list[str]:
    """The run's PostgreSQL line, from each process's ``status``."""
    seen = [s for s in statuses if s]
    if not seen:
        return []
    if seen[0]["url"] is None:
        return [f"PostgreSQL: not available, its tests were skipped: {seen[0]['reason']}"]
    tests, databases = sum(s["tests"] for s in seen), sum(s["databases"] for s in seen)
    return [f"PostgreSQL: {seen[0]['version']}; {tests} test(s) ran against it, {databases} throwaway database(s)"]
