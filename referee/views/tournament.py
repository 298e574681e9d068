"""A tournament shown, in one place: every view as plain data (what `referee tournament ... --json` prints,
the venue pages and the JSON API render), the rows of the terminal's tables and the lines printed around them,
and the venue's pages with the projector's paging. Each view takes a ``Loaded`` tournament
(``referee.games.battle.tournaments.load(store, tid)``); the pages also take the organiser's venue notices, and show a
round's seating only once the organiser has posted it. (The CSV files and the printable seating sheet:
``tournament_exports.py``.)

    standings_view(loaded)               the standings, one row per player, with the tournament's settings
    explain_view(loaded, player)         one player's games, points and tie-breaks, with the settings
    seating_by_table(loaded, round)      each table: number, game, seats in order (player, name, clan)
    seating_by_player(loaded, round)     each player (by name): table, seat, clan, game; or sitting out
    table_status(loaded, round)          each table: game, round of play, finished/called/judged, objectives left
    player_view(loaded, player)          one player: registration, each round's table and result, rank
    players_view(loaded)                 every registered player with status
    points_race(loaded)                  the leaders' points after each round
    tournament_page, seating_page, player_page   the venue's pages (posted rounds only)
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from ..engine.tournament import posting
from ..engine.tournament.events import TournamentError
from ..engine.tournament.scoring import show
from ..engine.tournament.standings import Loaded, Standings, standings, table_result

# --- the read side: one function per view ----------------------------------------------------------------


def _seating(loaded: Loaded, round_no: int):
    t = loaded.tournament
    seating = t.seatings.get(round_no)
    if seating is None:
        raise TournamentError(
            f"round {round_no} of tournament {t.id!r} is not seated", hint=f"referee tournament seat {t.id} {round_no}"
        )
    return seating


def standings_view(loaded: Loaded) -> dict[str, Any]:
    return standings(loaded).to_dict()


def points_race(loaded: Loaded, top: int = 16, counted: Standings | None = None) -> dict[str, Any]:
    """The ``top`` leading players' points after each round, as the standings count them: the games up to that
    round through the tournament's aggregate (sum, best N, average) plus the adjustments given up to it (one of
    no round from the first); after the last round, every adjustment: the last point is the standings' total."""
    from fractions import Fraction

    from ..engine.tournament.scoring import aggregate

    st = counted or standings(loaded)  # ``counted``: the standings, when the caller has them already
    t = loaded.tournament
    info = t.created
    players = []
    for row in st.rows[:top]:
        points = []
        for n in st.rounds:
            total, _ = aggregate([(g.round, g.points) for g in row.games if g.round <= n], info.aggregate, info.best)
            last = n == st.rounds[-1]
            total += sum(
                (Fraction(a.points) for a in t.adjustments if a.player == row.player and (last or a.round <= n)),
                Fraction(0),
            )
            points.append(total)
        players.append(
            {
                "player": row.player,
                "name": row.name,
                "rank": row.rank,
                "points": [float(p) for p in points],
                "shown": [show(p) for p in points],
            }
        )
    return {"tournament": t.id, "name": st.name, "rounds": list(st.rounds), "players": players}


def explain_view(loaded: Loaded, player: str) -> dict[str, Any]:
    t = loaded.tournament
    return explanation(standings(loaded), t.player(player).id)


def seating_by_table(loaded: Loaded, round_no: int) -> list[dict[str, Any]]:
    t = loaded.tournament
    seating = _seating(loaded, round_no)
    return [
        {
            "round": round_no,
            "table": tb.number,
            "game": tb.game,
            "seats": [
                {"seat": i + 1, "player": s.player, "name": t.name(s.player), "clan": s.clan}
                for i, s in enumerate(tb.seats)
            ],
        }
        for tb in sorted(seating.tables, key=lambda tb: tb.number)
    ]


