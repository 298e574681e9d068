"""The card game's matches in the game log: the same append-only, hash-chained store as Battle for
Rokugan's games, a stream of the kind 'l5r-ccg' (recorded in its MatchCreated event).

    MatchCreated          the two players as entered (the match notation's player lines), who went first, the
                          rules version and options; for a match started mid-game, its state as it stood
    MatchEventsRecorded   one or more lines of the match notation, taken all or none (a line that ends the
                          match ends the entry: the lines after it are not recorded), with the digest of the
                          match after them (``verify`` re-runs the rules and compares)
    MatchEventsCorrected  a recorded event's lines replaced, with the judge's reason; every later event is
                          re-applied on the corrected match (refused if one no longer can be)
    EventRetracted        the last recorded event taken back, with a reason

Nothing recorded is changed or deleted: corrections and retractions are new events. The match is always
recomputed from the events with ``referee.engine.ccg``, by the rules version it was recorded with: a match of rules
version 1 (recorded before the turn's actions had lines) replays by those rules, its digests over the
values they had.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...engine import ccg
from ...engine.ccg.model import CcgError, Match
from ...store import events as ev
from ...store.events import Divergence, Event, LogError, Problem, ReplayError, check_chain
from ...store.storage import Store
from ..kinds import CCG
from .events import EventType

KIND = CCG.name  # the stream kind of a card game match
RULES_VERSION = str(ccg.RULES)  # referee.ccg's rules, as recorded with each match
TYPES = frozenset({EventType.MATCH_CREATED, EventType.MATCH_EVENTS_RECORDED, EventType.MATCH_EVENTS_CORRECTED})


def is_match(events: Sequence[Event]) -> bool:
    """Whether a log is a card game match (its first event creates one)."""
    return bool(events) and events[0].type == EventType.MATCH_CREATED


def _append(store: Store, game: str, items: list[tuple[str, dict[str, Any]]], after: Event | None) -> list[Event]:
    """The one place a match is written to the store: a new stream of the kind 'l5r-ccg' (the store's game
    kind; the MatchCreated payload names it too, so an exported log says what it is)."""
    return store.append(game, items, after, kind=KIND if after is None else None)


# --- the match's state, as a digest ------------------------------------------------------------------
def _first_rules_dict(match: Match) -> dict[str, Any]:
    """The values a match of rules version 1 is digested over (as they were recorded)."""
    result = None
    if match.result:
        r = match.result
        result = {"winner": r.winner, "victory": str(r.victory), "reason": r.reason, "rule": r.rule}
    return {
        "turn": match.turn,
        "active": match.active_player.name,
        "phase": match.phase.label,
        "fought": sorted(match.fought),
        "players": [
            {
                "name": p.name,
                "honor": p.honor,
                "province_strength": p.province_strength,
                "gold": p.gold,
                "stronghold": p.stronghold,
                "clan": p.clan,
                "provinces": list(p.provinces),
                "rings": [{"title": r.title, "elements": list(r.elements), "own_text": r.own_text} for r in p.rings],
            }
            for p in match.players
        ],
        "result": result,
    }


def match_dict(match: Match) -> dict[str, Any]:
    """Everything the match is now: what `score --json` shows and (rules version 2) what its digest covers."""
    out = _first_rules_dict(match)
    out["result"] = match.result.to_dict() if match.result else None
    out.update(
        {
            "rules_version": match.version,
            "first": match.players[match.first].name,
            "favor": match.favor_holder,
            "used": [
                {"ability": a, "player": match.players[int(i)].name}
                for a, i in sorted(u.rsplit(":", 1) for u in match.used)
            ],
            "attack": {
                "declared": match.attack.declared,
                "maneuvers_done": match.attack.segment,
                "attacked": sorted(match.attack.attacked),
                "sent_home": sorted(match.attack.sent_home),
            },
            "revealed": match.revealed,
            "options": dict(match.options),
        }
    )
    for shown, p in zip(out["players"], match.players, strict=True):
        shown["court"] = [who.to_dict() for who in p.court]
        shown["faces"] = {str(n): card or None for n, card in p.faces}
        shown["regions"] = {str(n): title for n, title in p.regions}
    return out


def match_digest(match: Match) -> str:
    values = _first_rules_dict(match) if match.version < 2 else match_dict(match)
    body = json.dumps(values, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return hashlib.sha256(body.encode()).hexdigest()


# --- the fold ------------------------------------------------------------------------------------------
@dataclass
class Entry:
    seq: int  # the MatchEventsRecorded event that recorded it
    lines: list[str]
    corrected_by: int | None = None


@dataclass
class Step:
    """One event of the log as replayed: the event, what each of its lines did, the match after it."""

    event: Event
    outcomes: list[tuple[str, ccg.Outcome]]
    match: Match


@dataclass
class MatchFold:
    header: dict[str, Any] | None = None
    start: Match | None = None
    match: Match | None = None
    entries: list[Entry] = field(default_factory=list)
    seq: int = 0

    @classmethod
    def of(cls, events: Iterable[Event]) -> MatchFold:
        fold = cls()
        for e in events:
            fold.apply(e)
        return fold

    @property
    def players(self) -> list[str]:
        return list(self.header["players"]) if self.header else []

    def apply(self, event: Event, played: Played | None = None) -> list[tuple[str, ccg.Outcome]]:
        """Fold one event in; ``ReplayError`` names the event when the rules refuse it. ``played``: a recorded
        entry's lines already applied to this fold's match (``OpenMatch.record``), not applied again."""
        try:
            data = event.data
            if played is not None and event.type == EventType.MATCH_EVENTS_RECORDED:
                self.match, outcomes = played
                self.entries.append(Entry(event.seq, list(data["lines"])))
                return outcomes
            return self._apply(event, data)
        except ReplayError as exc:
            raise ReplayError(exc.problem, seq=event.seq) from None
        except CcgError as exc:
            raise ReplayError(f"{event.type}: {exc}", seq=event.seq) from None
        finally:
            self.seq = event.seq

    def _apply(self, event: Event, data: dict[str, Any]) -> list[tuple[str, ccg.Outcome]]:
        if event.type == EventType.MATCH_CREATED:
            if self.header is not None:
                raise ReplayError("a second MatchCreated event")
            if data["kind"] != KIND:
                raise ReplayError(f"a match of the kind {data['kind']!r}; this referee plays {KIND!r}")
            self.header = data
            self.start = self.match = create_from(data)
            return []
        if self.header is None or self.match is None:
            raise ReplayError(f"{event.type} before the match was created")
        if event.type == EventType.MATCH_EVENTS_RECORDED:
            self.match, outcomes, _ = play(self.match, data["lines"])
            self.entries.append(Entry(event.seq, list(data["lines"])))
            self._check_digest(data["digest"])
            return outcomes
        if event.type == EventType.MATCH_EVENTS_CORRECTED:
            entry = self.entry(data["seq"])
            outcomes = self.rerun({entry.seq: list(data["lines"])})
            entry.lines, entry.corrected_by = list(data["lines"]), event.seq
            self._check_digest(data["digest"])
            return outcomes
        if event.type == EventType.EVENT_RETRACTED:
            last = self.last()
            if last.seq != data["seq"]:
                raise ReplayError(f"retracts event {data['seq']}, but the last event in effect is event {last.seq}")
            self.entries.pop()
            self.rerun({})
            return []
        raise ReplayError(f"{event.type} is not an event of a card game match")

    def _check_digest(self, digest: str) -> None:
        assert self.match is not None
        if digest and digest != match_digest(self.match):
            raise ReplayError(f"{Problem.ENGINE}: the rules give another match than the one recorded")

    def entry(self, seq: int) -> Entry:
        for entry in self.entries:
            if entry.seq == seq:
                return entry
        raise ReplayError(f"event {seq} is not a recorded event of the match in effect")

    def last(self) -> Entry:
        if not self.entries:
            raise ReplayError("nothing recorded to take back: the match has only its setup")
        return self.entries[-1]

    def rerun_until(self, seq: int) -> Match:
        """The match just before the entry recorded by event ``seq``."""
        assert self.start is not None
        match = self.start
        for entry in self.entries:
            if entry.seq == seq:
                return match
            match, _, _ = play(match, entry.lines)
        raise ReplayError(f"event {seq} is not a recorded event of the match in effect")

    def rerun(self, replaced: dict[int, list[str]]) -> list[tuple[str, ccg.Outcome]]:
        """Every entry again from the setup, with ``replaced`` lines; the outcomes of the replaced entries."""
        assert self.start is not None
        match, said = self.start, []
        for entry in self.entries:
            lines = replaced.get(entry.seq, entry.lines)
            try:
                match, outcomes, _ = play(match, lines)
            except CcgError as exc:
                raise ReplayError(f"event {entry.seq} can no longer be applied: {exc}") from None
            if entry.seq in replaced:
                said.extend(outcomes)
        self.match = match
        return said


def create(
    setup: Sequence[str],
    first: str,
    *,
    version: int = ccg.RULES,
    options: tuple[tuple[str, str], ...] = (),
    midgame: dict[str, Any] | None = None,
) -> tuple[Match, ccg.Outcome]:
    """The match a MatchCreated event starts, and what its start put on the table (said and as data)."""
    players = tuple(ccg.parse_player(line) for line in setup)
    if len(players) != 2:
        raise CcgError(f"a match is between two players, got {len(players)}")
    if midgame is not None:
        return ccg.start_midgame((players[0], players[1]), midgame_of(midgame), options=options)
    if any(p.provinces != (1, 2, 3, 4) for p in players):
        raise CcgError("the provinces as they stand are given for a match started mid-game (--turn N)")
    match = ccg.new_match((players[0], players[1]), first or None, version=version, options=options)
    return match, ccg.describe_setup(match)


def create_from(header: dict[str, Any]) -> Match:
    """The match a MatchCreated event starts (a match recorded by rules version 1 replays by them)."""
    version = int(header.get("rules_version", "1"))
    options = tuple((str(k), str(v)) for k, v in sorted(header.get("options", {}).items()))
    return create(header["setup"], header["first"], version=version, options=options, midgame=header.get("midgame"))[0]


def midgame_of(state: dict[str, Any]) -> ccg.Midgame:
    """A mid-game state as recorded (``midgame_dict``) or entered by the commands."""
    rings = tuple(ccg.parse_event(f"ring {line}") for line in state.get("rings", []))
    court = []
    for line in state.get("personalities", []):
        player, _, who = line.strip().partition(" ")
        if not who:
            raise CcgError(f"personality {line!r}: expected '<player> <Personality> (<marks>)'")
        court.append((player, ccg.parse_personality(who)))
    used = state.get("used")
    phase = next((p for p in ccg.Phase if p.label == state.get("phase", "straighten")), None)
    if phase is None:
        raise CcgError(f"phase {state.get('phase')!r}: one of {', '.join(p.label for p in ccg.Phase)}")
    return ccg.Midgame(
        int(state["turn"]),
        state["active"],
        None if state["favor"] in (None, "none") else state["favor"],
        phase,
        None if used is None else tuple((u["ability"], u["player"]) for u in used),
        tuple(r for r in rings if isinstance(r, ccg.RingEntered)),
        tuple(court),
    )


Played = tuple[Match, list[tuple[str, ccg.Outcome]]]  # the match after an entry, and what each of its lines did


def play(
    match: Match, lines: Sequence[str], *, strict: bool = True
) -> tuple[Match, list[tuple[str, ccg.Outcome]], list[str]]:
    """Apply lines in order as one entry (``ccg.play``): the first refused line refuses them all
    (``CcgError`` naming it); a line that ends the match ends the entry, and the lines after it are returned
    unapplied (``strict``: refused, as a recorded entry never holds them)."""
    events = [ccg.parse_event(line, lineno=n if len(lines) > 1 else None) for n, line in enumerate(lines, 1)]
    return play_events(match, events, lines, strict=strict)


def play_events(
    match: Match, events: Sequence[ccg.Event], lines: Sequence[str], *, strict: bool = True
) -> tuple[Match, list[tuple[str, ccg.Outcome]], list[str]]:
    """``play`` with the entry's lines read already (``events``, one a line of ``lines``)."""
    after, outcomes, n = ccg.play(match, events, lines)
    rest = list(lines[n:])
    if rest and strict:
        assert after.result is not None
        raise CcgError(f"line {n + 1}: the match is over: {after.result.reason}")
    return after, [(ccg.format_event(e), o) for e, o in zip(events, outcomes, strict=False)], rest


