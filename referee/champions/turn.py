"""The game turn as the table reports it (p.29-31): the Imperial Favor (p.11, p.29), the Activation Track, each
Champion's activation and actions (p.22-24), the Allies at the start of the Favor holder's activation (p.30),
the Enemies Phase and an Enemy's attack, Intervene (p.24), and the action under way, closed at the next action,
phase or turn line and at the end of each report, when the standing of its Champion is settled (p.14).

The referee keeps no Action Points, Ki, Life Points nor the board's areas: the dashboards do. It checks what
a report can tell: the order of the turn (CH-18), the once-per-action, per-activation and per-turn limits, and
what a Dishonored Champion may not do."""

from __future__ import annotations

from dataclasses import replace

from . import honor
from .events import ActionTaken, AllyActs, EnemiesPhase, EnemyAttacks, FavorTaken, Intervened, TrackPlaced, TurnEvent
from .model import Action, ChampionsError, Kind, Note, Outcome, Phase, Scenario, Turn
from .standing import settle

NUMBERS = ("outnumbered", "superiority")
ALLOWED = {  # the modifiers each action may carry (p.14, p.19, p.24, p.26)
    "melee": ("outnumbered", "superiority", "clan power", "deception", "wound", "insignificant"),
    "attack": ("outnumbered", "superiority", "clan power", "deception", "wound", "insignificant"),
    "ranged": ("clan power", "deception", "wound", "insignificant"),
    "ranged attack": ("clan power", "deception", "wound", "insignificant"),
    "investigation": ("clan power", "deception"),
    "complex manipulation": ("clan power", "deception"),
}
ALLY_ACTIONS = (
    "melee", "ranged", "investigation", "complex manipulation", "simple manipulation", "healing", "movement",
    "disengagement",
)  # fmt: skip
STEP_ORDER = ("outnumbered", "superiority", "clan power", "deception", "wound")  # p.24: steps 2, 7, 10


def players(scenario: Scenario) -> list[str]:
    """The players' Champions in the setup sheet's order, which is the table's, clockwise (CH-17)."""
    return [c.name for c in scenario.setup.cards if not c.companion]


def first_favor(scenario: Scenario) -> tuple[str, list[Note]]:
    """p.11: the Champion with the highest Honor takes the Imperial Favor; on a tie the players roll Fire and
    the sheet's ``favor:`` (or a ``favor:`` report) names who won (CH-17); a Companion never holds it."""
    named = scenario.setup.favor
    cards = [c for c in scenario.setup.cards if not c.companion]
    best = max(c.honor for c in cards)
    top = [c.name for c in cards if c.honor == best]
    if named:
        if named not in top:
            raise ChampionsError(
                f"{named} cannot take the Imperial Favor: the highest Honor ({best}) is {' and '.join(top)}'s",
                "p.11, CH-17",
            )
        return named, [Note(f"Imperial Favor: {named}", "p.11, CH-17")]
    if len(top) == 1:
        return top[0], [Note(f"Imperial Favor: {top[0]}, the highest Honor", "p.11")]
    return "", [Note(f"{' and '.join(top)} tie for the highest Honor: they roll Fire for the Imperial Favor", "p.11")]


def apply(scenario: Scenario, event: TurnEvent) -> Outcome:
    if isinstance(event, FavorTaken):
        return _favor(scenario, event.champion)
    if isinstance(event, TrackPlaced):
        return _track(scenario, event.champions)
    if isinstance(event, Intervened):  # step 1 of the Combat under way
        return _intervene(scenario, event.champion)
    scenario, notes = close(scenario)
    if isinstance(event, EnemiesPhase):
        scenario, more = _enemies_phase(scenario)
        return Outcome(scenario, tuple(notes + more))
    if isinstance(event, ActionTaken):
        return _with(notes, _action(scenario, event))
    if isinstance(event, EnemyAttacks):
        return _with(notes, _attack(scenario, event))
    return _with(notes, _ally(scenario, event))