def seating_by_player(loaded: Loaded, round_no: int) -> list[dict[str, Any]]:
    t = loaded.tournament
    seating = _seating(loaded, round_no)
    out = []
    for tb in seating.tables:
        for i, s in enumerate(tb.seats):
            out.append(
                {
                    "round": round_no,
                    "player": s.player,
                    "name": t.name(s.player),
                    "table": tb.number,
                    "seat": i + 1,
                    "clan": s.clan,
                    "game": tb.game,
                }
            )
    for pid in seating.sat_out:
        out.append(
            {
                "round": round_no,
                "player": pid,
                "name": t.name(pid),
                "table": None,
                "seat": None,
                "clan": None,
                "game": None,
            }
        )
    return sorted(out, key=lambda r: (r["name"].casefold(), r["player"]))


def table_status(loaded: Loaded, round_no: int) -> list[dict[str, Any]]:
    t = loaded.tournament
    seating = _seating(loaded, round_no)
    out = []
    for tb in sorted(seating.tables, key=lambda tb: tb.number):
        live = loaded.live.get(tb.game)
        res = table_result(loaded, round_no, tb)
        if res is not None and res.source == "judge":
            state = "entered by the judge"
        elif res is not None and res.source == "called":
            state = "called"
        elif live is None:
            state = "no game"
        elif live.finished:
            state = "finished"
        else:
            state = "playing"
        out.append(
            {
                "round": round_no,
                "table": tb.number,
                "game": tb.game,
                "players": [t.name(p) for p in tb.players],
                "round_of_play": min(live.rounds_played + 1, 5)
                if live and not live.finished
                else (live.rounds_played if live else 0),
                "rounds_played": live.rounds_played if live else 0,
                "state": state,
                "sealed_objectives_left": live.sealed_count if live else 0,
                "result": res is not None,
                "provisional": bool(res and res.provisional),
                "corrected": bool(res and res.corrected),
                "event": res.event if res else 0,  # the result's version: what a judge's entry --replaces
            }
        )
    return out


def player_view(loaded: Loaded, player: str) -> dict[str, Any]:
    t = loaded.tournament
    p = t.player(player)
    st = standings(loaded)
    row = st.row(p.id)
    rounds = []
    for r, seating in sorted(t.seatings.items()):
        tb = seating.table_of(p.id)
        game = next((g for g in row.games if g.round == r), None)
        rounds.append(
            {
                "round": r,
                "table": tb.number if tb else None,
                "game": tb.game if tb else None,
                "clan": next((s.clan for s in tb.seats if s.player == p.id), None) if tb else None,
                "opponents": [t.name(o) for o in tb.players if o != p.id] if tb else [],
                "shown": row.cells.get(r, ""),
                "result": game.to_dict() if game else None,
            }
        )
    return {
        "player": p.id,
        "name": p.name,
        "club": p.club,
        "dropped": p.dropped,
        "since_round": p.since_round,
        "rank": row.rank,
        "shared": row.shared,
        "total_shown": row.to_dict()["total_shown"],
        "rounds": rounds,
        "explain": explanation(st, p.id),
    }


def players_view(loaded: Loaded) -> list[dict[str, Any]]:
    t = loaded.tournament
    return [
        {
            "player": p.id,
            "name": p.name,
            "club": p.club,
            "since_round": p.since_round,
            "status": "dropped" if p.dropped else "active",
            "fixed_table": t.fixed.get(p.id),
        }
        for p in sorted(t.players.values(), key=lambda p: (p.name.casefold(), p.id))
    ]


def explanation(st: Standings, player: str) -> dict[str, Any]:
    """One player's line of the standings explained: every game, the adjustments, the total, each tie-break."""
    row = st.row(player)
    return {
        "player": row.player,
        "name": row.name,
        "rank": row.rank,
        "shared": row.shared,
        "games": [g.to_dict() for g in row.games],
        "adjustment": str(row.adjustment),
        "adjustment_shown": show(row.adjustment),
        "total": str(row.total),
        "total_shown": show(row.total),
        "tiebreaks": {k: (row.h2h if k == "h2h" else str(row.key(k))) for k in st.tiebreaks},
        "tiebreaks_shown": {
            k: (
                str(row.h2h)
                if k == "h2h" and row.h2h is not None
                else "not used"
                if k == "h2h"
                else str(row.key(k))
                if k == "honor"
                else show(row.key(k))
            )
            for k in st.tiebreaks
        },
        "settings": st.settings,
    }


