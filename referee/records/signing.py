"""Organiser keys and signed records (Ed25519, with `cryptography`).

A record's hash chain proves that nothing inside it changed since it was written; it does not prove who
wrote it: whoever holds the database can write another game and compute every hash anew. An organiser's
signature over a stream's chain head closes that gap for anyone holding the organiser's public key.

- **Keys.** ``referee key new`` writes the private key to a file of its own (mode 0600, PKCS#8 PEM,
  encrypted when a passphrase is given) and declares the public key in the database, in a stream of its
  own (``KeyDeclared``, ``KeyLost``): the stream ``organiser`` of the event store's family ``KEYS``
  (``key_stream``/``key_stream_event``), written and chained by the store as games and tournaments are. A
  database written before the family existed keeps its keys in the table ``organiser_key_event``: they are
  read from there until the first key event is written, which copies them, unchanged, to the family. A new
  key that replaces another carries the old key's endorsement when the old key file is at hand.
- **Key changes** that came with an imported record (another organiser's endorsed keys) are kept in
  ``record_key_change`` (append-only), so that ``verify --key`` follows them in the importing database.
- **Signatures.** ``record_signature`` (append-only) holds one row per signed point of a stream: the
  stream's kind (``game`` or ``tournament``), its id, the event's number and hash (the chain head when it
  was signed), the public key and the Ed25519 signature over ``MESSAGE_PREFIX`` + the canonical JSON of
  ``{kind, stream, seq, head}``. A signature covers everything up to its head, through the chain.
- **What is signed**: everything from a record's first signed point on (``needs_signature``): a game's
  ``GameEnded`` and every event recorded after it; a tournament's first seating and every event after it (all
  of them feed its standings: results, adjustments, closes). Each write is signed at its last event (a
  signature covers what comes before it through the chain). Signing happens when the key file is found
  (``--key-file`` where a command takes it, else ``$REFEREE_KEY_FILE``, else ``~/.referee/organiser.key``) and
  holds the database's current key; otherwise the record stays unsigned, and every view says so.
- **Exports** carry their signatures: a JSON Lines log has a ``{"signature": {...}}`` line after each
  signed event (and a ``{"key": {...}}`` line for a key change's endorsement); a text record a line
  ``== signed by FINGERPRINT: ...`` after the section it signs, so a finished record ends with one.
- **Checking** (``check``): every signature against the public key it names, its head against the
  record's event, nothing signed beyond the record's end, no event requiring a signature after the last
  signature; with ``--key``, every signature by that organiser's key (or a key it endorsed).
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import time
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import lru_cache
from importlib import resources
from itertools import groupby
from json.encoder import encode_basestring as _text  # canonical_json's string form (ensure_ascii off)
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import UniqueConstraint, bindparam, text
from sqlalchemy.exc import DatabaseError
from sqlmodel import Field, SQLModel

from ..core.canonical import canonical_json
from ..core.numerals import whole
from ..engine.tournament.model import SIGNED_EVENTS
from ..store import append_only, events as ev
from ..store.events import Event, LogError
from ..store.storage import Family, Store, StoreError, _event

if TYPE_CHECKING:  # `cryptography` loads when a key or a signature is used (about 8 MB of resident memory)
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
    from nacl.signing import VerifyKey

KEY_ENV = "REFEREE_KEY_FILE"
PASSPHRASE_ENV = "REFEREE_KEY_PASSPHRASE"
MESSAGE_PREFIX = b"referee signed record v1\n"
ENDORSEMENT_PREFIX = b"referee key change v1\n"
FINGERPRINT_BYTES = 10  # 80 bits: ten words read aloud
KEY_STREAM = "organiser"
ATTEMPTS = 5
KEY_FILE_MOST = 64 * 1024  # bytes read of a key file at most: an Ed25519 key's PEM is under 300
GAME_SIGNED_FROM = "GameEnded"  # a game's closing (Battle for Rokugan's): this event and every one after it
TOURNAMENT_SIGNED = SIGNED_EVENTS  # a tournament's first seating: it and every later event signed


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


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


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


def _has_tables(store: Store, name: str = "record_signature") -> bool:
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


@lru_cache(maxsize=1)
def _word_lists() -> tuple[list[str], list[str]]:
    data = json.loads(resources.files("referee").joinpath("data/pgp_words.json").read_text("utf-8"))
    return data["even"], data["odd"]


def words(fp: str) -> list[str]:
    """The fingerprint as the PGP word list reads it: one word per byte, alternating two- and
    three-syllable lists so that a dropped or swapped word is heard."""
    even, odd = _word_lists()
    raw = bytes.fromhex(fp.replace("-", ""))
    return [(odd if i % 2 else even)[b] for i, b in enumerate(raw)]


def normal_fingerprint(value: str) -> str | None:
    """``value`` as a fingerprint (any case, dashes or spaces optional), or None when it is not one."""
    hexed = value.replace("-", "").replace(" ", "").upper()
    if len(hexed) != 2 * FINGERPRINT_BYTES or any(c not in "0123456789ABCDEF" for c in hexed):
        return None
    return "-".join(hexed[i : i + 4] for i in range(0, len(hexed), 4))


def public_hex(key: Ed25519PublicKey) -> str:
    from cryptography.hazmat.primitives import serialization

    return key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw).hex()


# --- key files ------------------------------------------------------------------------------------------
def default_key_file() -> Path:
    return Path.home() / ".referee" / "organiser.key"


def key_file(given: Path | None = None) -> Path:
    """Where the private key is looked for: the option, else $REFEREE_KEY_FILE, else ~/.referee/organiser.key."""
    if given is not None:
        return given
    env = os.environ.get(KEY_ENV)
    return Path(env) if env else default_key_file()


def write_key(path: Path, passphrase: str | None) -> Ed25519PrivateKey:
    """A new key pair; the private key written to ``path`` (a new file, mode 0600), and the public key beside
    it (``path`` + ``.pub``, PEM, a new file, mode 0644): the file to hand to whoever checks the records. Neither
    file may be there already: nothing is written over (a file left by someone else keeps its own mode)."""
    public_path = Path(f"{path}.pub")
    for there in (path, public_path):
        if there.exists() or there.is_symlink():
            raise SigningError(f"{there}: a file is already there; nothing was written", hint="name another --key-file")
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    if not path.parent.is_dir():
        path.parent.mkdir(parents=True, mode=0o700)
    key = Ed25519PrivateKey.generate()
    encryption = (
        serialization.BestAvailableEncryption(passphrase.encode()) if passphrase else serialization.NoEncryption()
    )
    pem = key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except OSError as exc:
        raise SigningError(f"{path}: cannot write the key ({exc.strerror or exc})") from None
    with os.fdopen(fd, "wb") as f:
        f.write(pem)
    os.chmod(path, 0o600)  # whatever the umask
    public = key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    try:
        fd = os.open(public_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except OSError as exc:  # made meanwhile: the private key is taken back, nothing is left half done
        path.unlink()
        raise SigningError(f"{public_path}: cannot write the public key ({exc.strerror or exc})") from None
    with os.fdopen(fd, "wb") as f:
        f.write(public)
    os.chmod(public_path, 0o644)  # whatever the umask: readable by whoever checks, written by the organiser only
    return key


def key_file_bytes(path: Path) -> bytes:
    """A key file's bytes, read up to ``KEY_FILE_MOST`` (an organiser's key file is a few hundred bytes): a
    larger file is refused as not a key file, having read no more than that."""
    try:
        with path.open("rb") as f:
            data = f.read(KEY_FILE_MOST + 1)
    except OSError as exc:
        raise SigningError(f"{path}: cannot read the key file ({exc.strerror or exc})") from None
    if len(data) > KEY_FILE_MOST:
        raise SigningError(
            f"{path}: larger than {KEY_FILE_MOST // 1024} KiB: not a key file (an organiser's key file is a few "
            "hundred bytes); nothing more was read"
        )
    return data


def read_key(path: Path, passphrase: str | None = None, data: bytes | None = None) -> Ed25519PrivateKey:
    """The private key in ``path`` (``data``: its bytes, when already read); an encrypted one takes
    ``passphrase`` (else $REFEREE_KEY_PASSPHRASE). A file that holds no private key is refused as such before
    its mode is looked at; a private key file readable by others is not used."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    if passphrase is None:
        passphrase = os.environ.get(PASSPHRASE_ENV) or None
    if data is None:
        data = key_file_bytes(path)
    if b"-----BEGIN " not in data or b"PRIVATE KEY-----" not in data:
        raise SigningError(f"{path}: not an organiser's key file (no PEM private key in it)")
    mode = path.stat().st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise SigningError(
            f"{path}: the key file is readable by others (mode {stat.S_IMODE(mode):o}); it was not used",
            hint=f"chmod 600 {path}",
        )
    try:
        key = serialization.load_pem_private_key(data, passphrase.encode() if passphrase else None)
    except TypeError:
        raise SigningError(
            f"{path}: the key is protected by a passphrase", hint=f"give it in ${PASSPHRASE_ENV} or when asked"
        ) from None
    except ValueError:
        raise SigningError(f"{path}: not an organiser key, or a wrong passphrase") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise SigningError(f"{path}: not an Ed25519 key")
    return key


