"""The moves on the tracking board (p.11, p.14): a Champion's Honor gauge with the Group Honor counter beside
it, and the Glory track with its bonus tokens. Every path that changes Honor or Glory moves them here."""

from __future__ import annotations

from dataclasses import replace

from .model import GLORY_BONUSES, GLORY_MAX, GLORY_MIN, HONOR_MAX, HONOR_MIN, Champion, Note, Scenario


def move_honor(scenario: Scenario, name: str, amount: int, why: str, rule: str) -> tuple[Scenario, list[Note]]:
    """p.14: the gauge runs from -5 to 10 (a change past either end stops there); CR-01: the Group Honor moves
    with it at once, by what the gauge moved, unless the Champion's Honor has already left it (p.15)."""
    champion = scenario.champion(name)
    new_honor = max(HONOR_MIN, min(HONOR_MAX, champion.honor + amount))
    moved = new_honor - champion.honor
    label = f"{amount:+d} Honor ({why}), " if why else ""
    notes = [Note(f"{name}: {label}Honor {champion.honor} -> {new_honor}", rule)]
    if moved != amount:
        notes.append(Note(f"{name}: {amount:+d} Honor applied as {moved:+d}, the gauge runs -5 to 10", "p.14"))
    scenario = scenario.with_champion(replace(champion, honor=new_honor))
    if moved and not champion.out:
        group = scenario.group_honor + moved
        notes.append(Note(f"Group Honor {scenario.group_honor} -> {group}", "p.14, CR-01"))
        scenario = replace(scenario, group_honor=group)
    return scenario, notes


def move_glory(champion: Champion, amount: int, why: str, rule: str = "p.14") -> tuple[Champion, list[Note]]:
    """p.14: the Glory track runs 0 to 25 (CR-06); its bonus tokens at 3, 6 and 9 are earned once each,
    also when one gain passes several (CR-07)."""
    new_glory = max(GLORY_MIN, min(GLORY_MAX, champion.glory + amount))
    notes = [Note(f"{champion.name}: {amount:+d} Glory ({why}), Glory {champion.glory} -> {new_glory}", rule)]
    if new_glory - champion.glory != amount:
        notes.append(Note(f"{champion.name}: the Glory track runs 0 to 25", "p.14, CR-06"))
    earned = tuple(b for b in GLORY_BONUSES if new_glory >= b and b not in champion.bonuses)
    for b in earned:
        notes.append(Note(f"{champion.name} earns the Glory track's bonus token at {b}", "p.14, CR-07"))
    return replace(champion, glory=new_glory, bonuses=champion.bonuses + earned), notes
