"""What a database's refusal means to a moderator: a full disk, a read-only database, a file that cannot be
opened, or something that is not a referee database. One place, asked by every storage error message."""

from __future__ import annotations

FULL = ("database or disk is full", "no space left on device", "could not extend file", "disk full")
READ_ONLY = ("readonly database", "read-only", "read only", "permission denied")
UNOPENABLE = ("unable to open database file",)


def storage_hint(reason: str) -> str:
    """The hint under "cannot use this database (reason)": what to do about it, by what the database said."""
    said = reason.lower()
    if any(word in said for word in FULL):
        return "the disk is full: nothing was recorded; free some space and run the command again"
    if any(word in said for word in READ_ONLY):
        return (
            "the database is read-only (the file's or folder's permissions, a read-only disk or role): "
            "nothing was recorded; the read commands still work"
        )
    if any(word in said for word in UNOPENABLE):
        return "the file cannot be opened: check that its folder exists and can be written"
    return "is it a referee database? --db or REFEREE_DB selects another"


def lenient_text(raw: bytes) -> str:
    """SQLite's TEXT as Python text: bytes that are not UTF-8 (written into the file by hand) read as U+FFFD,
    so that one damaged payload fails its own hash check instead of every query that reads it."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("utf-8", "replace")


def on_connect(conn, _record) -> None:
    """Every SQLite connection: foreign keys enforced, text read leniently (``lenient_text``)."""
    conn.execute("PRAGMA foreign_keys=ON")
    conn.text_factory = lenient_text
