"""`referee doctor`: the health of a whole database, read only, and of every game in it.

- SQLite: the file is opened read-only and SQLite's own ``PRAGMA integrity_check`` runs over every page
  and index; PostgreSQL: the referee's tables, their columns and their append-only triggers are there.
- Then every game is read and verified (the hash chain and a full engine re-run, as ``verify``); a game
  that cannot even be read is named with the reason. Its signatures are checked as ``verify`` checks a stored
  game's: each signer must be a key the database declared or received with an imported record (``Ledger``),
  a lost key is named, and with ``--key`` every signature must be by those keys and every closed game signed.

Nothing is written, whatever is found.
"""

from __future__ import annotations

import multiprocessing
import os
import sqlite3
import sys
import threading
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from itertools import groupby
from pathlib import Path
from urllib.parse import quote

from sqlalchemy import create_engine, text
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import SQLAlchemyError

from .games.battle import entry as _entry  # noqa: F401 - its append-only tables
from .games.kinds import kind_of
from .games.registry import game_of
from .records.keys import Ledger, accepted_keys, ledger_on
from .records.signing import check, unendorsed
from .store.append_only import GUARDED, trigger_names
from .store.database import CREATE_HINT, StoreError, database_url
from .store.events import Event
from .store.families import EVENTS_BETWEEN, EVENTS_OF_GAME, MIGRATED, TABLES, is_referee_table
from .store.rows import _event
from .store.signatures import Signature, SignatureRow, SigningError, signatures_of
from .tournaments import service as _tournaments, venue as _venue  # noqa: F401 - their append-only tables


@dataclass
class GameHealth:
    game: str
    ok: bool
    detail: str  # "verified: N events", or the first problem


@dataclass
class Diagnosis:
    where: str
    backend: str
    problems: list[str] = field(default_factory=list)  # of the database as a whole
    games: list[GameHealth] = field(default_factory=list)
    processes: int = 1  # that checked the games (``--jobs``; 1: this one)

    @property
    def ok(self) -> bool:
        return not self.problems and all(g.ok for g in self.games)


def _reason(exc: Exception) -> str:
    return str(getattr(exc, "orig", exc)).splitlines()[0] if str(getattr(exc, "orig", exc)) else type(exc).__name__


