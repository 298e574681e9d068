"""The card game's venue pages as plain data: a match (its players, where it stands, every event with what
it did). A Swiss tournament's pages are views/swiss.py's."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.ccg import cite
from ..games.ccg.service import steps
from ..store.events import Event


def match_page(events: Sequence[Event]) -> dict[str, Any]:
    done = steps(events)
    match = done[-1].match
    header = events[0].data
    r = match.result
    result = None
    if r is not None:
        who = f"{r.winner} wins: {r.victory} victory" if r.winner else "a draw"
        result = {"text": who, "reason": r.reason, "rule": cite(r.rule)}
    return {
        "game": header["game"],
        "event": header.get("event", ""),
        "table": header.get("table", ""),
        "state": "over" if match.over else f"turn {match.turn}: {match.active_player.name}'s {match.phase.label} phase",
        "favor": match.favor_holder or "uncontrolled",
        "players": [
            {
                "name": p.name,
                "honor": p.honor,
                "provinces": ", ".join(map(str, p.provinces)) or "none",
                "stronghold": p.stronghold,
                "rings": ", ".join(x.title for x in p.rings),
            }
            for p in match.players
        ],
        "result": result,
        "events": [
            {
                "seq": s.event.seq,
                "type": s.event.type,
                "lines": [{"line": line, "notes": list(o.notes)} for line, o in s.outcomes],
                "reason": s.event.data.get("reason", ""),
            }
            for s in done[1:]
        ],
    }