def read(lines: Iterable[str]) -> list[ccg.Event]:
    """The events of an entry's lines, each read once (blank lines and '#' comments dropped)."""
    kept = [ln for ln in lines if ln.strip() and not ln.strip().startswith("#")]
    return [ccg.parse_event(line, lineno=n if len(kept) > 1 else None) for n, line in enumerate(kept, 1)]


def canonical(lines: Iterable[str]) -> list[str]:
    """The lines as the notation prints them (blank lines and '#' comments dropped)."""
    return [ccg.format_event(e) for e in read(lines)]


def steps(events: Sequence[Event]) -> list[Step]:
    fold, out = MatchFold(), []
    for e in events:
        outcomes = fold.apply(e)
        assert fold.match is not None
        out.append(Step(e, outcomes, fold.match))
    return out


def verify(events: Sequence[Event]) -> Divergence | None:
    """The hash chain, then every event re-applied with the rules and its digest compared: the first break."""
    broken = check_chain(events)
    if broken is not None:
        return broken
    fold = MatchFold()
    for i, e in enumerate(events):
        try:
            fold.apply(e)
        except ReplayError as exc:
            problem = Problem.ENGINE if str(Problem.ENGINE) in exc.problem else Problem.UNREADABLE
            return Divergence(e.seq, i, problem, exc.problem.replace(f"{Problem.ENGINE}: ", ""))
        except ev.EventFormatError as exc:
            return Divergence(e.seq, i, Problem.UNREADABLE, exc.message)
    if not is_match(events):
        return Divergence(events[0].seq if events else 0, 0, Problem.UNREADABLE, "not a card game match")
    return None


