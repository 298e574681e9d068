"""Champions of Rokugan's scenario rules: setup, the events the table reports, the Recovery Phase, the
end of the game. Pure functions from values to values; a refusal raises ``ChampionsError`` naming the rule.

Pages are the rulebook's; ``CR-xx`` the referee's rulings (RULINGS-CHAMPIONS.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .model import (
    CHAMPIONS_AT_TABLE,
    GLORIFIED_AT,
    GLORY_BONUSES,
    GLORY_MAX,
    GLORY_MIN,
    HONOR_MAX,
    HONOR_MIN,
    PURITY_START,
    THRESHOLD_GLORY_CAP,
    Champion,
    ChampionsError,
    Objective,
    Scenario,
    Setup,
    Status,
    ThresholdGlory,
    Timing,
)


# --- the events, as the table reports them ---------------------------------------------------------------
@dataclass(frozen=True)
class HonorChanged:
    """p.14: Honor gained or lost (wounding an Enemy, Outnumbered, Deception, Disengagement...)."""

    champion: str
    amount: int


@dataclass(frozen=True)
class EnemyEliminated:
    """p.14-15: the Enemy card's Glory; p.27: +1 for the last miniature of a Unit of several."""

    champion: str
    enemy: str
    glory: int
    last_of_unit: bool = False


@dataclass(frozen=True)
class ScenarioGlory:
    """p.14: Glory for an action or objective the scenario names (its value in the scenario)."""

    champion: str
    amount: int
    action: str = ""


@dataclass(frozen=True)
class ObjectiveTaken:
    """p.10, p.15: a Clan Objective card selected at setup or by the Draw Objectives action."""

    champion: str
    objective: Objective


@dataclass(frozen=True)
class ObjectiveCompleted:
    """p.15: an Instant Objective's Glory at once; an End Objective's at the final calculation."""

    champion: str
    objective: str


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


@dataclass(frozen=True)
class TurnEnded:
    """p.31, Recovery Phase: the Group Honor adjusted "if you haven't already done so" (CR-01). ``board``:
    the Group Honor the tracking board shows, when the table reports it."""

    board: int | None = None


Event = (
    HonorChanged
    | EnemyEliminated
    | ScenarioGlory
    | ObjectiveTaken
    | ObjectiveCompleted
    | PurityChanged
    | ChampionEliminated
    | ChampionCorrupted
    | TurnEnded
)


@dataclass(frozen=True)
class Note:
    """One thing the referee says about an event: what moved, by how much, and the rule."""

    text: str
    rule: str

    def __str__(self) -> str:
        return f"{self.text} ({self.rule})"


@dataclass(frozen=True)
class Outcome:
    scenario: Scenario
    notes: tuple[Note, ...]


# --- setup (p.10-11) --------------------------------------------------------------------------------------
def set_up(setup: Setup) -> Scenario:
    """The tracking board at the start: Glory 0 (p.14), Purity 5 (p.10), the Group Honor counter on the
    Champions' Honor and the Threshold on their Honor + their Destiny + the difficulty (p.11)."""
    cards = setup.cards
    if len(cards) != CHAMPIONS_AT_TABLE:
        raise ChampionsError(
            f"{len(cards)} Champions: there are always 5 at the table, Companions filling the missing players", "p.10"
        )
    names = [c.name.casefold() for c in cards]
    for c in cards:
        if names.count(c.name.casefold()) > 1:
            raise ChampionsError(f"{c.name}: two Champions of that name", "p.10")
        if not HONOR_MIN <= c.honor <= HONOR_MAX:
            raise ChampionsError(f"{c.name}: starting Honor {c.honor} is off the gauge (-5 to 10)", "p.14")
        if c.destiny < 0:
            raise ChampionsError(f"{c.name}: Destiny {c.destiny} cannot be negative", "p.15")
        if c.companion and c.player:
            raise ChampionsError(f"{c.name}: a Companion is nobody's own Champion", "p.17")
    if setup.max_turns < 1:
        raise ChampionsError(f"maximum turns {setup.max_turns}: a scenario has at least one turn", "p.8")
    players = [c for c in cards if not c.companion]
    if setup.solo and (len(players) != 1):
        raise ChampionsError(f"a solo game has one Champion and four Companions, not {len(players)} Champions", "p.17")
    if not players:
        raise ChampionsError("no player's Champion: Companions only fill the missing players", "p.10")
    honor = sum(c.honor for c in cards)
    destiny = sum(c.destiny for c in cards)
    return Scenario(
        setup=setup,
        champions=tuple(Champion(card=c, honor=c.honor) for c in cards),
        threshold=honor + destiny + setup.difficulty,
        group_honor=honor,
    )


