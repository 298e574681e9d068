"""Champions of Rokugan's records in the event store: each scenario and each campaign an append-only,
hash-chained log of its own kind, folded with the rules package (``referee.champions``).

A scenario's log: ``ChampionsScenarioCreated`` (the setup sheet), ``ChampionsReported`` (the table's
reports, canonical lines; each report ends the action under way), ``ChampionsEnded`` (objectives met or
missed, and the digest of the end-of-game report; a report after it holds End Objectives fulfilled, CH-08,
and the digest of the settlement made again with them), corrections as new events (``ChampionsCorrected``:
another event's lines replaced; ``EventRetracted``: an event taken back). A campaign's:
``ChampionsCampaignCreated`` (the players), ``ChampionsCampaignLogged`` (a scenario's Campaign Log line, with
the head of the scenario's log it was read from), ``ChampionsCampaignEnded``. Nothing recorded is changed:
every append is checked by folding the whole log with the new event first.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from .. import __version__
from ..champions import (
    Campaign,
    CampaignResult,
    ChampionsError,
    Ending,
    Note,
    Play,
    Scenario,
    add_play,
    apply,
    check_after_end,
    check_can_end,
    check_form,
    check_new_setup,
    check_reported,
    end,
    end_campaign,
    end_of_report,
    format_event,
    format_setup,
    log_line,
    new_campaign,
    parse_line,
    parse_setup,
    set_up,
)
from ..engine import RefereeError
from . import kinds
from .events import Event, EventType, ReplayError, canonical_json, chain, check_chain
from .records import RecordError, parse_jsonl
from .storage import Store

KIND = kinds.CHAMPIONS
CAMPAIGN_KIND = kinds.CHAMPIONS_CAMPAIGN
CREATED = "ChampionsScenarioCreated"
REPORTED = "ChampionsReported"
CORRECTED = "ChampionsCorrected"
ENDED = "ChampionsEnded"
C_CREATED = "ChampionsCampaignCreated"
C_LOGGED = "ChampionsCampaignLogged"
C_ENDED = "ChampionsCampaignEnded"
RETRACTED = EventType.EVENT_RETRACTED.value
# The fields of each payload (version 1): the store never reads a payload, so this record checks its own.
SCHEMA: dict[str, dict[str, type]] = {
    CREATED: {"game": str, "kind": str, "setup": list, "referee_version": str},
    REPORTED: {"turn": int, "lines": list},
    CORRECTED: {"seq": int, "lines": list, "reason": str},
    ENDED: {"objectives": str, "result": str, "digest": str},
    C_CREATED: {"game": str, "kind": str, "players": list, "referee_version": str},
    C_LOGGED: {"scenario_game": str, "scenario_head": str, "play": dict},
    C_ENDED: {"choosers": list, "totals": dict},
    RETRACTED: {"seq": int, "type": str, "reason": str},
}
PLAY = {
    "game": str,
    "scenario": str,
    "victory": bool,
    "difference": int,
    "glory": list,
    "glorified": list,
    "intermission": list,
}


class ChampionsRefused(RefereeError):
    """A report, correction or record the rules refuse: exit 1, one line (or one a bad line)."""


def refused(exc: ChampionsError, where: str = "") -> ChampionsRefused:
    return ChampionsRefused(f"{where}{exc.message}")


def data(e: Event) -> dict[str, Any]:
    """An event's payload, its fields checked (ReplayError naming the event otherwise)."""
    fields = SCHEMA.get(e.type)
    if fields is None:
        raise ReplayError(f"{e.type} has no place in a Champions of Rokugan record", seq=e.seq)
    if e.payload_version != 1:
        raise ReplayError(
            f"{e.type} payload version {e.payload_version} is newer than this referee knows (1)", seq=e.seq
        )
    p = e.payload
    wanted = {**fields, **(PLAY if e.type == C_LOGGED and isinstance(p.get("play"), dict) else {})}
    for name, kind in wanted.items():
        value = p["play"].get(name) if name in PLAY and e.type == C_LOGGED else p.get(name)
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise ReplayError(f"{e.type} payload field {name!r} must be {kind.__name__}, got {value!r}", seq=e.seq)
    lists = [p.get("lines"), p.get("setup"), p.get("players"), p.get("choosers")]
    if any(isinstance(x, list) and not all(isinstance(v, str) for v in x) for x in lists):
        raise ReplayError(f"{e.type} payload: its lines must be text", seq=e.seq)
    return p


