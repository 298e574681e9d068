"""Champions of Rokugan's tracked values: the Champions, the scenario's tracking board, the rules options.

Frozen values only; every change makes a new value (``rules.apply``). Pages are the rulebook's
(``champions-of-rokugan-rulebook.txt``); ``CR-xx`` are the referee's rulings (RULINGS-CHAMPIONS.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

from ...core.errors import RefereeError

HONOR_MIN, HONOR_MAX = -5, 10  # p.14: "can never ... go below -5 Honor or exceed 10 Honor"
GLORY_MIN, GLORY_MAX = 0, 25  # p.14: "Glory can never fall below 0 or rise above 25" (CR-06: on the track)
PURITY_START = 5  # p.10 / p.16: "The starting Purity score is always 5"
GLORY_BONUSES = (3, 6, 9)  # p.14: the Glory track's bonus tokens (CR-07: once each per scenario)
CHAMPIONS_AT_TABLE = 5  # p.10: "so that there are always 5 Champions at the table"
THRESHOLD_GLORY_CAP = 5  # p.14 / CR-05: the Threshold's Glory adjustment, at most +-5
GLORIFIED_AT = 15  # p.14 / p.32: 15 or more Glory lowers the Threshold by 1


class ChampionsError(RefereeError):
    """A report, a setup or a line of notation the rules refuse: one line naming what and why, with the
    rule (a page or a CR ruling)."""

    def __init__(self, message: str, rule: str = ""):
        self.rule = rule
        super().__init__(f"{message} ({rule})" if rule else message)


class Status(StrEnum):
    ACTIVE = "active"
    ELIMINATED = "eliminated"  # p.15
    CORRUPTED = "corrupted"  # p.16, CR-02: treated as Eliminated for the scenario


class Timing(StrEnum):
    INSTANT = "instant"  # p.15: Glory as soon as it is completed
    END = "end"  # p.15: Glory at the final calculation, if fulfilled


@dataclass(frozen=True)
class Objective:
    """A Clan Objective card a Champion holds (p.15). ``lower``: the value deducted when it is not
    completed ("If the Clan Objective has two values, subtract the lower of the two", p.32)."""

    name: str
    timing: Timing
    glory: int
    lower: int
    completed: bool = False


@dataclass(frozen=True)
class ChampionCard:
    """What setup reads from a Champion card (p.13): starting Honor, Destiny; Companions (p.17) have no
    Clan Objectives and are never Glorified. ``player``: who plays the Champion (none for a Companion)."""

    name: str
    honor: int
    destiny: int
    companion: bool = False
    player: str = ""


@dataclass(frozen=True)
class Champion:
    card: ChampionCard
    honor: int
    glory: int = 0  # p.14: "Champions always start the game with a Glory score of 0"
    purity: int = PURITY_START
    status: Status = Status.ACTIVE
    objectives: tuple[Objective, ...] = ()
    bonuses: tuple[int, ...] = ()  # the Glory track's bonus tokens earned (CR-07)

    @property
    def name(self) -> str:
        return self.card.name

    @property
    def out(self) -> bool:
        """Eliminated or Corrupted: its Honor has left the Group Honor (p.15, CR-02)."""
        return self.status is not Status.ACTIVE

    @property
    def purity_missing(self) -> int:
        return PURITY_START - self.purity


class ThresholdGlory(StrEnum):
    """CR-04: which Glory the end-of-game Threshold adjustments read."""

    TRACK = "track"  # the Glory on the track when the game ends, before the Glory calculation (default)
    FINAL = "final"  # the end-of-game Glory, after the calculation


@dataclass(frozen=True)
class Options:
    threshold_glory: ThresholdGlory = ThresholdGlory.TRACK

    def to_dict(self) -> dict[str, str]:
        return {"threshold_glory": self.threshold_glory.value}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Options:
        unknown = set(data) - {"threshold_glory"}
        if unknown:
            raise ChampionsError(f"unknown rules option(s) {sorted(unknown)}: the option is threshold_glory", "CR-04")
        value = str(data.get("threshold_glory", ThresholdGlory.TRACK.value))
        try:
            return cls(ThresholdGlory(value))
        except ValueError:
            raise ChampionsError(f"threshold_glory must be 'track' or 'final', not {value!r}", "CR-04") from None


@dataclass(frozen=True)
class Setup:
    """A scenario as the table chooses it (p.8 scenario insert, p.10-11 setup)."""

    scenario: str
    difficulty: int
    max_turns: int
    cards: tuple[ChampionCard, ...]
    solo: bool = False
    options: Options = field(default_factory=Options)


@dataclass(frozen=True)
class Scenario:
    """The tracking board (p.11) and the Champions' dashboards, as they stand."""

    setup: Setup
    champions: tuple[Champion, ...]
    threshold: int  # the Honorable Victory Threshold token
    group_honor: int  # the Group Honor counter (CR-01: live)
    turn: int = 1
    ended: bool = False

    def champion(self, name: str) -> Champion:
        return next(c for c in self.champions if c.name == name)

    def with_champion(self, new: Champion) -> Scenario:
        return replace(self, champions=tuple(new if c.name == new.name else c for c in self.champions))

    def live_honor(self) -> int:
        """What the Group Honor counter should show: the Honor of the Champions not Eliminated (p.14, p.31)."""
        return sum(c.honor for c in self.champions if not c.out)
