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

import sys
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import text

from ..core.canonical import canonical_json
from ..core.numerals import whole
from ..engine.tournament.events import SIGNED_EVENTS
from ..store import events as ev
from ..store.events import Event, LogError
from ..store.storage import Store, utc_now

if TYPE_CHECKING:  # `cryptography` loads when a key or a signature is used (about 8 MB of resident memory)
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from ..store.signatures import (
    Signature,
    SigningError,
    ensure_schema,
    fingerprint,
    message,
    signatures,
    store_signatures,
)
from .keys import (
    IMPORTED_SIGNER,
    Ledger,
    accepted_keys,
    endorsed,
    fingerprint_or_raw,
    key_file,
    key_from_file,
    keys,
    known_key_changes,
    ledger,
    normal_fingerprint,
    public_hex,
    read_key,
)

GAME_SIGNED_FROM = "GameEnded"  # a game's closing (Battle for Rokugan's): this event and every one after it


TOURNAMENT_SIGNED = SIGNED_EVENTS  # a tournament's first seating: it and every later event signed


def needs_signature(kind: str, events: Sequence[Event]) -> list[int]:
    """The numbers of the events a signed record must have signed (by their own or a later signature): every event
    from its first signed point on, the point itself included. A game's first signed point is its closing
    (``GameEnded``); a tournament's is its first seating (``TOURNAMENT_SIGNED``): from then on every event feeds
    its standings (a result, a judge's adjustment, a round's close), so every one is signed."""
    first = (lambda e: e.type in TOURNAMENT_SIGNED) if kind == "tournament" else (lambda e: e.type == GAME_SIGNED_FROM)
    start = next((i for i, e in enumerate(events) if first(e)), None)
    return [] if start is None else [e.seq for e in events[start:]]


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
            todo.append(fingerprint_or_raw(change["replaces"]))
    return out


def store_attached(store: Store, attached: Attached) -> None:
    """What an imported record carries besides its events, stored beside them: its signatures, its key changes
    not already known here (both checked by ``check`` before anything is stored), and each key that signed it
    that this database does not know otherwise (``IMPORTED_SIGNER``): a signer the database knows neither way is
    refused by ``doctor`` and every stored check (a record re-signed inside the database file)."""
    store_signatures(store, attached.signatures)
    known = ledger(store)
    new = [c for c in attached.key_changes if c not in known.changes]
    brought = {fingerprint_or_raw(c[k]) for c in new for k in ("public_key", "replaces")}
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
            [{**c, "recorded_at": utc_now()} for c in new],
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
        if not endorsed(k):
            new, old = k["public_key"], k["replaces"]
            return (
                f"the key change to {fingerprint_or_raw(new)} is not endorsed by the key it replaces "
                f"({fingerprint_or_raw(old)}): its endorsement does not verify"
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
