"""Battle resolution: the Resolution Segment (pp.49-66 Battles), in the order C-02 sets.

The moderator enters what the cards did: each unit's cards with their Force as entered (a bowed card,
a dishonorable Personality with its base Personal Honor, an Item's signed Force modifier); the referee
totals the armies, decides the battle and lists its effects in order, and who bows and returns home and who
stays. A Force or Province Strength that modifiers take below 0 is 0 (p.29, C-08): floored and said, never
refused. ``resolve_battle`` is pure and decides only; the match applies the effects one by one and stops at
a victory (``match.apply``).
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
    dishonorable: int | None = None  # a dishonorable Personality: his base Personal Honor (REMEMBERED: the match's)
    item: bool = False  # an Item: its Force is a modifier of its Personality's Force (Attachments: Item)

    def contributes(self) -> int:
        """C-09: an army's Force counts only unbowed Personalities and Followers; below 0 it is 0 (C-08)."""
        return 0 if self.bowed or self.force is None or self.item else max(self.force, 0)


REMEMBERED = -1  # "dishonorable" with no Personal Honor: his base Personal Honor is the one the match knows


@dataclass(frozen=True, slots=True)
class Unit:
    """A Personality and the cards attached to him (Attachments: "make up a unit"), Personality first."""

    cards: tuple[Card, ...]

    @property
    def personality(self) -> Card:
        return self.cards[0]

    def personality_force(self) -> int:
        """His Force with his Items' modifiers, floored at 0 (p.29: "Minimums ... are applied on top of any
        existing bonuses or penalties"; C-08)."""
        p = self.personality
        return max((p.force or 0) + sum(c.force or 0 for c in self.cards[1:] if c.item), 0)

    def force(self) -> int:
        p = self.personality
        own = 0 if p.bowed or p.force is None else self.personality_force()
        return own + sum(c.contributes() for c in self.cards[1:])

    def floored(self) -> list[tuple[str, int]]:
        """The cards whose Force as entered (with modifiers, for the Personality) is below 0: (title, value)."""
        out = []
        p = self.personality
        if p.force is not None:
            entered = p.force + sum(c.force or 0 for c in self.cards[1:] if c.item)
            if entered < 0:
                out.append((f"{p.title}'s Force", entered))
        out.extend(
            (f"{c.title}'s Force", c.force)
            for c in self.cards[1:]
            if not c.item and c.force is not None and c.force < 0
        )
        return out


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


@dataclass(frozen=True, slots=True)
class Destroyed:
    """A unit destroyed by resolution: its Personality, its cards, his base Personal Honor if dishonorable."""

    personality: str
    cards: int
    dishonorable: int | None

    def to_dict(self) -> dict[str, object]:
        return {"personality": self.personality, "cards": self.cards, "dishonorable": self.dishonorable}


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
    destroyed: tuple[tuple[str, tuple[Destroyed, ...]], ...] = ()  # side -> its units destroyed by resolution
    bow_and_return: tuple[str, ...] = ()  # the attacking Personalities who bow and return home after it
    stay: tuple[str, ...] = ()  # the defending Personalities who stay at the battlefield, unbowed
    rehonored: tuple[str, ...] = ()  # dishonorable Personalities rehonored by the resolution
    dishonorable_still: tuple[str, ...] = ()  # dishonorable winners rehonored by no gain (it was zero)
    floored: tuple[tuple[str, int], ...] = ()  # (the stat, its value entered below 0): read as 0 (C-08)

    def cards_destroyed(self, side: str) -> int:
        """The cards of ``side``'s army destroyed by resolution."""
        return sum(u.cards for u in dict(self.destroyed).get(side, ()))

    def to_dict(self) -> dict[str, object]:
        return {
            "province": self.province,
            "strength": self.strength,
            "attacker_force": self.attacker_force,
            "defender_force": self.defender_force,
            "decision": str(self.decision),
            "province_destroyed": self.province_destroyed,
            "destroyed": {side: [u.to_dict() for u in units] for side, units in self.destroyed},
            "cards_destroyed": {side: self.cards_destroyed(side) for side in ("attacker", "defender")},
            "bow_and_return_home": list(self.bow_and_return),
            "stay_at_battlefield": list(self.stay),
            "rehonored": list(self.rehonored),
            "dishonorable_still": list(self.dishonorable_still),
            "floored": [{"value": what, "entered": value, "now": 0} for what, value in self.floored],
            "effects": [
                {"step": str(e.step), "side": e.side, "honor": e.honor, "reason": e.reason, "rule": e.rule}
                for e in self.effects
            ],
        }


