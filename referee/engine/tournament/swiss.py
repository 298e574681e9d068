"""Swiss tournaments for one-against-one games (the card game's Kotei): pairing, results, standings with
their tie-breaks, and the cut to single elimination. Pure: no file, database, clock or randomness (round 1's
order is drawn from a seed handed in: the service draws it and records it with the pairing).

Scoring (C-10): a win 1, a draw ½ (C-01's draw, or time called where the organiser allows draws), a loss
0; a bye is a win. A round a player missed (registered late, or dropped and reinstated) counts as the
organiser chose: a loss or a bye. Standings: match points, then opponents' match-win percentage (OMW%: the
mean of each opponent's match points per round played, each at least 1/3; an opponent met twice counts once
for each match), then opponents' opponents' (OOMW%: the mean of the opponents' OMW%), then the earlier place
in the entry order (C-10 stops at OOMW%: ``level_by_order`` names the players it placed).

Pairing ("swiss-blossom"): the players still in are ranked by the standings; if their number is odd, the
lowest-ranked player who has not had a bye gets it (a bye when all have had one goes to the lowest-ranked).
The others are paired by a minimum-cost perfect matching (Edmonds' blossom algorithm on integer weights:
exact) where the cost of a pairing, minimised in this order of importance, is:

1. the number of rematches (none whenever a pairing without one exists);
2. the total of the squared score differences of the pairs (in half points): players meet their own score
   group, and when a group is odd one player is paired down to the next (pair-down), never further than
   needed;
3. the total score of the higher players of the pairs that cross score groups: the players who float
   are paired down from the lowest group that can give them, so higher groups stay whole;
4. the total of the rank distances of the pairs: within a score group, neighbours in the standings meet.

Each term is weighted above the largest total the next ones can reach, so the order is strict. With a
``seed`` (round 1's, drawn by the service and recorded), the players are ordered by ``seeded_order`` in
place of the entry order: round 1, where everyone has 0 points, pairs neighbours of that random order and
gives its bye to the last of it. The pairing is a value with its algorithm, version, seed and cost, stored
as data like a seating. Version 1 solves the matching
with networkx's ``max_weight_matching`` (pure Python: about two minutes for 512 players); version 2, the
desk's now, with rustworkx's (the same algorithm compiled: seconds). Both find a pairing of the least cost;
where several pairings share it they may choose differently, so a recorded pairing is found again by the
version that recorded it.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

ALGORITHM = "swiss-blossom"
GIVEN = "given"  # a pairing made by hand (on paper, by the judge): recorded as given, never recomputed
VERSION = 2  # 1: networkx's matching; 2: rustworkx's (the same exact optimum, found faster)
VERSIONS = (1, 2)
FLOOR = Fraction(1, 3)  # C-10: each opponent's match-win percentage counts for at least 1/3
# how a match is won: the card game's victories (rulebook), a concession, time called with the winner the judge
# decided (where time is not a draw, C-10), the judge's decision (a penalty, a player absent at the table)
WINS = ("military", "dishonor", "honor", "enlightenment", "concession", "time", "judge")
DRAWS = ("draw", "time")  # C-01's draw; time called where the organiser allows draws (C-10)
BYE = "bye"
MISSED = "missed"  # a round a player missed (registered late, or dropped then reinstated), counted as a loss
MISSED_AS = ("loss", "bye")  # what the organiser gives a player for each round missed
MOST_CUT = 1024  # the largest cut offered: far beyond any field the pairing is measured on


class SwissError(ValueError):
    """A result, pairing or cut that cannot be: one line."""


def check_cut(size: int) -> int:
    """A cut to the top ``size``: 0 (none) or a power of two from 2 on. A single elimination of any other size
    would give its top seeds a bye in its first round, a free win the rules (C-10) know only in the Swiss
    rounds; so the cut is a power of two, as the organisers' tools offer it (top 2, 4, 8, 16, 32...)."""
    if size == 0 or (2 <= size <= MOST_CUT and size & (size - 1) == 0):
        return size
    raise SwissError(
        f"a cut to the top {size}: a cut is 0 (none) or a power of two (2, 4, 8, 16, 32... up to {MOST_CUT}), so "
        "that every player in it plays every elimination round"
    )


