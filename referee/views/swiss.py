"""A Swiss tournament's venue pages as plain data (one-against-one games: the card game's Kotei): the standings
with their tie-breaks and the cut's bracket, each round's pairing and results, and each player's page with what
`referee tournament swiss standings --explain` says of them. `referee serve` and `referee tournament publish`
both show these (views/site.py lists the pages once)."""

from __future__ import annotations

from typing import Any

from ..engine.tournament.swiss import Standing, draw_said, points_in
from ..engine.tournament.swiss_desk import Round, SwissResultRecorded, SwissTournament

STAGES = {1: "Final", 2: "Semi-finals", 4: "Quarter-finals", 8: "Round of 16"}  # a cut round by its matches


def _pct(x) -> str:
    return f"{float(x):.2%}"


def _pts(x) -> str:
    return f"{float(x):g}"


def round_title(t: SwissTournament, n: int) -> str:
    if n <= t.created.rounds:
        return f"Round {n}"
    return f"Cut, round {n - t.created.rounds}: {STAGES.get(len(t.rounds[n].pairs), 'elimination')}"


def result_text(t: SwissTournament, e: SwissResultRecorded | None) -> str:
    """A table's result as the pages and `swiss pairings` say it ("playing" while it has none)."""
    if e is None:
        return "playing"
    if e.winner:
        return f"{t.players[e.winner]} ({e.victory})"
    return draw_said(e.victory)


def header(t: SwissTournament) -> dict[str, Any]:
    """What every page of the tournament shows of it: its name, date, format and, once decided, its winner."""
    c = t.created
    return {
        "id": c.tournament,
        "name": c.name,
        "date": c.date,
        "planned": c.rounds,
        "cut": c.cut,
        "champion": t.players[t.champion] if t.champion else "",
        "rounds": [
            {"round": n, "title": round_title(t, n), "complete": t.rounds[n].complete, "tables": len(t.rounds[n].pairs)}
            for n in sorted(t.rounds)
        ],
    }


def _row(t: SwissTournament, s: Standing) -> dict[str, Any]:
    return {
        "rank": s.rank,
        "id": s.player,
        "name": t.players[s.player],
        "dropped": s.player in t.dropped,
        "points": _pts(s.points),
        "played": s.played,
        "points_in": points_in(s.points, s.played),
        "byes": s.byes,
        "omw": _pct(s.omwp),
        "oomw": _pct(s.oomwp),
    }


def standings_page(t: SwissTournament) -> dict[str, Any]:
    """The standings (C-10: points, OMW%, OOMW%), the cut's bracket, and the list of rounds."""
    table = t.standings()
    return {**header(t), "rows": [_row(t, s) for s in table], "bracket": bracket(t, table)}


def bracket(t: SwissTournament, table: list[Standing]) -> list[dict[str, Any]]:
    """The cut's rounds as paired, each match with its players' seeds (their final Swiss rank) and its winner."""
    if not t.cut_rounds:
        return []
    seed = {s.player: s.rank for s in table}  # the cut is seeded by the final Swiss standings
    out = []
    for n in t.cut_rounds:
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
        out.append(
            {"round": n, "title": STAGES.get(len(rnd.pairs), f"Cut, round {n - t.created.rounds}"), "matches": matches}
        )
    return out


def round_page(t: SwissTournament, n: int) -> dict[str, Any]:
    """A round's tables (a Swiss round's pairing with its algorithm and cost, or a round of the cut) and results."""
    rnd: Round = t.rounds[n]
    tables = []
    for i, (a, b) in enumerate(rnd.pairs, 1):
        e = rnd.results.get(i)
        tables.append(
            {
                "table": i,
                "a": {"id": a, "name": t.players[a]},
                "b": {"id": b, "name": t.players[b]},
                "result": result_text(t, e),
                "game": e.game if e else "",
                "source": "" if e is None else ("match log" if e.game else "judge"),
                "reason": e.reason if e else "",
            }
        )
    p = rnd.pairing
    return {
        "round": n,
        "title": round_title(t, n),
        "swiss": n <= t.created.rounds,
        "tables": tables,
        "bye": {"id": rnd.bye, "name": t.players[rnd.bye]} if rnd.bye else None,
        "algorithm": f"{p.algorithm} v{p.version}" if p else "the bracket (seeded by the Swiss standings)",
        "cost": [{"term": k.replace("_", " "), "value": v} for k, v in p.cost.items()] if p else [],
        "left": [str(i) for i in range(1, len(rnd.pairs) + 1) if i not in rnd.results],
    }


def player_page(t: SwissTournament, pid: str) -> dict[str, Any]:
    """A player's line with its tie-breaks explained (the words of `swiss standings --explain`), and each round:
    the table, the opponent and their match-win percentage, the result, the match log it came from."""
    table = t.standings()
    s = next(x for x in table if x.player == pid)
    mwp = {x.player: x.mwp for x in table}
    rounds = []
    for n in sorted(t.rounds):
        rnd = t.rounds[n]
        if rnd.bye == pid:
            rounds.append(
                {"round": n, "title": round_title(t, n), "table": "", "opponent": None, "result": "bye (a win)"}
            )
            continue
        found = [(i, pair) for i, pair in enumerate(rnd.pairs, 1) if pid in pair]
        if not found:
            continue
        i, (a, b) = found[0]
        other = b if a == pid else a
        e = rnd.results.get(i)
        if e is None:
            said = "playing"
        elif e.winner is None:
            said = draw_said(e.victory)
        else:
            said = f"{'win' if e.winner == pid else 'loss'} ({e.victory})"
        rounds.append(
            {
                "round": n,
                "title": round_title(t, n),
                "table": i,
                "opponent": {"id": other, "name": t.players[other], "mwp": _pct(mwp[other])},
                "result": said,
                "game": e.game if e else "",
            }
        )
    return {**_row(t, s), "mwp": _pct(s.mwp), "explain": s.explain(), "rounds": rounds}


def match_logs(t: SwissTournament) -> list[str]:
    """The match logs the tournament's results were read from, in the order of the rounds and tables."""
    seen: dict[str, None] = {}
    for n in sorted(t.rounds):
        for _, e in sorted(t.rounds[n].results.items()):
            if e.game:
                seen[e.game] = None
    return list(seen)
