"""State, reports and scores, always recomputed from a game's log with the engine alone.

    replay(events) -> GameState            the board after the last event
    states(events) -> (event, state, report | None) for every event
    verify(events) -> Divergence | None    re-run everything; the first place the log disagrees

A ``RoundResolved`` resolves the round and fixes the next upkeep's ronin (``begin_round``); an
``EntryCorrected`` replaces a round's entries and re-runs that round and every later one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, NamedTuple

import orjson

from ... import ENGINE_VERSION
from ...core.errors import RefereeError
from ...core.numerals import whole
from ...core.value import value
from ...engine.battle import (
    ROUNDS,
    Board,
    BoardFact,
    Clan,
    Entry,
    GameState,
    RoundReport,
    RulesOptions,
    apply_board_facts,
    begin_round,
    digest_parts,
    every_line,
    format_board_fact,
    format_entry,
    new_state,
    parse_board_line,
    parse_entry,
    parse_lines,
    parse_round,
    resolve,
    sheet_for,
    state_digest,
    strip_comment,
)
from ...store.events import Divergence, Event, EventFormatError, Problem, ReplayError, check_link
from ..kinds import CREATING, not_battle
from . import amend
from .boarddata import load_board
from .commitment import matches as opens_commitment
from .ending import GameScore, game_score
from .events import ENDED, OVER, EventType
from .table_lines import apply_table_lines

if TYPE_CHECKING:
    from ...engine.battle import FinalScore


CORRECTIONS = frozenset(
    {EventType.ENTRY_CORRECTED, EventType.TABLE_EVENTS_CORRECTED, EventType.SETUP_CORRECTED, EventType.GAME_ENDED}
)


@dataclass(frozen=True, slots=True)
class Header:
    """The game's header, from its GameCreated event."""

    game: str
    clans: tuple[Clan, ...]
    players: dict[str, str]
    event: str
    table: str
    date: str
    options: RulesOptions
    engine_version: str
    board_version: str
    partial_setup: bool = False  # taken over mid-way: round 1 is not held to the rulebook's setup (p.4)


@value
class Played:
    """One round as it stands in the log (after any correction)."""

    round: int
    lines: tuple[str, ...]
    before: GameState  # the board the tokens were resolved on (after the round's table events)
    after: GameState
    report: RoundReport
    table: tuple[str, ...] = ()  # the round's table events (setup, initiative, cards), in order
    start: GameState | None = None  # the board before the round's table events


class Step(NamedTuple):
    event: Event
    state: GameState
    report: RoundReport | None


def canonical_table_lines(lines: str | Iterable[str], board: Board) -> tuple[str, ...]:
    from ...engine.battle import format_table_event, parse_table_event

    items = parse_lines(lines) if isinstance(lines, str) else enumerate(lines, 1)
    return tuple(every_line(items, lambda line, n: format_table_event(parse_table_event(line, board, n))))


def play_round(state: GameState, entries: Sequence[Entry], checked: bool = False) -> tuple[GameState, RoundReport]:
    """Resolve one round, then fix the next upkeep's ronin (R-11): the one way a round is played.
    ``checked``: the entries' placements were already checked on this state (R-08), by the game service.

    ``begin_round`` is idempotent within a round: a round whose upkeep began with table events keeps
    the ronin status fixed then; a round entered with tokens alone begins here."""
    after, report = resolve(begin_round(state), entries, checked=checked)
    return begin_round(after), report


def parsed_entries(entries: str | Iterable[str | Entry], board: Board) -> list[Entry]:
    """Round entries read from a round sheet, lines or parsed entries (those are taken as they are)."""
    if isinstance(entries, str):
        return parse_round(entries, board)
    return every_line(  # every unreadable line reported, not only the first
        ((n, e) for n, e in enumerate(entries, 1) if isinstance(e, Entry) or strip_comment(e)),
        lambda e, n: e if isinstance(e, Entry) else parse_entry(strip_comment(e), board, n),
    )


