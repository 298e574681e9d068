"""The organiser's keys: their fingerprints read aloud as words, the key files (mode 0600, PKCS#8 PEM, encrypted
when a passphrase is given), the keys a database declares (``KeyDeclared``, ``KeyLost``) and the ledger of every
key it knows, its own and those that came with imported records. A new key that replaces another carries the old
key's endorsement when the old key file is at hand.
"""

from __future__ import annotations

import json
import os
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.canonical import canonical_json
from ..store import events as ev
from ..store.events import Event
from ..store.storage import Store

if TYPE_CHECKING:  # `cryptography` loads when a key or a signature is used (about 8 MB of resident memory)
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from ..store.signatures import (
    FINGERPRINT_BYTES,
    KEY_CHANGE_ROWS,
    KEY_STREAM,
    KeyChangeRow,
    SigningError,
    append_key_event,
    fingerprint,
    has_table,
    key_events,
    key_events_on,
    verifies,
)

KEY_ENV = "REFEREE_KEY_FILE"


PASSPHRASE_ENV = "REFEREE_KEY_PASSPHRASE"


ENDORSEMENT_PREFIX = b"referee key change v1\n"


KEY_FILE_MOST = 64 * 1024  # bytes read of a key file at most: an Ed25519 key's PEM is under 300


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
    append_key_event(store, "KeyDeclared", payload)
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
    append_key_event(store, "KeyLost", {"fingerprint": current.fingerprint, "reason": reason.strip()})
    current.lost = reason.strip()
    return current


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


IMPORTED_SIGNER = ""  # ``replaces`` of a record_key_change row that records the key that signed an imported record


def ledger(store: Store) -> Ledger:
    """The organiser keys this database knows (``Ledger``)."""
    rows: Sequence[Any] = []
    if has_table(store, KeyChangeRow.__tablename__):
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
        imported.add(fingerprint_or_raw(public_key))
        if replaces != IMPORTED_SIGNER:
            imported.add(fingerprint_or_raw(replaces))
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
        out.setdefault(fingerprint_or_raw(change["public_key"]), []).append(change)
    return out


def fingerprint_or_raw(public_key: str) -> str:
    try:
        return fingerprint(public_key)
    except ValueError:  # not hex: kept as it is, and refused by the check that uses it
        return public_key


def accepted_keys(given: Iterable[str], key_changes: Sequence[dict[str, Any]]) -> set[str]:
    """The fingerprints ``--key`` accepts: the given keys and every key they endorsed, in turn."""
    accepted = set(given)
    grew = True
    while grew:
        grew = False
        for k in key_changes:
            new, old = fingerprint(k["public_key"]), fingerprint(k["replaces"])
            if old in accepted and new not in accepted and endorsed(k):
                accepted.add(new)
                grew = True
    return accepted


def endorsed(k: dict[str, Any]) -> bool:
    try:
        signed = _endorsement_message(k["public_key"], fingerprint(k["replaces"]))
    except ValueError:  # a key that is not hex
        return False
    return verifies(k["replaces"], k["endorsement"], signed)