# --- one event --------------------------------------------------------------------------------------------
def apply(scenario: Scenario, event: Event) -> Outcome:
    """The scenario after one reported event, with what the referee says about it; refused events raise."""
    if scenario.ended:
        raise ChampionsError("the scenario has ended: nothing more is played", "p.31")
    if isinstance(event, TurnEnded):
        return _turn_ended(scenario, event)
    champion = _find(scenario, event.champion)
    if isinstance(event, ObjectiveCompleted):
        return _objective_completed(scenario, champion, event.objective)
    if champion.out:
        raise ChampionsError(
            f"{champion.name} is {champion.status.value}: its scores no longer change until the end of the game",
            "p.15" if champion.status is Status.ELIMINATED else "p.16, CR-02",
        )
    if isinstance(event, HonorChanged):
        return _honor(scenario, champion, event.amount)
    if isinstance(event, EnemyEliminated):
        return _enemy(scenario, champion, event)
    if isinstance(event, ScenarioGlory):
        if event.amount == 0:
            raise ChampionsError("a scenario action worth 0 Glory changes nothing", "p.14")
        new, notes = _glory(champion, event.amount, f"scenario action{': ' + event.action if event.action else ''}")
        return Outcome(scenario.with_champion(new), (*notes,))
    if isinstance(event, ObjectiveTaken):
        return _objective_taken(scenario, champion, event.objective)
    if isinstance(event, PurityChanged):
        return _purity(scenario, champion, event.amount)
    if isinstance(event, ChampionEliminated):
        return _out(scenario, champion, Status.ELIMINATED)
    if isinstance(event, ChampionCorrupted):
        return _out(scenario, champion, Status.CORRUPTED)
    raise TypeError(f"not a Champions of Rokugan event: {event!r}")


def apply_all(scenario: Scenario, events: list[Event] | tuple[Event, ...]) -> Outcome:
    notes: list[Note] = []
    for e in events:
        out = apply(scenario, e)
        scenario = out.scenario
        notes.extend(out.notes)
    return Outcome(scenario, tuple(notes))


def _find(scenario: Scenario, name: str) -> Champion:
    for c in scenario.champions:
        if c.name == name:
            return c
    raise ChampionsError(f"{name}: no such Champion in this scenario", "p.10")


def _honor(scenario: Scenario, champion: Champion, amount: int) -> Outcome:
    """p.14: the gauge runs from -5 to 10; CR-01: the Group Honor moves with it at once."""
    if amount == 0:
        raise ChampionsError("an Honor change of 0 changes nothing", "p.14")
    new_honor = max(HONOR_MIN, min(HONOR_MAX, champion.honor + amount))
    moved = new_honor - champion.honor
    notes = [Note(f"{champion.name}: Honor {champion.honor} -> {new_honor}", "p.14")]
    if moved != amount:
        notes.append(Note(f"{champion.name}: {amount:+d} Honor applied as {moved:+d}, the gauge runs -5 to 10", "p.14"))
    if new_honor <= 0 < champion.honor:
        notes.append(Note(f"{champion.name} is Dishonored at {new_honor} Honor", "p.14, CR-11"))
    new = replace(champion, honor=new_honor)
    group = scenario.group_honor + moved
    if moved:
        notes.append(Note(f"Group Honor {scenario.group_honor} -> {group}", "p.14, CR-01"))
    return Outcome(replace(scenario.with_champion(new), group_honor=group), tuple(notes))