def kind_of(events: Sequence[Event]) -> str | None:
    """The record's kind, from its creating event: 'champions', 'champions-campaign', None for another game's."""
    kind = kinds.kind_of(events)
    return None if kind == kinds.BATTLE else kind


# --- the store: the one place Champions records are written --------------------------------------------
def store_append(store: Store, game: str, items: list[tuple[str, dict[str, Any]]], after: Event | None, kind: str):
    """Append to a Champions record: the one place they are written. A new record is created with its kind
    (the store's ``game.kind``); the creating event's payload names it too, so that an exported record
    carries its kind into another database."""
    return store.append(game, items, after, kind=kind if after is None else None)


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


def create_scenario(store: Store, game: str, sheet: str) -> ScenarioFold:
    try:
        setup = parse_setup(sheet)
        check_new_setup(set_up(setup))
    except ChampionsError as exc:
        raise refused(exc, "setup: ") from None
    payload = {
        "game": game,
        "kind": KIND,
        "setup": format_setup(setup).splitlines(),
        "referee_version": __version__,
    }
    events = store_append(store, game, [(CREATED, payload)], None, KIND)
    return fold_scenario(events)


def load_scenario(store: Store, game: str) -> tuple[list[Event], ScenarioFold]:
    events = store.events(game)
    if kind_of(events) != KIND:
        raise ChampionsRefused(f"{game}: not a Champions of Rokugan scenario (`referee champions` records only)")
    return events, fold_scenario(events)


def canonical_reports(fold: ScenarioFold, text_lines: Sequence[str]) -> tuple[list[str], list[Note]]:
    """The reports as canonical lines, checked as the table enters them against the scenario as it stands (as it
    ended, for End Objectives reported after the end); every bad line named."""
    names = tuple(c.name for c in fold.scenario.champions)
    after_end = fold.before_end is not None
    scenario = fold.before_end if fold.before_end is not None else fold.scenario
    out: list[str] = []
    notes: list[Note] = []
    problems: list[str] = []
    for n, line in enumerate(text_lines, 1):
        try:
            event = parse_line(line, names)
            if after_end:
                check_after_end(scenario, event)
            check_reported(scenario, event)  # entered now: what an older record may hold is refused (entry.py)
            result = apply(scenario, event)
        except ChampionsError as exc:
            where = "after the end" if after_end else f"turn {scenario.turn}"
            said = " ".join(line.split())
            quoted = exc.message if exc.message.startswith(repr(said)) else f"{said!r}: {exc.message}"
            problems.append(f"{fold.game}, {where}, line {n}: {quoted}")
            continue
        scenario = result.scenario
        out.append(format_event(event))
        notes.extend(result.notes)
    if problems:
        raise ChampionsRefused("\n".join(problems), hint="nothing was recorded")
    if not out:
        raise ChampionsRefused(
            f"{fold.game}: no report given", hint="a report reads 'Matsu Tsuko: melee Goblin, wound'"
        )
    notes.extend(end_of_report(scenario).notes)
    return out, notes