@dataclass(frozen=True, slots=True)
class Result:
    """One match of a round: ``winner`` None is a draw; ``b`` None is a bye (a win for ``a``) or a round ``a``
    missed (victory ``missed``: a loss, no winner)."""

    round: int
    a: str
    b: str | None
    winner: str | None
    victory: str

    def __post_init__(self) -> None:
        if self.b is None:
            if self.victory == MISSED and self.winner is None:
                return
            if self.victory != BYE or self.winner != self.a:
                raise SwissError(f"round {self.round}: {self.a}'s bye is a win by bye")
            return
        if self.a == self.b:
            raise SwissError(f"round {self.round}: {self.a} cannot play against {self.a}")
        if self.winner is None:
            if self.victory not in DRAWS:
                raise SwissError(f"round {self.round}: a draw is {' or '.join(DRAWS)}, not {self.victory!r}")
        elif self.winner not in (self.a, self.b):
            raise SwissError(f"round {self.round}: the winner {self.winner} is not {self.a} or {self.b}")
        elif self.victory not in WINS:
            raise SwissError(f"round {self.round}: a win is by {', '.join(WINS)}, not {self.victory!r}")

    def points(self, player: str) -> Fraction:
        if self.b is None:
            return Fraction(1) if self.victory == BYE else Fraction(0)
        if self.winner is None:
            return Fraction(1, 2)
        return Fraction(1) if self.winner == player else Fraction(0)

    def opponent(self, player: str) -> str | None:
        return self.b if player == self.a else self.a


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's pairs (the higher-ranked player first), its bye, and how they were found (``seed``: the one
    that ordered the players, round 1's)."""

    round: int
    pairs: tuple[tuple[str, str], ...]
    bye: str | None
    algorithm: str = ALGORITHM
    version: int = VERSION
    cost: dict[str, int] = field(default_factory=dict, compare=False, hash=False)
    seed: int | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "round": self.round,
            "pairs": [list(p) for p in self.pairs],
            "bye": self.bye,
            "algorithm": self.algorithm,
            "version": self.version,
            "cost": dict(self.cost),
            "seed": self.seed,
        }


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: str
    points: Fraction
    played: int  # rounds played, a bye and a round missed included
    mwp: Fraction  # match-win percentage: points / rounds played
    omwp: Fraction
    oomwp: Fraction
    opponents: tuple[str, ...]
    byes: int
    wins: int = 0  # byes included
    losses: int = 0  # rounds missed counted as losses included
    draws: int = 0

    @property
    def record(self) -> str:
        """Wins-losses-draws, as the organisers' tools show a record: ``3-1-0`` (a bye is a win)."""
        return f"{self.wins}-{self.losses}-{self.draws}"

    def to_dict(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "player": self.player,
            "points": number(self.points),
            "record": self.record,
            "wins": self.wins,
            "losses": self.losses,
            "draws": self.draws,
            "played": self.played,
            "mwp": f"{float(self.mwp):.4f}",
            "omwp": f"{float(self.omwp):.4f}",
            "oomwp": f"{float(self.oomwp):.4f}",
            "byes": self.byes,
        }

    def explain(self, names: dict[str, str] | None = None) -> str:
        """The line `swiss standings --explain` prints and a player's page shows: the players by ``names``."""
        name = (names or {}).get
        if self.opponents:
            met = ", ".join(name(o, o) for o in self.opponents)
            omw = f"OMW% {float(self.omwp):.2%} (opponents {met}, each at least 1/3)"
        else:
            omw = f"OMW% {float(self.omwp):.2%} (no opponents yet: a bye or a round missed has none)"
        return (
            f"{self.rank}. {name(self.player, self.player)}: {points_in(self.points, self.played)} ({self.record}); "
            f"{omw}, OOMW% {float(self.oomwp):.2%}"
        )


