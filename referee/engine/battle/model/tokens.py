"""Clans and combat tokens (rulebook p.3, p.7-8; the clan rulings R-01 to R-07 of referee/data/rulings.md)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Clan(StrEnum):
    CRAB = "crab"
    CRANE = "crane"
    DRAGON = "dragon"
    LION = "lion"
    PHOENIX = "phoenix"
    SCORPION = "scorpion"
    UNICORN = "unicorn"


class Kind(StrEnum):
    """The kinds of combat token, in the rulebook's words."""

    ARMY = "army"
    NAVY = "navy"
    SHINOBI = "shinobi"
    BLESSING = "blessing"
    RAID = "raid"
    DIPLOMACY = "diplomacy"
    BLUFF = "bluff"

    @property
    def has_strength(self) -> bool:
        return self in STRENGTH_KINDS

    @property
    def fights(self) -> bool:
        """Army, navy and shinobi attack and defend (R-17a); nothing else does."""
        return self in FIGHTING_KINDS


STRENGTH_KINDS = frozenset({Kind.ARMY, Kind.NAVY, Kind.SHINOBI, Kind.BLESSING})
FIGHTING_KINDS = frozenset({Kind.ARMY, Kind.NAVY, Kind.SHINOBI})


@dataclass(frozen=True, order=True, slots=True)
class Token:
    """One combat token as printed: a kind and, for army/navy/shinobi/blessing, a strength."""

    kind: Kind
    strength: int | None = None

    def __str__(self) -> str:
        return f"{self.kind} {self.strength}" if self.strength is not None else str(self.kind)


def token_code(clan: Clan, kind: Kind, strength: int | None) -> str:
    """One clan's token as a short string ("crab army 3"): a key whose hash Python keeps, for the counts
    made for every token of every round (``Entry.codes``, ``Board.token_limits``)."""
    return f"{clan} {kind} {strength or 0}"


HAND_SIZE = 6
PLACEMENTS_PER_ROUND = HAND_SIZE - 1  # p.7: place until one token remains behind the screen
ROUNDS = 5
