"""The card game's events, declared to the store with the fields of each payload (version 1):

MatchCreated          the two players as entered (the match notation's player lines), who went first
MatchEventsRecorded   one or more lines of the match notation, taken all or none, with the digest of
                      the match after them (``verify`` re-runs the rules and compares)
MatchEventsCorrected  a recorded event's lines replaced, with the judge's reason
EventRetracted        the last recorded event taken back, with a reason (the store's, every game's)
"""

from __future__ import annotations

from enum import StrEnum

from ...store import events as store
from ...store.events import declare
from ..kinds import CCG


class EventType(StrEnum):
    MATCH_CREATED = CCG.creating
    MATCH_EVENTS_RECORDED = "MatchEventsRecorded"
    MATCH_EVENTS_CORRECTED = "MatchEventsCorrected"
    EVENT_RETRACTED = store.EVENT_RETRACTED


SCHEMA: dict[str, dict[str, type]] = {
    EventType.MATCH_CREATED: {
        "game": str,
        "kind": str,
        "players": list,
        "setup": list,
        "first": str,
        "event": str,
        "table": str,
        "date": str,
        "rules_version": str,
    },
    EventType.MATCH_EVENTS_RECORDED: {"turn": int, "lines": list, "digest": str},
    EventType.MATCH_EVENTS_CORRECTED: {"seq": int, "lines": list, "reason": str, "digest": str},
}
for _type, _fields in SCHEMA.items():
    declare(_type, _fields)