def points_in(points: Fraction, played: int) -> str:
    """A player's match points and rounds played as every screen says them: ``3.5 points in 5 rounds``,
    ``1 point in 1 round``."""
    return f"{number(points)} point{'' if points == 1 else 's'} in {played} round{'' if played == 1 else 's'}"


def draw_said(victory: str) -> str:
    """A drawn table as every screen says it: ``draw`` (C-01), ``draw (time called)`` (C-10)."""
    return "draw" if victory == "draw" else f"draw ({'time called' if victory == 'time' else victory})"


WIN_SAID = {"time": "time called, the judge's decision", "judge": "the judge's decision"}


def win_said(victory: str) -> str:
    """How a match was won as every screen says it: ``military``, ``time called, the judge's decision``."""
    return WIN_SAID.get(victory, victory)


def number(x: Fraction) -> str:
    """Match points as every screen and export writes them: ``3``, ``2.5`` (a spreadsheet reads a number)."""
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


# --- standings --------------------------------------------------------------------------------------
def standings(players: Sequence[str], results: Iterable[Result]) -> list[Standing]:
    """Every player's line, ranked (C-10): points, OMW%, OOMW%, then the entry order of ``players``."""
    order = {p: i for i, p in enumerate(players)}
    points = {p: Fraction(0) for p in players}
    played = dict.fromkeys(players, 0)
    byes = dict.fromkeys(players, 0)
    wld = {p: [0, 0, 0] for p in players}
    opponents: dict[str, list[str]] = {p: [] for p in players}
    for r in results:
        for p in (r.a, r.b):
            if p is not None and p not in order:
                raise SwissError(f"round {r.round}: {p} is not a player of the tournament")
        for p in (r.a,) if r.b is None else (r.a, r.b):
            points[p] += r.points(p)
            played[p] += 1
            _count(r, p, byes, wld, opponents)
    mwp = {p: max(FLOOR, points[p] / played[p]) if played[p] else FLOOR for p in players}
    omwp = {p: _mean([mwp[o] for o in opponents[p]]) for p in players}
    oomwp = {p: _mean([omwp[o] for o in opponents[p]]) for p in players}
    ranked = sorted(players, key=lambda p: (-points[p], -omwp[p], -oomwp[p], order[p]))
    return [
        Standing(i, p, points[p], played[p], mwp[p], omwp[p], oomwp[p], tuple(opponents[p]), byes[p], *wld[p])
        for i, p in enumerate(ranked, 1)
    ]


def _count(r: Result, p: str, byes: dict[str, int], wld: dict[str, list[int]], opponents: dict[str, list[str]]) -> None:
    """A result in a player's wins, losses and draws, byes and opponents."""
    if r.b is None:  # a bye (a win) or a round missed (a loss): no opponent
        byes[p] += r.victory == BYE
        wld[p][0 if r.victory == BYE else 1] += 1
        return
    opponents[p].append(r.opponent(p) or "")
    wld[p][2 if r.winner is None else 0 if r.winner == p else 1] += 1


def level_by_order(table: Sequence[Standing]) -> list[list[Standing]]:
    """The runs of neighbours in ``table`` level on points, OMW% and OOMW%: C-10 ends there, and the entry order
    placed them (each run at least two players, in rank order)."""
    runs: list[list[Standing]] = []
    for s in table:
        if runs and _key(runs[-1][-1]) == _key(s):
            runs[-1].append(s)
        else:
            runs.append([s])
    return [r for r in runs if len(r) > 1]


def _key(s: Standing) -> tuple[Fraction, Fraction, Fraction]:
    return (s.points, s.omwp, s.oomwp)


