"""An Enemy eliminated (p.14-15), by a Champion (its card's Glory), by an Ally (none, CH-10) or by nothing a
Champion did (none, CH-11); in a Battle, one miniature of an Enemy Unit (p.27): the referee counts the Unit's
miniatures eliminated, whoever eliminated them, and pays the +1 for the last one only to a Champion, and only
for a Unit that contained several miniatures (CH-09)."""

from __future__ import annotations

from dataclasses import replace

from .events import AllyEliminates, EnemyEliminated, EnemyFalls
from .model import ChampionsError, Kind, Note, Outcome, Scenario, Unit
from .tracks import move_glory

MAX_MINIATURES = 4  # p.27: "represented by identical miniatures ... (up to four)"


def _unit(scenario: Scenario, enemy: str, size: int) -> tuple[Scenario, Unit, list[Note]]:
    """One more miniature of the Unit ``enemy`` of ``size`` eliminated: the Unit as it then stands. A Unit
    whose miniatures are all eliminated is gone; the next Unit of that name is another (a Reinforcement)."""
    if not 1 <= size <= MAX_MINIATURES:
        raise ChampionsError(f"a Unit of {size} miniatures: a Unit has 1 to 4", "p.27")
    if scenario.setup.kind not in (Kind.BATTLE, ""):
        raise ChampionsError(f"Units are a Battle scenario's: this is an {scenario.setup.kind} scenario", "p.27")
    key = enemy.casefold()
    found = next((u for u in scenario.units if u.name.casefold() == key), None)
    if found is not None and found.size != size:
        raise ChampionsError(
            f"the {found.name} Unit has {found.size} miniatures ({found.eliminated} eliminated), not {size}", "p.27"
        )
    unit = replace(found or Unit(enemy, size), eliminated=(found.eliminated if found else 0) + 1)
    units = tuple(u for u in scenario.units if u is not found)
    if unit.eliminated < unit.size:
        units += (unit,)
        note = Note(f"the {enemy} Unit: {unit.size - unit.eliminated} of its {unit.size} miniatures left", "p.27")
    else:
        note = Note(f"the {enemy} Unit is eliminated: its last miniature", "p.27")
    return replace(scenario, units=units), unit, [note]


def by_champion(scenario: Scenario, event: EnemyEliminated) -> Outcome:
    champion = scenario.champion(event.champion)
    if event.glory < 0:
        raise ChampionsError(f"{event.enemy}: an Enemy card's Glory is not negative", "p.13")
    notes: list[Note] = []
    last_of_several = False
    if event.unit:
        scenario, unit, notes = _unit(scenario, event.enemy, event.unit)
        last = unit.eliminated == unit.size
        if event.last_of_unit and not last:
            raise ChampionsError(
                f"this is not the {event.enemy} Unit's last miniature: {unit.eliminated} of its {unit.size} "
                "eliminated with it (report the others as they fall: 'ally NAME: eliminates ...', "
                f"'{event.enemy} eliminated, unit of {unit.size}')",
                "p.27, CH-09",
            )
        last_of_several = last and unit.size > 1
        if last and unit.size == 1:
            notes.append(Note("a Unit of one miniature: no Glory for its last miniature", "p.27, CH-09"))
    new, more = move_glory(champion, event.glory, f"eliminates {event.enemy}")
    notes += more
    if last_of_several:
        new, more = move_glory(new, 1, f"the last miniature of the {event.enemy} Unit", "p.27")
        notes += more
    elif event.last_of_unit and not event.unit:  # an older record's "last of unit": paid as recorded
        new, more = move_glory(new, 1, f"the last miniature of the {event.enemy} Unit", "p.27")
        notes += more
        notes.append(
            Note(
                "recorded without the Unit's size: +1 as recorded; p.27 pays it only for a Unit of several "
                "miniatures (if it had one, correct this report)",
                "p.27, CH-09",
            )
        )
    return Outcome(scenario.with_champion(new), tuple(notes))


def by_ally(scenario: Scenario, event: AllyEliminates) -> Outcome:
    notes = [Note(f"ally {event.ally} eliminates {event.enemy}: no Glory to anyone (Allies earn none)", "p.15, CH-10")]
    if event.unit:
        scenario, _, more = _unit(scenario, event.enemy, event.unit)
        notes += more
    return Outcome(scenario, tuple(notes))


def otherwise(scenario: Scenario, event: EnemyFalls) -> Outcome:
    notes = [Note(f"{event.enemy} eliminated by no Champion's action: no Glory to anyone", "p.15, CH-11")]
    if event.unit:
        scenario, _, more = _unit(scenario, event.enemy, event.unit)
        notes += more
    return Outcome(scenario, tuple(notes))
