"""Round identity (R-27): which round a sheet is for, a sheet entered twice, and what another moderator
recorded meanwhile. Asked by the game service (``OpenGame.read_round``) and the table session.

A sheet may start with ``round: N``; ``referee round --round N`` says the same. The same sheet entered
again for a round already recorded is that round: nothing new is recorded and its seal is shown. A
sheet for another round than the game's next one is refused with the game's current round. A write
refused because another moderator wrote first is never repeated by itself: the game is read again
and what changed is shown.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from ...core.errors import RefereeError
from ...engine.battle import named_round as named_round  # re-exported: the round a sheet names


@dataclass(frozen=True, slots=True)
class Recorded:
    """One round's entries as the log holds them: the round itself, or a correction of it."""

    round: int
    lines: tuple[str, ...]
    seal: str
    seq: int
    corrected: bool = False


def recorded_rounds(events: Iterable) -> list[Recorded]:
    """The rounds recorded and still in effect: a round taken back by ``retract`` is not a recorded round."""
    from .events import EventType

    events = list(events)
    retracted = {e.data["seq"] for e in events if e.type == EventType.EVENT_RETRACTED}
    out = []
    for e in events:
        if e.type in (EventType.ROUND_RESOLVED, EventType.ENTRY_CORRECTED) and e.seq not in retracted:
            data = e.data
            out.append(
                Recorded(
                    data["round"], tuple(sorted(data["entries"])), e.seal, e.seq, e.type == EventType.ENTRY_CORRECTED
                )
            )
    return out


def same_sheet(events: Iterable, lines: Sequence[str], round_no: int | None = None) -> Recorded | None:
    """The recorded round whose entries are exactly ``lines`` (canonical, in any order), if any; with
    ``round_no``, only that round. A correction counts: its sheet is that round's too."""
    key = tuple(sorted(lines))
    if not key:
        return None
    for r in recorded_rounds(events):
        if r.lines == key and (round_no is None or r.round == round_no):
            return r
    return None


def last_seal(events: Iterable, round_no: int) -> str | None:
    seals = [r.seal for r in recorded_rounds(events) if r.round == round_no]
    return seals[-1] if seals else None


def changes(events: Sequence) -> list[str]:
    """What the given events did, one line each, in the moderator's words."""
    from .events import EventType

    out = []
    for e in events:
        try:
            data = e.data
        except RefereeError:
            data = {}
        when = f" at {e.recorded_at[11:19]}" if len(e.recorded_at) >= 19 else ""
        seal = f" (seal {e.seal})"
        if e.type == EventType.ROUND_RESOLVED:
            what = f"round {data.get('round')} resolved with {len(data.get('entries', []))} tokens{seal}"
        elif e.type == EventType.TABLE_EVENTS_RECORDED:
            what = f"round {data.get('round')}: table events: {'; '.join(data.get('lines', []))}{seal}"
        elif e.type == EventType.SETUP_RECORDED:
            what = f"setup: {'; '.join(data.get('lines', []))}{seal}"
        elif e.type == EventType.ENTRY_CORRECTED:
            what = f"round {data.get('round')} corrected ({data.get('reason', '')}){seal}"
        elif e.type == EventType.OBJECTIVE_SEALED:
            what = f"{data.get('clan')}'s secret objective sealed{seal}"
        elif e.type == EventType.OBJECTIVE_REVEALED:
            what = f"{data.get('clan')} revealed {data.get('objective')}{seal}"
        else:
            what = f"{e.type}{seal}"
        out.append(f"event {e.seq}{when}: {what}")
    return out