def canonical_lines(entries: str | Iterable[str | Entry], board: Board, *, ordered: bool = True) -> tuple[str, ...]:
    """Round entries as canonical notation lines, from a round sheet, lines or parsed entries: sorted, the
    order every round is recorded in (``events.ORDERED``); ``ordered=False`` keeps the order given (a record
    written before that order, re-run as it was written)."""
    lines = tuple(format_entry(e) for e in parsed_entries(entries, board))
    return tuple(sorted(lines)) if ordered else lines


def canonical_setup(lines: str | Iterable[str], board: Board) -> tuple[str, ...]:
    raw = lines.splitlines() if isinstance(lines, str) else list(lines)
    items = ((n, strip_comment(line)) for n, line in enumerate(raw, 1) if strip_comment(line))
    return tuple(every_line(items, lambda line, n: format_board_fact(parse_board_line(line, board, n))))


_PARSED: dict[str, dict[str, Entry]] = {}  # board data version -> line -> entry: logs repeat lines


def _entries(lines: Sequence[str], board: Board) -> list[Entry]:
    parsed = _PARSED.get(board.version)
    if parsed is None:
        parsed = _PARSED[board.version] = {}
    out = []
    for n, line in enumerate(lines, 1):
        entry = parsed.get(line)
        if entry is None:
            entry = parse_entry(line, board, n)
            if len(parsed) < 100_000:
                parsed[line] = entry
        out.append(entry)
    return out


