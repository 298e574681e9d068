"""The Personalities the referee knows of: what a line says of one (``Described``), and what the match
remembers of each (``Personality``: bowed, dishonorable, where he is, his keywords and base Personal Honor).

The referee has no card data: it knows a Personality once a line names him (brought into play, Lobbying,
in a battle, in an action's effects) and remembers what the rules carry from one line to the next: a bowed
Personality stays bowed until his controller's Straighten Phase (p.41), a dishonorable one stays so until
rehonored, and his death then costs his base Personal Honor (glossary: dishonor). What a line says of him
is the state at that moment (a card's effect the moderator did not enter may have changed it); what it
leaves unsaid is taken from what the referee knows.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

CLANS = ("crab", "crane", "dragon", "lion", "mantis", "phoenix", "scorpion", "spider", "unicorn")
KEYWORDS = frozenset(
    {
        "samurai",
        "courtier",
        "shugenja",
        "duelist",
        "cavalry",
        "unique",
        "singular",
        "loyal",
        "tactician",
        "naval",
        "kensai",
        "nonhuman",
        "holding",
        *(f"{c} clan" for c in CLANS),
    }
)
PH_MAX = 5  # p.16 Personality: "Personal Honor has a maximum value of 5 in the game"
HOME = "home"
DEAD = "dead"
DISHONORABLY_DEAD = "dishonorably dead"


@dataclass(frozen=True, slots=True)
class Described:
    """A Personality (or a card) as one line names him: his title and what the line says of him.
    ``requirement`` -1: no Honor Requirement (a dash); None: not said."""

    title: str
    keywords: frozenset[str] = frozenset()
    honor: int | None = None  # his Personal Honor as printed (the base; glossary: base)
    requirement: int | None = None
    cost: int | None = None  # Gold Cost
    force: int | None = None
    chi: int | None = None
    bowed: bool = False
    dishonorable: bool = False
    level: int = 0  # experience level (glossary: experienced)

    @property
    def clan(self) -> str:
        return next((k.removesuffix(" clan") for k in sorted(self.keywords) if k.endswith(" clan")), "")


@dataclass(frozen=True, slots=True)
class Personality:
    """A Personality the referee knows of, as he stands now."""

    title: str
    keywords: frozenset[str] = frozenset()
    honor: int | None = None  # base Personal Honor, when known
    bowed: bool = False
    dishonorable: bool = False
    where: str = HOME  # "home", "attacking N", "defending N", "dead", "dishonorably dead"
    level: int = 0
    cost: int | None = None

    @property
    def in_play(self) -> bool:
        return self.where not in (DEAD, DISHONORABLY_DEAD)

    @property
    def personal_honor(self) -> int | None:
        """His Personal Honor now: zero while dishonorable (glossary: dishonor), at most 5 (p.16)."""
        if self.dishonorable:
            return 0
        return None if self.honor is None else min(max(self.honor, 0), PH_MAX)

    def has(self, keyword: str) -> bool:
        return keyword in self.keywords

    def to_dict(self) -> dict[str, object]:
        return {
            "title": self.title,
            "keywords": sorted(self.keywords),
            "personal_honor": self.honor,
            "bowed": self.bowed,
            "dishonorable": self.dishonorable,
            "where": self.where,
            "level": self.level,
            "gold_cost": self.cost,
        }


def find(court: tuple[Personality, ...], title: str) -> Personality | None:
    """The Personality of this title; the one in play first (a dead one may share his title)."""
    wanted = title.strip().lower()
    same = [p for p in court if p.title.lower() == wanted]
    return next((p for p in same if p.in_play), same[0] if same else None)


def put(court: tuple[Personality, ...], person: Personality) -> tuple[Personality, ...]:
    """The court with ``person`` in the place of the one of his title (the one in play first), or added."""
    old = find(court, person.title)
    if old is None:
        return (*court, person)
    return tuple(person if p is old else p for p in court)


@dataclass(frozen=True, slots=True)
class Known:
    """What one line and the referee's memory together say of a Personality: the line wins where it speaks
    (``taken`` lists what it said against the memory)."""

    person: Personality
    known: bool  # the referee knew him before this line
    taken: tuple[str, ...] = field(default=())


def know(court: tuple[Personality, ...], said: Described) -> Known:
    """Merge what a line says of a Personality with what the referee knows of him."""
    old = find(court, said.title)
    if old is None:
        person = Personality(
            said.title, said.keywords, said.honor, said.bowed, said.dishonorable, HOME, said.level, said.cost
        )
        return Known(person, False)
    taken = []
    if said.dishonorable and not old.dishonorable:
        taken.append("dishonorable")
    if said.bowed and not old.bowed and old.in_play:
        taken.append("bowed")
    person = replace(
        old,
        keywords=old.keywords | said.keywords,
        honor=said.honor if said.honor is not None else old.honor,
        bowed=old.bowed or said.bowed,
        dishonorable=old.dishonorable or said.dishonorable,
        cost=said.cost if said.cost is not None else old.cost,
        level=said.level or old.level,
    )
    return Known(person, True, tuple(taken))