def _with(notes: list[Note], out: Outcome) -> Outcome:
    return Outcome(out.scenario, (*notes, *out.notes))


def close(scenario: Scenario) -> tuple[Scenario, list[Note]]:
    """The end of the action under way: its Champion's standing settled (p.14); nothing when none is."""
    action = scenario.table.action
    if action is None:
        return scenario, []
    scenario = replace(scenario, table=replace(scenario.table, action=None))
    if not action.champion:
        return scenario, []
    what = "Combat" if action.combat else action.kind
    return settle(scenario, [action.champion], f"at the end of the {what}", combat=action.combat)


def end_of_report(scenario: Scenario) -> Outcome:
    """A report ends the action under way: what it did is complete (CH-01)."""
    scenario, notes = close(scenario)
    return Outcome(scenario, tuple(notes))


def next_turn(scenario: Scenario) -> tuple[Scenario, list[Note]]:
    """The Recovery Phase's last step (p.31): the Imperial Favor passes to the next player, clockwise; in a
    solo game it stays (p.17). The turn's structure starts afresh."""
    table = Turn(actions=scenario.table.actions)
    who = players(scenario)
    if not scenario.favor or scenario.setup.solo or len(who) < 2:
        return replace(scenario, table=table), []
    favor = who[(who.index(scenario.favor) + 1) % len(who)]
    player = scenario.champion(favor).card.player
    note = Note(f"the Imperial Favor passes to {favor} ({player})", "p.29, p.31, CH-17")
    return replace(scenario, table=table, favor=favor), [note]


# --- the turn's steps -------------------------------------------------------------------------------------
def _favor(scenario: Scenario, name: str) -> Outcome:
    if scenario.turn != 1 or scenario.table.actions:
        raise ChampionsError(
            "the Imperial Favor is taken at setup; after that it passes at each Recovery Phase", "p.29"
        )
    setup = replace(scenario.setup, favor=name)
    favor, notes = first_favor(replace(scenario, setup=setup))
    return Outcome(replace(scenario, favor=favor), tuple(notes))


def _track(scenario: Scenario, names: tuple[str, ...]) -> Outcome:
    """p.29 Preparation Phase: every Champion on the board places its Activation token, once."""
    t = scenario.table
    if t.phase is not Phase.CHAMPIONS or t.active or t.done or t.track:
        raise ChampionsError(
            f"the Activation Track is placed in the Preparation Phase, before anyone acts in turn {scenario.turn}",
            "p.29",
        )
    on_board = [c.name for c in scenario.champions if not c.out]
    twice = sorted({n for n in names if names.count(n) > 1})
    if twice or sorted(names) != sorted(on_board):
        missing = [n for n in on_board if n not in names]
        out = [n for n in names if n not in on_board]
        say = "; ".join(
            x
            for x in (
                f"twice: {', '.join(twice)}" if twice else "",
                f"missing: {', '.join(missing)}" if missing else "",
                f"not on the board: {', '.join(out)}" if out else "",
            )
            if x
        )
        raise ChampionsError(f"the Activation Track holds each Champion on the board once ({say})", "p.29")
    note = Note(f"turn {scenario.turn}, Activation Track: {', '.join(names)}", "p.29")
    return Outcome(replace(scenario, table=replace(t, track=names)), (note,))


def _enemies_phase(scenario: Scenario) -> tuple[Scenario, list[Note]]:
    t = scenario.table
    if t.phase is Phase.ENEMIES:
        return scenario, []
    done = t.done + ((t.active,) if t.active else ())
    table = replace(t, phase=Phase.ENEMIES, active="", acted=False, done=done)
    return replace(scenario, table=table), [Note(f"turn {scenario.turn}: the Enemies Phase", "p.30")]


