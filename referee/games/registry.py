"""Which game a stored record is: Battle for Rokugan's (the default), the card game's or Champions of
Rokugan's, read from its first event. Depends on the event types alone, so that any command listing or
checking the store can ask it."""

from __future__ import annotations

from collections.abc import Sequence

from ..store.events import Event, EventType

BATTLE = "battle-for-rokugan"
CHAMPIONS = "champions"
CHAMPIONS_CAMPAIGN = "champions-campaign"
CCG = "l5r-ccg"
CREATING = {
    "ChampionsScenarioCreated": CHAMPIONS,
    "ChampionsCampaignCreated": CHAMPIONS_CAMPAIGN,
    "MatchCreated": CCG,
}


READ_BY = {
    CHAMPIONS: "a Champions of Rokugan record (champions): `referee champions show|replay|verify|export` read it",
    CHAMPIONS_CAMPAIGN: "a Champions of Rokugan campaign (champions-campaign): `referee champions campaign show`",
    CCG: "a card game match, not a Battle for Rokugan game: see `referee ccg --help`",
}


def not_battle(kind: str) -> str:
    """The one line a Battle for Rokugan command gives for a record of another kind, naming what reads it."""
    return READ_BY.get(kind, f"a record of kind {kind!r}, not a Battle for Rokugan game")


def kind_of(events: Sequence[Event]) -> str:
    """The record's kind; a record that begins otherwise is Battle for Rokugan's."""
    if not events or events[0].type not in CREATING:
        return BATTLE
    return str(events[0].payload.get("kind", CREATING[events[0].type]))


def champions_status(events: Sequence[Event]) -> str:
    """Where a Champions record stands, from its events alone (as `referee games` lists it)."""
    retracted = {e.payload.get("seq") for e in events if e.type == EventType.EVENT_RETRACTED}
    live = [e for e in events if e.seq not in retracted]
    if kind_of(events) == CHAMPIONS_CAMPAIGN:
        logged = sum(e.type == "ChampionsCampaignLogged" for e in live)
        ended = next((e for e in live if e.type == "ChampionsCampaignEnded"), None)
        if ended is not None:
            return f"champions campaign: over, the ending chosen by {' and '.join(ended.payload.get('choosers', []))}"
        return f"champions campaign: {logged} scenario(s) logged"
    ended = next((e for e in live if e.type == "ChampionsEnded"), None)
    if ended is not None:
        return f"champions scenario: ended, {ended.payload.get('result', '?')}"
    turns = sum(
        line.startswith("turn end") for e in live if e.type == "ChampionsReported" for line in e.payload["lines"]
    )
    return f"champions scenario: turn {turns + 1}"
