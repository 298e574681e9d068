"""The card game's venue pages as plain data: a match (its players, where it stands, every event with what
it did) and a Swiss tournament (standings with their tie-breaks, each round's tables and results, the cut)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..ccg import cite
from ..log.ccg import steps
from ..log.events import Event
from ..tournament.swiss_desk import SwissTournament


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


def swiss_page(t: SwissTournament) -> dict[str, Any]:
    table = t.standings()
    rounds = []
    for n in sorted(t.rounds, reverse=True):
        rnd = t.rounds[n]
        tables = []
        for i, (a, b) in enumerate(rnd.pairs, 1):
            e = rnd.results.get(i)
            if e is None:
                said = "playing"
            elif e.winner:
                said = f"{t.players[e.winner]} ({e.victory})"
            else:
                said = f"draw ({e.victory})"
            tables.append({"table": i, "a": t.players[a], "b": t.players[b], "result": said})
        kind = f"Round {n}" if n <= t.created.rounds else f"Cut, round {n - t.created.rounds}"
        cost = rnd.pairing.cost if rnd.pairing else {}
        rounds.append({"title": kind, "tables": tables, "bye": t.players[rnd.bye] if rnd.bye else "", "cost": cost})
    return {
        "id": t.created.tournament,
        "name": t.created.name,
        "date": t.created.date,
        "planned": t.created.rounds,
        "cut": t.created.cut,
        "champion": t.players[t.champion] if t.champion else "",
        "rows": [
            {
                "rank": s.rank,
                "name": t.players[s.player],
                "dropped": s.player in t.dropped,
                "points": f"{float(s.points):g}",
                "omw": f"{float(s.omwp):.2%}",
                "oomw": f"{float(s.oomwp):.2%}",
            }
            for s in table
        ],
        "rounds": rounds,
    }