def _glory(champion: Champion, amount: int, why: str) -> tuple[Champion, list[Note]]:
    """p.14: the Glory track runs 0 to 25 (CR-06); its bonus tokens at 3, 6 and 9 are earned once each,
    also when one gain passes several (CR-07)."""
    new_glory = max(GLORY_MIN, min(GLORY_MAX, champion.glory + amount))
    notes = [Note(f"{champion.name}: {amount:+d} Glory ({why}), Glory {champion.glory} -> {new_glory}", "p.14")]
    if new_glory - champion.glory != amount:
        notes.append(Note(f"{champion.name}: the Glory track runs 0 to 25", "p.14, CR-06"))
    earned = tuple(b for b in GLORY_BONUSES if new_glory >= b and b not in champion.bonuses)
    for b in earned:
        notes.append(Note(f"{champion.name} earns the Glory track's bonus token at {b}", "p.14, CR-07"))
    return replace(champion, glory=new_glory, bonuses=champion.bonuses + earned), notes


def _enemy(scenario: Scenario, champion: Champion, event: EnemyEliminated) -> Outcome:
    if event.glory < 0:
        raise ChampionsError(f"{event.enemy}: an Enemy card's Glory is not negative", "p.13")
    new, notes = _glory(champion, event.glory, f"eliminates {event.enemy}")
    if event.last_of_unit:
        new, more = _glory(new, 1, f"the last miniature of the {event.enemy} Unit")
        notes += [Note(n.text, "p.27" if "last miniature" in n.text else n.rule) for n in more]
    return Outcome(scenario.with_champion(new), tuple(notes))


def _objective(champion: Champion, name: str) -> Objective:
    for o in champion.objectives:
        if o.name.casefold() == name.casefold():
            return o
    held = ", ".join(o.name for o in champion.objectives) or "none"
    raise ChampionsError(f"{champion.name} holds no Clan Objective {name!r} (holds: {held})", "p.15")


def _objective_taken(scenario: Scenario, champion: Champion, objective: Objective) -> Outcome:
    if champion.card.companion:
        raise ChampionsError(f"{champion.name} is a Companion: Companions have no Clan Objectives", "p.15, p.17")
    if any(o.name.casefold() == objective.name.casefold() for o in champion.objectives):
        raise ChampionsError(f"{champion.name} already holds the Clan Objective {objective.name!r}", "p.15")
    if objective.glory < 0 or objective.lower < 0 or objective.lower > objective.glory:
        raise ChampionsError(f"{objective.name}: Glory values must be 0 or more, the lower one second", "p.15")
    new = replace(champion, objectives=(*champion.objectives, objective))
    worth = f"{objective.glory}" + (f"/{objective.lower}" if objective.lower != objective.glory else "")
    note = Note(
        f"{champion.name} takes the Clan Objective {objective.name} ({objective.timing.value}, {worth})", "p.15"
    )
    return Outcome(scenario.with_champion(new), (note,))


def _objective_completed(scenario: Scenario, champion: Champion, name: str) -> Outcome:
    objective = _objective(champion, name)
    if objective.completed:
        raise ChampionsError(f"{champion.name} has already completed {objective.name}", "p.15")
    done = replace(objective, completed=True)
    new = replace(champion, objectives=tuple(done if o is objective else o for o in champion.objectives))
    if objective.timing is Timing.END:
        note = Note(f"{champion.name} fulfils the End Objective {objective.name}: its Glory counts at the end", "p.15")
        return Outcome(scenario.with_champion(new), (note,))
    if champion.out:
        raise ChampionsError(
            f"{champion.name} is {champion.status.value}: only its End Objectives are resolved, at the end", "p.15"
        )
    new, notes = _glory(new, objective.glory, f"Instant Objective {objective.name}")
    return Outcome(scenario.with_champion(new), tuple(Note(n.text, n.rule.replace("p.14", "p.15", 1)) for n in notes))


