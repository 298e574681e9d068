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
from typing import TYPE_CHECKING

import orjson

from ... import ENGINE_VERSION
from ...core.numerals import whole
from ...engine.battle import Board, Entry, GameState, RoundReport, digest_parts, format_entry, sheet_for, state_digest
from ...store.events import Divergence, Event, EventFormatError, Problem, ReplayError, check_link
from ..kinds import CREATING
from .ending import GameScore
from .events import EventType
from .fold import Fold, game_score
from .lines import BoardAfter, Played, Step, parsed_entries, play_round

if TYPE_CHECKING:
    from ...engine.battle import FinalScore


# --- reading a log ----------------------------------------------------------------------------------
def replay(events: Iterable[Event], board: Board | None = None) -> GameState:
    return Fold.of(events, board).state


def states(events: Iterable[Event], board: Board | None = None) -> Iterator[Step]:
    fold = Fold(board)
    for e in events:
        report = fold.apply(e)
        yield Step(e, fold.state, report)


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
    return round_what_if(Fold.of(events, board), round_no, entries)


def round_what_if(fold: Fold, round_no: int, entries: str | Iterable[str | Entry]) -> WhatIf:
    """Round ``round_no`` re-run with ``entries``: both outcomes, side by side. The fold is unchanged."""
    played = fold.played(round_no)
    if isinstance(entries, str):  # a sheet: read as `referee round` reads it, its header naming this round
        entries = sheet_for(entries, round_no, f"round {round_no}")
    parsed = parsed_entries(entries, fold.board)
    lines = tuple(map(format_entry, parsed))
    after, report = play_round(played.before, parsed)
    final, note = None, ""
    try:
        final = fold.rerun(round_no, lines)[-1].after
    except ReplayError as exc:
        note = exc.message
    original = Outcome(played.lines, played.after, played.report, fold.state, game_score(fold))
    changed = Outcome(lines, after, report, final, game_score(fold, final) if final is not None else None)
    return WhatIf(round_no, original, changed, note)


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
