"""The turn's phases and the checks every action of the turn asks (p.41 The Turn Sequence, p.44 Action
Phase): the phases in order, the Attack Phase's end, who takes Limited actions, once a turn, a province
standing, a Personality in play.
"""

from __future__ import annotations

from dataclasses import replace

from .court import HOME, Personality
from .effects import keep
from .errors import Refused
from .model import PROVINCES, Attack, Match, Phase
from .outcome import Change, Report


# --- the phases ---------------------------------------------------------------------------------------
def advance(match: Match, report: Report, phase: Phase) -> Match:
    """The active player's turn moved on to ``phase`` (never back, p.41); leaving the Attack Phase sends
    every unit at a battlefield home (the attackers bowing)."""
    if phase < match.phase:
        raise Refused(
            f"turn {match.turn} is in its {match.phase.label} phase: the {phase.label} phase cannot come now "
            "(the phases go in order)",
            "turn-sequence",
        )
    if phase == match.phase:
        return match
    if match.phase <= Phase.ATTACK < phase:
        match = end_attack(match, report)
    report.say(
        f"{match.active_player.name}'s {phase.label} phase",
        Change("phase", match.active_player.name, phase.label, None, "turn-sequence"),
    )
    return replace(match, phase=phase, fought=match.fought if phase == Phase.ATTACK else frozenset())


def end_attack(match: Match, report: Report) -> Match:
    """pp.49-66 Attack Phase: "Any units still at battlefields bow if they were attacking, and return home";
    the defenders "return home only at the end of the Attack Phase"."""
    for i, p in enumerate(match.players):
        for who in p.court:
            if not who.in_play or who.where == HOME:
                continue
            attacking = who.where.startswith("attacking")
            now = replace(who, where=HOME, bowed=who.bowed or attacking)
            match = keep(match, i, now)
            said = "bows and returns home" if attacking else "returns home"
            report.say(
                f"the Attack Phase ends: {p.name}'s {who.title} {said}",
                Change("home", p.name, who.title, "bowed" if attacking else "unbowed", "attack-phase"),
            )
    return replace(match, attack=Attack())


def limited(match: Match, report: Report, i: int, what: str) -> Match:
    """p.44: "Limited actions are taken in the Action Phase only by the active player"."""
    if i != match.active:
        raise Refused(
            f"{what}: only the active player ({match.active_player.name}) takes Limited actions, in the Action Phase",
            "action-phase",
        )
    if match.phase > Phase.ACTION:
        raise Refused(
            f"{what}: Limited actions are taken in the Action Phase; turn {match.turn} is in its "
            f"{match.phase.label} phase",
            "action-phase",
        )
    return advance(match, report, Phase.ACTION)


def once(match: Match, ability: str, i: int, what: str) -> Match:
    """p.44 Check Conditions: "Each separate card ability and player ability may only be used once per turn"."""
    if match.has_used(ability, i):
        raise Refused(
            f"{match.players[i].name} already used {what} this turn: each player ability may be used once per turn",
            "action-conditions",
        )
    return replace(match, used=match.used | {f"{ability}:{i}"})


def standing(match: Match, i: int, province: int) -> None:
    p = match.players[i]
    if province not in p.provinces:
        gone = "was destroyed" if province in PROVINCES else "does not exist (provinces 1 to 4)"
        raise Refused(f"{p.name}'s province {province} {gone}", "provinces")


def in_play(who: Personality, name: str) -> None:
    if not who.in_play:
        raise Refused(f"{name}'s {who.title} is {who.where}: no longer in play", "personality")