def _purity(scenario: Scenario, champion: Champion, amount: int) -> Outcome:
    """p.16: Purity falls by the Corruption value; Ki raises it again (never above its start, 5)."""
    if amount == 0:
        raise ChampionsError("a Purity change of 0 changes nothing", "p.16")
    new_purity = max(0, min(PURITY_START, champion.purity + amount))
    if new_purity == champion.purity:
        edge = "already 0" if amount < 0 else "already at its start, 5"
        raise ChampionsError(f"{champion.name}: Purity is {edge}", "p.16")
    notes = [Note(f"{champion.name}: Purity {champion.purity} -> {new_purity}", "p.16")]
    if new_purity == 0:
        notes.append(
            Note(
                f"{champion.name} has no Purity left: report it Corrupted (Life Points left) or Eliminated (none)",
                "p.16",
            )
        )
    return Outcome(scenario.with_champion(replace(champion, purity=new_purity)), tuple(notes))


def _out(scenario: Scenario, champion: Champion, status: Status) -> Outcome:
    """p.15 (Eliminated) and CR-02 (Corrupted): the starting Honor leaves the Threshold, the Destiny stays,
    the current Honor leaves the Group Honor; +2 Glory only when Eliminated."""
    if status is Status.CORRUPTED and champion.purity > 0:
        raise ChampionsError(f"{champion.name} still has {champion.purity} Purity: Corruption comes at 0", "p.16")
    rule = "p.15" if status is Status.ELIMINATED else "p.16, CR-02"
    threshold = scenario.threshold - champion.card.honor
    group = scenario.group_honor - champion.honor
    notes = [
        Note(f"{champion.name} is {status.value}", rule),
        Note(
            f"Threshold {scenario.threshold} -> {threshold}: {champion.name}'s starting Honor {champion.card.honor} "
            f"leaves it (its Destiny {champion.card.destiny} stays)",
            rule,
        ),
        Note(
            f"Group Honor {scenario.group_honor} -> {group}: {champion.name}'s Honor {champion.honor} leaves it", rule
        ),
    ]
    new = replace(champion, status=status)
    if status is Status.ELIMINATED:
        new, more = _glory(new, 2, "Eliminated")
        notes += [Note(n.text, n.rule.replace("p.14", "p.14-15", 1)) for n in more]
    else:
        notes.append(Note(f"{champion.name} gains no Glory for being Corrupted", "p.16, CR-02"))
    return Outcome(replace(scenario.with_champion(new), threshold=threshold, group_honor=group), tuple(notes))


def check_reported(scenario: Scenario, event: Event) -> None:
    """A report as the table enters it, before it is applied: a Recovery Phase whose count of the board's
    Group Honor differs from the Champions' Honor is refused, nothing recorded (CR-01). Applied, it would
    begin the next turn on a counter that is wrong, and the same report sent again with the corrected count
    (to confirm it) would begin another turn that was never played. A record already holding such a report
    replays as it was (``apply``)."""
    if not isinstance(event, TurnEnded) or event.board is None:
        return
    live = scenario.live_honor()
    if event.board != live:
        raise ChampionsError(
            f"the board shows Group Honor {event.board}, the Champions' Honor makes {live}: turn {scenario.turn} "
            f"goes on; move the counter {live - event.board:+d} to {live}, then end the turn with the count {live} "
            "(if the board is right, a report is missing: record it first)",
            "p.31, CR-01",
        )


def _turn_ended(scenario: Scenario, event: TurnEnded) -> Outcome:
    """p.31 Recovery Phase: the Group Honor caught up with the Honor of the Champions not Eliminated
    (CR-01: it is live, so this only corrects a board that missed a change); the next turn begins."""
    last = scenario.setup.max_turns
    if scenario.turn >= last:
        raise ChampionsError(f"turn {scenario.turn} is the scenario's last: the game ends, record its end", "p.8")
    live = scenario.live_honor()
    notes: list[Note] = []
    if event.board is None:
        notes.append(Note(f"Recovery Phase: Group Honor {live}", "p.31, CR-01"))
    elif event.board == live:
        notes.append(Note(f"Recovery Phase: the board's Group Honor {live} is right", "p.31, CR-01"))
    else:
        notes.append(
            Note(
                f"Recovery Phase: the board shows Group Honor {event.board}, the Champions' Honor makes {live}: "
                f"move the counter {live - event.board:+d}",
                "p.31, CR-01",
            )
        )
    notes.append(Note(f"turn {scenario.turn + 1} of {last} begins", "p.31"))
    return Outcome(replace(scenario, group_honor=live, turn=scenario.turn + 1), tuple(notes))


