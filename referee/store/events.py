"""The events of a stream: past participles with versioned JSON payloads, chained by hash.

    hash = sha256(prev_hash + canonical_json({game, seq, type, payload_version, payload}))

The first event's ``prev_hash`` is ``GENESIS``. An event's seal code is the first 80 bits of its hash in
Crockford's base 32, four groups of four read aloud (``XXXX-XXXX-XXXX-XXXX``, ``format_seal``): finding
another log whose event has the same seal takes about 2^80 hashes. A payload of a type declared ``sealed``
carries its seal; because the seal is derived from the hash, the ``seal`` field itself is left out of what is
hashed, and ``check_chain`` checks that it matches. Its version 1 carries the old 32-bit seal (``XXXX-XXXX``,
the first 8 hex digits of the hash: ``legacy_seal``). From version 2 the entries of a type declared ``ordered``
are in the canonical order (sorted), and ``check_chain`` refuses any other.

Each game declares its own event types (``declare``: the fields of the current payload version) and registers
the upcasters of the older versions (``upcaster``); the games' wings declare theirs when ``referee.games`` is
imported. Payloads are stored as written, at the version they were written in; ``Event.data`` upcasts them to
the current version on read (``UPCASTERS``). The hash always covers the payload as stored.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from json.encoder import encode_basestring
from typing import Any, NamedTuple

from ..core.canonical import canonical_json
from ..core.errors import RefereeError
from ..core.value import value

GENESIS = "0" * 64
DEFAULT_KIND = "battle-for-rokugan"  # the kind of a stream recorded before streams had kinds
SEAL_BITS = 80
GAME_ID = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")


class LogError(RefereeError):
    """Base of every error of the game log layer."""


class EventFormatError(LogError):
    """An event whose payload cannot be read (missing field, wrong type, unknown version)."""

    def __init__(self, message: str, *, seq: int | None = None):
        self.seq = seq
        super().__init__(f"event {seq}: {message}" if seq is not None else message)


class JsonRefused(ValueError):
    """A line of a record that is JSON, but not JSON the referee reads: its message is the whole reason."""


def read_json(text: str) -> Any:
    """One JSON line of a record (an event, a signature, a key change), read strictly: an object naming a key
    twice is refused (``json`` keeps the last silently, another reader may show the first: what is shown must be
    what is signed), and so is nesting too deep for the reader (``RecursionError``); other bad JSON raises
    ``ValueError`` as ``json.loads`` does."""
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except RecursionError:
        raise JsonRefused("nested too deeply to be read") from None


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) != len(pairs):
        seen: set[str] = set()
        twice = next(k for k, _ in pairs if k in seen or seen.add(k))  # type: ignore[func-returns-value]
        raise JsonRefused(f"the key {twice!r} appears twice in one object")
    return out


# --- the event types: each game declares its own; the store keeps their payload versions and fields ------
CURRENT_VERSION: dict[str, int] = {}  # an event type's current payload version
SCHEMA: dict[str, dict[str, type]] = {}  # the fields of each current payload version
SEALED: set[str] = set()  # payloads that carry their own seal code
ORDERED: set[str] = set()  # payloads whose entries are in the canonical order (sorted) from version 2 on


def declare(
    type_: str, fields: dict[str, type], *, version: int = 1, sealed: bool = False, ordered: bool = False
) -> str:
    """Declare an event type of a game: the fields of its current payload ``version`` (older versions are
    upcast by the ``upcaster`` functions its game registers), whether its payload carries its own seal (left
    out of its hash), whether its entries must be sorted. Returns the type."""
    CURRENT_VERSION[type_], SCHEMA[type_] = version, fields
    if sealed:
        SEALED.add(type_)
    if ordered:
        ORDERED.add(type_)
    return type_


# a recorded event taken back, with a reason: every game's, nothing recorded being deleted
EVENT_RETRACTED = declare("EventRetracted", {"seq": int, "type": str, "reason": str})


# --- upcasting ------------------------------------------------------------------------------------
Upcaster = Callable[[dict[str, Any]], dict[str, Any]]
UPCASTERS: dict[tuple[str, int], Upcaster] = {}


def upcaster(type_: str, from_version: int) -> Callable[[Upcaster], Upcaster]:
    """Register a function turning a ``type_`` payload of ``from_version`` into the next version."""

    def register(fn: Upcaster) -> Upcaster:
        UPCASTERS[(str(type_), from_version)] = fn
        return fn

    return register


def upcast(type_: str, version: int, payload: dict[str, Any]) -> dict[str, Any]:
    """The payload at the current version of its type (raises EventFormatError when impossible)."""
    if type_ not in CURRENT_VERSION:
        raise EventFormatError(f"unknown event type {type_!r}")
    current = CURRENT_VERSION[type_]
    if version > current:
        raise EventFormatError(f"{type_} payload version {version} is newer than this referee knows ({current})")
    try:
        while version < current:
            step = UPCASTERS.get((type_, version))
            if step is None:
                raise EventFormatError(f"no upcaster for {type_} payload version {version}")
            payload, version = step(payload), version + 1
    except (KeyError, TypeError, ValueError) as exc:
        raise EventFormatError(f"{type_} payload version {version} cannot be upcast: {exc!r}") from None
    check_payload(type_, payload)
    return payload


def check_payload(type_: str, payload: Any) -> None:
    if not isinstance(payload, dict):
        raise EventFormatError(f"{type_} payload is not an object")
    for name, kind in SCHEMA[type_].items():
        value = payload.get(name)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise EventFormatError(f"{type_} payload field {name!r} must be {kind.__name__}, got {value!r}")


# --- the event value and its hash -------------------------------------------------------------------
class StoredPayload(NamedTuple):
    """A payload's JSON text as a database holds it, with the payload read from that text."""

    text: str
    payload: dict[str, Any]


