"""Swiss tournaments for one-against-one games (the card game's Kotei): pairing, results, standings with
their tie-breaks, and the cut to single elimination. Pure: no file, database, clock or randomness (the
first round's order is an input: the desk's order, or one it shuffled with a recorded seed).

Scoring (C-10): a win 1, a draw ½ (C-01's draw, or time called where the organiser allows draws), a loss
0; a bye is a win. Standings: match points, then opponents' match-win percentage (OMW%: the mean of each
opponent's match points per round played, each at least 1/3), then opponents' opponents' (OOMW%: the mean
of the opponents' OMW%), then the earlier place in the entry order.

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

Each term is weighted above the largest total the next ones can reach, so the order is strict. The pairing
is a value with its algorithm, version and cost, stored as data like a seating. Version 1 solves the matching
with networkx's ``max_weight_matching`` (pure Python: about two minutes for 512 players); version 2, the
desk's now, with rustworkx's (the same algorithm compiled: seconds). Both find a pairing of the least cost;
where several pairings share it they may choose differently, so a recorded pairing is found again by the
version that recorded it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations

ALGORITHM = "swiss-blossom"
VERSION = 2  # 1: networkx's matching; 2: rustworkx's (the same exact optimum, found faster)
VERSIONS = (1, 2)
FLOOR = Fraction(1, 3)  # C-10: each opponent's match-win percentage counts for at least 1/3
WINS = ("military", "dishonor", "honor", "enlightenment", "concession")  # how a match is won
DRAWS = ("draw", "time")  # C-01's draw; time called where the organiser allows draws (C-10)
BYE = "bye"
CUTS = (8, 16)


class SwissError(ValueError):
    """A result, pairing or cut that cannot be: one line."""


@dataclass(frozen=True, slots=True)
class Result:
    """One match of a round: ``winner`` None is a draw; ``b`` None is a bye (a win for ``a``)."""

    round: int
    a: str
    b: str | None
    winner: str | None
    victory: str

    def __post_init__(self) -> None:
        if self.b is None:
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
        if self.winner is None:
            return Fraction(1, 2)
        return Fraction(1) if self.winner == player else Fraction(0)

    def opponent(self, player: str) -> str | None:
        return self.b if player == self.a else self.a


@dataclass(frozen=True, slots=True)
class Pairing:
    """A round's pairs (the higher-ranked player first), its bye, and how they were found."""

    round: int
    pairs: tuple[tuple[str, str], ...]
    bye: str | None
    algorithm: str = ALGORITHM
    version: int = VERSION
    cost: dict[str, int] = field(default_factory=dict, compare=False, hash=False)

    def to_dict(self) -> dict[str, object]:
        return {
            "round": self.round,
            "pairs": [list(p) for p in self.pairs],
            "bye": self.bye,
            "algorithm": self.algorithm,
            "version": self.version,
            "cost": dict(self.cost),
        }


@dataclass(frozen=True, slots=True)
class Standing:
    rank: int
    player: str
    points: Fraction
    played: int  # rounds played, a bye included
    mwp: Fraction  # match-win percentage: points / rounds played
    omwp: Fraction
    oomwp: Fraction
    opponents: tuple[str, ...]
    byes: int

    def to_dict(self) -> dict[str, object]:
        return {
            "rank": self.rank,
            "player": self.player,
            "points": str(self.points),
            "played": self.played,
            "mwp": f"{float(self.mwp):.4f}",
            "omwp": f"{float(self.omwp):.4f}",
            "oomwp": f"{float(self.oomwp):.4f}",
            "byes": self.byes,
        }

    def explain(self) -> str:
        return (
            f"{self.rank}. {self.player}: {points_in(self.points, self.played)}; "
            f"OMW% {float(self.omwp):.2%} (opponents {', '.join(self.opponents) or 'none'}, each at least 1/3), "
            f"OOMW% {float(self.oomwp):.2%}"
        )


def points_in(points: Fraction, played: int) -> str:
    """A player's match points and rounds played as every screen says them: ``3.5 points in 5 rounds``,
    ``1 point in 1 round``."""
    return f"{_num(points)} point{'' if points == 1 else 's'} in {played} round{'' if played == 1 else 's'}"


def draw_said(victory: str) -> str:
    """A drawn table as every screen says it: ``draw`` (C-01), ``draw (time called)`` (C-10)."""
    return "draw" if victory == "draw" else f"draw ({'time called' if victory == 'time' else victory})"


def _num(x: Fraction) -> str:
    return str(x.numerator) if x.denominator == 1 else f"{float(x):g}"


# --- standings --------------------------------------------------------------------------------------
def standings(players: Sequence[str], results: Iterable[Result]) -> list[Standing]:
    """Every player's line, ranked (C-10): points, OMW%, OOMW%, then the entry order of ``players``."""
    order = {p: i for i, p in enumerate(players)}
    points = {p: Fraction(0) for p in players}
    played = dict.fromkeys(players, 0)
    byes = dict.fromkeys(players, 0)
    opponents: dict[str, list[str]] = {p: [] for p in players}
    for r in results:
        for p in (r.a, r.b):
            if p is not None and p not in order:
                raise SwissError(f"round {r.round}: {p} is not a player of the tournament")
        if r.b is None:
            points[r.a] += 1
            played[r.a] += 1
            byes[r.a] += 1
            continue
        for p in (r.a, r.b):
            points[p] += r.points(p)
            played[p] += 1
            opponents[p].append(r.opponent(p) or "")
    mwp = {p: max(FLOOR, points[p] / played[p]) if played[p] else FLOOR for p in players}
    omwp = {p: _mean([mwp[o] for o in opponents[p]]) for p in players}
    oomwp = {p: _mean([omwp[o] for o in opponents[p]]) for p in players}
    ranked = sorted(players, key=lambda p: (-points[p], -omwp[p], -oomwp[p], order[p]))
    return [
        Standing(i, p, points[p], played[p], mwp[p], omwp[p], oomwp[p], tuple(opponents[p]), byes[p])
        for i, p in enumerate(ranked, 1)
    ]


def _mean(values: list[Fraction]) -> Fraction:
    return sum(values, Fraction(0)) / len(values) if values else Fraction(0)


# --- pairing ----------------------------------------------------------------------------------------
def pair_round(
    round_no: int,
    players: Sequence[str],
    results: Sequence[Result],
    dropped: Iterable[str] = (),
    version: int = VERSION,
) -> Pairing:
    """The pairing of round ``round_no`` for ``players`` (the entry order) less ``dropped``, by the algorithm's
    ``version``."""
    if version not in VERSIONS:
        raise SwissError(f"{ALGORITHM} has versions {', '.join(map(str, VERSIONS))}, not {version}")
    gone = set(dropped)
    table = [s for s in standings(players, results) if s.player not in gone]
    if len(table) < 2:
        raise SwissError(f"round {round_no}: {len(table)} player(s) still in: nothing to pair")
    bye = None
    if len(table) % 2:
        without = [s for s in table if s.byes == 0]
        bye = (without or table)[-1].player  # the lowest-ranked player without a bye
        table = [s for s in table if s.player != bye]
    met = _met(results)
    pairs, cost = _match(table, met, version)
    return Pairing(round_no, pairs, bye, version=version, cost=cost)


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
    """The first round of the top-``size`` single elimination, seeded by the standings."""
    if size not in CUTS:
        raise SwissError(f"a cut to the top {size}: the cut is to the top {' or '.join(map(str, CUTS))}")
    if len(table) < size:
        raise SwissError(f"a cut to the top {size} needs {size} players; {len(table)} played")
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
