"""Champions of Rokugan's tracked values: the Champions, the scenario's tracking board, the rules options.

Frozen values only; every change makes a new value (``rules.apply``). Pages are the rulebook's
(``champions-of-rokugan-rulebook.txt``); ``CR-xx`` are the referee's rulings (RULINGS-CHAMPIONS.md).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import StrEnum

HONOR_MIN, HONOR_MAX = -5, 10  # p.14: "can never ... go below -5 Honor or exceed 10 Honor"
GLORY_MIN, GLORY_MAX = 0, 25  # p.14: "Glory can never fall below 0 or rise above 25" (CR-06: on the track)
PURITY_START = 5  # p.10 / p.16: "The starting Purity score is always 5"
GLORY_BONUSES = (3, 6, 9)  # p.14: the Glory track's bonus tokens (CR-07: once each per scenario)
CHAMPIONS_AT_TABLE = 5  # p.10: "so that there are always 5 Champions at the table"
THRESHOLD_GLORY_CAP = 5  # p.14 / CR-05: the Threshold's Glory adjustment, at most +-5
GLORIFIED_AT = 15  # p.14 / p.32: 15 or more Glory lowers the Threshold by 1


class ChampionsError(Exception):
    """A report, a setup or a line of notation the rules refuse: one line naming what and why, with the
    rule (a page or a CR ruling)."""

    def __init__(self, message: str, rule: str = ""):
        self.rule = rule
        self.text = message  # without the rule
        super().__init__(f"{message} ({rule})" if rule else message)
        self.message = str(self)


class Status(StrEnum):
    ACTIVE = "active"  # on the board; Honorable or Dishonored (``Champion.dishonored``, p.14)
    ELIMINATED = "eliminated"  # p.15
    CORRUPTED = "corrupted"  # p.16, CR-02: treated as Eliminated for the scenario


class Timing(StrEnum):
    INSTANT = "instant"  # p.15: Glory as soon as it is completed
    END = "end"  # p.15: Glory at the final calculation, if fulfilled


@dataclass(frozen=True)
class Objective:
    """A Clan Objective card a Champion holds (p.15). ``lower``: the value deducted when it is not
    completed ("If the Clan Objective has two values, subtract the lower of the two", p.32). ``hidden``:
    face down until completed (p.15, CH-07); ``investigation``: the card marked "Investigation only" (p.10).
    ``paid``: the value it was completed for (CH-06: the lower of two, or the higher)."""

    name: str
    timing: Timing
    glory: int
    lower: int
    completed: bool = False
    hidden: bool = False
    investigation: bool = False
    paid: int = 0

    @property
    def two_valued(self) -> bool:
        return self.lower != self.glory

    @property
    def face_up(self) -> bool:
        """What the other players may see (p.15): a Revealed card, or a Hidden Instant card once completed."""
        return not self.hidden or (self.completed and self.timing is Timing.INSTANT)


@dataclass(frozen=True)
class ChampionCard:
    """What setup reads from a Champion card (p.13): starting Honor, Destiny; Companions (p.17) have no
    Clan Objectives and are never Glorified. ``player``: who plays the Champion (none for a Companion)."""

    name: str
    honor: int
    destiny: int
    companion: bool = False
    player: str = ""
    clan: str = ""  # p.10: the players' Champions are of different Clans (checked when given)


@dataclass(frozen=True)
class Champion:
    card: ChampionCard
    honor: int
    glory: int = 0  # p.14: "Champions always start the game with a Glory score of 0"
    purity: int = PURITY_START
    status: Status = Status.ACTIVE
    objectives: tuple[Objective, ...] = ()
    bonuses: tuple[int, ...] = ()  # the Glory track's bonus tokens earned (CR-07)
    dishonored: bool = False  # p.14, CR-11, CH-02, CH-03: Honor below 1 at the end of an action

    @property
    def standing(self) -> str:
        """Honorable or Dishonored (p.14): what the board shows beside an active Champion's status."""
        return "Dishonored" if self.dishonored else "Honorable"

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


# The rules options (RULINGS-CHAMPIONS.md CR-04; the referee's own rulings CH-xx): name -> allowed values
# (the first is the default) and the ruling that names the option.
OPTIONS: dict[str, tuple[tuple[str, ...], str]] = {
    "threshold_glory": (("track", "final"), "CR-04"),
    "threshold_glory_counts": (("all_champions", "in_play_only"), "CH-13"),
    "solo_glory": (("final", "track"), "CH-14"),
    "dishonored_at_setup": (("from_honor", "after_first_action"), "CH-02"),
    "honorable_return": (("end_of_action", "end_of_combat"), "CH-03"),
    "two_value_instant": (("topup", "close"), "CH-06"),
    "honor_floor_costs": (("refuse_deception", "clamp_all", "refuse_all"), "CH-12"),
    "draw_objectives_may_decline": (("no", "yes"), "CH-05"),
    "turn_counter": (("current_turn", "literal"), "CH-16"),
}


