"""The card game's values: players, the match, the turn sequence, results, errors.

A match is two players (Setting Up, pp.30-40); each starts with the Family Honor, Province Strength
and Gold Production of the Stronghold as entered, and four provinces, numbered 1 to 4 from left to
right (a destroyed province keeps its number: the others are only pushed together on the table).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import IntEnum, StrEnum

from ...core.errors import RefereeError
from .rules import cite

PROVINCES = (1, 2, 3, 4)  # pp.30-40 Setting Up: Provinces: "take the top four cards ... one card to a province"
HONOR_VICTORY = 40  # Winning the Game: "start your turn on 40 Family Honor or higher"
DISHONOR_LOSS = -20  # Winning the Game: "Family Honor is ever at or below -20"
ELEMENTS = ("air", "earth", "fire", "water", "void")  # glossary: element keyword


# --- errors: one line each, naming the input and the rule ---------------------------------------------
class CcgError(RefereeError):
    """Base of the card game's errors: one clear line (and an optional hint)."""


class NotUnderstood(CcgError):
    """A line that is not of any form the notation knows (invalid)."""

    def __init__(self, text: str, problem: str, *, lineno: int | None = None, hint: str | None = None):
        self.text = text
        where = f"line {lineno}: " if lineno is not None else ""
        super().__init__(f'{where}"{text}": {problem}', hint=hint)


class Refused(CcgError):
    """An event that is understood but impossible at this point of the match (illegal), with its rule."""

    def __init__(self, problem: str, rule: str, *, text: str = "", hint: str | None = None):
        self.problem = problem
        self.rule = rule
        quoted = f'"{text}": ' if text else ""
        super().__init__(f"{quoted}{problem} ({cite(rule)})", hint=hint)


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

    def to_dict(self) -> dict[str, object]:
        return {"winner": self.winner, "victory": str(self.victory), "reason": self.reason, "rule": self.rule}


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

    def with_player(self, i: int, player: Player) -> Match:
        both = (player, self.players[1]) if i == 0 else (self.players[0], player)
        return replace(self, players=both)

    @property
    def over(self) -> bool:
        return self.result is not None