def processors() -> int:
    """The processors this process may run on: ``diagnose``'s processes, unless told."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on every system
        return os.cpu_count() or 1


def diagnose(url: str | None = None, jobs: int | None = 1, key: Sequence[str] | None = None) -> Diagnosis:
    """Check the database at ``url`` (as ``--db`` takes it) without writing to it; ``jobs``: the processes that
    verify the games, None: one a processor (an archive's games are checked in slices side by side, the report
    in the same order); ``key``: fingerprints every game's signatures must be by (``--key``, as ``verify``'s)."""
    url = database_url(url)
    jobs = processors() if jobs is None else jobs
    engine, where, backend = _read_only(url)
    found = Diagnosis(where, backend)
    try:
        conn = engine.connect()
    except SQLAlchemyError as exc:
        engine.dispose()
        raise StoreError(f"{where}: cannot connect ({_reason(exc)})") from None
    try:  # each stage on its own: a damaged page stops one, not the others
        if backend == "sqlite":
            _stage(found, "integrity check", _sqlite_pages, conn, found)
        tables = _stage(found, "the list of tables", _tables, conn, backend, found) or set()
        known = _stage(found, "the organiser's keys", _keys, conn, tables, where, found)
        if {"game", "event"} <= tables:
            signed = SignatureRow.__tablename__ in tables
            accepted = frozenset(accepted_keys(key, known.changes if known else ())) if key is not None else None
            _stage(found, "the games", _games, conn, found, _Check(url, signed, jobs, known or Ledger(), accepted))
    finally:
        conn.close()
        engine.dispose()
    return found


def _read_only(url: str) -> tuple[Engine, str, str]:
    """An engine that reads the database at ``url`` and cannot write to a SQLite file; where it is, its backend."""
    try:
        parsed = make_url(url)
        backend = parsed.get_backend_name()
    except Exception as exc:  # noqa: BLE001 - any URL SQLAlchemy cannot read
        raise StoreError(f"{url}: not a usable database URL ({exc})") from None
    if backend == "sqlite":
        path = parsed.database or ""
        if not path or path == ":memory:" or not Path(path).is_file():
            raise StoreError(f"{path or url}: no database here", hint=CREATE_HINT)
        uri = f"file:{quote(str(Path(path).resolve()))}?mode=ro"
        engine = create_engine("sqlite://", creator=lambda: sqlite3.connect(uri, uri=True, check_same_thread=False))
        return engine, path, backend
    where = parsed.render_as_string(hide_password=True)
    try:
        return create_engine(url), where, backend
    except Exception as exc:  # noqa: BLE001 - a driver not installed, a bad option
        raise StoreError(f"{where}: not a usable database URL ({exc})") from None


def _stage(found: Diagnosis, what: str, step, *args):
    try:
        return step(*args)
    except SQLAlchemyError as exc:
        found.problems.append(f"{what}: cannot be read: {_reason(exc)}")
        return None


def _sqlite_pages(conn, found: Diagnosis) -> None:
    rows = [r[0] for r in conn.execute(text("PRAGMA integrity_check")).all()]
    if rows != ["ok"]:
        found.problems += [f"integrity check: {r}" for r in rows]


def _names(conn, backend: str) -> tuple[set[str], set[str]]:
    """The database's tables and the referee tables' triggers."""
    if backend == "sqlite":
        rows = conn.execute(text("SELECT type, name FROM sqlite_master")).all()
        tables = {n for k, n in rows if k == "table" and not n.startswith("sqlite_")}
        return tables, {n for k, n in rows if k == "trigger"}
    tables = {
        r[0]
        for r in conn.execute(
            text("SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()")
        ).all()
    }
    triggers = {
        r[0]
        for r in conn.execute(
            text(
                "SELECT t.tgname FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid "
                "JOIN pg_namespace n ON n.oid = c.relnamespace "
                "WHERE NOT t.tgisinternal AND n.nspname = current_schema()"
            )
        ).all()
    }
    return tables, triggers


def _columns(conn, backend: str, table: str) -> set[str]:
    if backend == "sqlite":
        return {r[1] for r in conn.execute(text(f"PRAGMA table_info({table})")).all()}
    return {
        r[0]
        for r in conn.execute(
            text(
                "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() "
                "AND table_name = :t"
            ),
            {"t": table},
        ).all()
    }


def _tables(conn, backend: str, found: Diagnosis) -> set[str]:
    tables, triggers = _names(conn, backend)
    wanted = {t.name for t in TABLES}
    foreign = sorted(n for n in tables - wanted if not is_referee_table(n))
    if foreign:
        found.problems.append(f"not a referee database: it also holds the table(s) {', '.join(foreign)}")
    for table in TABLES:
        if table.name not in tables:
            found.problems.append(f"the referee's table {table.name!r} is missing")
            continue
        have = _columns(conn, backend, table.name)
        missing = sorted(set(table.columns.keys()) - have - {c for t, c in MIGRATED if t == table.name})
        if missing:  # a column added later is added when the store next opens the database
            found.problems.append(f"the table {table.name!r} lacks the column(s) {', '.join(missing)}")
    guarded = {t for t in GUARDED if t in tables}  # the game log's, and every other append-only table here:
    absent = sorted(trigger_names(guarded, backend) - triggers)  # signatures, keys, tournaments, entries...
    if absent and wanted <= tables:
        found.problems.append(f"append-only trigger(s) missing: {', '.join(absent)} (the log could be edited)")
    return tables


def _keys(conn, tables: set[str], where: str, found: Diagnosis) -> Ledger | None:
    """The organiser keys the database knows (its key stream, and the keys imported records brought), each
    imported key change's endorsement checked; None (and the problem named) when the key stream is broken."""
    try:
        known = ledger_on(conn, tables, where)
    except SigningError as exc:
        found.problems.append(str(exc).removeprefix(f"{where}: "))
        return None
    problem = unendorsed(known.changes)
    if problem:
        found.problems.append(problem)
    return known


def _read_games(conn, games: list[str]) -> Iterator[tuple[str, list[Event] | str]]:
    """Each game's events of ``games`` (the game table's ids, in the database's order), or why they cannot be
    read: read in one pass over the event table, not one query a game; when the pass breaks (a
    damaged page), the games it did not reach are read one at a time, so that damage stops a game, not the
    others."""
    if not games:
        return
    wanted, done = set(games), set()
    try:
        span = {"first": games[0], "last": games[-1]}
        result = conn.execution_options(yield_per=2000).execute(EVENTS_BETWEEN, span)
        for game, group in groupby(result, key=lambda r: r[0]):
            rows = list(group)  # the game's rows whole before it is judged: a pass broken inside it reads it again
            if game in wanted:  # events of no recorded game are reported as a whole
                done.add(game)
                yield game, _events(rows)
    except SQLAlchemyError:
        pass
    for game in games:
        if game not in done:
            try:
                rows = conn.execute(EVENTS_OF_GAME, {"game": game}).all()
            except SQLAlchemyError as exc:
                yield game, f"cannot be read: {_reason(exc)}"
                continue
            yield game, _events(rows)


def _events(rows) -> list[Event] | str:
    try:
        events = [_event(r) for r in rows]
    except StoreError as exc:
        return f"cannot be read: {_reason(exc)}"
    return events or "no events"


class _Signatures:
    """The games' signatures, read for 500 games at a time as the games are checked in order: few queries, and
    an archive's signatures are never all held at once."""

    CHUNK = 500

    def __init__(self, conn, games: list[str]):
        self.conn, self.games = conn, games
        self.index = {g: i for i, g in enumerate(games)}
        self.chunk: int | None = None
        self.read: dict[str, list[Signature]] = {}

    def of(self, game: str) -> list[Signature]:
        chunk = self.index[game] // self.CHUNK
        if chunk != self.chunk:
            ids = self.games[chunk * self.CHUNK : (chunk + 1) * self.CHUNK]
            self.chunk, self.read = chunk, signatures_of(self.conn, "game", ids)
        return self.read.get(game, [])