def key_from_file(path: Path) -> str:
    """The public key (hex) of a public key file (PEM) or of a private key file."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

    data = key_file_bytes(path)
    if b"PUBLIC KEY" in data:
        try:
            public = serialization.load_pem_public_key(data)
        except ValueError:
            raise SigningError(f"{path}: not a public key file") from None
        if not isinstance(public, Ed25519PublicKey):
            raise SigningError(f"{path}: not an Ed25519 key")
        return public_hex(public)
    return public_hex(read_key(path, data=data).public_key())


# --- the key stream -------------------------------------------------------------------------------------
@dataclass
class OrganiserKey:
    name: str
    public_key: str
    fingerprint: str
    declared_at: str
    replaces: str = ""  # the fingerprint of the key it replaced
    endorsed: bool = False  # the replaced key signed the change
    endorsement: str = ""
    lost: str = ""  # the reason, when declared lost
    replaced_by: str = ""


@dataclass
class Keys:
    keys: list[OrganiserKey] = field(default_factory=list)
    head: Event | None = None

    def by_fingerprint(self, fp: str) -> OrganiserKey | None:
        return next((k for k in self.keys if k.fingerprint == fp), None)

    @property
    def current(self) -> OrganiserKey | None:
        """The key the organiser signs with: the last declared, unless it was declared lost."""
        last = self.keys[-1] if self.keys else None
        return last if last is not None and not last.lost else None


def key_events(store: Store) -> list[Event]:
    """The organiser's key events: the family's stream, else (an older database, never written to since) the
    legacy table's, else none. Nothing is written here."""
    if _has_tables(store, KEYS.events_table):
        try:
            return store.events(KEY_STREAM, KEYS)
        except KeyStreamChanged:  # the family's tables, made by another stream's write, hold no key event yet
            pass
    return _legacy_key_events(store)


