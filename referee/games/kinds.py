"""The kinds of record the store holds, each named once: the stream kind the store keeps in its ``game.kind``
column, the event that creates a record of that kind (read from its first event, so that an exported record
says what it is) and the commands that read it. The games' wings take their kind from here; what each kind's
service answers is ``registry``'s. Depends on nothing but the store's event, so that any wing may ask it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..store.events import DEFAULT_KIND, Event


@dataclass(frozen=True)
class Kind:
    name: str  # the store's stream kind
    creating: str  # the event type that creates a record of this kind
    read_by: str  # what a command of another game says of it, naming the commands that read it


BATTLE = Kind(DEFAULT_KIND, "GameCreated", "")  # what every record was before records had kinds
CCG = Kind("l5r-ccg", "MatchCreated", "a card game match, not a Battle for Rokugan game: see `referee ccg --help`")
CHAMPIONS = Kind(
    "champions",
    "ChampionsScenarioCreated",
    "a Champions of Rokugan record (champions): `referee champions show|replay|verify|export` read it",
)
CHAMPIONS_CAMPAIGN = Kind(
    "champions-campaign",
    "ChampionsCampaignCreated",
    "a Champions of Rokugan campaign (champions-campaign): `referee champions campaign show`",
)
KINDS = {k.name: k for k in (BATTLE, CCG, CHAMPIONS, CHAMPIONS_CAMPAIGN)}
CREATING = {k.creating: k.name for k in KINDS.values() if k is not BATTLE}  # Battle for Rokugan's: the default


def not_battle(kind: str) -> str:
    """The one line a Battle for Rokugan command gives for a record of another kind, naming what reads it."""
    known = KINDS.get(kind)
    return known.read_by if known and known.read_by else f"a record of kind {kind!r}, not a Battle for Rokugan game"


def kind_of(events: Sequence[Event]) -> str:
    """The record's kind; a record that begins otherwise is Battle for Rokugan's."""
    if not events or events[0].type not in CREATING:
        return BATTLE.name
    return str(events[0].payload.get("kind", CREATING[events[0].type]))