def resolve_battle(attacking: Army, defending: Army, *, province: int, strength: int) -> BattleOutcome:
    """Decide a battle at ``province`` (whose Province Strength is ``strength``, floored at 0: C-08) and
    list its effects, then who bows and returns home and who stays (Resolution Segment)."""
    floored = [f for u in attacking.units + defending.units for f in u.floored()]
    if strength < 0:
        floored.append((f"province {province}'s Province Strength", strength))
        strength = 0
    a, d = attacking.force(), defending.force()
    effects: tuple[Effect, ...] = ()
    if a == d and (attacking.empty or defending.empty):
        # "If the battle is tied on zero Force and either or both sides have no units, the battle has no
        # outcome" (and C-09: zero against zero with units on both sides is a tie)
        decision, falls = Decision.NONE, False
    elif a == d:
        decision, falls, effects = Decision.TIE, False, _tie(attacking, defending)
    elif a > d:
        falls = a > d + strength  # "greater than the defending army's Force plus the Province Strength"
        decision, effects = (
            Decision.ATTACKER,
            _win("attacker", attacking, "defender", defending, province if falls else None),
        )
    else:
        decision, falls = Decision.DEFENDER, False
        effects = _win("defender", defending, "attacker", attacking, None)
    lost = {
        Decision.ATTACKER: ("defender",),
        Decision.DEFENDER: ("attacker",),
        Decision.TIE: ("attacker", "defender"),
        Decision.NONE: (),
    }[decision]
    armies = {"attacker": attacking, "defender": defending}
    destroyed = tuple((side, tuple(_destroyed(u, decision) for u in armies[side].units)) for side in lost)
    survivors = {side: tuple(u.personality.title for u in armies[side].units) for side in armies if side not in lost}
    rehonored, still = _rehonoring(attacking, defending, decision, effects)
    return BattleOutcome(
        province,
        strength,
        a,
        d,
        decision,
        falls,
        effects,
        destroyed,
        survivors.get("attacker", ()),
        survivors.get("defender", ()),
        rehonored,
        still,
        tuple(floored),
    )


def _destroyed(unit: Unit, decision: Decision) -> Destroyed:
    """A destroyed unit; in a tie its dishonorable Personality was rehonored before (glossary: dishonor)."""
    base = None if decision is Decision.TIE else unit.personality.dishonorable
    return Destroyed(unit.personality.title, len(unit.cards), base)


def _rehonoring(
    attacking: Army, defending: Army, decision: Decision, effects: tuple[Effect, ...]
) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """Who the resolution rehonors (a winner's or a tied army's dishonorable Personalities, when their leader
    would gain one or more points of Honor), and the winners' dishonorable ones it leaves so (no gain)."""
    if decision is Decision.TIE:
        return tuple(c.title for army in (attacking, defending) for c in army.dishonorable()), ()
    if decision not in (Decision.ATTACKER, Decision.DEFENDER):
        return (), ()
    won = attacking if decision is Decision.ATTACKER else defending
    names = tuple(c.title for c in won.dishonorable())
    gained = any(e.step is Step.HONOR_GAINED and e.rule == "dishonor" for e in effects)
    return (names, ()) if gained else ((), names)


def _win(winner: str, won: Army, loser: str, lost: Army, province: int | None) -> tuple[Effect, ...]:
    effects: list[Effect] = []
    if not lost.empty:
        loss = sum(c.dishonorable or 0 for c in lost.dishonorable())
        why = f"the {loser}'s army is destroyed: {_names(lost)} ({_cards(lost.cards())})"
        if loss:  # glossary: dishonor: destroyed while dishonorable, his controller loses his base PH
            names = ", ".join(c.title for c in lost.dishonorable())
            why += f"; dishonorable {names} destroyed: {-loss} Honor"
        effects.append(Effect(Step.ARMY_DESTROYED, loser, -loss, why, "dishonor" if loss else "resolution"))
    if province is not None:
        effects.append(Effect(Step.PROVINCE_DESTROYED, loser, 0, f"province {province} is destroyed", "resolution"))
    gain = 2 * lost.cards()  # "Honor equal to twice the number of cards in the enemy army that were destroyed"
    names = ", ".join(c.title for c in won.dishonorable())
    if won.dishonorable() and gain:  # glossary: dishonor: before gaining one or more points, rehonored instead
        effects.append(
            Effect(Step.HONOR_GAINED, winner, 0, f"no Honor: dishonorable {names} rehonored instead", "dishonor")
        )
    elif won.dishonorable():  # no point of Honor to gain: nothing rehonors them (glossary: dishonor)
        effects.append(
            Effect(Step.HONOR_GAINED, winner, 0, f"no Honor to gain: {names} stays dishonorable", "resolution")
        )
    elif gain:
        why = f"the {winner} wins and gains twice the {_cards(lost.cards())} destroyed"
        effects.append(Effect(Step.HONOR_GAINED, winner, gain, why, "resolution"))
    else:
        effects.append(Effect(Step.HONOR_GAINED, winner, 0, "no card destroyed: no Honor gained", "resolution"))
    return tuple(effects)


def _names(army: Army) -> str:
    return ", ".join(u.personality.title for u in army.units)


def _tie(attacking: Army, defending: Army) -> tuple[Effect, ...]:
    """A tie: each destroys the enemy army and gains the number of cards it destroyed; dishonorable
    Personalities are rehonored before being destroyed and their army's leader gains no Honor."""
    effects = [
        Effect(
            Step.ARMY_DESTROYED,
            side,
            0,
            f"tie: the {side}'s army is destroyed: {_names(army)} ({_cards(army.cards())})",
            "resolution",
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
    """A unit is a Personality first; only a Personality can be dishonorable (glossary: dishonor), and he is
    not an Item. (A Force below 0 is not refused: it is read as 0, C-08.)"""
    for unit in army.units:
        if unit.personality.item:
            raise Refused(
                f"{unit.personality.title} leads a unit of the {side}'s army: a unit is led by a Personality, "
                "not an Item",
                "attachments",
            )
        for card in unit.cards[1:]:
            if card.dishonorable is not None:
                raise Refused(
                    f"{card.title} in the {side}'s army is not a Personality: only a Personality is dishonorable",
                    "dishonor",
                )
