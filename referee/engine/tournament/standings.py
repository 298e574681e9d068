"""Results per table and the standings, with their tie-breaks and an explanation for each player. Pure: the
games' outcomes come in as data (``LiveGame``, read from the game logs by ``referee.tournaments.service``).

A table's result, in order of authority: the head judge's entry; the game called; the result accepted from
the game log (a later event in that log, a correction, is taken instead and marked); the game log itself
once the game is finished (provisional until the round is closed).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .model import Tournament
from .roster import Table
from .scoring import FORMULAS, Finish, aggregate, places, show, table_points

TIEBREAK_NAMES = {
    "points": "total points",
    "honor": "total honor",
    "wins": "tables won",
    "aop": "average opponent points",
    "h2h": "head-to-head",
}

SETTLED = (
    "places at a table: honor, then the game's own tie-breaks (R-25: territories, then provinces); players still "
    "level share the points of the places they cover (ranks 1, 2, 2, 4)",
    "a points table configured for 5 scores a smaller table with its first k entries",
    "tables won: the game's winner; a shared win counts 1/k for each of the k sharing it",
    "average opponent points: each meeting counts (an opponent met twice counts twice), with that opponent's points "
    "per game played over the whole tournament, adjustments included, every game (not only the best N)",
    "head-to-head: only when every pair of the tied players has shared a table; ranks them by how often each "
    "finished above the others at shared tables; players still level go on to the next key",
    "best N: the N games with the most points (the later round first among equals); total honor and tables won "
    "count every game; adjustments apply to the total after best N",
    "points are exact fractions in every comparison, shown rounded half-up to 2 decimals",
    "a late entry gets no points for rounds missed; a dropped player stays in the standings",
    "a table whose honors are all 0 shares its points equally",
)


@dataclass(frozen=True)
class LiveGame:
    """A table's game as its log stands: read and replayed by the storage layer."""

    game: str
    head: int  # the log's last event number
    rounds_played: int
    finished: bool  # the fold's answer (referee.games.battle.replay.Fold.complete)
    sealed_count: int  # how many sealed objectives are not yet revealed
    scores: dict = field(default_factory=dict)  # clan -> (honor, territories, provinces), when finished


@dataclass
class Loaded:
    """A tournament as the read side needs it: its fold and its games' logs as they stand."""

    tournament: Tournament
    live: dict[str, LiveGame] = field(default_factory=dict)
    signed: str = ""  # the organiser's signature over the tournament's record, as `tournament verify` states it


@dataclass(frozen=True)
class TableResult:
    round: int
    table: int
    game: str
    source: str  # log | called | judge
    rows: tuple  # ({"player", "clan", "honor", "territories", "provinces"}, ...) in seat order
    provisional: bool
    corrected: bool  # changed after the round closed: the log corrected after acceptance, or the judge's entry
    event: int = 0  # the tournament event that recorded it (0: read from the game's log, not yet accepted)
    reason: str = ""  # the judge's or the call's reason


def rows_from_scores(table: Table, scores: dict) -> tuple:
    """A table's result rows in seat order, from each clan's (honor, territories, provinces)."""
    return tuple(
        {
            "player": s.player,
            "clan": s.clan,
            "honor": scores[s.clan][0],
            "territories": scores[s.clan][1],
            "provinces": scores[s.clan][2],
        }
        for s in table.seats
    )


def table_result(loaded: Loaded, round_no: int, table: Table) -> TableResult | None:
    t = loaded.tournament
    provisional = round_no not in t.closed
    key = (round_no, table.number)
    version = t.result_version(*key)
    entered = t.entered.get(key)
    if entered is not None:
        clan = {s.player: s.clan for s in table.seats}
        rows = tuple({**r, "clan": clan.get(r["player"], r.get("clan", ""))} for r in entered.rows)
        corrected = key in t.corrections  # entered after the round closed
        return TableResult(
            round_no, table.number, table.game, "judge", rows, provisional, corrected, version, entered.reason
        )
    called = t.called.get(table.game)
    if called is not None:
        return TableResult(
            round_no, table.number, table.game, "called", tuple(called.rows), provisional, False, version, called.reason
        )
    live = loaded.live.get(table.game)
    accepted = t.accepted.get(table.game)
    if accepted is not None:
        if live is not None and live.head != accepted.head and live.finished:
            rows = rows_from_scores(table, live.scores)
            return TableResult(round_no, table.number, table.game, "log", rows, provisional, True, version)
        return TableResult(round_no, table.number, table.game, "log", tuple(accepted.rows), provisional, False, version)
    if live is not None and live.finished:
        return TableResult(
            round_no, table.number, table.game, "log", rows_from_scores(table, live.scores), provisional, False
        )
    return None


def results(loaded: Loaded) -> dict[tuple[int, int], TableResult]:
    out = {}
    for r, seating in sorted(loaded.tournament.seatings.items()):
        for table in seating.tables:
            res = table_result(loaded, r, table)
            if res is not None:
                out[(r, table.number)] = res
    return out


