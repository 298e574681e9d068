"""Honorable or Dishonored (p.14): when a Champion's standing changes, either way, and what it forbids.

A Champion is Dishonored when its Honor is below 1 at the end of an action (p.14 "less than 0"; CR-11: at
exactly 0 too). It becomes Honorable again when its Honor is above 0 at the end of an action (CH-03, option
``honorable_return``: ``end_of_action``, or only at the end of a Combat, ``end_of_combat``), and at step 2
of a Melee Combat either change comes at once ("since the Combat has not yet begun", p.24). At setup the
standing follows the starting Honor (CH-02, option ``dishonored_at_setup``)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from .model import Champion, Note, Scenario


def dishonored_by(honor: int) -> bool:
    """CR-11: 0 is Dishonored; p.14: below 0 is."""
    return honor <= 0


def at_setup(champion: Champion, rule: str) -> Champion:
    """CH-02: with ``from_honor`` (``rule``) a Champion starting at 0 Honor or below is Dishonored from setup."""
    return replace(champion, dishonored=rule == "from_honor" and dishonored_by(champion.honor))


def settle(scenario: Scenario, names: Iterable[str], when: str, combat: bool) -> tuple[Scenario, list[Note]]:
    """The standing of ``names`` at the end of an action (``when`` says which, for the notes), or at step 2
    of a Combat: the fall at the end of any action, the way back as the option says (CH-03)."""
    back = combat or scenario.setup.options["honorable_return"] == "end_of_action"
    notes: list[Note] = []
    for name in dict.fromkeys(names):
        c = scenario.champion(name)
        if c.out:
            continue
        if not c.dishonored and dishonored_by(c.honor):
            scenario = scenario.with_champion(replace(c, dishonored=True))
            notes.append(
                Note(
                    f"{name} is Dishonored at {c.honor} Honor {when}: no Investigation, and their Defensive "
                    "Successes are not counted in Combat",
                    "p.14, CR-11",
                )
            )
        elif c.dishonored and not dishonored_by(c.honor):
            if back:
                scenario = scenario.with_champion(replace(c, dishonored=False))
                notes.append(Note(f"{name} is Honorable again at {c.honor} Honor {when}", "p.14, CH-03"))
            else:
                notes.append(
                    Note(
                        f"{name} stays Dishonored at {c.honor} Honor until the end of a Combat "
                        "(option honorable_return = end_of_combat)",
                        "p.14, CH-03",
                    )
                )
    return scenario, notes
