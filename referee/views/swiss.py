"""A Swiss tournament's views as plain data (one-against-one games: the card game's Kotei): the standings with
their tie-breaks, each player's record and, once the cut has begun, how far they went; each round's pairing by
table and by name, how it was made (found by its algorithm, given or changed by hand) and its results; each
player's page with what `referee tournament swiss standings --explain` says of them; the printable match slips;
the projector's screens. The commands (`swiss standings`, `pairings`, `slips`), `referee serve` and `referee
tournament publish` all read these (views/site.py lists the pages once).

``venue`` (the organiser's notices, ``referee.games.battle.venue.Venue``; None for the commands, which show every
round): which rounds the pages show (``tournament.posting.swiss_shown``), the round clock and announcements.
"""

from __future__ import annotations

import unicodedata
from typing import Any

from ..engine.tournament import posting
from ..engine.tournament.swiss import (
    ALGORITHM,
    COSTS,
    GIVEN,
    WINS,
    Standing,
    draw_said,
    level_by_order,
    number,
    points_in,
    stage,
    win_said,
)
from ..engine.tournament.swiss_desk import Round, SwissResultRecorded, SwissTournament
from .tournament import clock_view


def _pct(x) -> str:
    return f"{float(x):.2%}"


def shown_rounds(t: SwissTournament, venue=None) -> list[int]:
    """The rounds a reader sees: every one for the commands, the posted ones on the pages (``posting``)."""
    return sorted(t.rounds) if venue is None else posting.swiss_shown(t, venue.posted, venue.posts)


def round_title(t: SwissTournament, n: int) -> str:
    if n <= t.created.rounds:
        return f"Round {n}"
    return f"Cut, round {n - t.created.rounds}: {stage(len(t.rounds[n].pairs))}"


def short_title(t: SwissTournament, n: int) -> str:
    return f"R{n}" if n <= t.created.rounds else f"Cut {n - t.created.rounds}"


def how_said(e: SwissResultRecorded) -> str:
    """How a table's match ended, as every screen says it: ``military``, ``time called, the judge's decision``,
    ``draw (time called)``."""
    return win_said(e.victory) if e.winner else draw_said(e.victory)


def result_text(t: SwissTournament, e: SwissResultRecorded | None) -> str:
    """A table's result as the pages and `swiss pairings` say it ("playing" while it has none)."""
    if e is None:
        return "playing"
    if e.winner:
        return f"{t.players[e.winner]} ({how_said(e)})"
    return draw_said(e.victory)


def header(t: SwissTournament, venue=None) -> dict[str, Any]:
    """What every page of the tournament shows of it: its name, date, format, the rounds shown, the clock and the
    announcements, and once decided its winner."""
    c = t.created
    shown = shown_rounds(t, venue)
    return {
        "id": c.tournament,
        "name": c.name,
        "date": c.date,
        "planned": c.rounds,
        "cut": c.cut,
        "champion": t.players[t.champion] if t.champion else "",
        "rounds": [
            {
                "round": n,
                "title": round_title(t, n),
                "short": short_title(t, n),
                "complete": t.rounds[n].complete,
                "tables": len(t.rounds[n].pairs),
            }
            for n in shown
        ],
        "current": shown[-1] if shown else None,
        "held": [n for n in sorted(t.rounds) if n not in shown],
        "clock": clock_view(venue.clock) if venue is not None else None,
        "announcements": [text for _, text in venue.announcements] if venue is not None else [],
    }


# --- the standings ---------------------------------------------------------------------------------------------
def _row(t: SwissTournament, s: Standing, place: int, went: str, level: set[str]) -> dict[str, Any]:
    return {
        "place": place,
        "rank": s.rank,
        "id": s.player,
        "name": t.players[s.player],
        "dropped": s.player in t.dropped,
        "record": s.record,
        "wins": s.wins,
        "losses": s.losses,
        "draws": s.draws,
        "points": number(s.points),
        "played": s.played,
        "points_in": points_in(s.points, s.played),
        "byes": s.byes,
        "mwp": _pct(s.mwp),
        "omw": _pct(s.omwp),
        "oomw": _pct(s.oomwp),
        "went": went,
        "level": s.player in level,
    }


