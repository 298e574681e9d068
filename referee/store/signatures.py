"""The storage of signatures and of the organiser's keys, as the event store keeps them.

- ``record_signature`` (append-only) holds one row per signed point of a stream: the stream's kind (``game`` or
  ``tournament``), its id, the event's number and hash (the chain head when it was signed), the public key and the
  Ed25519 signature over ``MESSAGE_PREFIX`` + the canonical JSON of ``{kind, stream, seq, head}``
  (``Signature``: a signature checks itself against the key it names, with libsodium).
- ``record_key_change`` (append-only) keeps the key changes that came with an imported record.
- The organiser's keys are one stream (``KEY_STREAM``) of the store's family ``KEYS`` (``key_stream``/
  ``key_stream_event``), written and chained by the store as games and tournaments are; a database written before
  the family existed keeps them in ``organiser_key_event``, read from there until the first key event is written,
  which copies them, unchanged, to the family.

What must be signed, by which key, and how a record's signatures are checked, is ``referee.records``'.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import groupby
from json.encoder import encode_basestring as _text  # canonical_json's string form (ensure_ascii off)
from typing import TYPE_CHECKING, Any

from sqlalchemy import UniqueConstraint, bindparam, text
from sqlalchemy.exc import DatabaseError
from sqlmodel import Field, SQLModel

from ..core.canonical import canonical_json
from . import append_only, events as ev
from .database import StoreError
from .events import Event, LogError
from .families import Family
from .rows import _event
from .storage import Store, utc_now

if TYPE_CHECKING:  # `cryptography` loads when a key or a signature is used (about 8 MB of resident memory)
    from nacl.signing import VerifyKey


MESSAGE_PREFIX = b"referee signed record v1\n"


FINGERPRINT_BYTES = 10  # 80 bits: ten words read aloud


KEY_STREAM = "organiser"


ATTEMPTS = 5


class SigningError(LogError):
    """A key that cannot be made, read or used; a signature that cannot be checked."""


# --- the tables -----------------------------------------------------------------------------------------
class KeyStreamChanged(SigningError):
    """Another command wrote to the organiser's key stream first: read again and retry."""


def _key_stream_changed(stream: str, seq: int) -> Exception:
    return KeyStreamChanged(f"the organiser's key stream changed at event {seq}")


def _key_stream_exists(stream: str, where: str | None) -> Exception:
    return KeyStreamChanged(f"{where}: the organiser's key stream was made by another command first")


def _no_key_stream(stream: str, where: str | None) -> Exception:
    return KeyStreamChanged(f"{where}: no organiser's key stream")


# The organiser's keys: one stream (``KEY_STREAM``) of a family of the one event store, written, chained and
# read by the store's own code (``Store.insert``, ``Store.events``), its (stream, seq) key the version check.
KEYS = Family(
    "key_stream",
    "key_stream_event",
    "stream_id",
    "key_stream_event_seq",
    "the organiser keys are append-only",
    "referee_keys_append_only",
    unknown=_no_key_stream,
    exists=_key_stream_exists,
    changed=_key_stream_changed,
    version=lambda type_: 1,
)


# Before the key stream was a family it had a table of its own; a database that has it is read from it until
# its first key event is written, which copies those events, as they are, to the family's stream.
LEGACY_KEY_TABLE = "organiser_key_event"


LEGACY_SELECT = f"SELECT seq, type, payload, prev_hash, hash, recorded_at FROM {LEGACY_KEY_TABLE} ORDER BY seq"


class SignatureRow(SQLModel, table=True):
    __tablename__ = "record_signature"
    __table_args__ = (UniqueConstraint("kind", "stream", "seq", name="record_signature_point"),)
    id: int | None = Field(default=None, primary_key=True)
    kind: str = Field(max_length=16)
    stream: str = Field(index=True, max_length=64)
    seq: int
    head: str = Field(max_length=64)
    public_key: str = Field(max_length=64)
    signature: str = Field(max_length=128)
    signed_at: str = Field(max_length=40)


class KeyChangeRow(SQLModel, table=True):
    """A key change that came with an imported record: another organiser's (or this one's) new key, the key
    it replaced and the old key's endorsement, kept so that ``verify --key OLD`` follows it in this database
    too (each endorsement is checked on import and again by every check that uses it)."""

    __tablename__ = "record_key_change"
    __table_args__ = (UniqueConstraint("public_key", "replaces", name="record_key_change_pair"),)
    id: int | None = Field(default=None, primary_key=True)
    public_key: str = Field(max_length=64)
    replaces: str = Field(max_length=64)
    endorsement: str = Field(max_length=128)
    recorded_at: str = Field(max_length=40)