def _legacy_key_events(store: Store) -> list[Event]:
    if not _has_tables(store, LEGACY_KEY_TABLE):
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


def keys(store: Store) -> Keys:
    """The organiser's keys in this database, checked link by link."""
    return fold_keys(key_events(store), store.where)


def fold_keys(events: Sequence[Event], where: str | None) -> Keys:
    """The organiser's keys declared by a key stream's events, checked link by link."""
    out = Keys()
    prev = ev.GENESIS
    for e in events:
        computed = ev.event_hash(prev, KEY_STREAM, e.seq, e.type, e.payload_version, e.payload)
        if e.prev_hash != prev or e.hash != computed:
            raise SigningError(f"{where}: the organiser's key stream is broken at event {e.seq}")
        prev = e.hash
        p = e.payload
        if e.type == "KeyDeclared":
            old = out.by_fingerprint(p["replaces"]) if p["replaces"] else None
            if old is not None:
                old.replaced_by = p["fingerprint"]
            out.keys.append(
                OrganiserKey(
                    p["name"],
                    p["public_key"],
                    p["fingerprint"],
                    e.recorded_at,
                    p["replaces"],
                    bool(p["endorsement"]),
                    p["endorsement"],
                )
            )
        elif e.type == "KeyLost":
            lost = out.by_fingerprint(p["fingerprint"])
            if lost is not None:
                lost.lost = p["reason"]
        out.head = e
    return out


def _append_key_event(store: Store, type_: str, payload: dict[str, Any]) -> Event:
    """One key event appended to the organiser's stream in the event store. The first write to an older
    database copies its legacy table's events first, unchanged (their hashes are the family's chain: the same
    stream id, numbers and payloads), in the same insert; the legacy table stays as it was."""
    for _ in range(ATTEMPTS):
        stored = _has_tables(store, KEYS.events_table) and store.exists(KEY_STREAM, KEYS)
        events = key_events(store)
        new = ev.chain(KEY_STREAM, events[-1] if events else None, type_, payload, version=1, recorded_at=_now())
        try:
            store.insert([[new]] if stored else [[*events, new]], KEYS)
            return new
        except KeyStreamChanged:  # another organiser's command wrote first: read again
            continue
    raise SigningError(f"{store.where}: the organiser's key stream kept changing; nothing was recorded")


def _endorsement_message(public_key: str, old_fingerprint: str) -> bytes:
    return ENDORSEMENT_PREFIX + canonical_json({"new": public_key, "old": old_fingerprint}).encode()


def declare(store: Store, name: str, key: Ed25519PrivateKey, old: Ed25519PrivateKey | None = None) -> OrganiserKey:
    """Record the public key of ``key`` as the organiser's current key; with a current key already declared,
    the new one replaces it, endorsed by ``old`` (the current key's private half) when it is given."""
    if not name.strip():
        raise SigningError("a key needs a name (--name): the tournament or organiser it signs for")
    state = keys(store)
    public = public_hex(key.public_key())
    fp = fingerprint(public)
    if state.by_fingerprint(fp):
        raise SigningError(f"key {fp} is already declared in this database")
    current = state.current
    endorsement = ""
    if current is not None and old is not None:
        if public_hex(old.public_key()) != current.public_key:
            raise SigningError(f"the old key file does not hold the current key {current.fingerprint}")
        endorsement = old.sign(_endorsement_message(public, current.fingerprint)).hex()
    payload = {
        "name": name.strip(),
        "public_key": public,
        "fingerprint": fp,
        "replaces": current.fingerprint if current else "",
        "endorsement": endorsement,
    }
    _append_key_event(store, "KeyDeclared", payload)
    declared = keys(store).by_fingerprint(fp)
    assert declared is not None
    return declared


