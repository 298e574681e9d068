"""A tournament in the terminal: the rows of each command's listing (``Listing``: its columns, its rows) and the
lines printed around them, built from the same views as the pages and the ``--json`` output.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..engine.tournament.standings import Loaded
from .tournament import seating_by_table


# --- the terminal: the rows of each command's listing, and the lines printed around them -------------------
@dataclass(frozen=True)
class Listing:
    """A titled list of rows under column heads, as the terminal draws it (``referee.cli.render.print_listing``):
    each cell a value shown as text, None an empty cell."""

    title: str
    columns: list[str]
    rows: list[list[Any]]


def tournaments_listing(rows: list[dict[str, Any]]) -> Listing:
    """`referee tournament list`: ``rows`` as ``log.tournaments.list_tournaments`` gives them (its --json)."""
    rows_shown = [[r["tournament"], r["created_at"], r["events"]] for r in rows]
    return Listing("Tournaments", ["tournament", "created", "events"], rows_shown)


def players_listing(tid: str, rows: list[dict[str, Any]]) -> Listing:
    """`referee tournament players list`: ``rows`` from ``players_view``."""
    return Listing(
        f"Players of {tid}",
        ["id", "name", "club", "from round", "status", "fixed table"],
        [[r["player"], r["name"], r["club"], r["since_round"], r["status"], r["fixed_table"]] for r in rows],
    )


def rollcall_view(t, round_no: int) -> dict[str, Any]:
    """`referee tournament rollcall --json`: every player's status for the round, by name, and the counts."""
    result = t.statuses(round_no)
    counts = {s: sum(1 for v in result.values() if v == s) for s in ("present", "late", "standby", "absent", "dropped")}
    return {"round": round_no, "statuses": {t.name(p): s for p, s in result.items()}, "counts": counts}


def rollcall_line(view: dict[str, Any]) -> str:
    """The roll call's one line: how many players of each status."""
    return f"round {view['round']} roll call: " + ", ".join(f"{n} {s}" for s, n in view["counts"].items() if n)


def seated_view(loaded: Loaded, event) -> dict[str, Any]:
    """`referee tournament seat --json`: the round just seated, how, and who sits out."""
    return {
        "round": event.round,
        "algorithm": event.algorithm,
        "version": event.version,
        "cost": event.cost,
        "seed": event.seed,
        "tables": seating_by_table(loaded, event.round),
        "sat_out": [loaded.tournament.name(p) for p in event.sat_out],
    }


def seating_listing(loaded: Loaded, round_no: int, tables: list[dict[str, Any]]) -> tuple[Listing, list[str]]:
    """A round's seating by table (``tables`` from ``seating_by_table``), with how it was found, and the line
    naming who sits out (none when nobody does)."""
    seating = loaded.tournament.seatings[round_no]
    rows = [
        [tb["table"], s["seat"], s["name"], s["clan"], tb["game"] if s["seat"] == 1 else ""]
        for tb in tables
        for s in tb["seats"]
    ]
    title = f"Round {round_no} seating ({seating.algorithm}, cost {seating.cost})"
    sat_out = [loaded.tournament.name(p) for p in seating.sat_out]
    listing = Listing(title, ["table", "seat", "player", "clan", "game"], rows)
    return listing, [f"sitting out: {', '.join(sat_out)}"] if sat_out else []


def seating_by_player_listing(round_no: int, rows: list[dict[str, Any]]) -> Listing:
    """A round's seating by player (``rows`` from ``seating_by_player``)."""
    return Listing(
        f"Round {round_no} seating by player",
        ["player", "table", "seat", "clan", "game"],
        [[r["name"], r["table"] or "sits out", r["seat"], r["clan"], r["game"]] for r in rows],
    )


def seated_tables_lines(t, round_no: int, tables) -> list[str]:
    """Each table of a round just amended: its game and its players with their clans, in seat order."""
    return [
        f"round {round_no}, table {tb.number}: game {tb.game}: "
        + ", ".join(f"{t.name(s.player)} ({s.clan})" for s in tb.seats)
        for tb in tables
    ]


def called_line(t, event) -> str:
    """A game just called: the honors as they stand, and the objectives revealed or declared not met."""
    shown = [
        f"{clan} {objective}" if objective else f"{clan} not met"
        for clan, objective in event.objectives.items()
        if clan in event.codes
    ]
    return (
        f"game {event.game} called after round {event.after_round}: "
        + ", ".join(f"{t.name(r['player'])} {r['honor']}" for r in event.rows)
        + (f" (objectives: {', '.join(shown)})" if shown else "")
    )


