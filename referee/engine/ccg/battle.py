"""Battle resolution: the Resolution Segment (pp.49-66 Battles), in the order C-02 sets.

The moderator enters what the cards did: each unit's cards with their Force as entered (a bowed card,
a dishonorable Personality with its base Personal Honor); the referee totals the armies, decides the
battle and lists its effects in order. ``resolve_battle`` is pure and decides only; the match applies
the effects one by one and stops at a victory (``match.apply``).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .model import Refused


@dataclass(frozen=True, slots=True)
class Card:
    """A card in a unit. ``force`` None: a card without a Force of its own (an Item's modifier is
    already in its Personality's Force, a Spell has none: Attachments, pp.16-29)."""

    title: str
    force: int | None = None
    bowed: bool = False
    dishonorable: int | None = None  # a dishonorable Personality: his base Personal Honor

    def contributes(self) -> int:
        """C-09: an army's Force counts only unbowed Personalities and Followers."""
        return 0 if self.bowed or self.force is None else self.force


@dataclass(frozen=True, slots=True)
class Unit:
    """A Personality and the cards attached to him (Attachments: "make up a unit"), Personality first."""

    cards: tuple[Card, ...]

    @property
    def personality(self) -> Card:
        return self.cards[0]

    def force(self) -> int:
        return sum(c.contributes() for c in self.cards)


@dataclass(frozen=True, slots=True)
class Army:
    units: tuple[Unit, ...] = ()

    def force(self) -> int:
        """Resolution Segment: "the total of the Force of all unbowed Personalities and Followers in it;
        a side with no units has zero Force"."""
        return sum(u.force() for u in self.units)

    def cards(self) -> int:
        """Every card in the army: destroying a unit destroys all its cards (Attachments)."""
        return sum(len(u.cards) for u in self.units)

    def dishonorable(self) -> tuple[Card, ...]:
        return tuple(u.personality for u in self.units if u.personality.dishonorable is not None)

    @property
    def empty(self) -> bool:
        return not self.units


class Decision(StrEnum):
    ATTACKER = "attacker"
    DEFENDER = "defender"
    TIE = "tie"
    NONE = "no outcome"


class Step(StrEnum):
    """The kinds of effect of a battle's resolution, in the order C-02 applies them."""

    ARMY_DESTROYED = "army destroyed"
    PROVINCE_DESTROYED = "province destroyed"
    HONOR_GAINED = "honor gained"


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect of a resolution. ``side`` is whose it is: the side whose army is destroyed, the side
    whose province falls (the defender), or the side gaining Honor. ``honor`` is that side's change."""

    step: Step
    side: str  # "attacker" or "defender"
    honor: int
    reason: str
    rule: str


@dataclass(frozen=True, slots=True)
class BattleOutcome:
    province: int
    strength: int
    attacker_force: int
    defender_force: int
    decision: Decision
    province_destroyed: bool
    effects: tuple[Effect, ...]

    def to_dict(self) -> dict[str, object]:
        return {
            "province": self.province,
            "strength": self.strength,
            "attacker_force": self.attacker_force,
            "defender_force": self.defender_force,
            "decision": str(self.decision),
            "province_destroyed": self.province_destroyed,
            "effects": [
                {"step": str(e.step), "side": e.side, "honor": e.honor, "reason": e.reason, "rule": e.rule}
                for e in self.effects
            ],
        }


def resolve_battle(attacking: Army, defending: Army, *, province: int, strength: int) -> BattleOutcome:
    """Decide a battle at ``province`` (whose Province Strength is ``strength``) and list its effects."""
    if strength < 0:
        raise Refused(f"a Province Strength of {strength}: no stat goes below 0", "C-08")
    a, d = attacking.force(), defending.force()
    if a == d and (attacking.empty or defending.empty):
        # "If the battle is tied on zero Force and either or both sides have no units, the battle has no
        # outcome" (and C-09: zero against zero with units on both sides is a tie)
        return BattleOutcome(province, strength, a, d, Decision.NONE, False, ())
    if a == d:
        return BattleOutcome(province, strength, a, d, Decision.TIE, False, _tie(attacking, defending))
    if a > d:
        falls = a > d + strength  # "greater than the defending army's Force plus the Province Strength"
        effects = _win("attacker", attacking, "defender", defending, province if falls else None)
        return BattleOutcome(province, strength, a, d, Decision.ATTACKER, falls, effects)
    return BattleOutcome(
        province, strength, a, d, Decision.DEFENDER, False, _win("defender", defending, "attacker", attacking, None)
    )


def _win(winner: str, won: Army, loser: str, lost: Army, province: int | None) -> tuple[Effect, ...]:
    effects: list[Effect] = []
    if not lost.empty:
        loss = sum(c.dishonorable or 0 for c in lost.dishonorable())
        why = f"the {loser}'s army is destroyed ({_cards(lost.cards())})"
        if loss:  # glossary: dishonor: destroyed while dishonorable, his controller loses his base PH
            names = ", ".join(c.title for c in lost.dishonorable())
            why += f"; dishonorable {names} destroyed: {-loss} Honor"
        effects.append(Effect(Step.ARMY_DESTROYED, loser, -loss, why, "dishonor" if loss else "resolution"))
    if province is not None:
        effects.append(Effect(Step.PROVINCE_DESTROYED, loser, 0, f"province {province} is destroyed", "resolution"))
    gain = 2 * lost.cards()  # "Honor equal to twice the number of cards in the enemy army that were destroyed"
    if won.dishonorable():  # glossary: dishonor: they are rehonored and the gain does not happen
        names = ", ".join(c.title for c in won.dishonorable())
        effects.append(
            Effect(Step.HONOR_GAINED, winner, 0, f"no Honor: dishonorable {names} rehonored instead", "dishonor")
        )
    elif gain:
        why = f"the {winner} wins and gains twice the {_cards(lost.cards())} destroyed"
        effects.append(Effect(Step.HONOR_GAINED, winner, gain, why, "resolution"))
    return tuple(effects)


def _tie(attacking: Army, defending: Army) -> tuple[Effect, ...]:
    """A tie: each destroys the enemy army and gains the number of cards it destroyed; dishonorable
    Personalities are rehonored before being destroyed and their army's leader gains no Honor."""
    effects = [
        Effect(
            Step.ARMY_DESTROYED, side, 0, f"tie: the {side}'s army is destroyed ({_cards(army.cards())})", "resolution"
        )
        for side, army in (("defender", defending), ("attacker", attacking))
    ]
    for side, own, enemy in (("attacker", attacking, defending), ("defender", defending, attacking)):
        if own.dishonorable():
            names = ", ".join(c.title for c in own.dishonorable())
            effects.append(
                Effect(Step.HONOR_GAINED, side, 0, f"tie: no Honor: dishonorable {names} rehonored", "dishonor")
            )
        else:
            why = f"tie: the {side} gains one Honor a card destroyed ({_cards(enemy.cards())})"
            effects.append(Effect(Step.HONOR_GAINED, side, enemy.cards(), why, "resolution"))
    return tuple(effects)


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def check_army(army: Army, side: str) -> None:
    """A unit is a Personality first; only a Personality can be dishonorable (glossary: dishonor)."""
    for unit in army.units:
        for card in unit.cards[1:]:
            if card.dishonorable is not None:
                raise Refused(
                    f"{card.title} in the {side}'s army is not a Personality: only a Personality is dishonorable",
                    "dishonor",
                )
        for card in unit.cards:
            if card.force is not None and card.force < 0:
                raise Refused(f"{card.title} has {card.force}F: no stat goes below 0", "C-08")
