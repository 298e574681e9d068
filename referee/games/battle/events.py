"""Battle for Rokugan's events: its event types, declared to the store with the fields of each payload's current
version (``store.events.declare``), the upcasters of older versions, and the payloads the service builds.

Version 1 of ``RoundResolved`` and ``EntryCorrected`` (logs written before 80-bit seals) carry the old 32-bit
seal (``XXXX-XXXX``, the first 8 hex digits of the hash: ``legacy_seal``) and their entries in the order they
were typed; they still verify as written. From version 2 the entries are in the canonical order (declared
``ordered``: sorted), and a log holding them in any other order is refused: a forger cannot re-order a round's
tokens to search for a matching hash. A ``RoundResolved`` payload carries its seal (declared ``sealed``): the
``seal`` field is left out of what is hashed, and ``check_chain`` checks that it matches.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from ...store import events as store
from ...store.events import declare, event_retracted as event_retracted, upcaster
from ..kinds import BATTLE


class EventType(StrEnum):
    GAME_CREATED = BATTLE.creating
    SETUP_RECORDED = "SetupRecorded"
    ROUND_RESOLVED = "RoundResolved"
    ENTRY_CORRECTED = "EntryCorrected"
    OBJECTIVE_SEALED = "ObjectiveSealed"
    OBJECTIVE_REVEALED = "ObjectiveRevealed"
    TABLE_EVENTS_RECORDED = "TableEventsRecorded"
    EVENT_RETRACTED = store.EVENT_RETRACTED  # the store's: every game's
    TABLE_EVENTS_CORRECTED = "TableEventsCorrected"
    SETUP_CORRECTED = "SetupCorrected"
    GAME_ENDED = "GameEnded"


SCHEMA: dict[str, dict[str, type]] = {  # the fields of each current payload version
    EventType.GAME_CREATED: {
        "game": str,
        "clans": list,
        "players": dict,
        "event": str,
        "table": str,
        "date": str,
        "options": dict,
        "engine_version": str,
        "board_version": str,
    },
    EventType.SETUP_RECORDED: {"lines": list},
    EventType.ROUND_RESOLVED: {"round": int, "entries": list, "digest": str, "seal": str},
    EventType.ENTRY_CORRECTED: {"round": int, "entries": list, "reason": str, "digests": dict},
    EventType.OBJECTIVE_SEALED: {"clan": str, "commitment": str},
    EventType.OBJECTIVE_REVEALED: {"clan": str, "objective": str, "code": str},
    EventType.TABLE_EVENTS_RECORDED: {"round": int, "lines": list},
    EventType.TABLE_EVENTS_CORRECTED: {"round": int, "lines": list, "reason": str, "digests": dict},
    EventType.SETUP_CORRECTED: {"lines": list, "reason": str, "digests": dict},
    EventType.GAME_ENDED: {"scores": dict, "winners": list, "tiebreak": str, "digest": str},
}
VERSION = {EventType.ROUND_RESOLVED: 2, EventType.ENTRY_CORRECTED: 2}  # the others at version 1
for _type, _fields in SCHEMA.items():
    declare(
        _type,
        _fields,
        version=VERSION.get(EventType(_type), 1),
        sealed=_type == EventType.ROUND_RESOLVED,  # a round's payload carries its seal code
        ordered=_type in VERSION,  # version 2 on: the entries sorted
    )

NO_SEAL_CHECKED = (  # what `verify` says of a log whose seals nobody gave (the CLI and the JSON API)
    "no seal checked: the chain and the engine agree, but only a seal noted at the table "
    "(--seal XXXX-XXXX-XXXX-XXXX) proves these are the events recorded"
)
ENDED = "the game has ended (p.10): only a correction may follow"  # the one message, wherever it is refused
OVER = "five rounds were played (p.10)"  # the fifth round resolved, the log not closed yet (objectives sealed)


# --- upcasting ------------------------------------------------------------------------------------
@upcaster(EventType.GAME_CREATED, 0)
def _game_created_v0(p: dict[str, Any]) -> dict[str, Any]:
    """v0 (pre-release logs): players as ``[[clan, name], ...]``, options under ``rules``, the engine
    version under ``engine``, event/table/date optional, no board version."""
    return {
        "game": p["game"],
        "clans": list(p["clans"]),
        "players": {clan: name for clan, name in p.get("players", [])},
        "event": p.get("event", ""),
        "table": str(p.get("table", "")),
        "date": p.get("date", ""),
        "options": dict(p.get("rules", {})),
        "engine_version": str(p.get("engine", "0")),
        "board_version": p.get("board_version", "unversioned"),
    }


@upcaster(EventType.ROUND_RESOLVED, 1)
@upcaster(EventType.ENTRY_CORRECTED, 1)
def _ordered_v1(p: dict[str, Any]) -> dict[str, Any]:
    """v1: the same fields; the entries in the order typed, a round's seal of 32 bits (see the module's text)."""
    return p


# --- payloads (commands build these; the chain seals them) --------------------------------------------
def game_created(
    game: str,
    clans: Sequence[str],
    players: dict[str, str],
    options: dict[str, Any],
    *,
    event: str = "",
    table: str = "",
    date: str = "",
    engine_version: str,
    board_version: str,
    partial_setup: bool = False,
) -> dict[str, Any]:
    payload: dict[str, Any] = {
        "game": game,
        "clans": [str(c) for c in clans],
        "players": {str(k): v for k, v in players.items()},
        "event": event,
        "table": str(table),
        "date": date,
        "options": options,
        "engine_version": engine_version,
        "board_version": board_version,
    }
    if partial_setup:  # a game taken over mid-way: its setup is not checked (written only when set)
        payload["partial_setup"] = True
    return payload


def setup_recorded(lines: Sequence[str]) -> dict[str, Any]:
    return {"lines": list(lines)}


def round_resolved(round_no: int, entries: Sequence[str], digest: str) -> dict[str, Any]:
    return {"round": round_no, "entries": list(entries), "digest": digest, "seal": ""}


def entry_corrected(round_no: int, entries: Sequence[str], reason: str, digests: dict[int, str]) -> dict[str, Any]:
    return {
        "round": round_no,
        "entries": list(entries),
        "reason": reason,
        "digests": {str(r): d for r, d in sorted(digests.items())},
    }


def table_events_recorded(round_no: int, lines: Sequence[str]) -> dict[str, Any]:
    return {"round": round_no, "lines": list(lines)}


def table_events_corrected(round_no: int, lines: Sequence[str], reason: str, digests: dict[int, str]) -> dict[str, Any]:
    return {
        "round": round_no,
        "lines": list(lines),
        "reason": reason,
        "digests": {str(r): d for r, d in sorted(digests.items())},
    }


def setup_corrected(lines: Sequence[str], reason: str, digests: dict[int, str]) -> dict[str, Any]:
    return {"lines": list(lines), "reason": reason, "digests": {str(r): d for r, d in sorted(digests.items())}}


def objective_sealed(clan: str, commitment: str) -> dict[str, Any]:
    return {"clan": str(clan), "commitment": commitment}


def objective_revealed(clan: str, objective: str, code: str) -> dict[str, Any]:
    return {"clan": str(clan), "objective": objective, "code": code}