class Fold:
    """The running fold over a log: header, the board before round 1, and every round played."""

    def __init__(self, board: Board | None = None):
        self._board = board
        self.header: Header | None = None
        self.start: GameState | None = None
        self.rounds: list[Played] = []
        self.seq = 0
        self.seals: dict[Clan, str] = {}  # sealed objectives: clan -> commitment
        self.revealed: dict[Clan, str] = {}  # objectives revealed at the end of the game
        self.pending: list[str] = []  # table events of the round under way (before its tokens)
        self.pending_state: GameState | None = None
        self.notes: list[str] = []  # what the last table events did, in the moderator's words
        self.live: list[Event] = []  # the events in effect: not retracted (a retraction rebuilds from these)
        self.setup_lines: list[str] = []  # every setup fact in effect, in order
        self.ended = False  # a GameEnded closes the log; only a correction may follow (and re-close it)

    @classmethod
    def of(cls, events: Iterable[Event], board: Board | None = None) -> Fold:
        fold = cls(board)
        for e in events:
            fold.apply(e)
        return fold

    @property
    def board(self) -> Board:
        """The game's board data: given to the fold, or loaded when the GameCreated event is folded in."""
        if self._board is None:
            raise ReplayError("the log has no GameCreated event")
        return self._board

    @property
    def _created_game(self) -> tuple[Header, GameState]:
        """The header and the setup board, which every event after GameCreated needs."""
        if self.header is None or self.start is None:
            raise ReplayError("the log has no GameCreated event")
        return self.header, self.start

    @property
    def _resolved(self) -> GameState:
        """The board after the last resolved round (the setup board before round 1)."""
        return self.rounds[-1].after if self.rounds else self._created_game[1]

    @property
    def _current(self) -> GameState:
        """The board now: the resolved board with the table events of the round under way."""
        return self.pending_state or self._resolved

    @property
    def state(self) -> GameState:
        if self.start is None:
            raise ReplayError("the log has no GameCreated event")
        state = self._current
        if not self.revealed:
            return state
        # a sealed objective is the one revealed, or none: "" (declared not met, R-28) scores nothing, finally
        objectives = {c: o for c, o in state.objectives.items() if c not in self.seals}
        objectives |= {c: o for c, o in self.revealed.items() if o}
        return state.with_(objectives=objectives)

    def apply(self, event: Event, outcome: tuple | None = None, data: dict | None = None) -> RoundReport | None:
        """Fold one event in; a refused event raises and leaves the fold as it was. ``outcome``: the
        event's effect, already computed on this fold so that it is not computed twice: ``(state,
        report)`` of a round from ``round_outcome``, ``(state, notes)`` of table events. ``data``: the
        event's ``data``, when the caller has read it already (``verify`` reads it once for two uses)."""
        if event.type in CREATING:  # another kind of record: its own commands read it
            raise ReplayError(not_battle(CREATING[event.type]), seq=event.seq)
        if data is None:
            data = event.data
        try:
            if self.ended and event.type not in CORRECTIONS:
                raise ReplayError(ENDED)
            if event.type == EventType.EVENT_RETRACTED:
                amend.retract(self, data["seq"])
                report = None  # a retraction rebuilds the fold; it resolves no round
            else:
                report = self._apply(event.type, data, outcome)
        except ReplayError as exc:
            raise ReplayError(exc.problem, seq=event.seq) from None
        except (RefereeError, ValueError) as exc:
            raise ReplayError(f"{event.type}: {exc}", seq=event.seq) from None
        if event.type != EventType.EVENT_RETRACTED:
            self.live.append(event)
        self.seq = event.seq
        return report

    @property
    def rounds_over(self) -> bool:
        """The fifth round is resolved: no round or table event may follow (p.10)."""
        return len(self.rounds) >= ROUNDS

    @property
    def sealed_left(self) -> list[Clan]:
        """The clans whose sealed objective is not revealed yet, in seat order."""
        clans = self.header.clans if self.header is not None else list(self.seals)
        return [c for c in clans if c in self.seals and c not in self.revealed]

    @property
    def complete(self) -> bool:
        """The one answer to "is this game finished": five rounds played and no objective still sealed
        (p.10, R-28); the log is then closed with GameEnded."""
        return self.rounds_over and not self.sealed_left

    def closed(self) -> str | None:
        """Why no round or table event may be recorded now (None: one may): the one game-over message."""
        if self.ended:
            return ENDED
        if self.rounds_over:
            return OVER
        return None

    def _apply(self, type_: str, data: dict, outcome: tuple | None) -> RoundReport | None:
        if type_ == EventType.GAME_CREATED:
            self._created(data)
            return None
        if self.header is None:
            raise ReplayError(f"{type_} before the game was created")
        if type_ == EventType.SETUP_RECORDED:
            self._setup(data["lines"])
            return None
        if type_ == EventType.ROUND_RESOLVED:
            return self._round(data["round"], data["entries"], outcome)
        if type_ == EventType.TABLE_EVENTS_RECORDED:
            self._table(data["round"], data["lines"], outcome)
            return None
        if type_ == EventType.OBJECTIVE_SEALED:
            self._sealed(data["clan"], data["commitment"])
            return None
        if type_ == EventType.OBJECTIVE_REVEALED:
            self._revealed(data["clan"], data["objective"], data["code"])
            return None
        if type_ == EventType.GAME_ENDED:
            self._ended(data)
            return None
        if type_ == EventType.SETUP_CORRECTED:
            report = self._setup_corrected(tuple(data["lines"]))
        else:
            table = type_ == EventType.TABLE_EVENTS_CORRECTED
            if table:
                self.unsealed_only(data["lines"])
            rounds = (
                self.rerun(data["round"], table=tuple(data["lines"]))
                if table
                else self.rerun(data["round"], tuple(data["entries"]))
            )
            old = self.rounds[:]
            self.rounds[data["round"] - 1 :] = rounds
            try:
                self._reapply_pending()
            except ReplayError:
                self.rounds[:] = old
                raise
            report = rounds[0].report
        self.ended = False  # a correction re-opens a finished game until it is closed again
        return report

    def _ended(self, data: dict) -> None:
        from .ending import fast_score_digest, game_ended_payload

        if self.ended:
            raise ReplayError("the game is closed already")
        if not self.complete:
            left = (
                f"round {len(self.rounds) + 1} is to play"
                if len(self.rounds) < ROUNDS
                else "objectives are still sealed"
            )
            raise ReplayError(f"the game is closed, but {left}")
        score = game_score(self)
        if data == game_ended_payload(score, fast_score_digest):  # the everyday case, at orjson's speed
            self.ended = True
            return
        computed = game_ended_payload(score)  # the engine's canonical digest decides
        if data != computed:
            raise ReplayError(
                f"the recorded final score {data['scores']} (digest {data['digest'][:12]}...) is not the "
                f"engine's {computed['scores']} (digest {computed['digest'][:12]}...)"
            )
        self.ended = True

    def _setup_corrected(self, lines: tuple[str, ...]) -> RoundReport | None:
        self.unsealed_only(lines, setup=True)
        start = amend.setup_board(self, lines)
        rounds = self.rerun(1, start=start) if self.rounds else []
        if self.pending:  # checked before anything changes: a refused correction leaves the fold as it was
            try:
                apply_table_lines(rounds[-1].after if rounds else start, self.pending, self.board)
            except RefereeError as exc:
                raise ReplayError(
                    f"the table events of round {len(self.rounds) + 1} cannot be re-applied after the change: {exc}"
                ) from None
        self.rounds[:] = rounds
        self.start, self.setup_lines = start, list(lines)
        self._reapply_pending()
        return self.rounds[0].report if self.rounds else None

    def unsealed_only(self, lines: Iterable[str], *, setup: bool = False) -> None:
        """Refuse a table event or setup fact that sets the objective of a clan whose objective is sealed: a
        sealed objective is set only by its reveal, and a declared "not met" is final (R-28)."""
        from ...engine.battle import parse_table_event

        if not self.seals:
            return
        for n, line in enumerate(lines, 1):
            fact: BoardFact | None
            if setup:
                fact = parse_board_line(line, self.board, n)
            else:
                event = parse_table_event(line, self.board, n)
                found = getattr(event, "fact", None)  # a fact entered as a table event
                fact = found if isinstance(found, BoardFact) else None
            if fact is not None and fact.kind == "objective" and fact.clan in self.seals:
                raise ReplayError(
                    f"line {n}: {line!r}: {fact.clan}'s objective is sealed: it is set only by its reveal "
                    f"(`referee reveal`), and a declared not met is final (R-28)"
                )

    def _table(self, round_no: int, lines: list[str], outcome: tuple[GameState, list[str]] | None) -> None:
        """Table events of the round under way (R-22): applied now, re-applied when a round is re-run."""
        self.unsealed_only(lines)
        base = self._current
        track = base.round
        if track > ROUNDS:
            raise ReplayError("table events after the fifth round: the game is over")
        if round_no != track:
            raise ReplayError(f"table events for round {round_no}, but the round track is at {track}")
        state, self.notes = outcome or apply_table_lines(base, lines, self.board)
        self.pending += list(lines)
        self.pending_state = state

    def _sealed(self, clan: str, commitment: str) -> None:
        self.seals[self.sealable(clan)] = commitment

    def sealable(self, clan: str) -> Clan:
        """The clan's seat, if it may still seal a secret objective (ReplayError otherwise)."""
        seat = self._seat(clan)
        if self.rounds:
            raise ReplayError(f"{seat}: objectives are sealed at setup, before round 1")
        if seat in self.seals or seat in self._created_game[1].objectives or seat in self._current.objectives:
            raise ReplayError(f"{seat} already has its objective")
        return seat

    def _revealed(self, clan: str, objective: str, code: str) -> None:
        seat = self._seat(clan)
        if len(self.rounds) < ROUNDS:
            raise ReplayError(f"{seat}: objectives are revealed at the end of the game (p.10), after round 5")
        self.revealed[self.check_reveal(clan, objective, code)] = objective

    def check_reveal(self, clan: str, objective: str, code: str) -> Clan:
        """The one check of a secret objective revealed (``objective`` with its reveal ``code``), or declared not
        met (``objective`` "", R-28): the clan's seat, or ReplayError. ``referee reveal`` (through the log) and a
        called game's reveals (``referee tournament call``) both ask it; when a reveal may happen is the
        caller's (after round 5 in the log; at the call for a called game)."""
        seat = self._seat(clan)
        if not objective:  # the player declares its sealed objective not met, without revealing it
            if seat not in self.seals or seat in self.revealed:
                raise ReplayError(f"{seat}: only an objective still sealed is declared not met (R-28)")
            return seat
        if objective not in self.board.objectives:
            raise ReplayError(f"{seat}: unknown objective {objective!r}")
        if seat in self.revealed or seat in self._created_game[1].objectives:
            raise ReplayError(f"{seat} has already revealed its objective")
        if seat in self.seals:
            if not code:
                raise ReplayError(f"{seat}: its objective is sealed: the reveal code given at sealing is needed")
            if not opens_commitment(self.seals[seat], self._created_game[0].game, str(seat), objective, code):
                raise ReplayError(
                    f"{seat}: {objective} with code {code!r} does not match the objective sealed at setup"
                )
        return seat

    def _seat(self, clan: str) -> Clan:
        seat = Clan(clan)
        if seat not in self._created_game[0].clans:
            raise ReplayError(f"{seat} is not playing in this game")
        return seat

    def _created(self, data: dict) -> None:
        if self.header is not None:
            raise ReplayError("a second GameCreated event")
        self._board = self._board or load_board()
        clans = tuple(Clan(c) for c in data["clans"])
        options = RulesOptions.from_dict(data["options"], recorded=True)
        self.header = Header(
            data["game"],
            clans,
            dict(data["players"]),
            data["event"],
            data["table"],
            data["date"],
            options,
            data["engine_version"],
            data["board_version"],
            data.get("partial_setup") is True,
        )
        self.start = new_state(self.board, clans, options=options)

    def _setup(self, lines: list[str]) -> None:
        if self.rounds:
            raise ReplayError("setup recorded after round 1 was resolved")
        if self.pending:
            raise ReplayError("setup facts recorded after table events: enter them as table events")
        header, state = self._created_game
        facts = amend.check_new_facts(self.setup_lines, lines, self.board)
        bad = amend.first_foreign(facts, header.clans)
        state = apply_board_facts(state, facts[:bad])  # a conflict before the foreign fact is refused first
        if bad is not None:
            raise ReplayError(
                f"line {bad + 1}: {lines[bad]!r}: {facts[bad].clan} is not playing in this game "
                f"({', '.join(map(str, header.clans))})"
            )
        self.start = state  # round 1's upkeep begins with its first table event or its tokens
        self.setup_lines += lines

    def _round(self, round_no: int, lines: list[str], outcome: tuple[GameState, RoundReport] | None) -> RoundReport:
        track = self.state.round
        if track > ROUNDS:
            raise ReplayError(f"round {round_no} recorded after the fifth round: the game is over")
        if round_no != track:
            raise ReplayError(f"records round {round_no}, but the round track is at {track}")
        start = self._resolved
        before = self.pending_state or start
        after, report = outcome or play_round(before, _entries(lines, self.board))
        self.rounds.append(Played(round_no, tuple(lines), before, after, report, tuple(self.pending), start))
        self.pending, self.pending_state = [], None
        return report

    def board_after(self, round_no: int) -> BoardAfter:
        """The board after round ``round_no`` (0: after setup) as this fold has it, with the corrections in
        effect behind it (a correction of that round or an earlier one, or of the setup)."""
        played = self.played(round_no) if round_no else None
        state = played.after if played is not None else self._created_game[1]
        changed = tuple(
            e
            for e in self.live
            if e.type in AMENDING and (e.type == EventType.SETUP_CORRECTED or e.data["round"] <= round_no)
        )
        return BoardAfter(round_no, state, played, changed)

    def played(self, round_no: int) -> Played:
        if not 1 <= round_no <= len(self.rounds):
            raise ReplayError(f"round {round_no} has not been resolved (resolved: {len(self.rounds)})")
        return self.rounds[round_no - 1]

    def rerun(
        self,
        round_no: int,
        lines: tuple[str, ...] | None = None,
        *,
        table: tuple[str, ...] | None = None,
        start: GameState | None = None,
    ) -> list[Played]:
        """Round ``round_no`` with ``lines`` (its tokens), ``table`` (its table events) or ``start`` (the board
        before it) instead, then every later round as recorded."""
        first = self.played(round_no)
        state = start or (first.start if first.start is not None else first.before)
        out: list[Played] = []
        for p in self.rounds[round_no - 1 :]:
            use = lines if p.round == round_no and lines is not None else p.lines
            events = table if p.round == round_no and table is not None else p.table
            try:
                before, _ = apply_table_lines(state, events, self.board)
                after, report = play_round(before, _entries(use, self.board))
            except RefereeError as exc:
                raise ReplayError(f"round {p.round} cannot be re-run after the change: {exc}") from None
            out.append(Played(p.round, use, before, after, report, events, state))
            state = after
        return out

    def _reapply_pending(self) -> None:
        """After a correction: the table events of the round under way, on the corrected board."""
        if self.pending:
            try:
                self.pending_state, self.notes = apply_table_lines(self._resolved, self.pending, self.board)
            except RefereeError as exc:
                raise ReplayError(
                    f"the table events of round {len(self.rounds) + 1} cannot be re-applied after the change: {exc}"
                ) from None

    def what_if(self, round_no: int, entries: str | Iterable[str | Entry]) -> WhatIf:
        """Round ``round_no`` re-run with ``entries``: both outcomes, side by side. The fold is unchanged."""
        played = self.played(round_no)
        if isinstance(entries, str):  # a sheet: read as `referee round` reads it, its header naming this round
            entries = sheet_for(entries, round_no, f"round {round_no}")
        parsed = parsed_entries(entries, self.board)
        lines = tuple(map(format_entry, parsed))
        after, report = play_round(played.before, parsed)
        final, note = None, ""
        try:
            final = self.rerun(round_no, lines)[-1].after
        except ReplayError as exc:
            note = exc.message
        original = Outcome(played.lines, played.after, played.report, self.state, game_score(self))
        changed = Outcome(lines, after, report, final, game_score(self, final) if final is not None else None)
        return WhatIf(round_no, original, changed, note)