def standings_view(t: SwissTournament) -> dict[str, Any]:
    """The standings as every reader gets them (the command's lines, its JSON and CSV, the pages): the players in
    place order (the Swiss rank until the cut begins; then the cut by how far each went, then the Swiss order),
    each with their W-L-D record, points, tie-breaks and Swiss rank; the runs of players the registration order
    placed (C-10 stops at OOMW%); and the title saying after what."""
    table = t.standings()
    runs = level_by_order(table)
    level = {s.player for run in runs for s in run}
    rows = [_row(t, p.standing, p.place, p.went, level) for p in t.placings()]
    done = len([r for r in t.swiss_rounds if t.rounds[r].complete])
    if t.champion:
        title = "final standings: the cut by how far each player went, then the Swiss order"
    elif t.cut_rounds:
        last = t.cut_rounds[-1]
        where = stage(len(t.rounds[last].pairs)).lower()
        title = f"standings in the cut's {where}: the cut by how far each player went so far, then the Swiss order"
    elif done == t.created.rounds and not t.created.cut:
        title = f"final standings after the {done} Swiss rounds"
    else:
        title = f"standings after {done} of {t.created.rounds} Swiss rounds"
    return {
        "title": title,
        "rows": rows,
        "cut_begun": bool(t.cut_rounds),
        "level": [
            {
                "ranks": f"{run[0].rank}-{run[-1].rank}",
                "names": [t.players[s.player] for s in run],
                "text": f"{', '.join(t.players[s.player] for s in run)}: level on points, OMW% and OOMW%, "
                f"placed {run[0].rank} to {run[-1].rank} by the order of registration",
            }
            for run in runs
        ],
    }


def standings_page(t: SwissTournament, venue=None) -> dict[str, Any]:
    """The standings page: the header, the standings (``standings_view``) and the cut's bracket."""
    view = standings_view(t)
    return {**header(t, venue), **view, "bracket": bracket(t, t.standings(), shown_rounds(t, venue))}


def bracket(t: SwissTournament, table: list[Standing], shown: list[int]) -> list[dict[str, Any]]:
    """The cut's rounds as paired, each match with its players' seeds (their final Swiss rank) and its winner."""
    seed = {s.player: s.rank for s in table}  # the cut is seeded by the final Swiss standings
    out = []
    for n in t.cut_rounds:
        if n not in shown:
            continue
        rnd = t.rounds[n]
        matches = []
        for i, (a, b) in enumerate(rnd.pairs, 1):
            e = rnd.results.get(i)
            matches.append(
                {
                    "table": i,
                    "players": [
                        {"id": p, "name": t.players[p], "seed": seed[p], "won": e is not None and e.winner == p}
                        for p in (a, b)
                    ],
                    "result": result_text(t, e),
                    "game": e.game if e else "",
                }
            )
        out.append({"round": n, "title": stage(len(rnd.pairs)), "matches": matches})
    return out


# --- a round ---------------------------------------------------------------------------------------------------
def sort_key(name: str) -> tuple[str, str]:
    """A name's place in an alphabetical list: letter case and accents aside (Émile with the E's)."""
    plain = "".join(c for c in unicodedata.normalize("NFKD", name) if not unicodedata.combining(c))
    return (plain.casefold(), name)


def by_name(t: SwissTournament, n: int) -> list[dict[str, Any]]:
    """A round's pairing by player name, the list a queue of players reads on the wall or a phone: each player's
    table and opponent (``Ann Lee: table 4, vs Bo Chen``), or their bye."""
    rnd = t.rounds[n]
    rows = []
    for i, (a, b) in enumerate(rnd.pairs, 1):
        for me, other in ((a, b), (b, a)):
            rows.append(
                {
                    "id": me,
                    "name": t.players[me],
                    "table": i,
                    "opponent": {"id": other, "name": t.players[other]},
                    "line": f"{t.players[me]}: table {i}, vs {t.players[other]}",
                }
            )
    if rnd.bye:
        name = t.players[rnd.bye]
        rows.append({"id": rnd.bye, "name": name, "table": None, "opponent": None, "line": f"{name}: bye (a win)"})
    return sorted(rows, key=lambda r: sort_key(r["name"]))


