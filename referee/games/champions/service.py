"""Champions of Rokugan's records in the event store: each scenario and each campaign an append-only,
hash-chained log of its own kind, folded with the rules package (``referee.engine.champions``).

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

from collections.abc import Sequence
from typing import Any

from ... import __version__
from ...engine.champions import (
    ChampionsError,
    Note,
    apply,
    check_after_end,
    check_can_end,
    check_form,
    check_new_setup,
    check_reported,
    end,
    end_of_report,
    format_event,
    format_setup,
    parse_line,
    parse_setup,
    set_up,
)
from ...records.jsonl import RecordError, parse_jsonl
from ...store.events import Event, ReplayError, chain, check_chain
from ...store.storage import Store
from .campaign import fold_campaign, verify_campaign
from .events import (
    CAMPAIGN_KIND,
    CORRECTED,
    CREATED,
    ENDED,
    KIND,
    REPORTED,
    RETRACTED,
    ChampionsRefused,
    kind_of,
    refused,
    store_append,
)
from .scenario import ScenarioFold, ending_digest, fold_scenario, load_scenario


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
            return verify_campaign(fold_campaign(events), store)
    except ReplayError as exc:
        return [str(exc)]
    return [f"{events[0].game if events else '?'}: not a Champions of Rokugan record"]


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


# --- the service's one shape: a record opened, folded, recorded to, taken back from, verified ------------------
class OpenScenario:
    """A Champions scenario's record, read and folded once (``fold``): ``record`` a report, ``retract`` an event, as
    the other games' services do (``OpenGame``, ``OpenMatch``); what it verifies and where it stands are the
    registry's to ask (``games.registry``)."""

    def __init__(self, store: Store, game: str):
        self.store, self.game = store, game
        self.events, self.fold = load_scenario(store, game)

    def _reload(self, fold: ScenarioFold) -> ScenarioFold:
        self.events, self.fold = self.store.events(self.game), fold
        return fold

    def record(self, lines: Sequence[str]) -> list[Note]:
        """A report of the table (lines of the notation), checked and recorded; what it did."""
        fold, notes = report(self.store, self.game, lines)
        self._reload(fold)
        return notes

    def retract(self, reason: str, seq: int | None = None) -> ScenarioFold:
        """Take back event ``seq`` (a report or the end; None: the last in effect), as a new event."""
        if seq is None:
            live = [s.seq for s in self.fold.steps if s.type in (REPORTED, ENDED) and not s.taken_back]
            if not live:
                raise ChampionsRefused(f"{self.game}: no report or end in effect to take back")
            seq = live[-1]
        return self._reload(retract(self.store, self.game, seq, reason))
