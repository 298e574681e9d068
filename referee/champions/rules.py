"""Champions of Rokugan's scenario rules: setup, the events the table reports, the Recovery Phase, the
end of the game. Pure functions from values to values; a refusal raises ``ChampionsError`` naming the rule.

Pages are the rulebook's; ``CR-xx`` the referee's rulings (RULINGS-CHAMPIONS.md).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from . import eliminations, objectives, standing, turn
from .events import (
    ActionTaken,
    AllyActs,
    AllyEliminates,
    ChampionCorrupted,
    ChampionEliminated,
    EnemiesPhase,
    EnemyAttacks,
    EnemyEliminated,
    EnemyFalls,
    Event,
    FavorTaken,
    HonorChanged,
    Intervened,
    ObjectiveCompleted,
    ObjectivesDrawn,
    ObjectiveTaken,
    PurityChanged,
    ScenarioGlory,
    TrackPlaced,
    TurnEnded,
)
from .honor import change as change_honor
from .model import (
    CHAMPIONS_AT_TABLE,
    GLORIFIED_AT,
    GLORY_MAX,
    HONOR_MAX,
    HONOR_MIN,
    PURITY_START,
    THRESHOLD_GLORY_CAP,
    Champion,
    ChampionsError,
    Note,
    Outcome,
    Phase,
    Scenario,
    Setup,
    Status,
    ThresholdGlory,
    Timing,
)
from .tracks import move_glory

__all__ = [  # the events, for the modules that read them from here
    "ActionTaken", "AllyActs", "AllyEliminates", "ChampionCorrupted", "ChampionEliminated", "EnemiesPhase",
    "EnemyAttacks", "EnemyEliminated", "EnemyFalls", "Event", "FavorTaken", "HonorChanged", "Intervened",
    "ObjectiveCompleted", "ObjectiveTaken", "ObjectivesDrawn", "PurityChanged", "ScenarioGlory", "TrackPlaced",
    "TurnEnded", "Note", "Outcome", "apply", "apply_all", "end", "set_up",
]  # fmt: skip
TURN_EVENTS = (FavorTaken, TrackPlaced, EnemiesPhase, ActionTaken, EnemyAttacks, Intervened, AllyActs)
RESERVED = ("favor", "activation", "enemies", "turn end")  # words of the turn's lines, not a Champion's name


# --- setup (p.10-11) --------------------------------------------------------------------------------------
def set_up(setup: Setup) -> Scenario:
    """The tracking board at the start: Glory 0 (p.14), Purity 5 (p.10), the Group Honor counter on the
    Champions' Honor and the Threshold on their Honor + their Destiny + the difficulty (p.11); the Clan
    Objectives kept (p.10-11), the Imperial Favor (p.11) and each Champion's standing (CH-02)."""
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
    _check_clans(setup)
    objectives.check_sheet(setup)
    honor = sum(c.honor for c in cards)
    destiny = sum(c.destiny for c in cards)
    at_setup = setup.options["dishonored_at_setup"]
    scenario = Scenario(
        setup=setup,
        champions=tuple(
            objectives.at_setup(standing.at_setup(Champion(card=c, honor=c.honor), at_setup), setup) for c in cards
        ),
        threshold=honor + destiny + setup.difficulty,
        group_honor=honor,
    )
    if scenario.last_turn < 1:
        raise ChampionsError("with turn_counter = literal a scenario needs at least 2 turns", "CH-16")
    favor, _ = turn.first_favor(scenario)
    return replace(scenario, favor=favor)


def setup_notes(scenario: Scenario) -> tuple[Note, ...]:
    """What the referee says of a scenario just set up: the Threshold, the Imperial Favor (p.11) and who is
    Dishonored from the start (CH-02)."""
    setup = scenario.setup
    honor = sum(c.honor for c in setup.cards)
    destiny = sum(c.destiny for c in setup.cards)
    notes = [
        Note(
            f"Threshold {scenario.threshold} = {honor} Honor + {destiny} Destiny {setup.difficulty:+d} difficulty; "
            f"Group Honor {scenario.group_honor}",
            "p.11",
        ),
        *turn.first_favor(scenario)[1],
    ]
    for c in scenario.champions:
        if c.dishonored:
            notes.append(
                Note(
                    f"{c.name} is Dishonored from the start, at {c.honor} Honor: no Investigation, and their "
                    "Defensive Successes are not counted in Combat",
                    "p.14, CR-11, CH-02",
                )
            )
    return tuple(notes)