def cost_terms(cost: dict[str, int]) -> list[dict[str, Any]]:
    """A pairing's cost, term by term in the order swiss-blossom minimises them (``COSTS``)."""
    return [
        {"term": k.replace("_", " "), "value": cost[k]} for k in (*COSTS, *sorted(set(cost) - set(COSTS))) if k in cost
    ]


def made(t: SwissTournament, n: int) -> list[str]:
    """How a round's pairing was made, in order: what withdrawn before, found by its algorithm (with its seed and
    cost) or given by hand (with its reason), then each swap by hand with its reason."""
    out = []
    for paired, withdrawn in t.withdrawn:
        if paired.round == n:
            out.append(f"An earlier pairing was withdrawn before any result: {withdrawn.reason}.")
    rnd = t.rounds[n]
    p = rnd.pairing
    if p is None:
        out.append("Paired by the bracket, seeded by the final Swiss standings.")
    elif p.algorithm == GIVEN:
        out.append(f"Given by hand: {p.reason or 'no reason recorded'}.")
    else:
        seed = f" from the seed {p.seed}" if p.seed is not None else ""
        cost = ", ".join(f"{c['term']} {c['value']}" for c in cost_terms(p.cost))
        out.append(f"Paired by {p.algorithm} v{p.version}{seed}" + (f": {cost}." if cost else "."))
    for s in rnd.swaps:
        a, b = (t.name(t.player(x)) for x in s.players)
        out.append(f"{a} and {b} swapped by hand: {s.reason}.")
    return out


def missed_in(t: SwissTournament, n: int) -> list[dict[str, str]]:
    """The players who missed round ``n`` (registered late, or dropped and then reinstated) and what it counts as."""
    out = []
    for a in t.absences:
        if a.first <= n <= a.last:
            why = "registered after it was paired" if a.why == "late" else "dropped, then reinstated"
            out.append({"id": a.player, "name": t.players[a.player], "why": why, "counts": a.missed_as})
    return sorted(out, key=lambda r: sort_key(r["name"]))


def round_page(t: SwissTournament, n: int) -> dict[str, Any]:
    """A round's tables and results (where each came from), its pairing by name, its bye, who missed it, and how
    the pairing was made."""
    rnd: Round = t.rounds[n]
    swapped = {t.player(x) for s in rnd.swaps for x in s.players}
    tables = []
    for i, (a, b) in enumerate(rnd.pairs, 1):
        e = rnd.results.get(i)
        tables.append(
            {
                "table": i,
                "a": {"id": a, "name": t.players[a]},
                "b": {"id": b, "name": t.players[b]},
                "result": result_text(t, e),
                "winner": t.players[e.winner] if e and e.winner else "",
                "how": how_said(e) if e else "",
                "game": e.game if e else "",
                "source": "" if e is None else ("match log" if e.game else "judge"),
                "reason": e.reason if e else "",
                "swapped": bool(swapped & {a, b}),
            }
        )
    p = rnd.pairing
    return {
        "round": n,
        "title": round_title(t, n),
        "swiss": n <= t.created.rounds,
        "tables": tables,
        "by_name": by_name(t, n),
        "bye": {"id": rnd.bye, "name": t.players[rnd.bye]} if rnd.bye else None,
        "missed": missed_in(t, n),
        "made": made(t, n),
        "algorithm": (f"{p.algorithm} v{p.version}" if p.algorithm == ALGORITHM else p.algorithm)
        if p
        else "the bracket (seeded by the Swiss standings)",
        "seed": p.seed if p else None,
        "reason": p.reason if p else "",
        "cost": cost_terms(p.cost) if p else [],
        "swaps": [{"players": [t.name(t.player(x)) for x in s.players], "reason": s.reason} for s in rnd.swaps],
        "left": [str(i) for i in rnd.left],
    }


