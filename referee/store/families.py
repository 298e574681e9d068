"""The families of streams: each one pair of tables built by ``stream_tables`` (a stream's row, its events'
rows), its statements, and the errors it names (``UnknownGame``, ``GameExists``, ``GameChanged`` for a game). Games
live in ``game``/``event``; a tournament, the organiser's keys and the phones' drafts in families of their own.
The unique key ``(stream, seq)`` is the version check: of two writers appending event N, the loser gets the
family's "changed" error and nothing is lost.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property

from sqlalchemy import (
    Column,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    TextClause,
    UniqueConstraint,
    text,
)
from sqlmodel import SQLModel

from . import append_only, events as ev
from .events import DEFAULT_KIND, Event, LogError


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


# The tournaments' tables and the venue's notices live in the same database; tournaments/service.py and
# tournaments/venue.py create them on first use.
TOURNAMENT_TABLES = frozenset({"tournament", "tournament_event"})


VENUE_TABLES = frozenset({"venue_notice"})


SIGNING_TABLES = frozenset(  # store/signatures.py: the key stream's family, its legacy table, the signatures
    {"key_stream", "key_stream_event", "organiser_key_event", "record_signature", "record_key_change"}
)


ENTRY_TABLES = frozenset({"entry", "entry_event"})  # the phone entry's links and drafts (games/battle/entry.py)


def is_referee_table(name: str) -> bool:
    return (
        name in {t.name for t in TABLES}
        or name in TOURNAMENT_TABLES
        or name in VENUE_TABLES
        or name in SIGNING_TABLES
        or name in ENTRY_TABLES
        or name.startswith("sqlite_")  # sqlite_sequence, sqlite_stat1...
    )