TABLES = [
    SQLModel.metadata.tables[SignatureRow.__tablename__],
    SQLModel.metadata.tables[KeyChangeRow.__tablename__],
]


TABLE_NAMES = frozenset(t.name for t in TABLES)


REFUSED = "the signatures and key changes are append-only"


append_only.guard(TABLES, REFUSED, "referee_signing_append_only")


def ensure_schema(store: Store) -> None:
    for attempt in range(1, ATTEMPTS + 1):
        try:
            SQLModel.metadata.create_all(store.engine, tables=TABLES)
            if store.is_sqlite:  # triggers dropped by hand come back
                with store.engine.begin() as conn:
                    for table in TABLES:
                        for sql in append_only.sqlite_triggers(table.name, REFUSED):
                            conn.execute(text(sql))
            return
        except DatabaseError as exc:
            if attempt == ATTEMPTS:
                reason = str(getattr(exc, "orig", exc)).splitlines()[0]
                raise StoreError(f"{store.where}: cannot use this database ({reason})") from None
            time.sleep(0.05 * attempt)


def has_table(store: Store, name: str = "record_signature") -> bool:
    with store.engine.connect() as conn:
        if store.is_sqlite:
            query = "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = :name"
        else:
            query = "SELECT count(*) FROM pg_tables WHERE tablename = :name"
        return bool(conn.execute(text(query), {"name": name}).scalar())


# --- fingerprints ---------------------------------------------------------------------------------------
@lru_cache(maxsize=64)
def fingerprint(public_key: str) -> str:
    """The short fingerprint of a public key (64 hex digits): 80 bits of its SHA-256, ``XXXX-XXXX-...``."""
    digest = hashlib.sha256(bytes.fromhex(public_key)).hexdigest()[: 2 * FINGERPRINT_BYTES].upper()
    return "-".join(digest[i : i + 4] for i in range(0, len(digest), 4))


def key_events(store: Store) -> list[Event]:
    """The organiser's key events: the family's stream, else (an older database, never written to since) the
    legacy table's, else none. Nothing is written here."""
    if has_table(store, KEYS.events_table):
        try:
            return store.events(KEY_STREAM, KEYS)
        except KeyStreamChanged:  # the family's tables, made by another stream's write, hold no key event yet
            pass
    return _legacy_key_events(store)


def _legacy_key_events(store: Store) -> list[Event]:
    if not has_table(store, LEGACY_KEY_TABLE):
        return []
    with store.engine.connect() as conn:
        rows = conn.execute(text(LEGACY_SELECT)).all()
    return [Event(KEY_STREAM, seq, t, 1, json.loads(p), prev, h, at) for seq, t, p, prev, h, at in rows]


def key_events_on(conn: Any, tables: set[str]) -> list[Event]:
    """``key_events`` read on an open (read-only) connection whose database holds ``tables``: ``doctor``'s."""
    if KEYS.events_table in tables:
        rows = conn.execute(KEYS.select_events, {"id": KEY_STREAM}).all()
        if rows:
            return [_event(r) for r in rows]
    if LEGACY_KEY_TABLE in tables:
        rows = conn.execute(text(LEGACY_SELECT)).all()
        return [Event(KEY_STREAM, seq, t, 1, json.loads(p), prev, h, at) for seq, t, p, prev, h, at in rows]
    return []


def append_key_event(store: Store, type_: str, payload: dict[str, Any]) -> Event:
    """One key event appended to the organiser's stream in the event store. The first write to an older
    database copies its legacy table's events first, unchanged (their hashes are the family's chain: the same
    stream id, numbers and payloads), in the same insert; the legacy table stays as it was."""
    for _ in range(ATTEMPTS):
        stored = has_table(store, KEYS.events_table) and store.exists(KEY_STREAM, KEYS)
        events = key_events(store)
        new = ev.chain(KEY_STREAM, events[-1] if events else None, type_, payload, version=1, recorded_at=utc_now())
        try:
            store.insert([[new]] if stored else [[*events, new]], KEYS)
            return new
        except KeyStreamChanged:  # another organiser's command wrote first: read again
            continue
    raise SigningError(f"{store.where}: the organiser's key stream kept changing; nothing was recorded")


