"""An event as a database row, both ways: written as given (an imported log keeps its own times), read back
strictly (every column of its type, the payload's JSON read as it was written), and the commits that need not
wait for the disk.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from typing import Any

import orjson
from sqlalchemy import (
    TextClause,
)
from sqlalchemy.engine import Connection

from . import events as ev
from .database import StoreError
from .events import Event


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