def status(events: Sequence[Event]) -> str:
    """Where a match stands, in a few words (``referee games``)."""
    try:
        match = MatchFold.of(events).match
    except LogError:
        return "damaged: run referee ccg verify"
    if match is None:
        return "damaged: run referee ccg verify"
    if match.result is not None:
        r = match.result
        return f"finished: {r.winner} wins ({r.victory})" if r.winner else "finished: a draw"
    return f"card game, turn {match.turn}: {match.active_player.name}"


# --- the service: a new match, and an open match's commands --------------------------------------------
def new_match_log(
    store: Store,
    game: str,
    setup: Sequence[str],
    *,
    first: str | None = None,
    event: str = "",
    table: str = "",
    date: str = "",
    options: Sequence[str] = (),
    midgame: dict[str, Any] | None = None,
) -> tuple[Event, Match, ccg.Outcome]:
    """A new match, and what its start put on the table; ``midgame``: the state as it stands when the match
    is started mid-game (``turn``, ``active``, ``favor``, ``phase``, ``used``, ``rings``, ``personalities``, as
    the commands enter them)."""
    ev.check_game_id(game)
    try:
        chosen = ccg.parse_options(list(options))
        match, said = create(setup, first or "", options=chosen, midgame=midgame)
        if midgame is not None:
            midgame = _canonical_midgame(midgame)
    except CcgError as exc:
        raise LogError(f"match {game!r}: {exc}", hint=exc.hint) from None
    payload = {
        "game": game,
        "kind": KIND,
        "players": [p.name for p in match.players],
        "setup": [ccg.format_player(p) for p in match.players],
        "first": match.players[match.first].name,
        "event": event,
        "table": str(table),
        "date": date,
        "rules_version": RULES_VERSION,
        "options": dict(chosen),
    }
    if midgame is not None:
        payload["midgame"] = midgame
    (created,) = _append(store, game, [(EventType.MATCH_CREATED, payload)], None)
    return created, match, said