@value
class Event:
    """One recorded event, exactly as stored: payload at its recorded version, with its chain."""

    game: str
    seq: int
    type: str
    payload_version: int
    payload: dict[str, Any]
    prev_hash: str
    hash: str
    recorded_at: str = ""
    # read from a database: the payload's text there, so that its hash is checked on the text that was
    # hashed when it was written rather than on the payload serialised again (``hash_matches``)
    stored: StoredPayload | None = field(default=None, compare=False, repr=False)

    @property
    def data(self) -> dict[str, Any]:
        """The payload upcast to the current version."""
        try:
            return upcast(self.type, self.payload_version, self.payload)
        except EventFormatError as exc:
            raise EventFormatError(exc.message, seq=self.seq) from None

    @property
    def seal(self) -> str:
        return format_seal(self.hash)

    def computed_hash(self) -> str:
        return event_hash(self.prev_hash, self.game, self.seq, self.type, self.payload_version, self.payload)

    def hash_matches(self) -> bool:
        """Whether ``hash`` is this event's hash (``computed_hash() == hash``). An event read from a database
        is checked on its payload's stored text first: a match proves that text is the one hashed when the
        event was written (so is the payload read from it); anything else is checked on the payload
        serialised again, which names no fewer problems."""
        stored = self.stored
        if stored is not None and stored.payload is self.payload:
            text = hashed_text(self.type, stored.text, self.payload)
            if (
                text is not None
                and _hash_of(self.prev_hash, self.game, self.seq, self.type, self.payload_version, text) == self.hash
            ):
                return True
        return self.computed_hash() == self.hash

    def to_dict(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "seq": self.seq,
            "type": self.type,
            "payload_version": self.payload_version,
            "payload": self.payload,
            "prev_hash": self.prev_hash,
            "hash": self.hash,
            "recorded_at": self.recorded_at,
        }


SEAL_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"  # Crockford's base 32: no I L O U to misread
_SEAL_TYPED = str.maketrans({"O": "0", "I": "1", "L": "1"})