def _activate(scenario: Scenario, name: str) -> Turn:
    """CH-18: ``name`` acts: its activation goes on, or begins (the one before is over; with a Track, the
    Champions before it that have not acted have passed)."""
    t = scenario.table
    if t.phase is Phase.ENEMIES:
        raise ChampionsError(
            f"turn {scenario.turn}'s Enemies Phase has begun: the Champions and Allies Phase is over, with no "
            "going back",
            "p.29",
        )
    if name == t.active:
        return t
    if name in t.done:
        raise ChampionsError(
            f"{name}'s activation is over this turn: a Champion completes all their actions before passing the turn",
            "p.29, CH-18",
        )
    done = t.done + ((t.active,) if t.active else ())
    if t.track:
        at = t.track.index(name)
        passed = tuple(n for n in t.track[:at] if n not in done)
        later = [n for n in done if n in t.track and t.track.index(n) > at]
        if later:
            raise ChampionsError(
                f"{name} comes before {later[0]} on turn {scenario.turn}'s Activation Track ({', '.join(t.track)})",
                "p.29, CH-18",
            )
        done += passed
    return replace(t, active=name, acted=False, done=done)


def _open(scenario: Scenario, table: Turn, action: Action) -> Scenario:
    return replace(scenario, table=replace(table, action=action, actions=table.actions + 1))


def _action(scenario: Scenario, event: ActionTaken) -> Outcome:
    """A Champion's action (p.22): its activation, the checks it allows, then what it moved, in the Combat's
    order (p.24: step 2, step 7, step 10)."""
    name, kind = event.champion, event.kind
    champion = scenario.champion(name)
    _check_actor(scenario, name)
    _check_modifiers(kind, event.modifiers)
    if kind == "investigation":
        if champion.dishonored:
            raise ChampionsError(f"{name} is Dishonored: no Investigation until Honorable again", "p.14, CR-11")
        if scenario.setup.kind == Kind.BATTLE:
            raise ChampionsError("a Battle scenario never includes Investigation", "p.8")
    table = _activate(scenario, name)
    if kind == "concentration":
        table = _once(table, name, kind, "p.23")
    table = replace(table, acted=True)
    action = Action(table.actions + 1, name, kind, name, event.target, insignificant="insignificant" in event.modifiers)
    scenario = _open(scenario, table, action)
    notes: list[Note] = []
    if kind == "disengagement":
        out = honor.change(scenario, name, -2, "disengagement")
        scenario, notes = out.scenario, list(out.notes)
    out = _modifiers(scenario, name, event.modifiers)
    return Outcome(out.scenario, (*notes, *out.notes))


def draw(scenario: Scenario, name: str) -> Scenario:
    """The Draw Objectives action (p.23), once per Activation: its activation and the action opened; the card
    kept is the objectives' (``objectives.drawn``)."""
    _check_actor(scenario, name)
    table = replace(_once(_activate(scenario, name), name, "draw objectives", "p.23"), acted=True)
    return _open(scenario, table, Action(table.actions + 1, name, "draw objectives", name))


def _check_actor(scenario: Scenario, name: str) -> None:
    c = scenario.champion(name)
    if c.out:
        raise ChampionsError(f"{name} is {c.status.value}: it no longer acts", "p.15")


def _once(table: Turn, name: str, what: str, rule: str) -> Turn:
    if (name, what) in table.once:
        per = "game turn" if what == "intervenes" else "Activation"
        raise ChampionsError(f"{name} has already used {what} this {per}: once per {per}", rule)
    return replace(table, once=(*table.once, (name, what)))


def _check_modifiers(kind: str, modifiers: tuple[str, ...]) -> None:
    allowed = ALLOWED.get(kind, ("clan power",))
    for m in modifiers:
        if m not in allowed:
            if m in NUMBERS and kind in ("ranged", "ranged attack"):
                raise ChampionsError("there is never Numerical Superiority or Outnumbered in Ranged Combat", "p.26")
            raise ChampionsError(f"{m!r} has no place in a {kind} action", "p.22")
    if all(m in modifiers for m in NUMBERS):
        raise ChampionsError("a Combatant is Outnumbered or has Numerical Superiority, not both", "p.24")
    twice = sorted({m for m in modifiers if modifiers.count(m) > 1})
    if twice:
        raise ChampionsError(f"{twice[0]!r} said twice in one action", "p.14, CH-01")