# --- the end of the game (p.31-32) ------------------------------------------------------------------------
@dataclass(frozen=True)
class Line:
    """One adjustment of the end of the game: who, what, how much, on which value, and the page."""

    who: str  # a Champion's name, or "group"
    what: str  # honor | group honor | threshold | glory
    label: str
    amount: int
    rule: str


@dataclass(frozen=True)
class Ending:
    scenario: Scenario  # after the end-of-game Honor
    objectives_met: bool
    lines: tuple[Line, ...]
    group_honor: int
    threshold: int
    glory: tuple[tuple[str, int], ...]  # each Champion's end-of-game Glory, setup order (may be negative, CR-06)
    victory: bool
    reasons: tuple[str, ...]  # why it is a defeat (empty on a victory)
    glorified: tuple[str, ...]

    @property
    def difference(self) -> int:
        """CR-13: Group Honor minus the Threshold (negative: short of it)."""
        return self.group_honor - self.threshold

    def final_glory(self, name: str) -> int:
        return dict(self.glory)[name]


def end(scenario: Scenario, objectives_met: bool) -> Ending:
    """The end of the game, every adjustment a line with its page: Calculating Honor, then the Threshold's
    Glory adjustments (CR-04, CR-05), then Calculating Glory (p.32, CR-08), the victory conditions (p.31)
    and the Glorified Champions (p.32, CR-09)."""
    _check_can_end(scenario)
    champions, group, lines = _calculate_honor(scenario)
    glory_lines: list[Line] = []
    final: dict[str, int] = {}
    for c in champions:
        more, final[c.name] = _calculate_glory(c)
        glory_lines += more
    threshold_lines, adjustment = _threshold_glory(scenario, champions, final)
    threshold = scenario.threshold + adjustment
    lines += threshold_lines + glory_lines
    reasons = _defeat_reasons(scenario, champions, final, objectives_met, group, threshold)
    ended = replace(scenario, champions=tuple(champions), group_honor=group, threshold=threshold, ended=True)
    return Ending(
        scenario=ended,
        objectives_met=objectives_met,
        lines=tuple(lines),
        group_honor=group,
        threshold=threshold,
        glory=tuple((c.name, final[c.name]) for c in champions),
        victory=not reasons,
        reasons=tuple(reasons),
        glorified=_glorified(champions, final),
    )


def _check_can_end(scenario: Scenario) -> None:
    """p.31: a scenario ends once; p.16: a Champion at 0 Purity is first reported Corrupted or Eliminated."""
    if scenario.ended:
        raise ChampionsError("the scenario has already ended", "p.31")
    stuck = [c.name for c in scenario.champions if not c.out and c.purity == 0]
    if stuck:
        raise ChampionsError(
            f"{', '.join(stuck)} at 0 Purity but neither Corrupted nor Eliminated: report which first", "p.16"
        )


def _calculate_honor(scenario: Scenario) -> tuple[list[Champion], int, list[Line]]:
    """Calculating Honor (p.32): -1 Honor per Purity Point missing, and the Group Honor with it (CR-01),
    except for a Champion whose Honor already left it (CR-03). The Champions after it, the Group Honor,
    the lines."""
    lines: list[Line] = []
    group = scenario.group_honor
    champions: list[Champion] = []
    for c in scenario.champions:
        missing = c.purity_missing
        if missing:
            honor = max(HONOR_MIN, c.honor - missing)
            lines.append(
                Line(c.name, "honor", f"-1 Honor per Purity Point missing ({missing})", honor - c.honor, "p.32")
            )
            if c.out:
                lines.append(
                    Line(c.name, "group honor", f"{c.status.value}: its Honor already left the Group Honor", 0, "CR-03")
                )
            elif honor != c.honor:
                lines.append(Line(c.name, "group honor", "the Group Honor with it", honor - c.honor, "p.32, CR-01"))
                group += honor - c.honor
            c = replace(c, honor=honor)
        champions.append(c)
    return champions, group, lines


