"""A report as the table enters it, checked before it is applied: what a record made earlier may hold and
replays as it was (``rules.apply``), but the table may no longer enter. Each check names the rule and what to
type instead."""

from __future__ import annotations

from .events import EnemyEliminated, Event, HonorChanged, ObjectiveCompleted, ObjectiveTaken, TurnEnded
from .honor import CAUSES
from .model import ChampionsError, Scenario, Timing
from .objectives import check_kept


def check_reported(scenario: Scenario, event: Event) -> None:
    """Refused at entry, nothing recorded:

    - a Recovery Phase whose count of the board's Group Honor differs from the Champions' Honor (CR-01):
      applied, it would begin the next turn on a counter that is wrong, and the same report sent again with
      the corrected count (to confirm it) would begin another turn that was never played;
    - an Honor change without its cause (CH-01): the once-per-action limits cannot be checked without it;
    - a Unit's last miniature without the Unit's size (p.27, CH-09): its +1 is only for a Unit of several;
    - a Clan Objective "taken" once the game is under way: a Champion keeps its cards at setup (the sheet's
      ``objective:`` lines) and takes more by the Draw Objectives action (p.23); the line is for a starting
      card recorded late, in turn 1 before any action, or by a Champion who keeps none (p.10-11).
    """
    if isinstance(event, TurnEnded) and event.board is not None:
        live = scenario.live_honor()
        if event.board != live:
            raise ChampionsError(
                f"the board shows Group Honor {event.board}, the Champions' Honor makes {live}: turn "
                f"{scenario.turn} goes on; move the counter {live - event.board:+d} to {live}, then end the turn "
                f"with the count {live} (if the board is right, a report is missing: record it first)",
                "p.31, CR-01",
            )
    check_form(event)
    if isinstance(event, ObjectiveTaken):
        early = scenario.turn == 1 and not scenario.table.actions
        if not early and scenario.champion(event.champion).objectives:
            raise ChampionsError(
                "a Clan Objective is kept at setup (the sheet's 'objective:' lines) or by the Draw Objectives "
                f"action: '{event.champion}: draw objectives, keeps NAME, revealed, instant, 2'",
                "p.10-11, p.23",
            )


def check_form(event: Event) -> None:
    """The forms an older record may hold and the table no longer enters, whatever the scenario: an Honor
    change without its cause (CH-01), a Unit's last miniature without the Unit's size (p.27, CH-09). A
    correction's lines are checked so too."""
    if isinstance(event, HonorChanged) and not event.cause:
        raise ChampionsError(
            f"an Honor change says why: 'honor {event.amount:+d}, CAUSE' (causes: {', '.join(CAUSES)})", "p.14, CH-01"
        )
    if isinstance(event, EnemyEliminated) and event.last_of_unit and not event.unit:
        raise ChampionsError(
            "say the Unit's size: ', unit of 3' (the referee counts its miniatures and pays the last one's +1 "
            "only for a Unit of several)",
            "p.27, CH-09",
        )


def check_can_end(scenario: Scenario) -> None:
    """The end as the table enters it: every player's Champion keeps a Clan Objective (p.10-11, CH-04)."""
    check_kept(scenario, "record the card kept with 'NAME: objective NAME, revealed, instant, 2', then end")


def check_after_end(scenario: Scenario, event: Event) -> None:
    """After the end, a report holds End Objectives fulfilled, and nothing else (p.31, CH-08). ``scenario``: as
    it was when the game ended."""
    if not isinstance(event, ObjectiveCompleted):
        raise ChampionsError("the scenario has ended: after it, a report holds End Objectives fulfilled only", "p.31")
    held = scenario.champion(event.champion).objectives
    o = next((x for x in held if x.name.casefold() == event.objective.casefold()), None)
    if o is not None and o.timing is not Timing.END:
        raise ChampionsError(f"{o.name} is an Instant Objective: its Glory came when it was completed", "p.15, CH-08")
