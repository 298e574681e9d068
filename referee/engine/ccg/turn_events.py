"""The turn's actions as events (p.41 The Turn Sequence and the phases' sections): each one a line of the
notation (notation_turn.py), applied by turn.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from .court import Described
from .effects import Effect


# --- the events ---------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class RevealProvince:
    province: int
    kind: str  # event, region, holding, personality
    title: str
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class Lobby:
    player: str
    who: Described


@dataclass(frozen=True, slots=True)
class FavorDraw:
    player: str


@dataclass(frozen=True, slots=True)
class FavorHome:
    player: str
    who: Described  # the attacking enemy Personality whose unit goes home
    province: int  # the battlefield's province


@dataclass(frozen=True, slots=True)
class Equip:
    player: str
    card: Described  # the attachment: its title, its kind (follower, item, spell) and Honor Requirement
    kind: str
    on: Described
    effects: tuple[Effect, ...] = ()


@dataclass(frozen=True, slots=True)
class CardAction:
    player: str
    source: str  # the card the action or trait is on
    designator: str  # "limited", "political limited", "open", "battle", "reaction", "trait" or ""
    by: Described | None = None  # the Personality performing it
    on: tuple[tuple[str, Described], ...] = ()  # its targets: (their controller, the Personality)
    effects: tuple[Effect, ...] = ()

    @property
    def kind(self) -> str:
        return self.designator.split()[-1] if self.designator else ""


@dataclass(frozen=True, slots=True)
class Assign:
    player: str
    cavalry: bool
    units: tuple[tuple[tuple[Described, ...], int], ...]  # (the unit's cards, Personality first; province)


@dataclass(frozen=True, slots=True)
class Bring:
    player: str
    who: Described
    choice: str = ""  # "", "discount", "claim", "overlay"
    province: int | None = None  # the province he is brought from
    paid: int | None = None  # the Gold paid, when entered (checked against the price)


@dataclass(frozen=True, slots=True)
class DiscardProvince:
    player: str
    province: int


@dataclass(frozen=True, slots=True)
class EndPhase:
    player: str | None = None
    hand: int | None = None  # the hand before the draw, when counted


TurnAction = (
    RevealProvince | Lobby | FavorDraw | FavorHome | Equip | CardAction | Assign | Bring | DiscardProvince | EndPhase
)


TurnEvent = TurnAction
