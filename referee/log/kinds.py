"""Which game a stored record is: Battle for Rokugan's (the default), the card game's or Champions of
Rokugan's, read from its first event. Depends on the event types alone, so that any command listing or
checking the store can ask it."""

from __future__ import annotations

from collections.abc import Sequence

from .events import Event, EventType

BATTLE = "battle-for-rokugan"
CHAMPIONS = "champions"
CHAMPIONS_CAMPAIGN = "champions-campaign"
CCG = "l5r-ccg"
CREATING = {
    "ChampionsScenarioCreated": CHAMPIONS,
    "ChampionsCampaignCreated": CHAMPIONS_CAMPAIGN,
    "MatchCreated": CCG,
}


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