# --- signatures -----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Signature:
    kind: str
    stream: str
    seq: int
    head: str
    public_key: str
    value: str

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    def message(self) -> bytes:
        return message(self.kind, self.stream, self.seq, self.head)

    def valid(self) -> bool:
        return verifies(self.public_key, self.value, self.message())

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "stream": self.stream,
            "seq": self.seq,
            "head": self.head,
            "public_key": self.public_key,
            "signature": self.value,
        }

    @classmethod
    def from_dict(cls, raw: Any) -> Signature:
        if not isinstance(raw, dict) or set(raw) != {"kind", "stream", "seq", "head", "public_key", "signature"}:
            raise ValueError("a signature holds kind, stream, seq, head, public_key and signature")
        seq, texts = raw["seq"], ("kind", "stream", "head", "public_key", "signature")
        if type(seq) is not int or seq < 1 or not all(isinstance(raw[k], str) for k in texts):  # not true, 9.0, "9"
            raise ValueError("a signature's fields are text, and its seq an event's number (1, 2, ...)")
        return cls(raw["kind"], raw["stream"], raw["seq"], raw["head"], raw["public_key"], raw["signature"])


def message(kind: str, stream: str, seq: int, head: str) -> bytes:
    """What a signature signs: the stream's kind and id and its chain head (the event's number and hash), as
    canonical JSON; written directly when the fields are plain text and a plain number (every check of an
    archive builds one per signature), else by ``canonical_json`` itself."""
    if type(seq) is int and type(kind) is str and type(stream) is str and type(head) is str:
        body = f'{{"head":{_text(head)},"kind":{_text(kind)},"seq":{seq},"stream":{_text(stream)}}}'
    else:
        body = canonical_json({"head": head, "kind": kind, "seq": seq, "stream": stream})
    return MESSAGE_PREFIX + body.encode()


SIGNATURES_OF = text(  # plain SQL, as the store's statements are: nothing to compile again in each process
    "SELECT kind, stream, seq, head, public_key, signature FROM record_signature "
    "WHERE kind = :kind AND stream IN :streams ORDER BY stream, seq"
).bindparams(bindparam("streams", expanding=True))


def signatures(store: Store, kind: str, stream: str) -> list[Signature]:
    if not has_table(store):
        return []
    with store.engine.connect() as conn:
        return signatures_of(conn, kind, [stream]).get(stream, [])


def signatures_of(conn: Any, kind: str, streams: Sequence[str]) -> dict[str, list[Signature]]:
    """Streams' signatures, by stream, read on an open connection in one query (one stream's; ``referee doctor``'s,
    read-only, a few hundred streams at a time)."""
    out: dict[str, list[Signature]] = {}
    for row in conn.execute(SIGNATURES_OF, {"kind": kind, "streams": list(streams)}).all():
        out.setdefault(row[1], []).append(Signature(*row))
    return out


def stream_signatures(store: Store, kind: str) -> Iterator[tuple[str, list[Signature]]]:
    """Every signed stream of one kind with its signatures, in the order of the streams' ids (``Store.stream``'s
    order), one stream at a time: an archive is checked without holding its signatures in memory."""
    if not has_table(store):
        return
    with store.engine.connect() as conn:
        rows = conn.execution_options(yield_per=2000).execute(
            text(
                "SELECT kind, stream, seq, head, public_key, signature FROM record_signature "
                "WHERE kind = :kind ORDER BY stream, seq"
            ),
            {"kind": kind},
        )
        for stream, group in groupby(rows, key=lambda r: r[1]):
            yield stream, [Signature(*r) for r in group]


def store_signatures(store: Store, sigs: Iterable[Signature]) -> None:
    rows = [{**s.to_dict(), "signed_at": utc_now()} for s in sigs]
    if not rows:
        return
    ensure_schema(store)
    with store.engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO record_signature (kind, stream, seq, head, public_key, signature, signed_at) "
                "VALUES (:kind, :stream, :seq, :head, :public_key, :signature, :signed_at)"
            ),
            rows,
        )


KEY_CHANGE_ROWS = text("SELECT public_key, replaces, endorsement FROM record_key_change ORDER BY id")


def verifies(public_key: str, signature: str, signed: bytes) -> bool:
    """Whether ``signature`` (hex) is ``public_key``'s (hex) Ed25519 signature of ``signed``: the one check of a
    signature, by libsodium (PyNaCl). Keys are made and records signed with ``cryptography``; a signature is
    checked by libsodium, which checks Ed25519 (RFC 8032) about twice as fast as OpenSSL (45 against 95 us
    on the benchmarks' machine: an archive checks one per game) and refuses the non-canonical signatures and
    small-order keys that make a signature malleable."""
    from nacl.exceptions import CryptoError

    try:
        verify_key(public_key).verify(signed, bytes.fromhex(signature))
    except (CryptoError, ValueError, TypeError):
        return False
    return True


@lru_cache(maxsize=64)
def verify_key(public_key: str) -> VerifyKey:
    """A public key read once (an archive is signed by one or two keys)."""
    from nacl.signing import VerifyKey

    return VerifyKey(bytes.fromhex(public_key))
