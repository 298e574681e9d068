"""The state of the board between rounds: a value, never mutated (new states are built)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import field, fields
from enum import StrEnum
from operator import attrgetter
from typing import Any

from ....core.value import value
from .board import Board
from .options import RulesOptions
from .tokens import Clan
from .tracking import CardsLeft, Initiative, Inventory, RoundTable


class Special(StrEnum):
    """Special tokens (p.10). One per province (R-19)."""

    PEACE = "peace"
    SCORCHED = "scorched"
    SHRINE = "shrine"
    BATTLEFIELD = "battlefield"
    HARBOR = "harbor"
    HONOR = "honor"  # honor bonus token (+1 / +2 flowers)
    BUSHIDO = "bushido"  # the 4-honor token: replaces the printed flowers
    DEFENSE = "defense"  # defense bonus token (+1 / +2), also 1 honor

    @property
    def permanent(self) -> bool:
        """Peace and scorched earth are never replaced (R-19)."""
        return self in (Special.PEACE, Special.SCORCHED)


@value
class SpecialToken:
    """A special token on a province: peace, scorched, shrine, battlefield, harbor, honor, bushido, defense."""

    kind: Special
    value: int = 0

    def __str__(self) -> str:
        return f"{self.kind} {self.value}" if self.kind in (Special.HONOR, Special.DEFENSE) else str(self.kind)


@value
class Control:
    """The control tokens of one clan in one province. Only one clan controls a province (p.6)."""

    clan: Clan
    facedown: int = 1
    faceup: int = 0

    @property
    def count(self) -> int:
        return self.facedown + self.faceup


def territory_controller(
    provinces: Iterable[str], control: Mapping[str, Control], special: Mapping[str, SpecialToken]
) -> Clan | None:
    """R-18, the one place it is written: the clan controlling every non-scorched province of a territory
    (None: a counted province nobody controls, two clans, or every province scorched), on any board
    (``GameState.territory_controller``; the card claims judge it on the board after the battles)."""
    owner: Clan | None = None
    for p in provinces:
        s = special.get(p)
        if s is not None and s.kind is _SCORCHED:
            continue  # a scorched province does not count
        c = control.get(p)
        if c is None:
            return None  # a counted province nobody controls
        if owner is None:
            owner = c.clan
        elif owner != c.clan:
            return None
    return owner


@value
class GameState:
    """The board at one moment of a game; immutable: ``resolve`` returns a new one."""

    board: Board
    clans: tuple[Clan, ...]  # seat order, clockwise
    options: RulesOptions = RulesOptions()
    round: int = 1  # the round track; 6 once the fifth round is resolved
    control: dict[str, Control] = field(default_factory=dict)
    special: dict[str, SpecialToken] = field(default_factory=dict)
    cards_on_board: dict[str, str | None] = field(default_factory=dict)  # territory -> card (None: unknown)
    cards_held: dict[Clan, tuple[tuple[str, str | None], ...]] = field(default_factory=dict)  # (territory, card)
    cards_played: frozenset[str] = frozenset()
    ronin: frozenset[Clan] = frozenset()  # R-11, fixed at the start of upkeep
    objectives: dict[Clan, str] = field(default_factory=dict)
    # --- the table: initiative, token inventory, cards in hand, the round so far (all optional) ---
    first_player: Clan | None = None  # R-23; None: not recorded
    initiative: Initiative | None = None  # the deck after the setup draw; None: not recorded
    inventory: dict[Clan, Inventory] | None = None  # R-08; None: tokens are not tracked
    cards_left: CardsLeft = CardsLeft()  # scouts and shugenja used
    table: RoundTable | None = None  # None: setup (round 1's upkeep has not begun)

    # --- queries -----------------------------------------------------------------------------
    def controller(self, province: str) -> Clan | None:
        c = self.control.get(province)
        return c.clan if c else None

    def controls(self, clan: Clan, province: str) -> bool:
        c = self.control.get(province)
        return c is not None and c.clan == clan

    def provinces_of(self, clan: Clan) -> list[str]:
        return sorted(p for p, c in self.control.items() if c.clan == clan)

    def special_at(self, province: str) -> Special | None:
        s = self.special.get(province)
        return s.kind if s else None

    def is_scorched(self, province: str) -> bool:
        s = self.special.get(province)
        return s is not None and s.kind is _SCORCHED

    def is_coastal(self, province: str) -> bool:
        """Printed coast, or the harbor token (R-20)."""
        if province in self.board.coastal:
            return True
        s = self.special.get(province)
        return s is not None and s.kind is _HARBOR

    def control_tokens_on_board(self, clan: Clan) -> int:
        return sum(c.count for c in self.control.values() if c.clan == clan)

    def control_supply(self, clan: Clan) -> int:
        """R-26: tokens left in the clan's supply (negative: substitute markers in use)."""
        return self.board.clans[clan].control_tokens - self.control_tokens_on_board(clan)

    def territory_controller(self, territory: str) -> Clan | None:
        """R-18: the clan controlling every non-scorched province of the territory (None: none, or every
        province scorched)."""
        return territory_controller(self.board.territories[territory].provinces, self.control, self.special)

    def turn_order(self) -> tuple[Clan, ...]:
        """Clockwise from the first player (p.7); seat order when the first player is not recorded."""
        if self.first_player is None or self.first_player not in self.clans:
            return self.clans
        i = self.clans.index(self.first_player)
        return self.clans[i:] + self.clans[:i]

    def with_(self, **changes: Any) -> GameState:
        """A copy with ``changes``: ``dataclasses.replace`` without its per-call field walk (a state is
        copied for every board fact and twice a round, so this is on every hot path)."""
        values = list(_ALL_FIELDS(self))
        for name, new in changes.items():
            i = _FIELD_INDEX.get(name)
            if i is None:
                raise TypeError(f"GameState has no field {name}")
            values[i] = new
        return GameState(*values)


# read once: an enum member read through its class costs a lookup each time
_SCORCHED, _PEACE, _HARBOR = Special.SCORCHED, Special.PEACE, Special.HARBOR
_STATE_FIELDS = tuple(f.name for f in fields(GameState))
_ALL_FIELDS = attrgetter(*_STATE_FIELDS)
_FIELD_INDEX = {name: i for i, name in enumerate(_STATE_FIELDS)}


def compute_ronin(state: GameState) -> frozenset[Clan]:
    """R-11: a clan with no control token on the board at the start of upkeep is ronin."""
    ronin = set(state.clans)
    for c in state.control.values():  # until every clan is seen with a token: a few provinces on most boards
        if c.clan in ronin and c.facedown + c.faceup:
            ronin.discard(c.clan)
            if not ronin:
                break
    return frozenset(ronin)


def begin_round(state: GameState) -> GameState:
    """The start of upkeep: ronin status is fixed (R-11) and the round's table starts empty.

    Idempotent within a round: once the round's upkeep has begun, ronin status is not recomputed
    (a clan that loses or gains control tokens during upkeep keeps the status it began with).
    """
    if state.table is not None and state.table.round == state.round:
        return state
    inventory = state.inventory
    if inventory is not None:  # new draws: what was known of each hand is stale (p.7 step 2)
        inventory = {c: Inventory(discard=i.discard) for c, i in inventory.items()}
    return state.with_(ronin=compute_ronin(state), table=RoundTable(state.round), inventory=inventory)