def _modifiers(scenario: Scenario, name: str, modifiers: tuple[str, ...]) -> Outcome:
    """An action line's Honor in the Combat's order: step 2 (Outnumbered or Numerical Superiority, and a Clan
    Power beside them, as p.25's example counts Matsu Tsuko's), the standing settled there; step 7 (Deception);
    step 10 (the wound)."""
    notes: list[Note] = []
    numbers = any(m in modifiers for m in NUMBERS)
    for cause in STEP_ORDER:
        if cause in modifiers:
            out = honor.change(scenario, name, honor.CAUSES[cause].amount, cause, step_two=False)
            scenario = out.scenario
            notes += out.notes
        if cause == "clan power" and numbers:
            scenario, more = settle(scenario, [name], "at step 2 of the Combat", combat=True)
            notes += more
    return Outcome(scenario, tuple(notes))


def _attack(scenario: Scenario, event: EnemyAttacks) -> Outcome:
    """p.30: an Enemy's Combat against a Champion, in the Enemies Phase (which it begins, when not reported)."""
    kind = "ranged attack" if event.ranged else "attack"
    _check_actor(scenario, event.champion)
    _check_modifiers(kind, event.modifiers)
    scenario, notes = _enemies_phase(scenario)
    t = scenario.table
    action = Action(
        t.actions + 1,
        event.enemy,
        kind,
        event.champion,
        event.enemy,
        insignificant="insignificant" in event.modifiers,
    )
    out = _modifiers(_open(scenario, t, action), event.champion, event.modifiers)
    return Outcome(out.scenario, (*notes, *out.notes))


def _intervene(scenario: Scenario, name: str) -> Outcome:
    """p.24: once per game turn, a Champion in the same area takes the place of the Champion an Enemy targets,
    before the Combat's steps begin."""
    action = scenario.table.action
    if action is None or action.kind not in ("attack", "ranged attack"):
        raise ChampionsError(
            f"{name} can Intervene only when an Enemy attacks a Champion: 'ENEMY attacks NAME'", "p.24"
        )
    if action.champion == name:
        raise ChampionsError(f"{name} is already the one {action.actor} attacks", "p.24")
    if action.used:
        raise ChampionsError("Intervene comes at step 1, before the Combat's Honor is counted", "p.24")
    _check_actor(scenario, name)
    table = _once(scenario.table, name, "intervenes", "p.24")
    note = Note(f"{name} Intervenes: {action.actor} fights {name}, not {action.champion}", "p.24")
    return Outcome(replace(scenario, table=replace(table, action=replace(action, champion=name))), (note,))


def _ally(scenario: Scenario, event: AllyActs) -> Outcome:
    """p.30: the Allies act at the start of the Imperial Favor holder's activation (before that Champion's own
    actions); they have no Honor, no Ki, and neither Concentration nor Draw Objectives (p.29)."""
    if event.kind not in ALLY_ACTIONS:
        raise ChampionsError(f"an Ally cannot take the {event.kind} action", "p.29-30")
    t = scenario.table
    if t.phase is Phase.ENEMIES:
        _activate(scenario, "")  # refused: the Champions and Allies Phase is over
    favor = scenario.favor
    if favor and not scenario.champion(favor).out:
        if t.active == favor and t.acted:
            raise ChampionsError(
                f"Allies act at the start of {favor}'s activation (the Imperial Favor), before {favor}'s own actions",
                "p.30, CH-18",
            )
        t = _activate(scenario, favor)
    action = Action(t.actions + 1, f"ally {event.ally}", "ally", "", event.target)
    return Outcome(_open(scenario, t, action), ())