def report(store: Store, game: str, text_lines: Sequence[str]) -> tuple[ScenarioFold, list[Note]]:
    events, fold = load_scenario(store, game)
    lines, notes = canonical_reports(fold, text_lines)
    payload: dict[str, Any] = {"turn": fold.scenario.turn, "lines": lines}
    if fold.before_end is not None:  # CH-08: the settlement made again, its digest recorded with the report
        candidate = chain(game, events[-1], REPORTED, payload, version=1)
        again = fold_scenario([*events, candidate])
        assert again.ending is not None
        payload |= {"result": "victory" if again.ending.victory else "defeat", "digest": ending_digest(again.ending)}
        notes.append(Note("the end of the game made again with it", "p.32, CH-08"))
    new = store_append(store, game, [(REPORTED, payload)], events[-1], KIND)
    return fold_scenario([*events, *new]), notes


def open_end_objectives(fold: ScenarioFold) -> list[tuple[str, Any]]:
    """The End Objectives not reported fulfilled: what `end` asks about (CH-08), (Champion, card)."""
    return [
        (c.name, o)
        for c in fold.scenario.champions
        for o in c.objectives
        if o.timing.value == "end" and not o.completed
    ]


def end_scenario(store: Store, game: str, objectives: str, fulfilled: Sequence[str] = ()) -> ScenarioFold:
    """The end of the game: the End Objectives fulfilled (``"NAME: OBJECTIVE[ for N]"``) recorded as a report
    first, then the end, both at once (CH-08)."""
    events, fold = load_scenario(store, game)
    if fold.ended:
        raise ChampionsRefused(
            f"{game}: the scenario has already ended (p.31)",
            hint=f'an End Objective fulfilled: `referee champions event {game} "NAME: completes OBJECTIVE"`',
        )
    items: list[tuple[str, dict[str, Any]]] = []
    scenario = fold.scenario
    if fulfilled:
        said = [f"{who.strip()}: completes {what.strip()}" for who, _, what in (f.partition(":") for f in fulfilled)]
        lines, _ = canonical_reports(fold, said)
        items.append((REPORTED, {"turn": scenario.turn, "lines": lines}))
        for line in lines:
            scenario = apply(scenario, parse_line(line, tuple(c.name for c in scenario.champions))).scenario
        scenario = end_of_report(scenario).scenario
    try:
        check_can_end(scenario)
        ending = end(scenario, objectives == "met")
    except ChampionsError as exc:
        raise refused(exc, f"{game}: ") from None
    result = "victory" if ending.victory else "defeat"
    items.append((ENDED, {"objectives": objectives, "result": result, "digest": ending_digest(ending)}))
    new = store_append(store, game, items, events[-1], KIND)
    return fold_scenario([*events, *new])


def correct(store: Store, game: str, seq: int, text_lines: Sequence[str], reason: str) -> ScenarioFold:
    """Replace the lines of report ``seq`` (a new event; the report stays in the log); each line in a form the
    table may enter now (``check_form``)."""
    events, fold = load_scenario(store, game)
    names = tuple(c.name for c in fold.scenario.champions)
    problems = []
    for n, line in enumerate(text_lines, 1):
        try:
            check_form(parse_line(line, names))
        except ChampionsError as exc:
            problems.append(f"{game}, correction of event {seq}, line {n}: {exc.message}")
    if problems:
        raise ChampionsRefused("\n".join(problems), hint="nothing was recorded")
    payload = {"seq": seq, "lines": [" ".join(x.split()) for x in text_lines], "reason": reason}
    return _append_checked(store, events, CORRECTED, payload)


def retract(store: Store, game: str, seq: int, reason: str) -> ScenarioFold:
    events, _ = load_scenario(store, game)
    target = next((e for e in events if e.seq == seq), None)
    if target is None:
        raise ChampionsRefused(f"{game}: no event {seq}")
    return _append_checked(store, events, RETRACTED, {"seq": seq, "type": target.type, "reason": reason})