def _canonical_midgame(state: dict[str, Any]) -> dict[str, Any]:
    """The mid-game state as recorded: each part in the notation's canonical form."""
    read = midgame_of(state)
    out: dict[str, Any] = {
        "turn": read.turn,
        "active": read.active,
        "favor": read.favor or "none",
        "phase": read.phase.label,
        "rings": [ccg.format_event(r).removeprefix("ring ") for r in read.rings],
        "personalities": [f"{p} {ccg.format_personality(d)}" for p, d in read.court],
    }
    if read.used is not None:
        out["used"] = [{"ability": a, "player": p} for a, p in read.used]
    return out


class OpenMatch:
    """A stored match, read once: record lines, correct or retract them. Each appends one event."""

    def __init__(self, store: Store, game: str):
        self.store, self.game = store, game
        self.events = store.events(game)
        if store.kind(game) != KIND or not is_match(self.events):  # the store's kind, and the log's own word
            raise LogError(
                f"game {game!r} is a Battle for Rokugan game, not a card game match",
                hint=f"its commands are `referee show {game}`, `referee replay {game}` ...",
            )
        self.fold = MatchFold.of(self.events)

    @property
    def match(self) -> Match:
        assert self.fold.match is not None
        return self.fold.match

    def _write(self, type_: str, payload: dict[str, Any]) -> Event:
        (event,) = _append(self.store, self.game, [(type_, payload)], self.events[-1])
        self.events.append(event)
        return event

    def record(self, lines: Iterable[str]) -> tuple[Event, list[tuple[str, ccg.Outcome]], list[tuple[str, str]]]:
        """Record one entry; returns the event, what each line did, and the lines not recorded because a line
        before them ended the match (each with that reason)."""
        try:
            events = read(lines)  # each line read once: recorded as the notation prints it, and applied
            if not events:
                raise CcgError("no event to record")
            kept = [ccg.format_event(e) for e in events]
            after, outcomes, rest = play_events(self.match, events, kept, strict=False)
        except CcgError as exc:
            raise LogError(f"match {self.game!r}, turn {self.match.turn}: {exc}", hint=exc.hint) from None
        done = kept[: len(kept) - len(rest)]
        payload = {"turn": self.match.turn, "lines": done, "digest": match_digest(after)}
        event = self._write(EventType.MATCH_EVENTS_RECORDED, payload)
        self.fold.apply(event, (after, outcomes))  # the entry as played above, not played again
        assert after.result is not None or not rest
        why = f"the match is over: {after.result.reason} ({ccg.cite(after.result.rule)})" if after.result else ""
        return event, outcomes, [(line, why) for line in rest]

    def correct(self, seq: int, lines: Iterable[str], reason: str) -> tuple[Event, list[str]]:
        """Replace event ``seq``'s lines; returns the correction and the lines it replaced."""
        if not reason.strip():
            raise LogError(f"match {self.game!r}: a correction needs a reason (--reason)")
        try:
            kept = canonical(lines)
            if not kept:
                raise CcgError("a correction needs the lines that replace the event's")
            entry = self.fold.entry(seq)
            trial = MatchFold.of(self.events)
            _, _, rest = play(trial.rerun_until(seq), kept, strict=False)
            kept = kept[: len(kept) - len(rest)]
            trial.rerun({seq: kept})
        except CcgError as exc:
            raise LogError(f"match {self.game!r}: {exc}", hint=exc.hint) from None
        except ReplayError as exc:
            raise LogError(f"match {self.game!r}: {exc.problem}") from None
        assert trial.match is not None
        old = list(entry.lines)
        payload = {"seq": seq, "lines": kept, "reason": reason.strip(), "digest": match_digest(trial.match)}
        event = self._write(EventType.MATCH_EVENTS_CORRECTED, payload)
        self.fold.apply(event)
        return event, old

    def retract(self, reason: str, seq: int | None = None) -> tuple[Event, Entry]:
        """Take back the last recorded entry in effect (``seq``, when given, names it), as a new event; returns (the
        retraction, the entry taken back)."""
        if not reason.strip():
            raise LogError(f"match {self.game!r}: a retraction needs a reason (--reason)")
        try:
            target = self.fold.last()
            if seq is not None and seq != target.seq:
                raise ReplayError(
                    f"event {seq} is not the last event in effect (event {target.seq}): only it is taken back"
                )
        except ReplayError as exc:
            raise LogError(f"match {self.game!r}: {exc.problem}") from None
        payload = ev.event_retracted(target.seq, EventType.MATCH_EVENTS_RECORDED, reason.strip())
        event = self._write(EventType.EVENT_RETRACTED, payload)
        self.fold.apply(event)
        return event, target