# --- reading a log ----------------------------------------------------------------------------------
def replay(events: Iterable[Event], board: Board | None = None) -> GameState:
    return Fold.of(events, board).state


def states(events: Iterable[Event], board: Board | None = None) -> Iterator[Step]:
    fold = Fold(board)
    for e in events:
        report = fold.apply(e)
        yield Step(e, fold.state, report)


AMENDING = frozenset({EventType.ENTRY_CORRECTED, EventType.TABLE_EVENTS_CORRECTED, EventType.SETUP_CORRECTED})


@dataclass(frozen=True, slots=True)
class BoardAfter:
    """The board after round ``round`` (0: after setup): as the whole log has it (every correction in
    effect), or ``as_recorded``: as it stood when the round was first recorded."""

    round: int
    state: GameState
    played: Played | None  # the round as played then (its tokens, its report); None for round 0
    corrections: tuple[Event, ...] = ()  # the corrections in effect that changed this round or an earlier one
    as_recorded: bool = False

    def note(self) -> str:
        """What the moderator is told: the corrections behind this board, or that it is the original."""
        said = "; ".join(f"corrected in event {e.seq}, reason: {e.data.get('reason', '')}" for e in self.corrections)
        if self.as_recorded:
            return f"as first recorded; later {said}" if said else "as first recorded"
        return said