def final_line(t, event) -> str:
    """The final table just seated: its game, and each finalist with their clan, in seat order."""
    return f"final table: game {event.table['game']}: " + ", ".join(
        f"{t.name(s['player'])} ({s['clan']})" for s in event.table["seats"]
    )


def _result_cell(x: dict[str, Any]) -> str:
    if not x["result"]:
        return "-"
    return (
        ("provisional" if x["provisional"] else "accepted")
        + (", corrected" if x["corrected"] else "")
        + (f" (event {x['event']})" if x["event"] else "")
    )


def status_listing(round_no: int, rows: list[dict[str, Any]]) -> Listing:
    """`referee tournament status`: ``rows`` from ``table_status``."""
    return Listing(
        f"Round {round_no} tables",
        ["table", "game", "players", "rounds played", "state", "objectives left", "result"],
        [
            [
                x["table"],
                x["game"],
                ", ".join(x["players"]),
                x["rounds_played"],
                x["state"],
                x["sealed_objectives_left"],
                _result_cell(x),
            ]
            for x in rows
        ],
    )


def standings_listing(data: dict[str, Any]) -> Listing:
    """`referee tournament standings`: ``data`` from ``standings_view``; the tie-breaks after the total, but
    head-to-head (shown by the rank it decides)."""
    keys = [k for k in data["tiebreaks"] if k not in ("points", "h2h")]
    return Listing(
        f"{data['name']}: standings",
        ["rank", "player", *[f"R{r}" for r in data["rounds"]], "total", *keys],
        [
            [
                f"{r['rank']}=" if r["shared"] else r["rank"],
                r["name"] + (" (dropped)" if r["dropped"] else ""),
                *[r["rounds"].get(str(x), "") for x in data["rounds"]],
                r["total_shown"],
                *[(r[k] if k == "honor" else r[f"{k}_shown"]) for k in keys],
            ]
            for r in data["standings"]
        ],
    )


def standings_notes(data: dict[str, Any], signed: str) -> list[str]:
    """The lines under the standings: the best clan, the marks' legend, each correction, the signature."""
    lines = []
    if data["clans"]:
        lines.append(
            "best clan (average points per game): "
            + ", ".join(f"{c['clan']} {c['average_shown']} ({c['games']})" for c in data["clans"])
        )
    lines.append("* provisional (round not closed)   c corrected after acceptance")
    lines += [f"c {c['shown']}" for c in data["corrections"]]
    return [*lines, f"organiser's signature: {signed}"]


def explain_lines(data: dict[str, Any]) -> list[str]:
    """`referee tournament standings --explain PLAYER`: ``data`` from ``explain_view``, one line each."""
    lines = [f"{data['name']} ({data['player']}): rank {data['rank']}{' (shared)' if data['shared'] else ''}"]
    for g in data["games"]:
        lines.append(
            f"  round {g['round']}, table {g['table']} ({g['game']}): {g['clan']}, honor {g['honor']}, place "
            f"{g['place']}, points {g['points_shown']}{'' if g['counted'] else ' (not counted)'}"
            f"{' provisional' if g['provisional'] else ''}{' corrected' if g['corrected'] else ''}"
            f" [{g['source']}]"
        )
    if data["adjustment"] != "0":
        lines.append(f"  adjustments: {data['adjustment_shown']}")
    lines.append(f"  total: {data['total_shown']}")
    lines += [f"  {k}: {v}" for k, v in data["tiebreaks_shown"].items()]
    return [*lines, "settings:", *[f"  - {line}" for line in data["settings"]]]


def results_listing(rows: list[dict[str, Any]]) -> Listing:
    """`referee tournament results`: ``rows`` from ``tournament_exports.result_rows``."""
    return Listing(
        "Results",
        ["round", "table", "player", "clan", "honor", "place", "points", "source"],
        [
            [r["round"], r["table"], r["name"], r["clan"], r["honor"], r["place"], r["points"], r["source"]]
            for r in rows
        ],
    )


def verify_view(events, problems: list[str], signature: str) -> dict[str, Any]:
    """`referee tournament verify --json`: the tournament, its events, whether it verified and why not."""
    return {
        "tournament": events[0].game,
        "events": len(events),
        "ok": not problems,
        "problems": problems,
        "signature": signature,
    }


def verified_line(events, signature: str, with_games: bool) -> str:
    """The line of a tournament that verified: what was checked, and its signature's status."""
    return (
        f"tournament {events[0].game}: {len(events)} events verified: chain whole, every seating checked"
        + (", every table's game verified" if with_games else "")
        + f"; {signature}"
    )