def declare_lost(store: Store, reason: str) -> OrganiserKey:
    """The current key declared lost, with the organiser's reason: nothing is signed with it any more; what it
    signed before stays valid."""
    if not reason.strip():
        raise SigningError("a lost key is declared with a reason (--reason)")
    current = keys(store).current
    if current is None:
        raise SigningError("no current organiser key in this database to declare lost")
    _append_key_event(store, "KeyLost", {"fingerprint": current.fingerprint, "reason": reason.strip()})
    current.lost = reason.strip()
    return current


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
        return _verifies(self.public_key, self.value, self.message())

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


def needs_signature(kind: str, events: Sequence[Event]) -> list[int]:
    """The numbers of the events a signed record must have signed (by their own or a later signature): every event
    from its first signed point on, the point itself included. A game's first signed point is its closing
    (``GameEnded``); a tournament's is its first seating (``TOURNAMENT_SIGNED``): from then on every event feeds
    its standings (a result, a judge's adjustment, a round's close), so every one is signed."""
    first = (lambda e: e.type in TOURNAMENT_SIGNED) if kind == "tournament" else (lambda e: e.type == GAME_SIGNED_FROM)
    start = next((i for i, e in enumerate(events) if first(e)), None)
    return [] if start is None else [e.seq for e in events[start:]]


SIGNATURES_OF = text(  # plain SQL, as the store's statements are: nothing to compile again in each process
    "SELECT kind, stream, seq, head, public_key, signature FROM record_signature "
    "WHERE kind = :kind AND stream IN :streams ORDER BY stream, seq"
).bindparams(bindparam("streams", expanding=True))


def signatures(store: Store, kind: str, stream: str) -> list[Signature]:
    if not _has_tables(store):
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
    if not _has_tables(store):
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
    rows = [{**s.to_dict(), "signed_at": _now()} for s in sigs]
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


def sign(key: Ed25519PrivateKey, kind: str, stream: str, event: Event) -> Signature:
    return Signature(
        kind,
        stream,
        event.seq,
        event.hash,
        public_hex(key.public_key()),
        key.sign(message(kind, stream, event.seq, event.hash)).hex(),
    )


def _warn(text_: str) -> None:
    print(f"warning: {text_}", file=sys.stderr)


def organiser_key(store: Store, path: Path | None = None, later: str = "referee key sign") -> Ed25519PrivateKey | None:
    """The key to sign with: the key file's, when it is there, readable and the database's current key (a
    warning on standard error says why not, when a key file is there but cannot be used, or is away while the
    database declares a key; ``later``: the command that signs the record afterwards)."""
    where = key_file(path)
    if not where.is_file():
        current = keys(store).current
        if current is not None:  # the organiser signs here, but the file is away: said, as a refused file is
            _warn(
                f"{where}: no key file here, and this database's organiser key is {current.fingerprint}; the "
                f"record is left unsigned (`{later}` signs it once the file is at hand)"
            )
        return None
    try:
        key = read_key(where)
    except SigningError as exc:
        _warn(f"{exc}; the record is left unsigned")
        return None
    current = keys(store).current
    public = public_hex(key.public_key())
    if current is None or current.public_key != public:
        _warn(
            f"{where}: key {fingerprint(public)} is not this database's current organiser key "
            f"({current.fingerprint if current else 'none declared'}); the record is left unsigned"
        )
        return None
    return key


def sign_recorded(store: Store, kind: str, events: Sequence[Event], recorded: Sequence[Event]) -> bool:
    """The services' hook once events are recorded (``events``: the whole stream, ``recorded``: the events just
    written, at its end): when they must be signed (``needs_signature``), the last of them is signed, which covers
    the write through the chain, if the organiser's key is at hand; otherwise a warning says the record is left
    unsigned (``organiser_key``). Whether a signature was made."""
    needed = set(needs_signature(kind, events))
    if not recorded or recorded[-1].seq not in needed:
        return False
    stream = events[0].game
    key = organiser_key(store, later=f"referee key sign {'--tournament ' if kind == 'tournament' else ''}{stream}")
    if key is None:
        return False
    store_signatures(store, [sign(key, kind, stream, recorded[-1])])
    return True


# --- the keys a database knows -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Ledger:
    """The organiser keys a database knows, to check its stored records' signers against: the keys its key stream
    declared (current, replaced or lost; ``lost``: the reasons) and the keys that came with imported records
    (their key changes, and the keys that signed them: ``record_key_change``); ``changes``: every endorsed key
    change it knows (its own and imported), for ``--key``."""

    declared: frozenset[str] = frozenset()
    imported: frozenset[str] = frozenset()
    lost: dict[str, str] = field(default_factory=dict)
    changes: tuple[dict[str, Any], ...] = ()

    def knows(self, fp: str) -> bool:
        return fp in self.declared or fp in self.imported

    def note(self, fp: str) -> str:
        """What the status adds to a signer's fingerprint: a loss declared here, or that it came with a record."""
        if fp in self.lost:
            return f" (key declared lost: {self.lost[fp]})"
        return "" if fp in self.declared else " (a key that came with an imported record)"


KEY_CHANGE_ROWS = text("SELECT public_key, replaces, endorsement FROM record_key_change ORDER BY id")
IMPORTED_SIGNER = ""  # ``replaces`` of a record_key_change row that records the key that signed an imported record


