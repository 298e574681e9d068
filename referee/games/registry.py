"""The registry of game kinds: for each kind of record the store holds (``kinds``), what its game answers:
where a record stands, whether it verifies, whether its closed records are signed, the service that opens one,
the commands that read it and the events it declares. Every room that meets a record of any kind asks here
(``game_of``), never the kind's name; each game's wing answers for its own records only.

The wings' modules load when a kind's answer is first asked: listing a database's games does not load three
games' services."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from ..store.events import Event
from ..store.storage import Store
from .kinds import BATTLE, CCG, CHAMPIONS, CHAMPIONS_CAMPAIGN, Kind, kind_of, not_battle


@dataclass(frozen=True)
class Game:
    """A kind of record and its game's answers."""

    kind: Kind
    title: str  # the game's name, as a person says it
    commands: str  # the `referee` command group that reads it ("" for the top level)
    signed: bool  # its closed records carry the organiser's signature (what `doctor` checks)
    status: Callable[[Sequence[Event]], str]  # where a record stands, from its events alone (`referee games`)
    problem: Callable[[Sequence[Event]], str | None]  # the first problem `verify` finds, None when it verifies
    open: Callable[[Store, str], Any]  # the service of one record: fold, record, retract...
    events: Callable[[], frozenset[str]]  # the event types the game declares


def _battle_status(events: Sequence[Event]) -> str:
    from .battle.ending import game_status

    return game_status(events)


def _battle_problem(events: Sequence[Event]) -> str | None:
    from .battle.replay import verify

    found = verify(events)
    return None if found is None else str(found)


def _battle_open(store: Store, game: str) -> Any:
    from .battle.service import OpenGame

    return OpenGame(store, game)


def _battle_events() -> frozenset[str]:
    from .battle.events import EventType

    return frozenset(EventType)


def _ccg_status(events: Sequence[Event]) -> str:
    from .ccg.service import status

    return status(events)


def _ccg_problem(events: Sequence[Event]) -> str | None:
    from .ccg.service import verify

    found = verify(events)
    return None if found is None else str(found)


def _ccg_open(store: Store, game: str) -> Any:
    from .ccg.service import OpenMatch

    return OpenMatch(store, game)


def _ccg_events() -> frozenset[str]:
    from .ccg.events import EventType

    return frozenset(EventType)


def _champions_status(events: Sequence[Event]) -> str:
    from .champions.events import status

    return status(events)


def _champions_problem(events: Sequence[Event]) -> str | None:
    from .champions.service import verify

    problems = verify(events)
    return problems[0] if problems else None


def _champions_open(store: Store, game: str) -> Any:
    from .champions.service import OpenScenario

    return OpenScenario(store, game)


def _campaign_open(store: Store, game: str) -> Any:
    from .champions.campaign import OpenCampaign

    return OpenCampaign(store, game)


def _champions_events() -> frozenset[str]:
    from .champions.events import SCHEMA

    return frozenset(SCHEMA)


GAMES: dict[str, Game] = {
    g.kind.name: g
    for g in (
        Game(BATTLE, "Battle for Rokugan", "", True, _battle_status, _battle_problem, _battle_open, _battle_events),
        Game(CCG, "the card game", "ccg", True, _ccg_status, _ccg_problem, _ccg_open, _ccg_events),
        Game(
            CHAMPIONS,
            "Champions of Rokugan",
            "champions",
            False,
            _champions_status,
            _champions_problem,
            _champions_open,
            _champions_events,
        ),
        Game(
            CHAMPIONS_CAMPAIGN,
            "a Champions of Rokugan campaign",
            "champions",
            False,
            _champions_status,
            _champions_problem,
            _campaign_open,
            _champions_events,
        ),
    )
}


def game_of(events: Sequence[Event]) -> Game:
    """The game of a record, from its first event (a record that begins otherwise is Battle for Rokugan's). A
    creating event naming a kind this referee does not know is read by Champions of Rokugan's checks, which
    find no record of theirs in it."""
    return GAMES.get(kind_of(events), GAMES[CHAMPIONS.name])


def foreign(events: Sequence[Event]) -> str | None:
    """None for a Battle for Rokugan game; for a record of another kind, the line naming what reads it (a
    Battle for Rokugan command or page refuses it with that line)."""
    kind = kind_of(events)
    return None if kind == BATTLE.name else not_battle(kind)


def status(events: Sequence[Event]) -> str:
    """Where a record of any kind stands, in its game's own words."""
    return game_of(events).status(events)
