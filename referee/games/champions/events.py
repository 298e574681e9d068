"""Champions of Rokugan's events: a scenario's and a campaign's event types and the fields of each payload
(version 1: the store never reads a payload, so each record checks its own), which kind a record is, where it
stands, and the one place its events are written.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ...core.errors import RefereeError
from ...engine.champions import (
    ChampionsError,
)
from ...store.events import EVENT_RETRACTED, Event, ReplayError
from ...store.storage import Store
from .. import kinds

KIND = kinds.CHAMPIONS.name


CAMPAIGN_KIND = kinds.CHAMPIONS_CAMPAIGN.name


CREATED = kinds.CHAMPIONS.creating


REPORTED = "ChampionsReported"


CORRECTED = "ChampionsCorrected"


ENDED = "ChampionsEnded"


C_CREATED = kinds.CHAMPIONS_CAMPAIGN.creating


C_LOGGED = "ChampionsCampaignLogged"


C_ENDED = "ChampionsCampaignEnded"


RETRACTED = EVENT_RETRACTED


# The fields of each payload (version 1): the store never reads a payload, so this record checks its own.
SCHEMA: dict[str, dict[str, type]] = {
    CREATED: {"game": str, "kind": str, "setup": list, "referee_version": str},
    REPORTED: {"turn": int, "lines": list},
    CORRECTED: {"seq": int, "lines": list, "reason": str},
    ENDED: {"objectives": str, "result": str, "digest": str},
    C_CREATED: {"game": str, "kind": str, "players": list, "referee_version": str},
    C_LOGGED: {"scenario_game": str, "scenario_head": str, "play": dict},
    C_ENDED: {"choosers": list, "totals": dict},
    RETRACTED: {"seq": int, "type": str, "reason": str},
}


PLAY = {
    "game": str,
    "scenario": str,
    "victory": bool,
    "difference": int,
    "glory": list,
    "glorified": list,
    "intermission": list,
}


class ChampionsRefused(RefereeError):
    """A report, correction or record the rules refuse: exit 1, one line (or one a bad line)."""


def refused(exc: ChampionsError, where: str = "") -> ChampionsRefused:
    return ChampionsRefused(f"{where}{exc.message}")


def data(e: Event) -> dict[str, Any]:
    """An event's payload, its fields checked (ReplayError naming the event otherwise)."""
    fields = SCHEMA.get(e.type)
    if fields is None:
        raise ReplayError(f"{e.type} has no place in a Champions of Rokugan record", seq=e.seq)
    if e.payload_version != 1:
        raise ReplayError(
            f"{e.type} payload version {e.payload_version} is newer than this referee knows (1)", seq=e.seq
        )
    p = e.payload
    wanted = {**fields, **(PLAY if e.type == C_LOGGED and isinstance(p.get("play"), dict) else {})}
    for name, kind in wanted.items():
        value = p["play"].get(name) if name in PLAY and e.type == C_LOGGED else p.get(name)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ReplayError(f"{e.type} payload field {name!r} must be {kind.__name__}, got {value!r}", seq=e.seq)
    lists = [p.get("lines"), p.get("setup"), p.get("players"), p.get("choosers")]
    if any(isinstance(x, list) and not all(isinstance(v, str) for v in x) for x in lists):
        raise ReplayError(f"{e.type} payload: its lines must be text", seq=e.seq)
    return p


def kind_of(events: Sequence[Event]) -> str | None:
    """The record's kind, from its creating event: 'champions', 'champions-campaign', None for another game's."""
    kind = kinds.kind_of(events)
    return None if kind == kinds.BATTLE.name else kind


def is_scenario(events: Sequence[Event]) -> bool:
    """Whether a record is a Champions scenario's (a campaign's is not)."""
    return kind_of(events) == KIND


def is_campaign(events: Sequence[Event]) -> bool:
    """Whether a record is a Champions campaign's."""
    return kind_of(events) == CAMPAIGN_KIND


def status(events: Sequence[Event]) -> str:
    """Where a Champions record stands, from its events alone (as `referee games` lists it)."""
    retracted = {e.payload.get("seq") for e in events if e.type == RETRACTED}
    live = [e for e in events if e.seq not in retracted]
    if kind_of(events) == CAMPAIGN_KIND:
        logged = sum(e.type == C_LOGGED for e in live)
        ended = next((e for e in live if e.type == C_ENDED), None)
        if ended is not None:
            return f"champions campaign: over, the ending chosen by {' and '.join(ended.payload.get('choosers', []))}"
        return f"champions campaign: {logged} scenario(s) logged"
    ended = next((e for e in live if e.type == ENDED), None)
    if ended is not None:
        return f"champions scenario: ended, {ended.payload.get('result', '?')}"
    turns = sum(line.startswith("turn end") for e in live if e.type == REPORTED for line in e.payload["lines"])
    return f"champions scenario: turn {turns + 1}"


# --- the store: the one place Champions records are written --------------------------------------------
def store_append(store: Store, game: str, items: list[tuple[str, dict[str, Any]]], after: Event | None, kind: str):
    """Append to a Champions record: the one place they are written. A new record is created with its kind
    (the store's ``game.kind``); the creating event's payload names it too, so that an exported record
    carries its kind into another database."""
    return store.append(game, items, after, kind=kind if after is None else None)