def ledger(store: Store) -> Ledger:
    """The organiser keys this database knows (``Ledger``)."""
    rows: Sequence[Any] = []
    if _has_tables(store, KeyChangeRow.__tablename__):
        with store.engine.connect() as conn:
            rows = conn.execute(KEY_CHANGE_ROWS).all()
    return _ledger(keys(store), rows)


def ledger_on(conn: Any, tables: set[str], where: str | None) -> Ledger:
    """``ledger`` read on an open (read-only) connection whose database holds ``tables``: ``doctor``'s."""
    rows = conn.execute(KEY_CHANGE_ROWS).all() if KeyChangeRow.__tablename__ in tables else []
    return _ledger(fold_keys(key_events_on(conn, tables), where), rows)


def _ledger(state: Keys, rows: Sequence[Any]) -> Ledger:
    changes = []
    for k in state.keys:
        old = state.by_fingerprint(k.replaces) if k.endorsement else None
        if old is not None:
            changes.append({"public_key": k.public_key, "replaces": old.public_key, "endorsement": k.endorsement})
    imported: set[str] = set()
    for public_key, replaces, endorsement in rows:
        imported.add(_fingerprint_or_raw(public_key))
        if replaces != IMPORTED_SIGNER:
            imported.add(_fingerprint_or_raw(replaces))
            change = {"public_key": public_key, "replaces": replaces, "endorsement": endorsement}
            if change not in changes:
                changes.append(change)
    return Ledger(
        frozenset(k.fingerprint for k in state.keys),
        frozenset(imported),
        {k.fingerprint: k.lost for k in state.keys if k.lost},
        tuple(changes),
    )


# --- exports --------------------------------------------------------------------------------------------
def known_key_changes(store: Store, known: Ledger | None = None) -> dict[str, list[dict[str, Any]]]:
    """Every endorsed key change this database knows, by the new key's fingerprint: its own organiser's (the
    key stream) and those that came with imported records (``record_key_change``)."""
    out: dict[str, list[dict[str, Any]]] = {}
    for change in (known or ledger(store)).changes:
        out.setdefault(_fingerprint_or_raw(change["public_key"]), []).append(change)
    return out


def _fingerprint_or_raw(public_key: str) -> str:
    try:
        return fingerprint(public_key)
    except ValueError:  # not hex: kept as it is, and refused by the check that uses it
        return public_key


def key_lines(store: Store, sigs: Sequence[Signature], ledger_: Ledger | None = None) -> list[dict[str, Any]]:
    """The key changes a record's signatures need: each signing key that replaced another, with the old key's
    endorsement, back to the first key (so that ``verify --key OLD`` accepts what a later key signed)."""
    if not sigs:
        return []
    known = known_key_changes(store, ledger_)
    out, seen = [], set()
    todo = [s.fingerprint for s in sigs]
    while todo:
        fp = todo.pop()
        if fp in seen:
            continue
        seen.add(fp)
        for change in known.get(fp, []):
            out.append(change)
            todo.append(_fingerprint_or_raw(change["replaces"]))
    return out


def store_attached(store: Store, attached: Attached) -> None:
    """What an imported record carries besides its events, stored beside them: its signatures, its key changes
    not already known here (both checked by ``check`` before anything is stored), and each key that signed it
    that this database does not know otherwise (``IMPORTED_SIGNER``): a signer the database knows neither way is
    refused by ``doctor`` and every stored check (a record re-signed inside the database file)."""
    store_signatures(store, attached.signatures)
    known = ledger(store)
    new = [c for c in attached.key_changes if c not in known.changes]
    brought = {_fingerprint_or_raw(c[k]) for c in new for k in ("public_key", "replaces")}
    for s in attached.signatures:
        if not known.knows(s.fingerprint) and s.fingerprint not in brought:
            new.append({"public_key": s.public_key, "replaces": IMPORTED_SIGNER, "endorsement": ""})
            brought.add(s.fingerprint)
    new = [c for i, c in enumerate(new) if c not in new[:i]]
    if not new:
        return
    ensure_schema(store)
    with store.engine.begin() as conn:
        conn.execute(
            text(
                "INSERT INTO record_key_change (public_key, replaces, endorsement, recorded_at) "
                "VALUES (:public_key, :replaces, :endorsement, :recorded_at)"
            ),
            [{**c, "recorded_at": _now()} for c in new],
        )


def jsonl_with(text_: str, sigs: Sequence[Signature], key_changes: Sequence[dict[str, Any]] = ()) -> str:
    """A JSON Lines export with its signature lines, each after the event it signs."""
    if not sigs:
        return text_
    by_seq: dict[int, list[Signature]] = {}
    for s in sigs:
        by_seq.setdefault(s.seq, []).append(s)
    out = [canonical_json({"key": k}) + "\n" for k in key_changes]
    for n, line in enumerate(text_.splitlines(), 1):
        out.append(line + "\n")
        out += [canonical_json({"signature": s.to_dict()}) + "\n" for s in by_seq.pop(n, [])]
    out += [canonical_json({"signature": s.to_dict()}) + "\n" for rest in by_seq.values() for s in rest]
    return "".join(out)