def _mean(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


def seeded_order(players: Sequence[str], seed: int) -> list[str]:
    """The players in the order a seed draws: sorted by the SHA-256 of the seed and each id (a fixed function of
    the two, the same on every machine and in every later version, so a recorded seed gives the order again)."""
    return sorted(players, key=lambda p: hashlib.sha256(f"{seed}:{p}".encode()).digest())


# --- pairing ----------------------------------------------------------------------------------------
def pair_round(
    round_no: int,
    players: Sequence[str],
    results: Sequence[Result],
    dropped: Iterable[str] = (),
    version: int = VERSION,
    seed: int | None = None,
) -> Pairing:
    """The pairing of round ``round_no`` for ``players`` (the entry order) less ``dropped``, by the algorithm's
    ``version``; with a ``seed``, the players in ``seeded_order`` in place of the entry order."""
    if version not in VERSIONS:
        raise SwissError(f"{ALGORITHM} has versions {', '.join(map(str, VERSIONS))}, not {version}")
    gone = set(dropped)
    order = list(players) if seed is None else seeded_order(players, seed)
    table = [s for s in standings(order, results) if s.player not in gone]
    if len(table) < 2:
        raise SwissError(f"round {round_no}: {len(table)} player(s) still in: nothing to pair")
    bye = None
    if len(table) % 2:
        without = [s for s in table if s.byes == 0]
        bye = (without or table)[-1].player  # the lowest-ranked player without a bye
        table = [s for s in table if s.player != bye]
    met = _met(results)
    pairs, cost = _match(table, met, version)
    return Pairing(round_no, pairs, bye, version=version, cost=cost, seed=seed)


def _met(results: Iterable[Result]) -> set[frozenset[str]]:
    return {frozenset((r.a, r.b)) for r in results if r.b is not None}


COSTS = ("rematches", "score_difference_squared", "pair_down_height", "rank_distance")


def pair_cost(a: Standing, b: Standing, met: set[frozenset[str]]) -> tuple[int, int, int, int]:
    """One pair's cost, each term in ``COSTS``' order: a rematch, the squared score difference (half
    points), the score (half points) of the higher player when the pair crosses score groups, the rank
    distance."""
    met_before = frozenset((a.player, b.player)) in met
    return _cost(int(2 * a.points), int(2 * b.points), a.rank, b.rank, met_before)


def _cost(half_a: int, half_b: int, rank_a: int, rank_b: int, met_before: bool) -> tuple[int, int, int, int]:
    """``pair_cost`` on the players' scores in half points (integers: computed once a player, not once a pair)."""
    diff = half_a - half_b
    return (int(met_before), diff * diff, max(half_a, half_b) if diff else 0, abs(rank_a - rank_b))


def _match(
    table: list[Standing], met: set[frozenset[str]], version: int
) -> tuple[tuple[tuple[str, str], ...], dict[str, int]]:
    n = len(table)
    half = [int(2 * s.points) for s in table]
    costs = {
        (i, j): _cost(
            half[i], half[j], table[i].rank, table[j].rank, frozenset((table[i].player, table[j].player)) in met
        )
        for i, j in combinations(range(n), 2)
    }
    # each term weighs more than the largest total the terms after it can reach over n/2 pairs
    units = [1]
    for k in (3, 2, 1):
        largest = max((c[k] for c in costs.values()), default=0)
        units.insert(0, units[0] * (n * largest + 1))
    weights = {key: sum(u * t for u, t in zip(units, c, strict=True)) for key, c in costs.items()}
    ceiling = max(weights.values()) + 1
    edges = [(i, j, ceiling - w) for (i, j), w in weights.items()]
    matched = _networkx(edges) if version == 1 else _rustworkx(n, edges)
    pairs = sorted((min(e), max(e)) for e in matched)
    if 2 * len(pairs) != n:  # a complete graph on an even number of players always has a perfect matching
        raise SwissError(f"no perfect matching of {n} players")
    named = tuple((table[i].player, table[j].player) for i, j in pairs)
    return named, {name: sum(costs[p][k] for p in pairs) for k, name in enumerate(COSTS)}


def _networkx(edges: list[tuple[int, int, int]]) -> set[tuple[int, int]]:
    from networkx import Graph
    from networkx.algorithms.matching import max_weight_matching

    graph = Graph()
    graph.add_weighted_edges_from(edges)
    return set(max_weight_matching(graph, maxcardinality=True))


def _rustworkx(n: int, edges: list[tuple[int, int, int]]) -> set[tuple[int, int]]:
    import rustworkx

    if max((w for _, _, w in edges), default=0) >= 2**60:  # its weights are 64-bit integers, the duals twice them
        raise SwissError(f"{n} players: the pairing's weights exceed what the matching can hold")
    graph = rustworkx.PyGraph()
    graph.add_nodes_from(range(n))
    graph.add_edges_from(edges)
    return set(rustworkx.max_weight_matching(graph, max_cardinality=True, weight_fn=int))


# --- the cut ----------------------------------------------------------------------------------------
def bracket_order(size: int) -> list[int]:
    """Seeds in bracket order (1 v size, ...), so that seeds 1 and 2 can meet only in the final."""
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [s for seed in order for s in (seed, n + 1 - seed)]
    return order


def cut(table: Sequence[Standing], size: int) -> tuple[tuple[str, str], ...]:
    """The first round of the top-``size`` single elimination, seeded by ``table`` (the standings of the players
    still in: a dropped player is left out of the cut)."""
    check_cut(size)
    if not size:
        raise SwissError("this tournament has no cut")
    if len(table) < size:
        raise SwissError(f"a cut to the top {size} needs {size} players still in; {len(table)} are")
    seeds = bracket_order(size)
    top = [s.player for s in table[:size]]
    return tuple((top[seeds[i] - 1], top[seeds[i + 1] - 1]) for i in range(0, size, 2))


def next_elimination(matches: Sequence[tuple[str, str]], winners: Sequence[str]) -> tuple[tuple[str, str], ...]:
    """The next elimination round: the winners of neighbouring matches meet (no draws in the cut)."""
    if len(winners) != len(matches):
        raise SwissError(f"{len(matches)} matches need {len(matches)} winners, got {len(winners)}")
    for (a, b), w in zip(matches, winners, strict=True):
        if w not in (a, b):
            raise SwissError(f"{w} did not play in {a} against {b}")
    if len(winners) == 1:
        return ()
    return tuple((winners[i], winners[i + 1]) for i in range(0, len(winners), 2))


def stage(matches: int) -> str:
    """An elimination round by its number of matches: ``Final``, ``Semi-finals``, ``Quarter-finals``,
    ``Round of 16``..."""
    return {1: "Final", 2: "Semi-finals", 4: "Quarter-finals"}.get(matches, f"Round of {2 * matches}")


@dataclass(frozen=True, slots=True)
class Placing:
    place: int
    standing: Standing  # the player's Swiss line (its rank: the Swiss rank)
    went: str  # how far the player went in the cut ("" for a player not in it)


def placings(table: Sequence[Standing], rounds: Sequence[Sequence[tuple[str, str, str | None]]]) -> list[Placing]:
    """The standings once the cut has begun: the players of the cut by how far each went (the champion, the
    finalist, the semi-finalists...: matches won in the cut, then still in before out), then the Swiss order;
    ``rounds``: the cut's rounds, each match as (a, b, winner or None while playing). Players level on both
    (two semi-finalists out) keep their Swiss order."""
    won: dict[str, int] = {}
    out: set[str] = set()
    went: dict[str, str] = {}
    for matches in rounds:
        name = stage(len(matches)).lower()
        for a, b, winner in matches:
            for p in (a, b):
                won.setdefault(p, 0)
                if winner is None:
                    went[p] = f"in the {name}"
                elif winner == p:
                    won[p] += 1
                    went[p] = "champion" if len(matches) == 1 else f"won the {name}"
                else:
                    out.add(p)
                    went[p] = f"lost in the {name}"
    ranked = sorted(table, key=lambda s: (s.player not in won, -won.get(s.player, 0), s.player in out, s.rank))
    return [Placing(i, s, went.get(s.player, "")) for i, s in enumerate(ranked, 1)]