@dataclass(frozen=True)
class Options:
    """The rules options a table chooses at setup (the ``option:`` lines of the setup sheet), each the
    default of its ruling unless chosen otherwise."""

    threshold_glory: ThresholdGlory = ThresholdGlory.TRACK
    values: tuple[tuple[str, str], ...] = ()  # the other options chosen, (name, value), not the defaults

    def __getitem__(self, name: str) -> str:
        if name == "threshold_glory":
            return self.threshold_glory.value
        return dict(self.values).get(name, OPTIONS[name][0][0])

    def to_dict(self) -> dict[str, str]:
        return {name: self[name] for name in OPTIONS}

    def chosen(self) -> dict[str, str]:
        """The options as a setup sheet writes them: threshold_glory always, the others when not the default."""
        return {name: self[name] for name in OPTIONS if name == "threshold_glory" or self[name] != OPTIONS[name][0][0]}

    @classmethod
    def from_dict(cls, data: dict[str, object]) -> Options:
        unknown = sorted(set(data) - set(OPTIONS))
        if unknown:
            raise ChampionsError(f"unknown rules option(s) {unknown}: the options are {', '.join(OPTIONS)}")
        values: dict[str, str] = {}
        for name, raw in data.items():
            allowed, rule = OPTIONS[name]
            value = str(raw)
            if value not in allowed:
                raise ChampionsError(f"{name} must be {' or '.join(repr(a) for a in allowed)}, not {value!r}", rule)
            values[name] = value
        glory = ThresholdGlory(values.pop("threshold_glory", ThresholdGlory.TRACK.value))
        chosen = tuple(sorted((k, v) for k, v in values.items() if v != OPTIONS[k][0][0]))
        return cls(glory, chosen)


class Kind(StrEnum):
    """The scenario's type (p.8); ``""`` on a sheet that does not say."""

    ADVENTURE = "adventure"
    INVESTIGATION = "investigation"
    BATTLE = "battle"


@dataclass(frozen=True)
class Setup:
    """A scenario as the table chooses it (p.8 scenario insert, p.10-11 setup). ``objectives``: the Clan
    Objectives each Champion keeps at setup (p.10-11), by the Champion's name; ``favor``: who takes the
    Imperial Favor when the highest Honor is tied (p.11, CH-17); ``cooperation``: the More cooperation
    variant (p.32: no Clan Objectives, nobody Glorified); ``same_clan``: the scenario lets two players take
    Champions of one Clan (p.10)."""

    scenario: str
    difficulty: int
    max_turns: int
    cards: tuple[ChampionCard, ...]
    solo: bool = False
    options: Options = field(default_factory=Options)
    kind: str = ""
    objectives: tuple[tuple[str, Objective], ...] = ()
    favor: str = ""
    cooperation: bool = False
    same_clan: bool = False


class Phase(StrEnum):
    """Where the turn stands (p.29): the Champions and Allies Phase, then the Enemies Phase; the Preparation
    Phase is the Activation Track reported, the Recovery Phase ends the turn."""

    CHAMPIONS = "champions"
    ENEMIES = "enemies"


@dataclass(frozen=True)
class Action:
    """The action under way (p.22): its number in the scenario, who acts, what, and against whom; ``champion``
    is the Champion whose Honor it moves (the actor, or an Enemy's target; none for an Ally's), ``used``
    the once-per-action Honor causes already counted in it (p.14, p.19, p.24; CH-01)."""

    number: int
    actor: str
    kind: str  # melee, ranged, investigation, ..., attack / ranged attack (an Enemy's Combat), ally (an Ally's)
    champion: str = ""
    target: str = ""
    used: tuple[str, ...] = ()
    insignificant: bool = False  # the Enemy fought is Insignificant: no Honor for wounding it (p.39)

    @property
    def combat(self) -> bool:
        return self.kind in ("melee", "ranged", "attack", "ranged attack")


@dataclass(frozen=True)
class Turn:
    """The turn's structure as reported (CH-18): the phase, the Activation Track (empty: not reported), whose
    activation is under way and whose are over, the once-per-activation and once-per-turn uses, and the
    action under way (closed at the next action, phase or turn line, and at the end of each report)."""

    phase: Phase = Phase.CHAMPIONS
    track: tuple[str, ...] = ()
    active: str = ""
    acted: bool = False  # the active Champion has taken an action of their own (Allies act before, p.30)
    done: tuple[str, ...] = ()
    once: tuple[tuple[str, str], ...] = ()  # (Champion, "concentration" | "draw objectives" | "intervenes")
    action: Action | None = None
    actions: int = 0  # actions reported so far in the scenario (numbers them)


@dataclass(frozen=True)
class Unit:
    """An Enemy Unit of a Battle (p.27) as its eliminations report it: its miniatures when it entered play and
    how many of them are eliminated (CH-09)."""

    name: str
    size: int
    eliminated: int = 0


@dataclass(frozen=True)
class Scenario:
    """The tracking board (p.11) and the Champions' dashboards, as they stand."""

    setup: Setup
    champions: tuple[Champion, ...]
    threshold: int  # the Honorable Victory Threshold token
    group_honor: int  # the Group Honor counter (CR-01: live)
    turn: int = 1
    ended: bool = False
    favor: str = ""  # the Champion of the player holding the Imperial Favor (CH-17; "" while a tie is open)
    table: Turn = field(default_factory=Turn)
    units: tuple[Unit, ...] = ()

    def champion(self, name: str) -> Champion:
        return next(c for c in self.champions if c.name == name)

    def with_champion(self, new: Champion) -> Scenario:
        return replace(self, champions=tuple(new if c.name == new.name else c for c in self.champions))

    def live_honor(self) -> int:
        """What the Group Honor counter should show: the Honor of the Champions not Eliminated (p.14, p.31)."""
        return sum(c.honor for c in self.champions if not c.out)

    @property
    def last_turn(self) -> int:
        """The scenario's last turn: its maximum (p.8); one less when the Turn Counter is read literally
        (CH-16: set on 1 at setup, advanced at every Preparation Phase)."""
        literal = self.setup.options["turn_counter"] == "literal"
        return self.setup.max_turns - 1 if literal else self.setup.max_turns


@dataclass(frozen=True)
class Note:
    """One thing the referee says about an event: what moved, by how much, and the rule."""

    text: str
    rule: str

    def __str__(self) -> str:
        return f"{self.text} ({self.rule})" if self.rule else self.text


@dataclass(frozen=True)
class Outcome:
    scenario: Scenario
    notes: tuple[Note, ...]