def format_seal(hash_: str) -> str:
    """The seal of an event: the first 80 bits of its hash, 16 characters of Crockford's base 32 in four
    groups of four (``7Q2M-K9XD-0B4T-HRVE``)."""
    bits = int(hash_[: SEAL_BITS // 4], 16)
    chars = "".join(SEAL_ALPHABET[(bits >> shift) & 31] for shift in range(SEAL_BITS - 5, -1, -5))
    return "-".join(chars[i : i + 4] for i in range(0, len(chars), 4))


def legacy_seal(hash_: str) -> str:
    """The 32-bit seal of logs written before 80-bit seals: the first 8 hex digits (``XXXX-XXXX``)."""
    code = hash_[:8].upper()
    return f"{code[:4]}-{code[4:]}"


def stored_seal(type_: str, version: int, hash_: str) -> str:
    """The seal a sealed payload carries: 32 bits in version 1, 80 bits after."""
    return legacy_seal(hash_) if version < 2 else format_seal(hash_)


def typed_seal(typed: str) -> str:
    """A seal as someone typed or read it, in its printed form: any case, spaces or dashes, ``O`` for ``0``,
    ``I``/``L`` for ``1``; an old 32-bit seal (8 hex digits) as ``XXXX-XXXX``. Anything else is returned
    squeezed and in capitals (it matches no event)."""
    squeezed = "".join(typed.split()).replace("-", "").upper()
    if len(squeezed) == 8 and all(c in "0123456789ABCDEF" for c in squeezed):
        return f"{squeezed[:4]}-{squeezed[4:]}"
    squeezed = squeezed.translate(_SEAL_TYPED)
    if len(squeezed) == SEAL_BITS // 5 and all(c in SEAL_ALPHABET for c in squeezed):
        return "-".join(squeezed[i : i + 4] for i in range(0, len(squeezed), 4))
    return squeezed


def is_legacy_seal(seal: str) -> bool:
    return len(seal) == 9 and seal[4] == "-"


def normal_seal(text: str) -> str:
    """A seal as a player notes it, in its printed form (``typed_seal``)."""
    return typed_seal(text)


def hashed_payload(type_: str, payload: dict[str, Any]) -> dict[str, Any]:
    if type_ in SEALED:
        return {k: v for k, v in payload.items() if k != "seal"}
    return payload


def event_hash(prev_hash: str, game: str, seq: int, type_: str, version: int, payload: dict[str, Any]) -> str:
    body = {
        "game": game,
        "seq": seq,
        "type": type_,
        "payload_version": version,
        "payload": hashed_payload(type_, payload),
    }
    return hashlib.sha256((prev_hash + canonical_json(body)).encode()).hexdigest()


def hashed_text(type_: str, text: str, payload: dict[str, Any]) -> str | None:
    """The canonical JSON of ``hashed_payload`` cut from the payload's stored canonical ``text``: the text
    itself, or for a sealed payload the text without its seal (the last key in canonical order). None when
    the text is not of that shape; a text that is, but is not canonical, fails the hash it is checked on."""
    if type_ not in SEALED:
        return text
    seal = payload.get("seal")
    if not isinstance(seal, str):
        return None
    tail = ',"seal":' + encode_basestring(seal) + "}"
    return text[: -len(tail)] + "}" if text.endswith(tail) else None


def _hash_of(prev_hash: str, game: str, seq: int, type_: str, version: int, payload_text: str) -> str:
    """``event_hash`` with the payload already in canonical JSON: the body's keys in canonical (sorted) order."""
    body = (
        f'{{"game":{encode_basestring(game)},"payload":{payload_text},"payload_version":{version!r},'
        f'"seq":{seq!r},"type":{encode_basestring(type_)}}}'
    )
    return hashlib.sha256((prev_hash + body).encode()).hexdigest()


def chain(
    game: str,
    after: Event | None,
    type_: str,
    payload: dict[str, Any],
    *,
    version: int | None = None,
    recorded_at: str = "",
) -> Event:
    """The next event of ``game`` after ``after`` (None: the first), hashed and, if sealed, sealed."""
    seq = after.seq + 1 if after else 1
    prev = after.hash if after else GENESIS
    version = CURRENT_VERSION[type_] if version is None else version
    digest = event_hash(prev, game, seq, str(type_), version, payload)
    if type_ in SEALED:
        payload = {**payload, "seal": stored_seal(str(type_), version, digest)}
    return Event(game, seq, str(type_), version, payload, prev, digest, recorded_at)


def chain_all(
    game: str, items: Iterable[tuple[str, dict[str, Any], int | None]], after: Event | None = None
) -> list[Event]:
    """Chain ``(type, payload, version)`` items one after another (used to relabel or rebuild logs)."""
    out: list[Event] = []
    for type_, payload, version in items:
        after = chain(game, after, type_, payload, version=version)
        out.append(after)
    return out


def check_game_id(game: str) -> str:
    if not GAME_ID.fullmatch(game or ""):
        raise LogError(f"{game!r} is not a valid game id: use letters, digits, '-', '_' or '.', at most 64")
    return game


def event_retracted(seq: int, type_: str, reason: str) -> dict[str, Any]:
    return {"seq": seq, "type": str(type_), "reason": reason}


# --- the chain, checked without the engine ----------------------------------------------------------
class Problem(StrEnum):
    EDITED = "edited payload"
    REMOVED = "removed event"
    REORDERED = "reordered event"
    BROKEN_CHAIN = "broken chain"
    SEAL = "seal mismatch"
    FOREIGN = "foreign event"
    UNREADABLE = "unreadable event"
    ENGINE = "engine disagreement"
    ORDER = "entries out of order"


@dataclass(frozen=True, slots=True)
class Divergence:
    """The first place where a log stops being what was recorded."""

    seq: int
    index: int  # position in the sequence that was checked (0 = first)
    problem: Problem
    detail: str

    def __str__(self) -> str:
        return f"event {self.seq}: {self.problem}: {self.detail}"


def check_chain(events: Sequence[Event]) -> Divergence | None:
    """The first break in numbering, linking, hashing or sealing, or None when the chain is whole."""
    prev: Event | None = None
    game = events[0].game if events else ""
    for i, e in enumerate(events):
        found = check_link(events, i, e, prev, game)
        if found:
            return found
        prev = e
    return None


def check_link(events: Sequence[Event], i: int, e: Event, prev: Event | None, game: str) -> Divergence | None:
    """Event ``i`` of ``events`` checked against the one before it (``prev``): its game, its number, its
    link, its hash, its seal and its entries' order; the first problem found, or None."""
    if e.game != game:
        return Divergence(e.seq, i, Problem.FOREIGN, f"belongs to game {e.game!r}, not {game!r}")
    found = _check_seq(events, i, e, prev) or _check_prev_hash(events, i, e, prev) or _check_content(e)
    return Divergence(e.seq, i, *found) if found else None


def _check_seq(events: Sequence[Event], i: int, e: Event, prev: Event | None) -> tuple[Problem, str] | None:
    expected = prev.seq + 1 if prev else 1
    if e.seq == expected:
        return None
    if any(o.seq == expected for o in events[i + 1 :]):
        return Problem.REORDERED, f"stands where event {expected} belongs; event {expected} comes later"
    if e.seq > expected:
        missing = str(expected) if e.seq == expected + 1 else f"{expected} to {e.seq - 1}"
        return Problem.REMOVED, f"event {missing} is missing (sequence gap after event {expected - 1})"
    return Problem.REORDERED, f"comes after event {prev.seq if prev else 0}: sequence numbers go backwards"


def _check_prev_hash(events: Sequence[Event], i: int, e: Event, prev: Event | None) -> tuple[Problem, str] | None:
    want = prev.hash if prev else GENESIS
    if e.prev_hash == want:
        return None
    later = next((o for o in events[i + 1 :] if o.hash == e.prev_hash), None)
    if later is not None:
        return Problem.REORDERED, f"its chain link points at event {later.seq}, which comes after it"
    what = f"the hash of event {prev.seq}" if prev else "the start of a log"
    return (
        Problem.BROKEN_CHAIN,
        f"its link {e.prev_hash[:12]}... is not {what} ({want[:12]}...): an event before it was removed or altered",
    )


def _check_content(e: Event) -> tuple[Problem, str] | None:
    if not e.hash_matches():
        return Problem.EDITED, f"its {e.type} content no longer matches its recorded hash"
    if e.type in SEALED and e.payload.get("seal") != (want := stored_seal(e.type, e.payload_version, e.hash)):
        return Problem.SEAL, f"recorded seal {e.payload.get('seal')!r} is not the chain's {want}"
    if e.type in ORDERED and e.payload_version >= 2 and not in_canonical_order(e.payload.get("entries")):
        return (
            Problem.ORDER,
            "its entries are not in the canonical order (sorted): the referee never writes them so, "
            "and a different order is how a forged log searches for a matching seal",
        )
    return None


def in_canonical_order(entries: Any) -> bool:
    """Whether a round's entries are in the order the referee records them (sorted)."""
    return not isinstance(entries, list) or all(
        isinstance(a, str) and isinstance(b, str) and a <= b for a, b in zip(entries, entries[1:], strict=False)
    )


class ReplayError(LogError):
    """An event the engine cannot replay (out of order, refused entries, unreadable notation)."""

    def __init__(self, problem: str, *, seq: int | None = None):
        self.seq = seq
        self.problem = problem
        super().__init__(f"event {seq}: {problem}" if seq is not None else problem)