# --- standings ---------------------------------------------------------------------------------------------
@dataclass
class GameLine:
    round: int
    table: int
    game: str
    clan: str
    honor: int
    place: int
    points: Fraction
    win: Fraction
    opponents: list[str]
    source: str
    provisional: bool
    corrected: bool
    counted: bool = True  # counted in the total (best N)

    def to_dict(self) -> dict[str, Any]:
        return {
            "round": self.round,
            "table": self.table,
            "game": self.game,
            "clan": self.clan,
            "honor": self.honor,
            "place": self.place,
            "points": str(self.points),
            "points_shown": show(self.points),
            "win": str(self.win),
            "opponents": list(self.opponents),
            "source": self.source,
            "provisional": self.provisional,
            "corrected": self.corrected,
            "counted": self.counted,
        }


@dataclass
class Row:
    player: str
    name: str
    club: str
    dropped: bool
    games: list[GameLine]
    cells: dict[int, str]  # round -> what the round column shows
    adjustment: Fraction
    total: Fraction
    honor: int
    wins: Fraction
    aop: Fraction
    h2h: int | None = None  # set when head-to-head separated this player's group
    rank: int = 0
    shared: bool = False

    def key(self, name: str) -> Any:
        return {"points": self.total, "honor": self.honor, "wins": self.wins, "aop": self.aop}[name]

    def to_dict(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "shared": self.shared,
            "player": self.player,
            "name": self.name,
            "club": self.club,
            "dropped": self.dropped,
            "rounds": {str(r): c for r, c in sorted(self.cells.items())},
            "total": str(self.total),
            "total_shown": show(self.total),
            "honor": self.honor,
            "wins": str(self.wins),
            "wins_shown": show(self.wins),
            "aop": str(self.aop),
            "aop_shown": show(self.aop),
            "h2h": self.h2h,
            "adjustment": str(self.adjustment),
            "games": [g.to_dict() for g in self.games],
        }


@dataclass
class Standings:
    tournament: str
    name: str
    rounds: list[int]
    tiebreaks: list[str]
    rows: list[Row]
    clans: list[dict[str, Any]]  # best-clan award: clan, games, average points
    settings: list[str]
    corrections: list[dict[str, Any]] = field(default_factory=list)  # the results marked c: what and why

    def row(self, player: str) -> Row:
        return next(r for r in self.rows if r.player == player)

    def to_dict(self) -> dict[str, Any]:
        return {
            "tournament": self.tournament,
            "name": self.name,
            "rounds": self.rounds,
            "tiebreaks": self.tiebreaks,
            "standings": [r.to_dict() for r in self.rows],
            "clans": self.clans,
            "settings": self.settings,
            "corrections": self.corrections,
        }


def settings_lines(t: Tournament) -> list[str]:
    info = t.created
    system = f"scoring: {info.scoring} ({FORMULAS[info.scoring]})"
    if info.scoring == "placement":
        system += "; " + "; ".join(
            f"{k} players: {'/'.join(map(str, v))}" for k, v in sorted(info.points.items(), reverse=True)
        )
    total = {
        "sum": "every game counts",
        "best": f"the best {info.best} games count",
        "average": "the average per game played",
    }[info.aggregate]
    keys = ", ".join(TIEBREAK_NAMES[k] for k in info.tiebreaks)
    return [system, f"total: {total}", f"order: {keys}, then shared", *SETTLED]


def standings(loaded: Loaded) -> Standings:
    t = loaded.tournament
    info = t.created
    found = results(loaded)
    lines, clan_points = _game_lines(t, found)
    rows = _rows(t, lines)
    ordered = _rank(rows, list(info.tiebreaks), lines)
    corrections = [late_correction(res) for res in found.values() if res.corrected]
    return Standings(
        t.id,
        info.name,
        sorted(t.seatings),
        list(info.tiebreaks),
        ordered,
        _best_clans(clan_points),
        settings_lines(t),
        corrections,
    )


def _game_lines(
    t: Tournament, found: dict[tuple[int, int], TableResult]
) -> tuple[dict[str, list[GameLine]], dict[str, list[Fraction]]]:
    """Each player's games (a line per table result), and each clan's points per game played."""
    info = t.created
    lines: dict[str, list[GameLine]] = defaultdict(list)
    clan_points: dict[str, list[Fraction]] = defaultdict(list)
    for res in found.values():
        finishes = [Finish(r["honor"], r.get("territories", 0), r.get("provinces", 0)) for r in res.rows]
        pts = table_points(info.scoring, finishes, info.points)
        ranks = places(finishes)
        top = ranks.count(1)
        for i, r in enumerate(res.rows):
            others = [o["player"] for o in res.rows if o["player"] != r["player"]]
            win = Fraction(1, top) if ranks[i] == 1 else Fraction(0)
            lines[r["player"]].append(
                GameLine(
                    res.round,
                    res.table,
                    res.game,
                    r["clan"],
                    r["honor"],
                    ranks[i],
                    pts[i],
                    win,
                    others,
                    res.source,
                    res.provisional,
                    res.corrected,
                )
            )
            clan_points[r["clan"]].append(pts[i])
    return lines, clan_points