def _append_checked(store: Store, events: list[Event], type_: str, payload: dict[str, Any]) -> ScenarioFold:
    """A correction or retraction: the whole log folded with it before anything is written."""
    candidate = chain(events[0].game, events[-1], type_, payload, version=1)
    try:
        fold = fold_scenario([*events, candidate])
    except ReplayError as exc:
        raise ChampionsRefused(f"{events[0].game}: refused, the log would not replay: {exc}") from None
    if type_ == CORRECTED:  # the corrected lines, canonical: folded once more from what is stored
        names = tuple(c.name for c in fold.scenario.champions)
        payload = {**payload, "lines": [format_event(parse_line(x, names)) for x in payload["lines"]]}
    new = store_append(store, events[0].game, [(type_, payload)], events[-1], KIND)
    return fold_scenario([*events, *new])


# --- a campaign ------------------------------------------------------------------------------------------
@dataclass
class CampaignFold:
    campaign: Campaign
    result: CampaignResult | None
    logged: list[tuple[int, Play, str, str]]  # seq, play, scenario game, its head when logged


def play_from(data: dict[str, Any]) -> Play:
    return Play(
        game=data["game"],
        scenario=data["scenario"],
        victory=data["victory"],
        difference=data["difference"],
        glory=tuple((p, g) for p, g in data["glory"]),
        glorified=tuple(data["glorified"]),
        intermission=tuple(data["intermission"]),
    )


def play_to(play: Play) -> dict[str, Any]:
    data = asdict(play)
    data["glory"] = [list(x) for x in play.glory]
    data["glorified"], data["intermission"] = list(play.glorified), list(play.intermission)
    return data


def fold_campaign(events: Sequence[Event]) -> CampaignFold:
    if kind_of(events) != CAMPAIGN_KIND:
        raise ReplayError(f"{events[0].game if events else '?'} is not a Champions of Rokugan campaign record")
    try:
        campaign = new_campaign(events[0].game, tuple(data(events[0])["players"]))
    except ChampionsError as exc:
        raise ReplayError(exc.message, seq=1) from None
    live: dict[int, Event] = {}
    ended: Event | None = None
    for e in events[1:]:
        if e.type == C_LOGGED:
            live[e.seq] = e
        elif e.type == RETRACTED:
            if data(e)["seq"] not in live:
                raise ReplayError(f"event {data(e)['seq']} is no logged scenario in effect", seq=e.seq)
            del live[data(e)["seq"]]
        elif e.type == C_ENDED:
            ended = e
        else:
            raise ReplayError(f"{e.type} has no place in a Champions campaign record", seq=e.seq)
    logged = []
    for seq, e in sorted(live.items()):
        try:
            play = play_from(data(e)["play"])
        except (TypeError, ValueError):
            raise ReplayError(
                "ChampionsCampaignLogged: its glory is not a list of [player, glory] pairs", seq=seq
            ) from None
        try:
            campaign = add_play(campaign, play)
        except ChampionsError as exc:
            raise ReplayError(exc.message, seq=seq) from None
        logged.append((seq, play, data(e)["scenario_game"], data(e)["scenario_head"]))
    result = None
    if ended is not None:
        try:
            campaign, result = end_campaign(campaign)
        except ChampionsError as exc:
            raise ReplayError(exc.message, seq=ended.seq) from None
    return CampaignFold(campaign, result, logged)


def load_campaign(store: Store, name: str) -> tuple[list[Event], CampaignFold]:
    events = store.events(name)
    if kind_of(events) != CAMPAIGN_KIND:
        raise ChampionsRefused(f"{name}: not a Champions of Rokugan campaign (`referee champions campaign new`)")
    return events, fold_campaign(events)


def create_campaign(store: Store, name: str, players: Sequence[str]) -> CampaignFold:
    try:
        new_campaign(name, tuple(players))
    except ChampionsError as exc:
        raise refused(exc, f"{name}: ") from None
    payload = {"game": name, "kind": CAMPAIGN_KIND, "players": list(players), "referee_version": __version__}
    return fold_campaign(store_append(store, name, [(C_CREATED, payload)], None, CAMPAIGN_KIND))