def board_after(
    events: Sequence[Event], round_no: int, *, as_recorded: bool = False, board: Board | None = None
) -> BoardAfter:
    """The one answer to "the board after round N" (0: after setup), for every command, page and export:
    the corrected board, naming the corrections behind it; ``as_recorded``: the board when round N was
    first recorded (the log read up to that event)."""
    if not as_recorded:
        return Fold.of(events, board).board_after(round_no)
    fold = Fold(board)
    read = 0  # the events folded
    for e in events:
        if round_no == 0 and e.type in (EventType.ROUND_RESOLVED, EventType.SETUP_CORRECTED):
            break
        fold.apply(e)
        read += 1
        if e.type == EventType.ROUND_RESOLVED and len(fold.rounds) >= round_no:
            break
    later = {e.seq for e in events[read:]}
    whole = Fold.of(events, board).board_after(round_no).corrections
    return replace(fold.board_after(round_no), corrections=tuple(e for e in whole if e.seq in later), as_recorded=True)


_REPLACED_BY: dict[str, str] = {  # what a later event of the same round (or the setup) replaces
    EventType.ROUND_RESOLVED: EventType.ENTRY_CORRECTED,
    EventType.ENTRY_CORRECTED: EventType.ENTRY_CORRECTED,
    EventType.TABLE_EVENTS_RECORDED: EventType.TABLE_EVENTS_CORRECTED,
    EventType.TABLE_EVENTS_CORRECTED: EventType.TABLE_EVENTS_CORRECTED,
    EventType.SETUP_RECORDED: EventType.SETUP_CORRECTED,
    EventType.SETUP_CORRECTED: EventType.SETUP_CORRECTED,
}


