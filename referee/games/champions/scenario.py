"""A Champions of Rokugan scenario's log folded: corrections and retractions first put in place, then every
report applied in order with the rules package; the end of the game checked against the digest recorded with
it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from ...core.canonical import canonical_json
from ...engine.champions import (
    ChampionsError,
    Ending,
    Note,
    Scenario,
    apply,
    check_after_end,
    end,
    end_of_report,
    parse_line,
    parse_setup,
    set_up,
)
from ...store.events import Event, ReplayError
from ...store.storage import Store
from .events import CORRECTED, CREATED, ENDED, KIND, REPORTED, RETRACTED, ChampionsRefused, data, kind_of


# --- a scenario ------------------------------------------------------------------------------------------
@dataclass
class Step:
    """One event of the log as the referee folded it: what it said, and the notes."""

    seq: int
    type: str
    lines: tuple[str, ...]
    notes: tuple[Note, ...]
    taken_back: str = ""  # "retracted by event N" / "corrected by event N"


@dataclass
class ScenarioFold:
    game: str
    scenario: Scenario
    ending: Ending | None = None
    steps: list[Step] = field(default_factory=list)
    last: Event | None = None
    digest_ok: bool = True
    before_end: Scenario | None = None  # the scenario when the game ended: End Objectives reported after it
    objectives_met: bool = False
    history: list[tuple[int, Scenario]] = field(default_factory=list)  # (0, at setup), (turn, the board after it)

    @property
    def ended(self) -> bool:
        return self.ending is not None


def fold_scenario(events: Sequence[Event]) -> ScenarioFold:
    """The scenario a log records: corrections and retractions first put in place, then every report
    applied in order (raises ReplayError naming the event)."""
    if kind_of(events) != KIND:
        raise ReplayError(f"{events[0].game if events else '?'} is not a Champions of Rokugan scenario record")
    live, taken = _in_effect(events[1:])
    fold = _set_up(events)
    names = tuple(c.name for c in fold.scenario.champions)
    for seq in sorted(live):
        e, lines = live[seq]
        fold.steps.append(_replay(fold, e, seq, lines, names))
    fold.steps += _taken_back(events[1:], live)
    fold.steps.sort(key=lambda s: s.seq)
    for s in fold.steps:
        s.taken_back = taken.get(s.seq, s.taken_back)
    return fold


# the events in effect: seq -> the event and its lines (a report's, as corrected; none for an end)
Live = dict[int, tuple[Event, tuple[str, ...]]]


Taken = dict[int, str]  # seq -> "corrected by event N" / "retracted by event N"


def _in_effect(events: Sequence[Event]) -> tuple[Live, Taken]:
    """The reports and the end in effect once every correction and retraction is put in place."""
    live: Live = {}
    taken: Taken = {}
    for e in events:
        d = data(e)
        put = _PUT_IN_PLACE.get(e.type)
        if put is None:
            raise ReplayError(f"{e.type} has no place in a Champions scenario record", seq=e.seq)
        put(e, d, live, taken)
    return live, taken


def _put_reported(e: Event, d: dict[str, Any], live: Live, taken: Taken) -> None:
    live[e.seq] = (e, tuple(d["lines"]))


def _put_ended(e: Event, d: dict[str, Any], live: Live, taken: Taken) -> None:
    live[e.seq] = (e, ())


def _put_corrected(e: Event, d: dict[str, Any], live: Live, taken: Taken) -> None:
    target = live.get(d["seq"])
    if target is None or target[0].type != REPORTED:
        raise ReplayError(f"event {d['seq']} is no report in effect: it cannot be corrected", seq=e.seq)
    live[d["seq"]] = (target[0], tuple(d["lines"]))
    taken[d["seq"]] = f"corrected by event {e.seq}"


def _put_retracted(e: Event, d: dict[str, Any], live: Live, taken: Taken) -> None:
    if d["seq"] not in live:
        raise ReplayError(f"event {d['seq']} is no report or end in effect: it cannot be retracted", seq=e.seq)
    del live[d["seq"]]
    taken[d["seq"]] = f"retracted by event {e.seq}"


_PUT_IN_PLACE: dict[str, Callable[[Event, dict[str, Any], Live, Taken], None]] = {
    REPORTED: _put_reported,
    ENDED: _put_ended,
    CORRECTED: _put_corrected,
    RETRACTED: _put_retracted,
}


def _set_up(events: Sequence[Event]) -> ScenarioFold:
    """The fold before any report: the scenario its creating event's setup sheet sets up."""
    sheet = data(events[0])["setup"]
    try:
        scenario = set_up(parse_setup("\n".join(sheet)))
    except ChampionsError as exc:
        raise ReplayError(f"the setup: {exc.message}", seq=1) from None
    fold = ScenarioFold(events[0].game, scenario, last=events[-1], history=[(0, scenario)])
    fold.steps.append(Step(1, CREATED, tuple(sheet), ()))
    return fold