# --- the venue's pages ------------------------------------------------------------------------------------
SHORT = {"honor": "honor", "wins": "wins", "aop": "opp. pts", "h2h": "h2h"}
# where a table's result came from, when not its game log: the label every page shows beside it
SOURCE_LABEL = {"called": "called", "judge": "judge's entry"}
STATE_SOURCE = {"called": "called", "entered by the judge": "judge"}


def _cell(row: dict, key: str) -> str:
    return {
        "honor": lambda: str(row["honor"]),
        "wins": lambda: row["wins_shown"],
        "aop": lambda: row["aop_shown"],
        "h2h": lambda: "" if row["h2h"] is None else str(row["h2h"]),
    }[key]()


def clock_view(clock: str, now: datetime | None = None) -> dict | None:
    """The round clock: when the round ends and the minutes left (None: no clock set)."""
    if not clock:
        return None
    ends = datetime.fromisoformat(clock)
    now = now or datetime.now(UTC)
    left = int((ends - now).total_seconds() // 60)
    return {"ends": ends.astimezone().strftime("%H:%M"), "left": max(left, 0), "over": left < 0, "iso": clock}


def _round_cells(row: dict, rounds: list[int]) -> list[dict]:
    """Each round's cell of a standings row: what it shows, and where a result came from when a judge
    entered it or the game was called (labelled on every page)."""
    source = {g["round"]: g["source"] for g in row["games"]}
    return [{"text": row["rounds"].get(str(n), ""), "source": SOURCE_LABEL.get(source.get(n, ""), "")} for n in rounds]


def tournament_page(loaded, venue) -> dict[str, Any]:
    t = loaded.tournament
    counted = standings(loaded)
    st = counted.to_dict()
    keys = [k for k in st["tiebreaks"] if k != "points"]
    rows = [
        {**r, "tiebreaks": [_cell(r, k) for k in keys], "cells": _round_cells(r, st["rounds"])} for r in st["standings"]
    ]
    posted = posting.posted_rounds(loaded.tournament, venue.posted)
    current = posted[-1] if posted else None
    return {
        "id": t.id,
        "name": t.info.name,
        "date": t.info.date,
        "planned": t.info.rounds,
        "rounds": st["rounds"],
        "tiebreaks": [SHORT.get(k, k) for k in keys],
        "rows": rows,
        "settings": st["settings"],
        "clans": st["clans"],
        "closed": sorted(t.closed),
        "posted": posted,
        "current": current,
        "hidden": [r for r in sorted(t.seatings) if r not in posted],
        "status": table_status(loaded, current) if current else [],
        "clock": clock_view(venue.clock),
        "announcements": [text for _, text in venue.announcements],
        "provisional": any("*" in c["text"] for r in rows for c in r["cells"]),
        **_points_race(loaded, counted),
        "signed": loaded.signed,
    }


def _points_race(loaded, counted) -> dict[str, Any]:
    from .charts import points_race_svg

    race = points_race(loaded, counted=counted)
    return {"race": race, "race_svg": points_race_svg(race) if race["players"] and race["rounds"] else ""}


def seating_page(loaded, venue, round_no: int, query: str = "") -> dict[str, Any]:
    by_player = seating_by_player(loaded, round_no)
    q = query.strip().casefold()
    found = [p for p in by_player if q in p["name"].casefold()] if q else by_player
    state = {x["table"]: x["state"] for x in table_status(loaded, round_no)}
    tables = [
        {**tb, "source": SOURCE_LABEL.get(STATE_SOURCE.get(state.get(tb["table"], ""), ""), "")}
        for tb in seating_by_table(loaded, round_no)
    ]
    return {
        "round": round_no,
        "tables": tables,
        "players": found,
        "query": query,
        "matches": len(found),
    }


SEAT_QR = "Scan to enter your clan's tokens on your phone"


def links_sheet(loaded, round_no: int, issued: dict[str, Any] | None = None) -> dict[str, Any]:
    """The printed seating of a round by table, one slip a seat, cut apart. With ``issued`` (``base``: the address
    the phones reach; ``links``: game -> clan -> link, shown this once; ``refused``: game -> why none was issued;
    ``revoked``: the live links these replace), each seat's slip carries its own phone-entry link and QR code
    alone, and the table's moderator has a slip of their own: the table's page's link and how the round is
    confirmed."""
    from .qr import qr_svg

    t = loaded.tournament
    links = (issued or {}).get("links", {})
    refused = (issued or {}).get("refused", {})
    tables = []
    for tb in seating_by_table(loaded, round_no):
        urls = links.get(tb["game"], {})
        seats = [{**s, "url": urls.get(s["clan"], "")} for s in tb["seats"]]
        seats = [{**s, "qr": qr_svg(s["url"], SEAT_QR) if s["url"] else ""} for s in seats]
        moderator = urls.get("moderator", "")
        tables.append(
            {
                **tb,
                "seats": seats,
                "refused": refused.get(tb["game"], ""),
                "moderator": moderator,
                "moderator_qr": qr_svg(moderator, "Scan to open the table's page: each seat's state, confirm the round")
                if moderator
                else "",
            }
        )
    return {
        "id": t.id,
        "name": t.info.name,
        "round": round_no,
        "tables": tables,
        "issued": issued is not None,
        "base": (issued or {}).get("base", ""),
        "revoked": (issued or {}).get("revoked", 0),
        "at": datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z"),
        "signed": loaded.signed,
    }


def player_page(loaded, venue, player: str) -> dict[str, Any]:
    page = player_view(loaded, player)
    posted = set(posting.posted_rounds(loaded.tournament, venue.posted))
    page["rounds"] = [r for r in page["rounds"] if r["round"] in posted]  # an unposted seating stays hidden
    for r in page["rounds"]:
        r["source"] = SOURCE_LABEL.get((r["result"] or {}).get("source", ""), "")
    return page


def visible(loaded, venue, round_no: int) -> bool:
    return posting.is_posted(loaded.tournament, venue.posted, round_no)


def game_table(t, posted: int, game: str) -> dict[str, Any] | None:
    """The tournament table a game is played at (its seating posted), and where its result came from when not
    its log (a judge's entry first, then a called game, as the standings take them): for the game's page."""
    found = t.table_of_game(game)
    if found is None or not 0 < found[0] <= posted:
        return None
    r, tb = found
    entered, called = t.entered.get((r, tb.number)), t.called.get(game)
    source, reason = ("judge", entered.reason) if entered else ("called", called.reason) if called else ("", "")
    return {
        "tournament": t.id,
        "name": t.info.name,
        "round": r,
        "table": tb.number,
        "source": SOURCE_LABEL.get(source, ""),
        "reason": reason,
        "after_round": called.after_round if called and not entered else None,
    }


# --- the projector: every view paged to fill a 16:9 screen -----------------------------------------------
STANDINGS_ROWS = 16  # the most standings rows on a screen: type about 1/30 of its height (readable from 8 m)
SEATING_CARDS = 12  # the most seating cards on a screen (4 x 3)
GRID_BOARDS = 8  # the most boards on a screen (4 x 2)
BOARD_ASPECT = 0.62  # a board picture's width over its height, without the cards


def pages(count: int, most: int) -> list[tuple[int, int]]:
    """``count`` items on screens of at most ``most``, balanced (200 rows by 18: 12 screens of 16 or 17, not
    11 full and one of 2): each screen's (first, end)."""
    n = max(1, -(-count // most))
    size, extra = divmod(count, n)
    out, first = [], 0
    for i in range(n):
        end = first + size + (1 if i < extra else 0)
        out.append((first, end))
        first = end
    return out


def grid_shape(count: int, aspect: float, screen: float = 16 / 9 * 0.9) -> tuple[int, int]:
    """Columns and rows for ``count`` pictures of width/height ``aspect`` on a screen area of width/height
    ``screen``: the shape that draws them largest."""
    best = (0.0, 1, 1)
    for cols in range(1, max(count, 1) + 1):
        rows = -(-max(count, 1) // cols)
        scale = min(screen / cols / aspect, 1 / rows)  # a picture's height, as a share of the screen's
        if scale > best[0] + 1e-9:
            best = (scale, cols, rows)
    return best[1], best[2]


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