def superseded_by(events: Sequence[Event], sealed: Event) -> Event | None:
    """The later event that took ``sealed`` out of effect: a correction of the same round (or of the setup),
    or a retraction of it; None while it is in effect."""
    replacing = _REPLACED_BY.get(sealed.type)
    for e in events:
        if e.seq <= sealed.seq:
            continue
        if e.type == EventType.EVENT_RETRACTED and e.data.get("seq") == sealed.seq:
            return e
        if (
            replacing is not None
            and e.type == replacing
            and (replacing == EventType.SETUP_CORRECTED or e.data.get("round") == sealed.data.get("round"))
        ):
            return e
    return None


def state_after_round(events: Iterable[Event], round_no: int, board: Board | None = None) -> GameState:
    """The board after round ``round_no`` (0: after setup), as corrected by the whole log (``board_after``)."""
    return board_after(list(events), round_no, board=board).state


def score(events: Iterable[Event], board: Board | None = None) -> FinalScore:
    return game_score(Fold.of(events, board)).final


# --- verification -------------------------------------------------------------------------------------
def verify(events: Sequence[Event], board: Board | None = None) -> Divergence | None:
    """Check the chain and re-run the whole log; the first divergence, or None when all agrees."""
    fold = Fold(board)
    prev: Event | None = None
    game = events[0].game if events else ""
    for i, e in enumerate(events):
        found = check_link(events, i, e, prev, game) or _replay_one(fold, i, e)
        if found:
            return found
        prev = e
    return None


