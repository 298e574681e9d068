"""The round report as values: every token's fate, every battle's arithmetic, every board change."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from ..model.entry import Entry
from ..model.tokens import Clan


class Fate(StrEnum):
    BLUFF = "bluff"  # step 2: returned to its owner's hand
    LION_BLUFF = "lion_bluff"  # stays, defends +2, then returns to hand
    ILLEGAL = "illegal"  # step 2: discarded
    RAID_TRIGGERED = "raid_triggered"  # step 3: scorched earth placed
    RAID_NO_EFFECT = "raid_no_effect"  # step 3: did not trigger, or the province was already scorched
    REMOVED_BY_RAID = "removed_by_raid"  # step 3
    PEACE = "peace"  # step 4: the diplomacy token made peace
    REMOVED_BY_DIPLOMACY = "removed_by_diplomacy"  # step 4
    ATTACKED = "attacked"  # step 5: fought as an attacker
    DEFENDED = "defended"  # step 5: fought as a defender, or stood unattacked

    @property
    def returns_to_hand(self) -> bool:
        return self in (Fate.BLUFF, Fate.LION_BLUFF)


@dataclass(frozen=True, slots=True)
class TokenFate:
    """What became of one revealed token, why, and under which ruling."""

    entry: Entry
    fate: Fate
    step: int
    reason: str
    ruling: str | None = None
    blessings_discarded: bool = False  # blessing on a bluff, raid or diplomacy


@dataclass(frozen=True, slots=True)
class Part:
    """One addend of a battle total: a token, a blessing, a printed defense, a bonus."""

    label: str
    value: int


@dataclass(frozen=True, slots=True)
class Side:
    """One attacker's side of a battle: its parts and their total."""

    clan: Clan
    parts: tuple[Part, ...]

    @property
    def total(self) -> int:
        return sum(p.value for p in self.parts)


@dataclass(frozen=True, slots=True)
class Battle:
    """One province's battle (p.9 step 5): the defence, every attacker, the outcome and why."""

    province: str
    defender: Clan | None
    defence: tuple[Part, ...]  # defending tokens, blessings and every defense bonus
    attackers: tuple[Side, ...]
    against: tuple[tuple[Clan, int], ...]  # the defence each attacker faces (R-05 Phoenix differs)
    winner: Clan | None
    outcome: str  # captured | held | repelled (empty province) | stalemate
    why: str
    rulings: tuple[str, ...] = ()

    @property
    def defence_total(self) -> int:
        return sum(p.value for p in self.defence)


@dataclass(frozen=True, slots=True)
class Raid:
    """One raid token's effect (p.9 step 3, R-12)."""

    province: str
    clan: Clan
    triggered: bool
    why: str


@dataclass(frozen=True, slots=True)
class Defense:
    """A successful defense (R-17): one faceup control token added."""

    province: str
    clan: Clan
    why: str


@dataclass(frozen=True, slots=True)
class Claim:
    """A territory card claimed or returned at step 6."""

    clan: Clan
    territory: str
    card: str | None
    action: str  # claimed | returned


@dataclass(frozen=True, slots=True)
class Change:
    """One thing to do on the physical board, in the moderator's words."""

    province: str | None
    text: str


@dataclass(frozen=True, slots=True)
class RoundReport:
    """Everything a round decided, in the rulebook's order, for the report and the log."""

    round: int
    fates: tuple[TokenFate, ...]
    raids: tuple[Raid, ...]
    peace: tuple[str, ...]
    battles: tuple[Battle, ...]
    defenses: tuple[Defense, ...]
    claims: tuple[Claim, ...]
    changes: tuple[Change, ...]
    warnings: tuple[str, ...] = field(default=())

    def fate_of(self, entry: Entry) -> TokenFate:
        return next(f for f in self.fates if f.entry == entry)

    def battle_at(self, province: str) -> Battle | None:
        return next((b for b in self.battles if b.province == province), None)
