"""The JSON shapes of the CLI's ``--json`` outputs, each built by one function, used by the commands
(``referee/cli``) and by the web app's endpoints and pages (``referee/web``) alike.

The builders print nothing and hide nothing: the web hands them the public board (``views.game``
takes out the objectives not yet revealed) and adds its own keys on top.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import is_dataclass
from enum import Enum
from typing import TYPE_CHECKING, Any

from ..engine.battle import Entry, GameState, RoundReport, board_changes as changes_between, format_entry, state_to_dict

if TYPE_CHECKING:  # the game log (and its database driver) loads only where a function reads a log
    from ..games.battle.ending import GameScore
    from ..games.battle.fold import Fold
    from ..store.events import Event


def jsonable(value: Any) -> Any:
    """Engine values as JSON-ready data, the way every ``--json`` prints them."""
    if isinstance(value, Entry):  # the one value with a clan, a token and a province
        return format_entry(value)
    if is_dataclass(value):
        return {f: jsonable(getattr(value, f)) for f in value.__dataclass_fields__}
    if isinstance(value, RoundReport):  # built when read: its parts, in the rulebook's order
        return {f: jsonable(getattr(value, f)) for f in value.FIELDS}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return [jsonable(v) for v in value]
    return value


def games_data(infos: Iterable[Any], status: dict[str, str] | None = None) -> list[dict[str, Any]]:
    """`referee games --json`: one row a game, with where it stands."""
    return [
        {
            "game": g.game,
            "state": (status or {}).get(g.game, ""),
            "clans": g.header.get("clans") or g.header.get("players"),  # a card game match: its players
            "event": g.header.get("event", ""),
            "table": g.header.get("table", ""),
            "events": g.events,
            "created": g.created_at,
        }
        for g in infos
    ]


def games_status(streams: Iterable[Sequence[Event]]) -> dict[str, str]:
    """Where each game stands (its game's ``status``), from its events alone: no engine run per game."""
    from ..core.errors import RefereeError
    from ..games.registry import status as game_status

    status = {}
    for events in streams:
        try:
            status[events[0].game] = game_status(events)
        except RefereeError:  # an unreadable payload: `referee verify` names the event
            status[events[0].game] = "damaged: run referee verify"
    return status


def show_data(fold: Fold, events: Sequence[Event]) -> dict[str, Any]:
    """`referee show --json`: a game's header, where it stands and its seals."""
    h = fold.header
    assert h is not None, "a stored game's log begins with its GameCreated event"
    seals = [(e.data["round"], e.seal, e.type) for e in events if e.type in ("RoundResolved", "EntryCorrected")]
    return jsonable(
        {
            "game": h.game,
            "clans": h.clans,
            "players": h.players,
            "event": h.event,
            "table": h.table,
            "date": h.date,
            "options": h.options.to_dict(),
            "engine_version": h.engine_version,
            "board_version": h.board_version,
            "round": fold.state.round,
            "partial_setup": h.partial_setup,
            "events": len(events),
            "seals": [{"round": r, "seal": s, "event": t} for r, s, t in seals],
        }
    )


def board_data(state: GameState) -> dict[str, Any]:
    """`referee board --json`: the board as the engine's digest lays it out."""
    return state_to_dict(state)


def score_data(score: GameScore) -> dict[str, Any]:
    """`referee score --json`: honor line by line from ``game_score``, provisional or final (R-28)."""
    return score.to_dict()


def round_data(report: RoundReport, state: dict[str, Any], seal: str | None) -> dict[str, Any]:
    """`referee round --json`: the round's report, the board after it (as ``board_data`` gives it), its seal."""
    return {"round": report.round, "report": jsonable(report), "state": state, "seal": seal}


def event_label(e: Event) -> str:
    """An event in a few words: "round 3", "round 2's table events", "the end of the game"."""
    d = e.data
    labels = {
        "GameCreated": lambda: "the game's creation",
        "SetupRecorded": lambda: "setup facts",
        "RoundResolved": lambda: f"round {d['round']}",
        "TableEventsRecorded": lambda: f"round {d['round']}'s table events",
        "EntryCorrected": lambda: f"the correction of round {d['round']}",
        "TableEventsCorrected": lambda: f"the correction of round {d['round']}'s table events",
        "SetupCorrected": lambda: "the correction of the setup",
        "ObjectiveSealed": lambda: f"{d['clan']}'s objective sealed",
        "ObjectiveRevealed": lambda: f"{d['clan']}'s objective revealed",
        "EventRetracted": lambda: f"the retraction of event {d['seq']}",
        "GameEnded": lambda: "the end of the game",
    }
    return labels.get(e.type, lambda: e.type)()


def event_lines(e: Event) -> list[str]:
    """What an event holds, one line each, for the replay."""
    d = e.data
    if e.type == "GameCreated":
        players = ", ".join(f"{c} ({d['players'][c]})" if d["players"].get(c) else c for c in d["clans"])
        return [f"seats: {players}"]
    if e.type in ("SetupRecorded", "TableEventsRecorded"):
        return list(d["lines"])
    if e.type in ("TableEventsCorrected", "SetupCorrected"):
        return [f"reason: {d['reason']}", *d["lines"]]
    if e.type == "EntryCorrected":
        return [f"reason: {d['reason']}", *d["entries"]]
    if e.type == "EventRetracted":
        return [f"reason: {d['reason']}"]
    if e.type == "ObjectiveRevealed":
        return [f"{d['clan']} reveals {d['objective']}"]
    if e.type == "ObjectiveSealed":
        return [f"{d['clan']} seals a secret objective"]
    if e.type == "GameEnded":
        return [
            ", ".join(f"{c} {n}" for c, n in d["scores"].items())
            + f"; winner {' and '.join(d['winners'])}"
            + f" ({d['tiebreak']})"
        ]
    return []


def replay_rows(steps: Sequence[Any]) -> list[tuple[Any, list[str]]]:
    """Each replay step with what it changed on the board (a round's report says it itself)."""
    rows = []
    before = None
    for s in steps:
        changes: list[str] = (
            []
            if before is None or s.event.type in ("RoundResolved", "GameCreated")
            else changes_between(before, s.state)
        )
        rows.append((s, changes))
        before = s.state
    return rows


def noted(shape: dict[str, Any], note: str) -> dict[str, Any]:
    """A --json shape with the note of the corrections behind it (``BoardAfter.note``), when there is one."""
    return {**shape, "note": note} if note else shape


def replay_data(rows: Sequence[tuple[Any, list[str]]], board_after: Any = None) -> dict[str, Any]:
    """`referee replay --json`: every event in order with its lines, changes and report; the board at the end
    when asked for (``--round``: a ``BoardAfter``, its note when corrections are behind it)."""
    note = board_after.note() if board_after is not None else ""
    return {
        "events": [
            {
                "seq": s.event.seq,
                "type": s.event.type,
                "recorded_at": s.event.recorded_at,
                "label": event_label(s.event),
                "seal": s.event.seal,
                "lines": event_lines(s.event),
                "changes": changes,
                "report": jsonable(s.report) if s.event.type == "RoundResolved" else None,
            }
            for s, changes in rows
        ],
        "board": None if board_after is None else board_data(board_after.state),
        **({"board_note": note} if note else {}),
    }


def verify_status(events: Sequence[Event], signature: str = "") -> str:
    """Where a verified log stands: finished, or in progress and what is left; then its organiser's
    signature as checked (``signature``: the signing check's status line)."""
    from ..games.battle.ending import game_ended, rounds_in

    if game_ended(events):
        where = "finished"
    elif rounds_in(events) >= 5:
        where = "in progress: objectives to reveal"
    else:
        where = f"in progress: round {rounds_in(events) + 1} to play"
    return f"{where}; {signature}" if signature else where


def superseded_line(later: Event) -> str:
    """A sealed event no longer in effect: which later event superseded it, and why."""
    data = later.data
    reason = f", reason: {data['reason']}" if data.get("reason") else ""
    if later.type == "EventRetracted":
        return f"superseded: taken back by event {later.seq}{reason}"
    what = f"round {data['round']}" if "round" in data else "the setup"
    return f"superseded: {what} corrected in event {later.seq}{reason}"


def verify_data(
    target: str,
    events: Sequence[Event],
    found: Any,
    lines: Sequence[int] | None = None,
    *,
    status: str = "",
    sealed: Event | None = None,
    notes: Sequence[str] = (),
    superseded: Event | None = None,
) -> dict[str, Any]:
    """`referee verify --json`: the chain and every digest checked, the first divergence, the seal asked for
    (and the later event that superseded it, if any), and what was not checked (``notes``: no seal given,
    sections without a seal, a 32-bit seal)."""
    return {
        "target": target,
        "events": len(events),
        "ok": found is None,
        "status": status,
        "notes": list(notes),
        "seal": None
        if sealed is None
        else {
            "seal": sealed.seal,
            "seq": sealed.seq,
            "type": sealed.type,
            "recorded_at": sealed.recorded_at,
            **(
                {"superseded": {"seq": superseded.seq, "type": superseded.type, "line": superseded_line(superseded)}}
                if superseded is not None
                else {}
            ),
        },
        "divergence": None
        if found is None
        else {
            "seq": found.seq,
            "problem": str(found.problem),
            "detail": found.detail,
            "line": lines[found.index] if lines else None,
        },
    }