def signed_line(s: Signature) -> str:
    return (
        f"== signed by {s.fingerprint}: {s.kind} {s.stream} event {s.seq} head {s.head} "
        f"key {s.public_key} signature {s.value}"
    )


def key_line(k: dict[str, Any]) -> str:
    return (
        f"== key {fingerprint(k['public_key'])} replaces {fingerprint(k['replaces'])}: key {k['public_key']} "
        f"old {k['replaces']} endorsement {k['endorsement']}"
    )


UNSIGNED_LINE = "# unsigned: no organiser's signature (no usable organiser's key file was at hand when the game closed)"


def text_with(record: str, events: Sequence[Event], sigs: Sequence[Signature], key_changes=()) -> str:
    """A text record with its signature lines, each after the section of the event it signs (sections are
    separated by blank lines, one per event after the headers); an unsigned finished record says so under its
    headers, in a comment (its last line stays the game's result)."""
    blocks = record.rstrip("\n").split("\n\n")
    # blocks[0]: the headers (event 1); blocks[i]: event i + 1
    by_seq: dict[int, list[Signature]] = {}
    for s in sigs:
        by_seq.setdefault(s.seq, []).append(s)
    out = []
    for i, block in enumerate(blocks):
        lines = [block]
        if i == 0:
            lines += [key_line(k) for k in key_changes]
            if not sigs and needs_signature("game", events):
                lines.append(UNSIGNED_LINE)
        lines += [signed_line(s) for s in by_seq.pop(i + 1, [])]
        out.append("\n".join(lines))
    extra = [signed_line(s) for rest in by_seq.values() for s in rest]
    if extra:
        out.append("\n".join(extra))
    return "\n\n".join(out) + "\n"


@dataclass
class Attached:
    """What a record file carries besides its events: signatures, key changes, and their line numbers."""

    signatures: list[Signature] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    key_changes: list[dict[str, Any]] = field(default_factory=list)


class AttachedError(LogError):
    def __init__(self, problem: str, lineno: int):
        self.lineno = lineno
        super().__init__(f"line {lineno}: {problem}")  # one line: the file is refused whole


def split_record(text_: str) -> tuple[str, Attached]:
    """The record without its signature and key lines (blanked, so line numbers stay), and those lines read."""
    att = Attached()
    kept: list[str] = []
    for n, line in enumerate(text_.splitlines(), 1):
        stripped = line.strip()
        if stripped.startswith('{"signature"') or stripped.startswith('{"key"'):
            try:
                raw = ev.read_json(stripped)
                if not isinstance(raw, dict) or len(raw) != 1:
                    raise ValueError('a line holds one object, {"signature": ...} or {"key": ...}')
                if "signature" in raw:
                    att.signatures.append(Signature.from_dict(raw["signature"]))
                    att.lines.append(n)
                else:
                    att.key_changes.append(_key_change(raw["key"]))
            except ev.JsonRefused as exc:
                raise AttachedError(f"a signature line that cannot be read: {exc}", n) from None
            except (ValueError, TypeError, KeyError) as exc:
                raise AttachedError(f"a signature line that cannot be read ({exc})", n) from None
            kept.append("")
        elif stripped.startswith("== signed by "):
            att.signatures.append(_parse_signed_line(stripped, n))
            att.lines.append(n)
            kept.append("")
        elif stripped.startswith("== key "):
            att.key_changes.append(_parse_key_line(stripped, n))
            kept.append("")
        else:
            kept.append(line)
    return "\n".join(kept) + ("\n" if text_.endswith("\n") else ""), att


def _key_change(raw: Any) -> dict[str, Any]:
    if not isinstance(raw, dict) or set(raw) != {"public_key", "replaces", "endorsement"}:
        raise ValueError("a key change holds public_key, replaces and endorsement")
    if not all(isinstance(v, str) for v in raw.values()):
        raise ValueError("a key change's fields are text")
    return dict(raw)


def _parse_signed_line(line: str, n: int) -> Signature:
    parts = line.split()  # == signed by FP: KIND STREAM event SEQ head HEAD key KEY signature SIG
    words_ = ("event", "head", "key", "signature")
    seq = whole(parts[7]) if len(parts) == 14 else None
    if not seq or tuple(parts[i] for i in (6, 8, 10, 12)) != words_:
        raise AttachedError(
            "a signature line reads: == signed by FINGERPRINT: KIND STREAM event N head HASH key KEY signature SIG", n
        )
    s = Signature(parts[4], parts[5], seq, parts[9], parts[11], parts[13])
    try:
        named = fingerprint(s.public_key)
    except ValueError:
        raise AttachedError("a signature line's key is not 64 hex digits", n) from None
    if parts[3].rstrip(":") != named:
        raise AttachedError(f"the signature line names key {parts[3].rstrip(':')}, but holds key {named}", n)
    return s