def _replay_one(fold: Fold, i: int, e: Event) -> Divergence | None:
    try:
        data = None if e.type in CREATING else e.data  # read once: folded, then its digests compared
        fold.apply(e, data=data)
    except EventFormatError as exc:
        return Divergence(e.seq, i, Problem.UNREADABLE, exc.message)
    except ReplayError as exc:
        return Divergence(e.seq, i, Problem.ENGINE, f"the engine cannot replay it: {exc.problem}{_versions(fold)}")
    mismatch = _digest_mismatch(fold, e, data)
    return Divergence(e.seq, i, Problem.ENGINE, mismatch + _versions(fold)) if mismatch else None


def _digest_mismatch(fold: Fold, e: Event, data: dict | None = None) -> str | None:
    if e.type == EventType.ROUND_RESOLVED:
        data = data if data is not None else e.data
        recorded = {data["round"]: data["digest"]}
    elif e.type in (EventType.ENTRY_CORRECTED, EventType.TABLE_EVENTS_CORRECTED, EventType.SETUP_CORRECTED):
        data = data if data is not None else e.data
        recorded = {r: d for r, d in ((whole(k), d) for k, d in data["digests"].items()) if r is not None}
        if len(recorded) != len(data["digests"]):
            return "its digests name something other than rounds"
    else:
        return None
    boards = {p.round: p.after for p in fold.rounds[data.get("round", 1) - 1 :]}  # the rounds re-run
    for r in sorted(set(recorded) | set(boards)):
        board, want = boards.get(r), recorded.get(r)
        if board is not None and want is not None and _digest_is(board, want):
            continue
        got = state_digest(board) if board is not None else None
        if got != want:
            return (
                f"round {r}: recorded digest {str(want)[:12]}..., the engine's re-run gives {str(got)[:12]}..."
                if got and want
                else f"round {r}: digest {'missing' if want is None else 'for a round not re-run'}"
            )
    return None