def _calculate_glory(c: Champion) -> tuple[list[Line], int]:
    """Calculating Glory (p.32) for one Champion: its lines, and its end-of-game Glory, summed with the
    track and capped once (CR-08)."""
    lines: list[Line] = []
    total = c.glory
    for o in c.objectives:
        if o.completed and o.timing is Timing.END:
            lines.append(Line(c.name, "glory", f"End Objective {o.name} completed", o.glory, "p.32"))
            total += o.glory
        elif not o.completed:
            lines.append(Line(c.name, "glory", f"Objective {o.name} not completed", -o.lower, "p.32"))
            total -= o.lower
    if c.purity_missing:
        lines.append(
            Line(c.name, "glory", f"-1 Glory per Purity Point missing ({c.purity_missing})", -c.purity_missing, "p.32")
        )
        total -= c.purity_missing
    if c.card.destiny:
        lines.append(
            Line(c.name, "glory", f"-1 Glory per Destiny Point ({c.card.destiny})", -c.card.destiny, "p.15, p.32")
        )
        total -= c.card.destiny
    if total > GLORY_MAX:
        lines.append(Line(c.name, "glory", "capped at the track's 25", GLORY_MAX - total, "p.14, CR-08"))
        total = GLORY_MAX
    return lines, total


def _threshold_glory(scenario: Scenario, champions: list[Champion], final: dict[str, int]) -> tuple[list[Line], int]:
    """The Threshold's Glory adjustments (p.32, p.14), on the Glory the option names (CR-04), every Champion,
    at most 5 either way (CR-05): the lines and the adjustment."""
    read = scenario.setup.options.threshold_glory
    seen = {c.name: (c.glory if read is ThresholdGlory.TRACK else final[c.name]) for c in champions}
    which = "on the track" if read is ThresholdGlory.TRACK else "at the end"
    lines: list[Line] = []
    raw = 0
    for c in champions:
        g = seen[c.name]
        if g >= GLORIFIED_AT:
            lines.append(Line(c.name, "threshold", f"{g} Glory {which}: 15 or more", -1, "p.32, CR-04"))
            raw -= 1
        elif g <= 0:
            lines.append(Line(c.name, "threshold", f"{g} Glory {which}: none", +1, "p.32, CR-04"))
            raw += 1
    adjustment = max(-THRESHOLD_GLORY_CAP, min(THRESHOLD_GLORY_CAP, raw))
    if adjustment != raw:
        lines.append(Line("group", "threshold", "the Glory adjustments are at most 5", adjustment - raw, "p.14, CR-05"))
    return lines, adjustment


def _defeat_reasons(
    scenario: Scenario,
    champions: list[Champion],
    final: dict[str, int],
    objectives_met: bool,
    group: int,
    threshold: int,
) -> list[str]:
    """The victory conditions (p.31; solo, p.17): why the game is lost, none on a victory."""
    reasons: list[str] = []
    if not objectives_met:
        reasons.append("the scenario objectives are not met (p.31)")
    if group < threshold:
        reasons.append(f"the Group Honor {group} is short of the Threshold {threshold} (p.31)")
    if scenario.setup.solo:
        player = next(c for c in champions if not c.card.companion)
        companions = sum(final[c.name] for c in champions if c.card.companion)
        if final[player.name] <= companions:
            reasons.append(
                f"{player.name}'s Glory {final[player.name]} is not above the Companions' {companions} (p.17, p.31)"
            )
    return reasons


def _glorified(champions: list[Champion], final: dict[str, int]) -> tuple[str, ...]:
    """The Glorified (p.32, CR-09): players' Champions, not Corrupted, of the highest Glory; ties Glorify each."""
    eligible = [c for c in champions if not c.card.companion and c.status is not Status.CORRUPTED]
    best = max((final[c.name] for c in eligible), default=None)
    return tuple(c.name for c in eligible if final[c.name] == best)