def _rows(t: Tournament, lines: dict[str, list[GameLine]]) -> list[Row]:
    """Every registered player's row, unranked: games, total (best N or average as set, adjustments after), honor,
    tables won, and the average opponent points (each opponent's points per game, every game counted)."""
    info = t.created
    rows: list[Row] = []
    ppg: dict[str, Fraction] = {}
    for pid, p in t.players.items():
        games = sorted(lines.get(pid, []), key=lambda g: g.round)
        total, counted = aggregate([(g.round, g.points) for g in games], info.aggregate, info.best)
        if info.aggregate == "best":
            for g in games:
                g.counted = g.round in counted
        adjustment = t.adjustment_total(pid)
        every = sum((g.points for g in games), Fraction(0)) + adjustment
        ppg[pid] = every / len(games) if games else adjustment
        rows.append(
            Row(
                pid,
                t.name(pid),
                p.club,
                p.dropped,
                games,
                _cells(t, pid, games),
                adjustment,
                total + adjustment,
                sum(g.honor for g in games),
                sum((g.win for g in games), Fraction(0)),
                Fraction(0),
            )
        )
    for row in rows:
        met = [o for g in row.games for o in g.opponents]
        row.aop = sum((ppg.get(o, Fraction(0)) for o in met), Fraction(0)) / len(met) if met else Fraction(0)
    return rows


def _best_clans(clan_points: dict[str, list[Fraction]]) -> list[dict[str, Any]]:
    """The best-clan award: each clan's average points per game, the best first."""
    clans: list[dict[str, Any]] = [
        {
            "clan": c,
            "games": len(v),
            "average": str(sum(v, Fraction(0)) / len(v)),
            "average_shown": show(sum(v, Fraction(0)) / len(v)),
        }
        for c, v in clan_points.items()
    ]
    clans.sort(key=lambda c: (-Fraction(c["average"]), c["clan"]))
    return clans


def late_correction(res: TableResult) -> dict[str, Any]:
    """A result changed after its round closed (marked ``c``): where, by what, and why."""
    if res.source == "judge":
        what = f"the judge's result entered after the round closed (event {res.event}): {res.reason}"
    else:
        what = f"its game log corrected after the result was accepted (referee replay {res.game})"
    return {
        "round": res.round,
        "table": res.table,
        "game": res.game,
        "source": res.source,
        "event": res.event,
        "reason": res.reason,
        "shown": f"round {res.round}, table {res.table}: {what}",
    }


def _cells(t: Tournament, pid: str, games: list[GameLine]) -> dict[int, str]:
    by_round = {g.round: g for g in games}
    cells = {}
    p = t.players[pid]
    for r, seating in sorted(t.seatings.items()):
        g = by_round.get(r)
        if g is not None:
            marks = (
                ("*" if g.provisional else "") + ("c" if g.corrected else "") + ("" if g.counted else " (not counted)")
            )
            cells[r] = show(g.points) + marks
        elif seating.table_of(pid) is not None:
            cells[r] = "playing"
        elif r < p.since_round:
            cells[r] = "not entered"
        elif t.dropped_in(pid, r):
            cells[r] = "dropped"
        else:
            cells[r] = "sat out"
    return cells


def _rank(rows: list[Row], keys: list[str], lines: dict[str, list[GameLine]]) -> list[Row]:
    out: list[Row] = []

    def split(group: list[Row], keys: list[str]) -> None:
        if len(group) == 1 or not keys:
            group.sort(key=lambda r: (r.name.casefold(), r.player))
            rank = len(out) + 1
            for r in group:
                r.rank, r.shared = rank, len(group) > 1
                out.append(r)
            return
        key, rest = keys[0], keys[1:]
        if key == "h2h":
            scores = _head_to_head(group, lines)
            if scores is None:
                return split(group, rest)
            for r in group:
                r.h2h = scores[r.player]
            value = lambda r: scores[r.player]  # noqa: E731
        else:
            value = lambda r: r.key(key)  # noqa: E731
        for v in sorted({value(r) for r in group}, reverse=True):
            split([r for r in group if value(r) == v], rest)

    split(list(rows), keys)
    return out


def _head_to_head(group: list[Row], lines: dict[str, list[GameLine]]) -> dict[str, int] | None:
    """How often each tied player finished above another tied player at a shared table; None unless every pair
    of them has shared a table."""
    ids = {r.player for r in group}
    finishes: dict[tuple[int, int], dict[str, int]] = defaultdict(dict)
    for pid in ids:
        for g in lines.get(pid, []):
            finishes[(g.round, g.table)][pid] = g.place
    met = set()
    above = {pid: 0 for pid in ids}
    for table in finishes.values():
        here = list(table)
        for a in here:
            for b in here:
                if a < b:
                    met.add((a, b))
                if table[a] < table[b]:
                    above[a] += 1
    pairs = {(a, b) for a in ids for b in ids if a < b}
    return above if pairs <= met else None
