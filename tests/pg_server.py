"""A throwaway PostgreSQL server for the store tests, and the ``any_db`` fixture (SQLite and PostgreSQL).

The session starts its own server when PostgreSQL is installed (Debian's ``postgresql`` package:
``initdb`` and ``pg_ctl`` under ``/usr/lib/postgresql/*/bin``): a fresh cluster in a temporary
folder, trust authentication, listening on 127.0.0.1 only at a free port, stopped when the session
ends. The server refuses to run as root; as root the cluster belongs to the ``postgres`` user and
runs through ``runuser -u postgres --``. Every test gets a database of its own.

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
import socket
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ENV = "REFEREE_TEST_PG"
BACKENDS = ("sqlite", "postgresql")


@dataclass
class PgServer:
    url: str | None = None  # SQLAlchemy URL of the maintenance database; None: not available
    reason: str = ""  # why not
    version: str = ""
    databases: int = 0
    _names: itertools.count = field(default_factory=lambda: itertools.count(1))

    def new_database(self) -> str:
        """A new, empty database on the server; its SQLAlchemy URL."""
        import psycopg
        from sqlalchemy.engine import make_url

        name = f"referee_t{os.getpid()}_{next(self._names)}"
        with psycopg.connect(libpq_url(self.url), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        self.databases += 1
        return make_url(self.url).set(database=name).render_as_string(hide_password=False)


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
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class _Cluster:
    def __init__(self) -> None:
        self.root: Path | None = None
        self.data: Path | None = None
        self.pg_ctl: str | None = None
        self.as_user: list[str] = []
        self.running = False

    def run(self, *cmd: str, timeout: float = 120) -> subprocess.CompletedProcess:
        return subprocess.run(
            [*self.as_user, *cmd], capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL
        )

    def start(self) -> PgServer:
        try:
            import psycopg  # noqa: F401
        except ImportError:
            return PgServer(reason="the psycopg driver is not installed (pip install -e '.[test]')")
        initdb, self.pg_ctl = _binary("initdb"), _binary("pg_ctl")
        if not initdb or not self.pg_ctl:
            return PgServer(reason="PostgreSQL is not installed (no initdb/pg_ctl; Debian: apt-get install postgresql)")
        self.root = Path(tempfile.mkdtemp(prefix="referee-pg-"))  # not under pytest's root-only tmp folders
        if os.geteuid() == 0:  # the server refuses to run as root
            runuser = shutil.which("runuser")
            if not runuser:
                return PgServer(reason="running as root and runuser is missing (the server refuses to run as root)")
            try:
                shutil.chown(self.root, "postgres", "postgres")
            except (LookupError, OSError) as exc:
                return PgServer(reason=f"running as root and no 'postgres' user to run the server as ({exc})")
            self.as_user = [runuser, "-u", "postgres", "--"]
        self.data = self.root / "data"
        made = self.run(
            initdb, "-D", str(self.data), "-U", "postgres", "--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C"
        )
        if made.returncode:
            return PgServer(reason=f"initdb failed: {(made.stderr or made.stdout).strip()[-300:]}")
        last = ""
        for _ in range(3):  # a free port can be taken between choosing and binding it
            port = _free_port()
            options = (
                f"-c listen_addresses=127.0.0.1 -p {port} -k {self.root} -c fsync=off "
                "-c synchronous_commit=off -c full_page_writes=off -c max_connections=200"
            )
            started = self.run(
                self.pg_ctl,
                "-D",
                str(self.data),
                "-l",
                str(self.root / "server.log"),
                "-w",
                "-t",
                "60",
                "-o",
                options,
                "start",
            )
            if not started.returncode:
                self.running = True
                version = self.run(self.pg_ctl, "--version").stdout.strip()
                return PgServer(url=f"postgresql+psycopg://postgres@127.0.0.1:{port}/postgres", version=version)
            log = self.root / "server.log"
            last = (started.stderr.strip() or (log.read_text(errors="replace") if log.exists() else ""))[-300:]
        return PgServer(reason=f"PostgreSQL did not start: {last}")

    def stop(self) -> None:
        if self.running:
            self.run(self.pg_ctl, "-D", str(self.data), "-m", "fast", "-t", "60", "stop")
            self.running = False
        if self.root is not None:
            shutil.rmtree(self.root, ignore_errors=True)


@pytest.fixture(scope="session")
def pg_server():
    """The session's PostgreSQL server (see the module's docstring)."""
    setting = os.environ.get(ENV, "").strip()
    cluster = _Cluster()
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