def _parse_key_line(line: str, n: int) -> dict[str, Any]:
    parts = line.split()
    # == key FP replaces FP: key KEY old KEY endorsement SIG
    if len(parts) != 11 or parts[5] != "key" or parts[7] != "old" or parts[9] != "endorsement":
        raise AttachedError("a key line reads: == key FP replaces FP: key KEY old KEY endorsement SIG", n)
    return {"public_key": parts[6], "replaces": parts[8], "endorsement": parts[10]}


# --- checking -------------------------------------------------------------------------------------------
@dataclass
class Checked:
    """What the signatures of a record say: ``problem`` (one line) when refused, else who signed."""

    problem: str | None = None
    index: int | None = None  # the signature refused, in the order given
    signers: list[str] = field(default_factory=list)  # fingerprints, in order of first signature
    signed: bool = False
    required: bool = False
    closed: bool = False  # the record holds events that a signed record must have signed
    unsigned_tail: bool = False  # refused only for events after its last signature: `key sign` signs them
    notes: dict[str, str] = field(default_factory=dict)  # what a stored record's status adds to a signer (Ledger.note)

    @property
    def status(self) -> str:
        if self.problem and self.unsigned_tail:  # nothing forged: events recorded after the last signature
            return f"unsigned: {self.problem}"
        if self.problem:
            return f"signature refused: {self.problem}"
        if self.signed:
            return "signed by " + ", ".join(fp + self.notes.get(fp, "") for fp in self.signers)
        return "unsigned: no organiser's signature" if self.closed else "unsigned: a record is signed when it closes"


def accepted_keys(given: Iterable[str], key_changes: Sequence[dict[str, Any]]) -> set[str]:
    """The fingerprints ``--key`` accepts: the given keys and every key they endorsed, in turn."""
    accepted = set(given)
    grew = True
    while grew:
        grew = False
        for k in key_changes:
            new, old = fingerprint(k["public_key"]), fingerprint(k["replaces"])
            if old in accepted and new not in accepted and _endorsed(k):
                accepted.add(new)
                grew = True
    return accepted


def _endorsed(k: dict[str, Any]) -> bool:
    try:
        signed = _endorsement_message(k["public_key"], fingerprint(k["replaces"]))
    except ValueError:  # a key that is not hex
        return False
    return _verifies(k["replaces"], k["endorsement"], signed)


def _verifies(public_key: str, signature: str, signed: bytes) -> bool:
    """Whether ``signature`` (hex) is ``public_key``'s (hex) Ed25519 signature of ``signed``: the one check of a
    signature, by libsodium (PyNaCl). Keys are made and records signed with ``cryptography``; a signature is
    checked by libsodium, which checks Ed25519 (RFC 8032) about twice as fast as OpenSSL (45 against 95 us
    on the benchmarks' machine: an archive checks one per game) and refuses the non-canonical signatures and
    small-order keys that make a signature malleable."""
    from nacl.exceptions import CryptoError

    try:
        _verify_key(public_key).verify(signed, bytes.fromhex(signature))
    except (CryptoError, ValueError, TypeError):
        return False
    return True


@lru_cache(maxsize=64)
def _verify_key(public_key: str) -> VerifyKey:
    """A public key read once (an archive is signed by one or two keys)."""
    from nacl.signing import VerifyKey

    return VerifyKey(bytes.fromhex(public_key))


def check(
    kind: str,
    events: Sequence[Event],
    sigs: Sequence[Signature],
    *,
    key: Iterable[str] | None = None,
    key_changes: Sequence[dict[str, Any]] = (),
    known: Ledger | None = None,
    open_records: bool = False,
) -> Checked:
    """Check a record's signatures (its chain and contents are ``verify``'s): each names this stream, holds
    the hash of the record's event at its number, and verifies with its public key; nothing is signed past the
    record's end; every event that must be signed is signed by its own or a later signature when the record is
    signed at all, or when ``key`` is given (then every signature must be by one of those keys, or a key they
    endorsed), and a record carrying no signature at all is refused, even one not yet at its first signed point
    (an unfinished game handed over as the organiser's), unless ``open_records`` (``doctor --key``: a database's
    games in progress pass unsigned). ``known``: a stored record's database's keys: without ``key``, every
    signer must be one of them (a record re-signed inside the database file by another key is refused), and a
    lost key is named."""
    out = Checked()
    out.problem = unendorsed(key_changes)
    if out.problem:
        return out
    given = sorted(key) if key is not None else None
    accepted = accepted_keys(given, key_changes) if given is not None else None
    for i, s in enumerate(sigs):
        problem = _refused(kind, events, s, accepted, given)
        if problem is None and accepted is None and known is not None and not known.knows(s.fingerprint):
            problem = _undeclared(s, known)
        if problem is not None:
            out.problem, out.index = problem, i
            return out
        if s.fingerprint not in out.signers:
            out.signers.append(s.fingerprint)
            if known is not None:
                out.notes[s.fingerprint] = known.note(s.fingerprint)
    needed = needs_signature(kind, events)
    out.closed = bool(needed)
    out.required = bool(needed) and (bool(sigs) or key is not None)
    out.signed = bool(sigs)
    if out.required:
        out.problem = _unsigned_tail(events, sigs, needed[-1])
        out.unsigned_tail = out.problem is not None
    elif key is not None and not sigs and not open_records:
        out.problem = (
            "no organiser's signature: --key requires one, and a record is signed only from its first signed "
            "point on (a game's closing, a tournament's first seating)"
        )
    return out


