"""A Champion's Honor changes, each with its cause (p.14's list of gains and losses, CH-01): what each cause is
worth, which need the action they happen in, the limits of once per action, and the gauge's floor for the
Honor a Champion pays (CH-12). Every Honor change of a report comes through ``change``."""

from __future__ import annotations

from dataclasses import dataclass, replace

from .model import HONOR_MIN, ChampionsError, Kind, Outcome, Scenario
from .standing import settle
from .tracks import move_honor


@dataclass(frozen=True)
class Cause:
    amount: int  # what the rulebook makes it worth; 0: the scenario or the card says (signed)
    rule: str
    label: str  # for the notes
    actions: tuple[str, ...] = ()  # the actions it can happen in (none: any time)
    once: str = ""  # its once-per-action key (outnumbered and superiority share one: step 2 happens once)


COMBATS = ("melee", "ranged", "attack", "ranged attack")  # a Champion's, or an Enemy's against one
SKILL_TESTS = (*COMBATS, "investigation", "complex manipulation")
CAUSES: dict[str, Cause] = {
    "wound": Cause(+1, "p.14", "wounded an Enemy", COMBATS, "wound"),
    "outnumbered": Cause(+1, "p.14, p.24", "Outnumbered", ("melee", "attack"), "numbers"),
    "superiority": Cause(-1, "p.14, p.24", "Numerical Superiority", ("melee", "attack"), "numbers"),
    "clan power": Cause(+1, "p.14", "Clan Power"),
    "deception": Cause(-2, "p.14, p.19", "Deception", SKILL_TESTS, "deception"),
    "disengagement": Cause(-2, "p.14, p.23", "Disengagement", ("disengagement",), "disengagement"),
    "pursue": Cause(-1, "p.28", "declined to Pursue"),
    "scenario": Cause(0, "p.5", "the scenario"),
    "card": Cause(0, "p.5", "a card"),
}
ALIASES = {
    "wounds": "wound",
    "wounding": "wound",
    "numerical superiority": "superiority",
    "declined pursue": "pursue",
    "declines pursue": "pursue",
    "no pursue": "pursue",
    "disengage": "disengagement",
}
SIGNED_BY_CAUSE = tuple(name for name, c in CAUSES.items() if c.amount)
FREE = ("clan power", "scenario", "card")  # a number of their own (clan power: a gain)


def cause_of(word: str) -> str:
    """The cause a word names ("" when none)."""
    w = " ".join(word.lower().split())
    return ALIASES.get(w, w if w in CAUSES else "")


def check_amount(amount: int, cause: str) -> None:
    """A cause's amount: the rulebook's for a fixed cause, any for the scenario or a card, a gain for a Clan
    Power (p.14)."""
    c = CAUSES[cause]
    if cause == "clan power":
        if amount <= 0:
            raise ChampionsError(f"a Clan Power gains Honor: +{abs(amount) or 1}, not {amount:+d}", c.rule)
    elif c.amount and amount != c.amount:
        raise ChampionsError(f"{c.label} is {c.amount:+d} Honor, not {amount:+d}", c.rule)
    elif not c.amount and not amount:
        raise ChampionsError("an Honor change of 0 changes nothing", "p.14")


def change(scenario: Scenario, name: str, amount: int, cause: str, *, step_two: bool = True) -> Outcome:
    """One Honor change of ``name`` with its cause, in the action under way when the cause needs one. The
    standing follows at once outside any action, at step 2 for Outnumbered and Numerical Superiority, and at
    the end of the action otherwise (``turn.close``). ``cause`` "": an older record's change without one.
    ``step_two`` False: the caller settles step 2 itself, once its changes are all made (an action line's
    Outnumbered and Clan Power, as p.25's example counts them)."""
    champion = scenario.champion(name)
    if not cause:
        if amount == 0:
            raise ChampionsError("an Honor change of 0 changes nothing", "p.14")
        scenario, notes = move_honor(scenario, name, amount, "", "p.14")
        scenario, more = settle(scenario, [name], "after the change", combat=False)
        return Outcome(scenario, tuple(notes + more))
    c = CAUSES[cause]
    check_amount(amount, cause)
    action = scenario.table.action
    mine = action is not None and action.champion == name
    if c.actions:
        _check_in_action(scenario, name, cause)
    if cause == "pursue" and scenario.setup.kind not in (Kind.BATTLE, ""):
        raise ChampionsError(f"Pursue is a Battle's (p.27-28): this is an {scenario.setup.kind} scenario", "p.28")
    if amount < 0 and champion.honor + amount < HONOR_MIN:
        _check_floor(scenario, name, champion.honor, amount, cause)
    why = c.label if cause != "wound" or action is None or not action.target else f"wounded {action.target}"
    scenario, notes = move_honor(scenario, name, amount, why, c.rule)
    if action is not None and mine and c.once:
        scenario = replace(scenario, table=replace(scenario.table, action=replace(action, used=(*action.used, c.once))))
    if c.once == "numbers" and step_two:  # p.24 step 2: "may therefore become Dishonored or Honorable again"
        scenario, more = settle(scenario, [name], "at step 2 of the Combat", combat=True)
        notes += more
    elif not mine:
        scenario, more = settle(scenario, [name], "after the change", combat=False)
        notes += more
    return Outcome(scenario, tuple(notes))


def _check_in_action(scenario: Scenario, name: str, cause: str) -> None:
    """The causes that happen in an action: in the Champion's own action under way, of the right kind, once."""
    c = CAUSES[cause]
    action = scenario.table.action
    if action is None or action.champion != name:
        under_way = f" ({action.actor}'s {action.kind})" if action is not None else ""
        raise ChampionsError(
            f"{c.label} happens in an action: report {name}'s action first ('{name}: melee ENEMY', or "
            f"'ENEMY attacks {name}'), on the lines before it in the same report{under_way}",
            "CH-01",
        )
    if action.kind not in c.actions:
        if cause in ("outnumbered", "superiority") and action.kind in ("ranged", "ranged attack"):
            raise ChampionsError("there is never Numerical Superiority or Outnumbered in Ranged Combat", "p.26")
        raise ChampionsError(f"{c.label} has no place in a {action.kind} action", c.rule)
    if c.once in action.used:
        what = "Numerical Superiority or Outnumbered is decided once, at step 2" if c.once == "numbers" else ""
        raise ChampionsError(
            what or f"{c.label}: {c.amount:+d} Honor once per action, and {name} has it in this one", c.rule
        )
    if cause == "wound" and action.insignificant:
        raise ChampionsError(f"{action.target} is Insignificant: wounding it earns no Honor", "p.39")


def _check_floor(scenario: Scenario, name: str, honor: int, amount: int, cause: str) -> None:
    """CH-12: the Honor a Champion pays below the gauge's -5 (option honor_floor_costs): Deception, a purchase,
    refused unless paid in full (``refuse_deception``); every loss stops at -5 (``clamp_all``); Deception and
    Disengagement both refused (``refuse_all``)."""
    rule = scenario.setup.options["honor_floor_costs"]
    paid = cause == "deception" or (cause == "disengagement" and rule == "refuse_all")
    if paid and rule != "clamp_all":
        raise ChampionsError(
            f"{name} has {honor} Honor: {CAUSES[cause].label} costs {-amount} and the gauge stops at -5, "
            f"even for a moment (option honor_floor_costs = {rule})",
            "p.14, CH-12",
        )
