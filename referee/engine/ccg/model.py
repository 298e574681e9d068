"""The card game's values: players, the match, the turn sequence, results, errors.

A match is two players (Setting Up, pp.30-40); each starts with the Family Honor, Province Strength
and Gold Production of the Stronghold as entered, and four provinces, numbered 1 to 4 from left to
right (a destroyed province keeps its number: the others are only pushed together on the table).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import IntEnum, StrEnum

from .court import Personality
from .errors import CcgError as CcgError, NotUnderstood as NotUnderstood, Refused as Refused  # their home before
from .options import OPTIONS

PROVINCES = (1, 2, 3, 4)  # pp.30-40 Setting Up: Provinces: "take the top four cards ... one card to a province"
HONOR_VICTORY = 40  # Winning the Game: "start your turn on 40 Family Honor or higher"
DISHONOR_LOSS = -20  # Winning the Game: "Family Honor is ever at or below -20"
ELEMENTS = ("air", "earth", "fire", "water", "void")  # glossary: element keyword
RULES = 2  # the rules a new match is played by; a match recorded by rules 1 replays by them (games/ccg/service.py)
HAND = 6  # pp.30-40 The Hand: "Draw six cards"
HAND_MAXIMUM = 8  # End Phase: "the maximum hand size of eight"


# --- the turn sequence ----------------------------------------------------------------------------------
class Phase(IntEnum):
    """p.41 The Turn Sequence: six phases in order (the Dynasty Phase ends with discarding face-up cards)."""

    STRAIGHTEN = 1
    EVENTS = 2
    ACTION = 3
    ATTACK = 4
    DYNASTY = 5
    END = 6

    @property
    def label(self) -> str:
        return self.name.lower()


class Victory(StrEnum):
    """Winning the Game (pp.49-66): four ways to win; a draw when both lose at once (C-01)."""

    MILITARY = "military"
    DISHONOR = "dishonor"
    HONOR = "honor"
    ENLIGHTENMENT = "enlightenment"
    DRAW = "draw"


@dataclass(frozen=True, slots=True)
class Ring:
    """A Ring in play: its title, the element keyword(s) it has, and whether it last entered play by
    its own text (Winning the Game: enlightenment)."""

    title: str
    elements: tuple[str, ...]
    own_text: bool


@dataclass(frozen=True, slots=True)
class Player:
    name: str
    honor: int  # Family Honor: may be negative (p.29 Stats)
    province_strength: int  # the Stronghold's base Province Strength, as entered
    gold: int  # the Stronghold's Gold Production, as entered
    stronghold: str = ""
    clan: str = ""
    provinces: tuple[int, ...] = PROVINCES  # provinces not destroyed
    rings: tuple[Ring, ...] = ()
    court: tuple[Personality, ...] = ()  # the Personalities the referee knows of (court.py)
    faces: tuple[tuple[int, str], ...] = ()  # a province's card when known: "" face down, else the face-up title
    regions: tuple[tuple[int, str], ...] = ()  # the Region attached to a province

    def face(self, province: int) -> str | None:
        """A province's card: "" face down, its title face up, None not known."""
        return dict(self.faces).get(province)

    def with_face(self, province: int, card: str) -> Player:
        return replace(self, faces=tuple(sorted({**dict(self.faces), province: card}.items())))

    @property
    def starting(self) -> str:
        return f"{self.honor} honor, strength {self.province_strength}, gold {self.gold}"


@dataclass(frozen=True, slots=True)
class Result:
    """How the match ended: a winner (None: a draw, C-01), the way, and the reason in one sentence."""

    winner: str | None
    victory: Victory
    reason: str
    rule: str
    condition: tuple[tuple[str, object], ...] = ()  # the condition met, as data (``to_dict``'s "condition")

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = {
            "winner": self.winner,
            "victory": str(self.victory),
            "reason": self.reason,
            "rule": self.rule,
        }
        if self.condition:
            out["condition"] = dict(self.condition)
        return out


@dataclass(frozen=True, slots=True)
class Attack:
    """The Attack Phase as it stands (pp.49-66 Attack Phase): declared or not, how far the maneuvers went,
    who already attacked in a resolution, who the Imperial Favor sent home."""

    declared: bool = False
    segment: int = 0  # assignments made: 1 the Attacker's infantry, 2 the Defender's, 3 and 4 their cavalry
    attacked: frozenset[str] = frozenset()  # attacking Personalities already in a battle's resolution
    sent_home: frozenset[str] = frozenset()  # attacking Personalities moved home before their battle


@dataclass(frozen=True, slots=True)
class Match:
    """The match between two players: whose turn, which phase, and how it ended (if it has)."""

    players: tuple[Player, Player]
    first: int  # index of the player who took the first turn
    turn: int = 1
    active: int = 0  # index of the active player (glossary: active player)
    phase: Phase = Phase.STRAIGHTEN
    fought: frozenset[int] = field(default_factory=frozenset)  # provinces fought at in this Attack Phase
    result: Result | None = None
    version: int = RULES  # the rules the match is played by (1: as first recorded, before the turn's actions)
    favor: int | None = None  # who controls the Imperial Favor (None: uncontrolled)
    used: frozenset[str] = frozenset()  # once-a-turn abilities used this turn: "lobby:0", "claim:1" ...
    attack: Attack = Attack()
    revealed: int = 0  # Events Phase: the last province dealt with (left to right)
    options: tuple[tuple[str, str], ...] = ()  # rules options chosen at the start (the referee's rulings)

    def option(self, name: str) -> str:
        return dict(self.options).get(name, OPTIONS[name].default)

    def has_used(self, ability: str, i: int) -> bool:
        return f"{ability}:{i}" in self.used

    def player(self, name: str) -> Player:
        return self.players[self.index(name)]

    def index(self, name: str) -> int:
        wanted = name.strip().lower()
        for i, p in enumerate(self.players):
            if p.name.lower() == wanted:
                return i
        names = " or ".join(p.name for p in self.players)
        raise CcgError(f"unknown player {name!r} (the players are {names})")

    @property
    def active_player(self) -> Player:
        return self.players[self.active]

    @property
    def other(self) -> int:
        return 1 - self.active

    @property
    def favor_holder(self) -> str | None:
        return None if self.favor is None else self.players[self.favor].name

    def with_player(self, i: int, player: Player) -> Match:
        both = (player, self.players[1]) if i == 0 else (self.players[0], player)
        return replace(self, players=both)

    @property
    def over(self) -> bool:
        return self.result is not None