def log_scenario(store: Store, name: str, game: str) -> tuple[CampaignFold, Play]:
    """The Campaign Log's line for an ended scenario (p.32), read from its record."""
    events, fold = load_campaign(store, name)
    s_events, s_fold = load_scenario(store, game)
    if s_fold.ending is None:
        raise ChampionsRefused(f"{game}: the scenario has not ended: `referee champions end {game}` first (p.32)")
    play = log_line(game, s_fold.ending)
    try:
        add_play(fold.campaign, play)
    except ChampionsError as exc:
        raise refused(exc, f"{name}: ") from None
    payload = {"scenario_game": game, "scenario_head": s_events[-1].hash, "play": play_to(play)}
    new = store_append(store, name, [(C_LOGGED, payload)], events[-1], CAMPAIGN_KIND)
    return fold_campaign([*events, *new]), play


def finish_campaign(store: Store, name: str) -> CampaignFold:
    events, fold = load_campaign(store, name)
    try:
        _, result = end_campaign(fold.campaign)
    except ChampionsError as exc:
        raise refused(exc, f"{name}: ") from None
    payload = {"choosers": list(result.choosers), "totals": dict(result.totals)}
    return fold_campaign([*events, *store_append(store, name, [(C_ENDED, payload)], events[-1], CAMPAIGN_KIND)])


def retract_logged(store: Store, name: str, seq: int, reason: str) -> CampaignFold:
    events, _ = load_campaign(store, name)
    target = next((e for e in events if e.seq == seq), None)
    if target is None or target.type != C_LOGGED:
        raise ChampionsRefused(f"{name}: event {seq} is no logged scenario")
    payload = {"seq": seq, "type": target.type, "reason": reason}
    try:
        fold_campaign([*events, chain(name, events[-1], RETRACTED, payload, version=1)])
    except ReplayError as exc:
        raise ChampionsRefused(f"{name}: refused, the log would not replay: {exc}") from None
    return fold_campaign([*events, *store_append(store, name, [(RETRACTED, payload)], events[-1], CAMPAIGN_KIND)])


# --- verify, export, import: either kind -------------------------------------------------------------------
def verify(events: Sequence[Event], store: Store | None = None) -> list[str]:
    """Every problem of a record: its chain, its replay, its end-of-game digest; for a campaign, each
    logged scenario read again from its own record when the store holds it."""
    found = check_chain(events)
    if found:
        return [str(found)]
    try:
        if kind_of(events) == KIND:
            fold = fold_scenario(events)
            return [] if fold.digest_ok else ["the end-of-game report no longer matches its recorded digest"]
        if kind_of(events) == CAMPAIGN_KIND:
            return _verify_campaign(fold_campaign(events), store)
    except ReplayError as exc:
        return [str(exc)]
    return [f"{events[0].game if events else '?'}: not a Champions of Rokugan record"]


def _verify_campaign(fold: CampaignFold, store: Store | None) -> list[str]:
    problems = []
    for seq, play, game, head in fold.logged:
        if store is None or not store.exists(game):
            continue
        s_events = store.events(game)
        if s_events[-1].hash == head:
            continue
        s_fold = fold_scenario(s_events)
        if s_fold.ending is None or log_line(game, s_fold.ending) != play:
            problems.append(f"event {seq}: scenario {game} changed since it was logged: retract the line, log it again")
    return problems


def import_record(store: Store, text: str) -> list[Event]:
    try:
        events, lines = parse_jsonl(text)
    except RecordError as exc:
        raise ChampionsRefused(str(exc), hint="the file was refused whole; nothing was stored") from None
    if not events:
        raise ChampionsRefused("the file holds no events")
    problems = verify(events)
    if problems:
        raise ChampionsRefused(problems[0], hint="the file was refused whole; nothing was stored")
    store.import_logs([events], kind=str(kind_of(events)))
    return events