def _check_clans(setup: Setup) -> None:
    """p.10: the players' Champions are of different Clans, unless the scenario says otherwise; p.17 and p.39:
    a solo game's four Companions are the Minor Clan Bushi or the player's Clan's, never mixed (when the sheet
    gives the Clans)."""
    players = [c for c in setup.cards if not c.companion and c.clan]
    clans = [c.clan.casefold() for c in players]
    twice = next((c for c in players if clans.count(c.clan.casefold()) > 1), None)
    if twice is not None and not setup.same_clan:
        raise ChampionsError(
            f"two players' Champions of the {twice.clan} Clan: each player takes a Champion of a different Clan "
            "(unless the scenario says otherwise: 'same clan: allowed')",
            "p.10",
        )
    companions = {c.clan.casefold() for c in setup.cards if c.companion and c.clan}
    if setup.solo and companions:
        own = {c.clan.casefold() for c in setup.cards if not c.companion and c.clan}
        if len(companions) > 1 or not companions <= {"unaligned", *own}:
            raise ChampionsError(
                "a solo game's Companions are the 4 Minor Clan Bushi (unaligned) or the 4 of the Champion's Clan, "
                f"not mixed (here: {', '.join(sorted(companions))})",
                "p.17, p.39",
            )


def check_new_setup(scenario: Scenario) -> None:
    """A setup sheet as the table enters it (a record made before these checks replays as it was): every
    player's Champion keeps a Clan Objective (p.10-11, CH-04), no Champion is named as a line of the turn."""
    for c in scenario.champions:
        folded = c.name.casefold()
        if folded in RESERVED or folded.startswith("ally ") or " attacks " in folded or folded.endswith(" eliminated"):
            raise ChampionsError(f"{c.name!r}: a Champion's name cannot read as a line of the turn", "CH-18")
    objectives.check_kept(scenario, "the setup sheet's 'objective:' lines")


# --- one event --------------------------------------------------------------------------------------------
def apply(scenario: Scenario, event: Event) -> Outcome:
    """The scenario after one reported event, with what the referee says about it; refused events raise."""
    if scenario.ended:
        raise ChampionsError("the scenario has ended: nothing more is played", "p.31")
    if isinstance(event, TurnEnded):
        return _turn_ended(scenario, event)
    if isinstance(event, TURN_EVENTS):
        return turn.apply(scenario, event)
    if isinstance(event, AllyEliminates):
        return eliminations.by_ally(scenario, event)
    if isinstance(event, EnemyFalls):
        return eliminations.otherwise(scenario, event)
    champion = _find(scenario, event.champion)
    if isinstance(event, ObjectiveCompleted):
        return objectives.complete(scenario, champion, event.objective, event.value)
    if champion.out:
        raise ChampionsError(
            f"{champion.name} is {champion.status.value}: its scores no longer change until the end of the game",
            "p.15" if champion.status is Status.ELIMINATED else "p.16, CR-02",
        )
    if isinstance(event, HonorChanged):
        return change_honor(scenario, champion.name, event.amount, event.cause)
    if isinstance(event, EnemyEliminated):
        return eliminations.by_champion(scenario, event)
    if isinstance(event, ScenarioGlory):
        if event.amount == 0:
            raise ChampionsError("a scenario action worth 0 Glory changes nothing", "p.14")
        new, notes = move_glory(champion, event.amount, f"scenario action{': ' + event.action if event.action else ''}")
        return Outcome(scenario.with_champion(new), (*notes,))
    if isinstance(event, ObjectiveTaken):
        return objectives.keep(scenario, champion, event.objective, "(kept at setup)")
    if isinstance(event, ObjectivesDrawn):
        drawn = turn.draw(scenario, champion.name)
        return objectives.drawn(drawn, champion, event.kept)
    if isinstance(event, PurityChanged):
        return _purity(scenario, champion, event.amount)
    if isinstance(event, ChampionEliminated):
        return _out(scenario, champion, Status.ELIMINATED)
    if isinstance(event, ChampionCorrupted):
        return _out(scenario, champion, Status.CORRUPTED)
    raise TypeError(f"not a Champions of Rokugan event: {event!r}")


def apply_all(scenario: Scenario, events: list[Event] | tuple[Event, ...]) -> Outcome:
    """Events as one report: each applied in order, then the report's end closes the action under way."""
    notes: list[Note] = []
    for e in events:
        out = apply(scenario, e)
        scenario = out.scenario
        notes.extend(out.notes)
    out = turn.end_of_report(scenario)
    return Outcome(out.scenario, (*notes, *out.notes))