_ORJSON = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS  # keys sorted; a clan key written as its name


def _digest_is(state: GameState, recorded: str) -> bool:
    """Whether ``recorded`` is ``state_digest(state)``: first on orjson's encoding of the digest's parts, the
    same JSON value as the engine's canonical JSON (the same bytes for every board the engine makes) several
    times faster; a match is the engine's digest, since the recorded digest is of a canonical text. Anything
    else is decided by the engine's own digest."""
    try:
        fast = hashlib.sha256(orjson.dumps(digest_parts(state), option=_ORJSON)).hexdigest()
    except TypeError:  # what orjson does not write (an integer beyond 64 bits): the engine's digest decides
        fast = None
    return fast == recorded or state_digest(state) == recorded


def _versions(fold: Fold) -> str:
    h = fold.header
    if h is None:  # the board is known once the header is
        return ""
    if (h.engine_version, h.board_version) == (ENGINE_VERSION, fold.board.version):
        return ""
    return (
        f" (recorded with engine {h.engine_version}, board data {h.board_version}; "
        f"this is engine {ENGINE_VERSION}, board data {fold.board.version})"
    )


# --- disputes -----------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Outcome:
    """One side of a what-if: the entries, the board after the round, the report, the final board."""

    lines: tuple[str, ...]
    state: GameState  # after the round
    report: RoundReport
    final: GameState | None  # after the last resolved round, later rounds re-run as recorded
    score: GameScore | None = None  # honor on ``final`` (the objectives revealed at the end included)


@dataclass(frozen=True, slots=True)
class WhatIf:
    """A round as recorded and as it would have gone with changed entries."""

    round: int
    original: Outcome
    changed: Outcome
    note: str = ""  # why ``changed.final`` is missing, if it is


def what_if(
    events: Iterable[Event], round_no: int, entries: str | Iterable[str | Entry], board: Board | None = None
) -> WhatIf:
    """Round ``round_no`` re-run with ``entries``: both outcomes, side by side. Nothing is recorded."""
    return Fold.of(events, board).what_if(round_no, entries)


@dataclass(frozen=True, slots=True)
class Correction:
    """A recorded correction: the round as it was and as it now stands."""

    seq: int
    round: int
    reason: str
    original: Played
    corrected: Played


def corrections(events: Iterable[Event], board: Board | None = None) -> list[Correction]:
    """Every correction in the log, with the round as it stood before and after it."""
    fold = Fold(board)
    out: list[Correction] = []
    for e in events:
        before = fold.played(e.data["round"]) if e.type == EventType.ENTRY_CORRECTED else None
        fold.apply(e)
        if before is not None:
            out.append(Correction(e.seq, before.round, e.data["reason"], before, fold.played(before.round)))
    return out


# --- what commands record (the store appends these payloads) ------------------------------------------
def round_outcome(
    fold: Fold, entries: str | Iterable[str | Entry], *, ordered: bool = True
) -> tuple[tuple[str, ...], GameState, RoundReport]:
    """The next round played on the fold's board: canonical lines, new state, report (raises if refused)."""
    closed = fold.closed()
    if closed is not None:
        raise ReplayError(closed)
    parsed = parsed_entries(entries, fold.board)  # read once
    if ordered:  # the canonical order (``events.ORDERED``): recorded, reported and replayed alike
        parsed = sorted(parsed, key=format_entry)
    after, report = play_round(fold.state, parsed)
    return tuple(map(format_entry, parsed)), after, report