@dataclass(frozen=True)
class _Check:
    """How the games are checked: the database (its URL, for the processes that read their own slices), whether
    it keeps signatures, how many processes check, the organiser keys it knows, and the keys ``--key`` accepts."""

    url: str
    signed: bool
    jobs: int
    known: Ledger = field(default_factory=Ledger)
    key: frozenset[str] | None = None


SLICE = 250  # games a process checks at a time: slices are handed out as processes finish theirs


def _games(conn, found: Diagnosis, how: _Check) -> None:
    """Every game read and verified by its own rules; with signatures, each game's are checked as ``verify``
    checks them (the key each names; a rebuilt chain is refused)."""
    try:
        ids = [r[0] for r in conn.execute(text("SELECT id FROM game ORDER BY id")).all()]
    except SQLAlchemyError as exc:
        found.problems.append(f"the list of games cannot be read: {_reason(exc)}")
        return
    try:
        orphans = [
            r[0]
            for r in conn.execute(
                text("SELECT DISTINCT game_id FROM event WHERE game_id NOT IN (SELECT id FROM game)")
            ).all()
        ]
    except SQLAlchemyError as exc:
        found.problems.append(f"the events cannot be read: {_reason(exc)}")
        orphans = []
    if orphans:
        found.problems.append(f"events of no recorded game: {', '.join(map(repr, orphans[:5]))}")
    for game in ids:
        if not isinstance(game, str):
            found.games.append(GameHealth(repr(game), False, "a game row that is not a game id"))
    games = [g for g in ids if isinstance(g, str)]
    checked = _in_processes(games, how)
    if checked is not None:
        healths, found.processes = checked
        found.games += healths
    else:
        found.games += _check_games(conn, games, how)


def _in_processes(games: list[str], how: _Check) -> tuple[list[GameHealth], int] | None:
    """The games checked in up to ``how.jobs`` processes, a slice at a time, in their order, and how many
    processes checked them; None when they are checked here instead: one job, a small database, or no safe way
    to start processes (they are forked from this one, with the code already loaded: only where fork is the
    system's way and no other thread runs)."""
    if how.jobs < 2 or len(games) < 2 * SLICE:
        return None
    if sys.platform != "linux" or threading.active_count() > 1:
        return None
    slices = [games[i : i + SLICE] for i in range(0, len(games), SLICE)]
    context = multiprocessing.get_context("fork")
    out: list[GameHealth] = []
    processes = min(how.jobs, len(slices))
    try:
        with ProcessPoolExecutor(max_workers=processes, mp_context=context) as pool:
            for healths in pool.map(_check_slice, [how] * len(slices), slices):
                out += healths
    except (BrokenProcessPool, OSError):  # a process killed or not started: the games are checked here
        return None
    return out, processes


def _check_slice(how: _Check, games: list[str]) -> list[GameHealth]:
    """One slice of the games checked in a process of its own, on its own read-only connection."""
    engine = _read_only(how.url)[0]
    try:
        with engine.connect() as conn:
            return _check_games(conn, games, how)
    except SQLAlchemyError as exc:
        return [GameHealth(g, False, f"cannot be read: {_reason(exc)}") for g in games]
    finally:
        engine.dispose()


def _check_games(conn, games: list[str], how: _Check) -> list[GameHealth]:
    """The games' health in their order (a game the one pass did not reach, read after it, is put back in its place)."""
    sigs = _Signatures(conn, games) if how.signed else None
    health = {game: _health(game, events, sigs, how) for game, events in _read_games(conn, games)}
    return [health[g] for g in games]


def _health(game: str, events: list[Event] | str, sigs: _Signatures | None, how: _Check) -> GameHealth:
    """One game's health: its events read (or why they cannot be), verified by its kind's rules, its signatures."""
    if isinstance(events, str):
        return GameHealth(game, False, events)
    kind = game_of(events)
    problem = kind.problem(events)  # each stream by its own game's rules
    if not kind.signed:  # a record never signed (Champions of Rokugan's): its own checks (chain, replay, digest)
        return GameHealth(
            game, problem is None, f"verified ({kind_of(events)}): {len(events)} events" if problem is None else problem
        )
    if problem is not None:
        return GameHealth(game, False, problem)
    signed = sigs.of(game) if sigs is not None else []
    checked = (
        check("game", events, signed, key=how.key, known=how.known, open_records=True)
        if sigs is not None or how.key
        else None
    )
    if checked is not None and checked.problem:
        sign = f" (the organiser's `referee key sign {game}` signs it)" if checked.unsigned_tail else ""
        return GameHealth(game, False, checked.status + sign)
    said = f"; {checked.status}" if checked is not None and (checked.signed or checked.closed) else ""
    return GameHealth(game, True, f"verified: {len(events)} events{said}")