def slips_page(t: SwissTournament, n: int) -> dict[str, Any]:
    """The printable match slips of a round: one a table (players, table, a box for the result, both signatures),
    each on its own A4 page; the ways a match is won to tick, and a draw where one may be."""
    rnd = t.rounds[n]
    cut = n > t.created.rounds
    return {
        "round": n,
        "title": round_title(t, n),
        "tables": [
            {"table": i, "players": [{"id": p, "name": t.players[p]} for p in pair]}
            for i, pair in enumerate(rnd.pairs, 1)
        ],
        "wins": [win_said(w) for w in WINS if not (w == "time" and t.created.draws)],
        "draws": [] if cut else ["draw"] + (["draw (time called)"] if t.created.draws else []),
        "cut": cut,
    }


# --- a player --------------------------------------------------------------------------------------------------
def player_page(t: SwissTournament, pid: str, venue=None) -> dict[str, Any]:
    """A player's line with its tie-breaks explained (the words of `swiss standings --explain`), and each round
    shown: the table, the opponent and their match-win percentage, the result and the match log it came from; a
    round missed (and what it counted as) or after the drop; the drops and reinstatements with their reasons."""
    table = t.standings()
    view = standings_view(t)
    row = next(r for r in view["rows"] if r["id"] == pid)
    s = next(x for x in table if x.player == pid)
    mwp = {x.player: x.mwp for x in table}
    rounds = [r for n in shown_rounds(t, venue) if (r := _players_round(t, pid, n, mwp)) is not None]
    notes = [f"Dropped: {r}" if i == 0 else f"Drop corrected: {r}" for i, r in enumerate(t.drop_reasons.get(pid, []))]
    notes += [f"Reinstated: {r.reason}" for r in t.reinstated.get(pid, [])]
    late = next((a for a in t.absences if a.player == pid and a.why == "late"), None)
    if late is not None:
        notes.insert(0, f"Registered late, for round {late.last + 1} on.")
    return {
        **row,
        "explain": s.explain(t.players),
        "rounds": rounds,
        "notes": notes,
    }


def _players_round(t: SwissTournament, pid: str, n: int, mwp: dict[str, Any]) -> dict[str, Any] | None:
    """A round of a player's page: the table, the opponent and their match-win percentage, the result and the
    match log it came from; a bye, a round missed (and what it counted as) or after the drop; None: nothing."""
    rnd = t.rounds[n]
    base = {"round": n, "title": round_title(t, n), "table": "", "opponent": None, "game": ""}
    seat = rnd.seat_of(pid)
    if seat == 0:
        return {**base, "result": "bye (a win)"}
    if seat is None:
        missed = t.absence(pid, n)
        if missed is not None:
            why = "registered late" if missed.why == "late" else "dropped, then reinstated"
            counted = "a loss" if missed.missed_as == "loss" else "a bye (a win)"
            return {**base, "result": f"missed ({why}): {counted}"}
        if n <= t.created.rounds and pid in t.dropped:
            return {**base, "result": "dropped"}
        return None
    a, b = rnd.pairs[seat - 1]
    other = b if a == pid else a
    e = rnd.results.get(seat)
    if e is None:
        said = "playing"
    elif e.winner is None:
        said = draw_said(e.victory)
    else:
        said = f"{'win' if e.winner == pid else 'loss'} ({how_said(e)})"
    return {
        **base,
        "table": seat,
        "opponent": {"id": other, "name": t.players[other], "mwp": _pct(mwp[other])},
        "result": said,
        "game": e.game if e else "",
    }


def match_logs(t: SwissTournament, venue=None) -> list[str]:
    """The match logs the tournament's results were read from, in the order of the rounds and tables shown."""
    seen: dict[str, None] = {}
    for n in shown_rounds(t, venue):
        for _, e in sorted(t.rounds[n].results.items()):
            if e.game:
                seen[e.game] = None
    return list(seen)