def _find(scenario: Scenario, name: str) -> Champion:
    for c in scenario.champions:
        if c.name == name:
            return c
    raise ChampionsError(f"{name}: no such Champion in this scenario", "p.10")


def _purity(scenario: Scenario, champion: Champion, amount: int) -> Outcome:
    """p.16: Purity falls by the Corruption value; Ki raises it again during the Champion's own Activation
    (never above its start, 5: CH-15)."""
    if amount == 0:
        raise ChampionsError("a Purity change of 0 changes nothing", "p.16")
    t = scenario.table
    if amount > 0 and (t.phase is Phase.ENEMIES or (t.active and t.active != champion.name)):
        when = "the Enemies Phase" if t.phase is Phase.ENEMIES else f"{t.active}'s activation"
        raise ChampionsError(
            f"{champion.name} raises Purity with Ki during its own Activation, not in {when}", "p.16, CH-15"
        )
    new_purity = max(0, min(PURITY_START, champion.purity + amount))
    if new_purity == champion.purity:
        edge = "already 0" if amount < 0 else "already at its start, 5"
        raise ChampionsError(f"{champion.name}: Purity is {edge}", "p.16, CH-15" if amount > 0 else "p.16")
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
        new, more = move_glory(new, 2, "Eliminated", "p.14-15")
        notes += more
    else:
        notes.append(Note(f"{champion.name} gains no Glory for being Corrupted", "p.16, CR-02"))
    return Outcome(replace(scenario.with_champion(new), threshold=threshold, group_honor=group), tuple(notes))


def _turn_ended(scenario: Scenario, event: TurnEnded) -> Outcome:
    """p.31 Recovery Phase: the Group Honor caught up with the Honor of the Champions not Eliminated
    (CR-01: it is live, so this only corrects a board that missed a change); the Imperial Favor passes
    (CH-17); the next turn begins."""
    last = scenario.last_turn
    if scenario.turn >= last:
        rule = "p.8, CH-16" if last != scenario.setup.max_turns else "p.8"
        raise ChampionsError(f"turn {scenario.turn} is the scenario's last: the game ends, record its end", rule)
    scenario, notes = turn.close(scenario)
    live = scenario.live_honor()
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
    scenario, more = turn.next_turn(replace(scenario, group_honor=live, turn=scenario.turn + 1))
    notes += more
    notes.append(Note(f"turn {scenario.turn} of {last} begins", "p.31"))
    return Outcome(scenario, tuple(notes))


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
    and the Glorified Champions (p.32, CR-09; none in the More cooperation variant)."""
    _check_can_end(scenario)
    scenario, _ = turn.close(scenario)
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
        glorified=() if scenario.setup.cooperation else _glorified(champions, final),
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
    """Calculating Glory (p.32) for one Champion (an Eliminated or a Corrupted one too: p.15, CH-20): its lines,
    and its end-of-game Glory, summed with the track and capped once (CR-08)."""
    lines: list[Line] = []
    total = c.glory
    for o in c.objectives:
        if o.completed and o.timing is Timing.END:
            lower = o.two_valued and o.paid == o.lower
            label = f"End Objective {o.name} completed" + (" for its lower value" if lower else "")
            lines.append(Line(c.name, "glory", label, o.paid, "p.32, CH-06" if lower else "p.32"))
            total += o.paid
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
    in_play_only = scenario.setup.options["threshold_glory_counts"] == "in_play_only"
    for c in champions:
        if in_play_only and c.out:  # CH-13: the option counts only the Champions still on the board
            continue
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
    if scenario.setup.solo:  # CH-14: the end-of-game Glory (option solo_glory = final) or the track's
        track = scenario.setup.options["solo_glory"] == "track"
        glory = {c.name: c.glory if track else final[c.name] for c in champions}
        player = next(c for c in champions if not c.card.companion)
        companions = sum(glory[c.name] for c in champions if c.card.companion)
        if glory[player.name] <= companions:
            rule = "p.17, p.31, CH-14" if track else "p.17, p.31"
            reasons.append(
                f"{player.name}'s Glory {glory[player.name]} is not above the Companions' {companions} ({rule})"
            )
    return reasons


def _glorified(champions: list[Champion], final: dict[str, int]) -> tuple[str, ...]:
    """The Glorified (p.32, CR-09): players' Champions, not Corrupted, of the highest Glory; ties Glorify each."""
    eligible = [c for c in champions if not c.card.companion and c.status is not Status.CORRUPTED]
    best = max((final[c.name] for c in eligible), default=None)
    return tuple(c.name for c in eligible if final[c.name] == best)