def _undeclared(s: Signature, known: Ledger) -> str:
    declared = ", ".join(sorted(known.declared)) or "none"
    return (
        f"event {s.seq} is signed by key {s.fingerprint}, which this database never declared (its organiser keys: "
        f"{declared}) nor received with an imported record"
    )


def unendorsed(key_changes: Sequence[dict[str, Any]]) -> str | None:
    """The refusal of a key change whose endorsement is not the old key's signature of it, or None."""
    for k in key_changes:
        if not _endorsed(k):
            new, old = k["public_key"], k["replaces"]
            return (
                f"the key change to {_fingerprint_or_raw(new)} is not endorsed by the key it replaces "
                f"({_fingerprint_or_raw(old)}): its endorsement does not verify"
            )
    return None


def _named(s: Signature) -> str:
    """How a signature's key is named in a refusal: its fingerprint, or the start of what it holds."""
    try:
        return s.fingerprint if len(s.public_key) == 64 else s.public_key[:16]
    except ValueError:  # 64 characters, not all hex digits
        return s.public_key[:16]


def _refused(
    kind: str, events: Sequence[Event], s: Signature, accepted: set[str] | None, given: Sequence[str] | None
) -> str | None:
    """Why one signature is refused (one line), or None: the record's stream, its end, the signed event's
    hash, the signature itself, then ``--key``, in that order."""
    fp = _named(s)
    stream = events[0].game if events else ""
    if s.kind != kind or s.stream != stream:
        return f"a signature by {fp} is for {s.kind} {s.stream!r}, not this record ({kind} {stream!r})"
    last = events[-1].seq if events else 0
    if s.seq > last or s.seq < 1:
        return f"the record was cut after its signature: {fp} signed event {s.seq}, the record ends at event {last}"
    signed = events[s.seq - 1].hash
    if signed != s.head:
        return (
            f"event {s.seq} is not the event {fp} signed (its hash {signed[:12]}..., signed "
            f"{s.head[:12]}...): the chain was rebuilt"
        )
    if not s.valid():
        return f"the signature on event {s.seq} does not verify with the key it names ({fp})"
    if accepted is not None and fp not in accepted:
        return f"event {s.seq} is signed by key {fp}, not by {', '.join(given or ())} (--key)"
    return None


def _unsigned_tail(events: Sequence[Event], sigs: Sequence[Signature], needed: int) -> str | None:
    """The refusal of a signed (or ``--key``) record whose last event that must be signed is after its last
    signature (a record cut after it was signed, then continued), or None."""
    top = max((s.seq for s in sigs), default=0)
    if needed <= top:
        return None
    e = events[needed - 1]
    return f"event {e.seq} ({e.type}) carries no signature, and a signed record must: " + (
        "--key requires the organiser's signature" if not sigs else f"the last signature is on event {top}"
    )


# --- the commands' entry points -------------------------------------------------------------------------
def with_signatures(store: Store, kind: str, events: Sequence[Event], exported: str, fmt: str) -> str:
    """An export (``jsonl`` or ``text``) with the stream's signatures and the key changes they need."""
    sigs = signatures(store, kind, events[0].game) if events else []
    changes = key_lines(store, sigs)
    if fmt == "text":
        return text_with(exported, events, sigs, changes)
    return jsonl_with(exported, sigs, changes)


def read_keys(given: Sequence[str]) -> list[str]:
    """``--key`` values: fingerprints, or files holding a public or private key."""
    out = []
    for value in given:
        fp = normal_fingerprint(value)
        if fp is None:
            path = Path(value)
            if not path.is_file():
                raise SigningError(f"--key {value}: neither a fingerprint (XXXX-XXXX-XXXX-XXXX-XXXX) nor a key file")
            fp = fingerprint(key_from_file(path))
        out.append(fp)
    return out


def check_stored(
    store: Store, kind: str, events: Sequence[Event], key: Sequence[str] | None, sigs: Sequence[Signature] | None = None
) -> Checked:
    """A stored record's signatures checked (``sigs``: its signatures, when already read), with the key changes
    the database holds for them."""
    if sigs is None:
        sigs = signatures(store, kind, events[0].game)
    if not sigs:
        return check(kind, events, sigs, key=key)
    known = ledger(store)
    return check(kind, events, sigs, key=key, key_changes=key_lines(store, sigs, known), known=known)


def refusal(target: str, checked: Checked, lines: Sequence[int] | None = None) -> SigningError:
    """A refused signature as one line, naming the file's line when there is one."""
    where = f" (line {lines[checked.index]})" if lines and checked.index is not None else ""
    return SigningError(f"{target}: {checked.problem}{where}")
