"""What the organiser tells the venue through the pages: which round's seating is posted, the round clock,
announcements. One append-only table (``venue_notice``, refusing UPDATE and DELETE like the logs): a later
notice supersedes an earlier one, and clearing is a notice too. Set by `referee tournament post|clock|
announce`, read by `referee serve` and `referee tournament publish`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from datetime import UTC, datetime

from sqlalchemy import Text, text
from sqlalchemy.exc import DatabaseError
from sqlmodel import Field, SQLModel

from ..store import append_only
from ..store.database import StoreError
from ..store.storage import Store

ATTEMPTS = 5  # creating the table while another process does: retried

KINDS = ("post", "clock", "announce", "clear")


class VenueNoticeRow(SQLModel, table=True):
    __tablename__ = "venue_notice"
    id: int | None = Field(default=None, primary_key=True)
    tournament_id: str = Field(index=True, max_length=64)
    kind: str = Field(max_length=16)  # post (a round's seating) | clock (the round ends at) | announce | clear
    value: str = Field(sa_type=Text)
    recorded_at: str = Field(max_length=40)


TABLE = SQLModel.metadata.tables[VenueNoticeRow.__tablename__]
append_only.guard([TABLE], "the venue notices are append-only", "venue_notice_append_only")


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass
class Venue:
    """The notices in force for one tournament."""

    posted: int = 0  # the last round whose seating (a Swiss tournament: pairing) is posted (0: none)
    posts: int = 0  # post notices recorded (0: the organiser never posted a round)
    clock: str = ""  # when the round ends, as the organiser gave it (ISO date-time, UTC)
    announcements: list[tuple[str, str]] = field(default_factory=list)  # (recorded at, text), oldest first
    count: int = 0  # notices recorded: the pages' freshness check includes it


def _ensure(store: Store) -> None:
    for attempt in range(1, ATTEMPTS + 1):
        try:
            SQLModel.metadata.create_all(store.engine, tables=[TABLE])
            return
        except DatabaseError as exc:
            if attempt == ATTEMPTS:
                raise StoreError(
                    f"{store.where}: cannot use this database ({str(getattr(exc, 'orig', exc)).splitlines()[0]})"
                ) from None
            time.sleep(0.05 * attempt)


def record(store: Store, tid: str, kind: str, value: str) -> None:
    if kind not in KINDS:
        raise ValueError(kind)
    _ensure(store)
    with store.engine.begin() as conn:
        conn.execute(
            text("INSERT INTO venue_notice (tournament_id, kind, value, recorded_at) VALUES (:t, :k, :v, :at)"),
            {"t": tid, "k": kind, "v": value, "at": _now()},
        )


def _made(store: Store, conn) -> bool:
    """Whether the table was made: it is, on the first notice recorded."""
    return (
        conn.execute(
            text(
                "SELECT name FROM sqlite_master WHERE name = 'venue_notice'"
                if store.is_sqlite
                else "SELECT tablename FROM pg_tables WHERE tablename = 'venue_notice'"
            )
        ).first()
        is not None
    )


def total(store: Store) -> int:
    """Notices recorded in the whole database (0 when none ever was): a cheap change check."""
    with store.engine.connect() as conn:
        return conn.execute(text("SELECT COUNT(*) FROM venue_notice")).scalar_one() if _made(store, conn) else 0


def read(store: Store, tid: str) -> Venue:
    venue = Venue()
    with store.engine.connect() as conn:
        if not _made(store, conn):
            return venue
        rows = conn.execute(
            text("SELECT kind, value, recorded_at FROM venue_notice WHERE tournament_id = :t ORDER BY id"), {"t": tid}
        ).all()
    for kind, value, at in rows:
        venue.count += 1
        if kind == "post":
            venue.posted = int(value)
            venue.posts += 1
        elif kind == "clock":
            venue.clock = value
        elif kind == "announce":
            venue.announcements.append((at, value))
        elif kind == "clear":
            venue.announcements = []
    return venue
