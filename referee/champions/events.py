"""What the table reports, one value a line of the notation (``notation.py`` reads and prints them): the steps
of a turn (p.29-31), the Champions' actions (p.22-28), an Enemy's attack, an Ally's action, and what they
cause on the tracking board. Pages are the rulebook's; ``CR-xx`` RULINGS-CHAMPIONS.md's; ``CH-xx`` the
referee's own rulings (``referee/data/champions/rulings.md``)."""

from __future__ import annotations

from dataclasses import dataclass

from .model import Objective


# --- the turn's steps (p.29-31) ---------------------------------------------------------------------------
@dataclass(frozen=True)
class FavorTaken:
    """p.11, CH-17: who takes the Imperial Favor (a tie of the highest Honor, settled by the Fire roll)."""

    champion: str


@dataclass(frozen=True)
class TrackPlaced:
    """p.29 Preparation Phase: the Activation Track, first to last (CH-18)."""

    champions: tuple[str, ...]


@dataclass(frozen=True)
class EnemiesPhase:
    """p.30: the Enemies Phase begins; the Champions and Allies no longer act this turn (p.29)."""


@dataclass(frozen=True)
class TurnEnded:
    """p.31, Recovery Phase: the Group Honor adjusted "if you haven't already done so" (CR-01). ``board``:
    the Group Honor the tracking board shows, when the table reports it."""

    board: int | None = None


# --- actions (p.22-28) ------------------------------------------------------------------------------------
ACTIONS = (  # p.22's list of actions, as the notation names them
    "melee",
    "ranged",
    "investigation",
    "complex manipulation",
    "healing",
    "concentration",
    "movement",
    "disengagement",
    "simple manipulation",
)
MODIFIERS = ("outnumbered", "superiority", "clan power", "deception", "wound", "insignificant")


@dataclass(frozen=True)
class ActionTaken:
    """A Champion's action (p.22). ``target``: the Enemy fought, the Persona questioned, the thing handled;
    ``modifiers``: what happened in it that moves Honor (step 2's Outnumbered or Numerical Superiority, a Clan
    Power, Deception, wounding the Enemy) and ``insignificant`` for an Enemy that gives no Honor (p.39)."""

    champion: str
    kind: str
    target: str = ""
    modifiers: tuple[str, ...] = ()


@dataclass(frozen=True)
class ObjectivesDrawn:
    """p.23 Draw Objectives: two cards drawn, one kept (``None``: none kept, CH-05)."""

    champion: str
    kept: Objective | None


@dataclass(frozen=True)
class EnemyAttacks:
    """p.30 Enemies Phase: an Enemy's Combat against a Champion (``ranged``: p.26), with what moves the
    Champion's Honor in it (as ``ActionTaken.modifiers``)."""

    enemy: str
    champion: str
    ranged: bool = False
    modifiers: tuple[str, ...] = ()


@dataclass(frozen=True)
class Intervened:
    """p.24: a Champion takes the place of the Champion an Enemy attacks (once per game turn)."""

    champion: str


@dataclass(frozen=True)
class AllyActs:
    """p.30: an Ally's action (Allies act at the start of the Imperial Favor holder's activation)."""

    ally: str
    kind: str
    target: str = ""


# --- what they cause ----------------------------------------------------------------------------------------
@dataclass(frozen=True)
class HonorChanged:
    """p.14: Honor gained or lost, and why (``cause``, CH-01): wound, outnumbered, superiority, clan power,
    deception, pursue (a Pursue declined, p.28), scenario, card. A record made before causes were asked may
    hold none."""

    champion: str
    amount: int
    cause: str = ""


@dataclass(frozen=True)
class EnemyEliminated:
    """p.14-15: the Enemy card's Glory; p.27: a miniature of a Unit of ``unit`` miniatures, +1 for the last
    one of a Unit of several (CH-09). ``last_of_unit`` without a size: an older record's word for it."""

    champion: str
    enemy: str
    glory: int
    last_of_unit: bool = False
    unit: int = 0


@dataclass(frozen=True)
class AllyEliminates:
    """CH-10: an Ally eliminates an Enemy (or one miniature of a Unit): no Glory to anyone (p.15, p.30)."""

    ally: str
    enemy: str
    unit: int = 0


@dataclass(frozen=True)
class EnemyFalls:
    """CH-11: an Enemy eliminated by no Champion's action (the scenario, the board): no Glory to anyone."""

    enemy: str
    unit: int = 0


@dataclass(frozen=True)
class ScenarioGlory:
    """p.14: Glory for an action or objective the scenario names (its value in the scenario)."""

    champion: str
    amount: int
    action: str = ""


@dataclass(frozen=True)
class ObjectiveTaken:
    """p.10, p.15: a Clan Objective card kept at setup, reported after the setup sheet (older records)."""

    champion: str
    objective: Objective


@dataclass(frozen=True)
class ObjectiveCompleted:
    """p.15: an Instant Objective's Glory at once; an End Objective's at the final calculation. ``value``: the
    value it is completed for, of a card with two (CH-06; none: the higher)."""

    champion: str
    objective: str
    value: int | None = None


@dataclass(frozen=True)
class PurityChanged:
    """p.16: Purity lost to Corruption (negative), or raised by spending Ki (positive, up to 5)."""

    champion: str
    amount: int


@dataclass(frozen=True)
class ChampionEliminated:
    """p.15: starting Honor leaves the Threshold (Destiny stays), current Honor leaves the Group Honor, +2 Glory."""

    champion: str


@dataclass(frozen=True)
class ChampionCorrupted:
    """p.16, CR-02: treated as Eliminated, without the +2 Glory."""

    champion: str


TurnEvent = FavorTaken | TrackPlaced | EnemiesPhase | ActionTaken | EnemyAttacks | Intervened | AllyActs
Event = (
    TurnEvent
    | TurnEnded
    | ObjectivesDrawn
    | HonorChanged
    | EnemyEliminated
    | AllyEliminates
    | EnemyFalls
    | ScenarioGlory
    | ObjectiveTaken
    | ObjectiveCompleted
    | PurityChanged
    | ChampionEliminated
    | ChampionCorrupted
)