def _replay(fold: ScenarioFold, e: Event, seq: int, lines: tuple[str, ...], names: tuple[str, ...]) -> Step:
    """One event in effect applied to the fold: a report's lines (then the report's end closes the action under
    way), a report after the end (End Objectives, the settlement made again), or the end of the game."""
    if e.type == REPORTED and fold.before_end is not None:
        return _replay_after_end(fold, e, seq, lines, names)
    notes: list[Note] = []
    for n, line in enumerate(lines, 1):
        try:
            out = apply(fold.scenario, parse_line(line, names))
        except ChampionsError as exc:
            raise ReplayError(f"line {n}: {exc.message}", seq=seq) from None
        if out.scenario.turn != fold.scenario.turn:
            fold.history.append((fold.scenario.turn, out.scenario))
        fold.scenario = out.scenario
        notes.extend(out.notes)
    if e.type == REPORTED:
        closed = end_of_report(fold.scenario)
        fold.scenario = closed.scenario
        notes.extend(closed.notes)
    if e.type == ENDED:
        lines = _replay_end(fold, e, seq)
    return Step(seq, e.type, lines, tuple(notes))


def _replay_end(fold: ScenarioFold, e: Event, seq: int) -> tuple[str, ...]:
    """The end of the game, its report checked against the digest and result recorded with it."""
    d = data(e)
    fold.before_end, fold.objectives_met = fold.scenario, d["objectives"] == "met"
    try:
        fold.ending = end(fold.scenario, fold.objectives_met)
    except ChampionsError as exc:
        raise ReplayError(exc.message, seq=seq) from None
    fold.scenario = fold.ending.scenario
    result = "victory" if fold.ending.victory else "defeat"
    fold.digest_ok = fold.digest_ok and ending_digest(fold.ending) == d["digest"] and d["result"] == result
    return (f"end: objectives {d['objectives']}",)


def _replay_after_end(fold: ScenarioFold, e: Event, seq: int, lines: tuple[str, ...], names: tuple[str, ...]) -> Step:
    """CH-08: End Objectives reported fulfilled after the end: applied to the scenario as it ended, the
    settlement made again; its digest, recorded with the report, checked."""
    assert fold.before_end is not None
    scenario = fold.before_end
    notes: list[Note] = []
    for n, line in enumerate(lines, 1):
        try:
            event = parse_line(line, names)
            check_after_end(scenario, event)
            out = apply(scenario, event)
        except ChampionsError as exc:
            raise ReplayError(f"line {n}: {exc.message}", seq=seq) from None
        scenario = out.scenario
        notes.extend(out.notes)
    fold.before_end = scenario
    try:
        fold.ending = end(scenario, fold.objectives_met)
    except ChampionsError as exc:
        raise ReplayError(exc.message, seq=seq) from None
    fold.scenario = fold.ending.scenario
    recorded = data(e).get("digest")
    result = "victory" if fold.ending.victory else "defeat"
    if recorded is not None and (recorded != ending_digest(fold.ending) or data(e).get("result") != result):
        fold.digest_ok = False
    notes.append(Note("the end of the game made again with it", "p.32, CH-08"))
    return Step(seq, e.type, lines, tuple(notes))


def _taken_back(events: Sequence[Event], live: Live) -> list[Step]:
    """The steps of the corrections and retractions, and of the events retracted: still in the record."""
    steps = []
    for e in events:
        if e.type in (CORRECTED, RETRACTED):
            steps.append(Step(e.seq, e.type, tuple(data(e).get("lines", [])), (), f"reason: {data(e)['reason']}"))
        elif e.seq not in live:  # retracted: still in the record, taken back
            said = tuple(data(e)["lines"]) if e.type == REPORTED else (f"end: objectives {data(e)['objectives']}",)
            steps.append(Step(e.seq, e.type, said, ()))
    return steps


def ending_digest(ending: Ending) -> str:
    """The digest of an end-of-game report: every line, the totals, the result."""
    body = {
        "lines": [asdict(x) for x in ending.lines],
        "group_honor": ending.group_honor,
        "threshold": ending.threshold,
        "glory": [list(g) for g in ending.glory],
        "victory": ending.victory,
        "glorified": list(ending.glorified),
    }
    return hashlib.sha256(canonical_json(body).encode()).hexdigest()


def load_scenario(store: Store, game: str) -> tuple[list[Event], ScenarioFold]:
    events = store.events(game)
    if kind_of(events) != KIND:
        raise ChampionsRefused(f"{game}: not a Champions of Rokugan scenario (`referee champions` records only)")
    return events, fold_scenario(events)
