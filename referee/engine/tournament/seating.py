"""Seating a round: table sizes, the cost of a seating, and the algorithm that minimises it.

The algorithm ("greedy-swap", version 1): from several random starts (a ``random.Random(seed)`` handed
in), place the most constrained player first at the table where the cost rises least, then swap pairs
of players between tables while the cost falls, with a few random kicks between descents (iterated
local search). This is dipvis's board seeding, close to the greedy heuristics for the Social Golfer
Problem. Each table's seat order and clans are then chosen exactly (all permutations) to minimise
repeated seat positions and repeated clans.

The cost of a seating, minimised:

- each pair at a table: (times they have already met)^2 x MEET;
- a pair kept apart (same club, family): as if they had already met APART_MEETINGS times;
- a player at a short table (fewer than the largest size) who already sat at one: SHORT x times before;
- a player given a clan they already played: CLAN x times before;
- a player in a seat position they already had: POSITION x times before.

Fixed tables are hard constraints: those players sit at their table number.
"""

from __future__ import annotations

import math
import random
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from itertools import combinations, permutations

ALGORITHM = "greedy-swap"
VERSION = 1
MEET = 10
APART_MEETINGS = 10
SHORT = 5
CLAN = 3
POSITION = 1
CLANS = ("crab", "crane", "dragon", "lion", "phoenix", "scorpion", "unicorn")


class SeatingError(ValueError):
    pass


def table_sizes(players: int, allowed: Sequence[int] = (5, 4, 3), copies: int = 0) -> list[int]:
    """ceil(P / largest) tables whose sizes differ by at most 1, largest first; more tables only when the
    allowed sizes need them; never more than ``copies`` tables (0: no cap)."""
    allowed = sorted(set(allowed))
    if players < allowed[0]:
        raise SeatingError(f"{players} player(s) present: a table needs at least {allowed[0]}")
    n = math.ceil(players / allowed[-1])
    while n * allowed[0] <= players:
        base, extra = divmod(players, n)
        sizes = [base + 1] * extra + [base] * (n - extra)
        if all(s in allowed for s in sizes):
            if copies and n > copies:
                raise SeatingError(f"{players} players need {n} tables, but only {copies} game copies are on hand")
            return sizes
        n += 1
    raise SeatingError(f"{players} players cannot sit at tables of {', '.join(map(str, allowed))}")


@dataclass
class History:
    """What earlier rounds did: who met whom, clans played, short tables, seat positions."""

    met: Counter = field(default_factory=Counter)  # frozenset({a, b}) -> times at one table
    clans: Counter = field(default_factory=Counter)  # (player, clan) -> times
    short: Counter = field(default_factory=Counter)  # player -> times at a short table
    positions: Counter = field(default_factory=Counter)  # (player, seat index) -> times

    @classmethod
    def of(cls, tables: Iterable[Sequence[tuple[str, str]]], largest: int) -> History:
        """From tables of earlier rounds, each a list of (player, clan) in seat order."""
        h = cls()
        for seats in tables:
            players = [p for p, _ in seats]
            for a, b in combinations(players, 2):
                h.met[frozenset((a, b))] += 1
            for i, (p, c) in enumerate(seats):
                h.clans[(p, c)] += 1
                h.positions[(p, i)] += 1
                if len(seats) < largest:
                    h.short[p] += 1
        return h


def pair_weights(history: History, apart: Iterable[Sequence[str]] = ()) -> dict[str, dict[str, int]]:
    """The cost of seating a and b at one table: MEET x (meetings)^2, keep-apart pairs as APART_MEETINGS."""
    w: dict[str, dict[str, int]] = {}
    counts = Counter(history.met)
    for group in apart:
        for a, b in combinations(sorted(set(group)), 2):
            counts[frozenset((a, b))] += APART_MEETINGS
    for pair, m in counts.items():
        if len(pair) != 2 or not m:
            continue
        a, b = sorted(pair)
        w.setdefault(a, {})[b] = MEET * m * m
        w.setdefault(b, {})[a] = MEET * m * m
    return w


def partition_cost(tables: Sequence[Sequence[str]], weights: dict, history: History, largest: int) -> int:
    """The cost of who sits with whom (pairs and short tables), without clans and seat positions."""
    cost = 0
    for t in tables:
        for a, b in combinations(t, 2):
            cost += weights.get(a, {}).get(b, 0)
        if len(t) < largest:
            cost += sum(SHORT * history.short[p] for p in t)
    return cost


def seat_cost(seats: Sequence[tuple[str, str]], history: History) -> int:
    """The cost of one table's seat order and clans: repeated clans and repeated seat positions."""
    return sum(CLAN * history.clans[(p, c)] + POSITION * history.positions[(p, i)] for i, (p, c) in enumerate(seats))


def seating_cost(
    tables: Sequence[Sequence[tuple[str, str]]], history: History, apart: Iterable[Sequence[str]] = (), largest: int = 5
) -> int:
    """The whole cost of a seating (tables of (player, clan) in seat order): what ``verify`` recomputes."""
    weights = pair_weights(history, apart)
    players = [[p for p, _ in t] for t in tables]
    return partition_cost(players, weights, history, largest) + sum(seat_cost(t, history) for t in tables)


# --- the algorithm ---------------------------------------------------------------------------------------
class _Search:
    def __init__(
        self,
        players: list[str],
        sizes: list[int],
        weights: dict,
        history: History,
        fixed: dict[str, int],
        rng: random.Random,
    ):
        self.players, self.sizes, self.w, self.h, self.rng = players, sizes, weights, history, rng
        self.largest = max(sizes)
        self.fixed = {p: t - 1 for p, t in fixed.items() if p in set(players) and 1 <= t <= len(sizes)}
        self.index = {p: i for i, p in enumerate(players)}
        self.ranking: list[str] | None = (
            None  # grouping by standings: tables filled in this order, swaps between neighbours
        )

    def ranked_start(self) -> list[int]:
        """Grouped by standings: the best-ranked fill table 1, the next table 2, and so on."""
        where = [-1] * len(self.players)
        slots = [t for t, size in enumerate(self.sizes) for _ in range(size)]
        assert self.ranking is not None, "ranked_start is called only after seat_players sets the ranking"
        order = [p for p in self.ranking if p in self.index]
        order += sorted(p for p in self.players if p not in set(order))
        for p, t in zip(order, slots, strict=False):
            where[self.index[p]] = t
        return where

    def short_cost(self, p: str, t: int) -> int:
        return SHORT * self.h.short[p] if self.sizes[t] < self.largest else 0

    def start(self) -> list[int]:
        """Greedy: the most constrained player first, at the table where the cost rises least."""
        T = len(self.sizes)
        where = [-1] * len(self.players)
        room = list(self.sizes)
        S = [[0] * T for _ in self.players]  # S[i][t]: pair cost of player i at table t as it stands
        order = list(self.players)
        self.rng.shuffle(order)
        order.sort(key=lambda p: (p not in self.fixed, -sum(self.w.get(p, {}).values()), -self.h.short[p]))
        for p in order:
            i = self.index[p]
            if p in self.fixed and room[self.fixed[p]] > 0:
                t = self.fixed[p]
            else:
                options = [t for t in range(T) if room[t] > 0]
                t = min(options, key=lambda t: (S[i][t] + self.short_cost(p, t), -room[t]))
            where[i] = t
            room[t] -= 1
            for q, wq in self.w.get(p, {}).items():
                j = self.index.get(q)
                if j is not None:
                    S[j][t] += wq
        return where

    def sums(self, where: list[int]) -> list[list[int]]:
        T = len(self.sizes)
        S = [[0] * T for _ in self.players]
        for i, p in enumerate(self.players):
            for q, wq in self.w.get(p, {}).items():
                j = self.index.get(q)
                if j is not None:
                    S[i][where[j]] += wq
        return S

    def cost(self, where: list[int]) -> int:
        S = self.sums(where)
        pair = sum(S[i][where[i]] for i in range(len(self.players))) // 2
        return pair + sum(self.short_cost(p, where[i]) for i, p in enumerate(self.players))

    def descend(self, where: list[int], S: list[list[int]]) -> None:
        """Swap pairs of players between tables while the cost falls (first improvement). A swap can only
        lower the cost when one of the two players costs something where they sit."""
        movable = [i for i, p in enumerate(self.players) if p not in self.fixed]
        short = [SHORT * self.h.short[p] for p in self.players]
        is_short = [size < self.largest for size in self.sizes]
        improved = True
        while improved:
            improved = False
            for a in movable:
                ta = where[a]
                here_a = S[a][ta] + (short[a] if is_short[ta] else 0)
                if here_a == 0:
                    continue
                wa = self.w.get(self.players[a], {})
                for b in movable:
                    tb = where[b]
                    if tb == ta or (self.ranking is not None and abs(tb - ta) > 1):
                        continue
                    wab = wa.get(self.players[b], 0)
                    delta = (
                        S[b][ta]
                        - wab
                        + (short[b] if is_short[ta] else 0)
                        + S[a][tb]
                        - wab
                        + (short[a] if is_short[tb] else 0)
                        - here_a
                        - S[b][tb]
                        - (short[b] if is_short[tb] else 0)
                    )
                    if delta < 0:
                        self.swap(where, S, a, b)
                        improved = True
                        ta = where[a]
                        here_a = S[a][ta] + (short[a] if is_short[ta] else 0)
                        if here_a == 0:
                            break
                        wa = self.w.get(self.players[a], {})

    def swap(self, where: list[int], S: list[list[int]], a: int, b: int) -> None:
        ta, tb = where[a], where[b]
        for i, (src, dst) in ((a, (ta, tb)), (b, (tb, ta))):
            p = self.players[i]
            for q, wq in self.w.get(p, {}).items():
                j = self.index.get(q)
                if j is not None:
                    S[j][src] -= wq
                    S[j][dst] += wq
            where[i] = dst

    def kick(self, where: list[int], S: list[list[int]]) -> None:
        movable = [i for i, p in enumerate(self.players) if p not in self.fixed]
        for _ in range(2):
            a, b = self.rng.sample(movable, 2) if len(movable) >= 2 else (0, 0)
            if where[a] != where[b] and (self.ranking is None or abs(where[a] - where[b]) <= 1):
                self.swap(where, S, a, b)


def starts_for(players: int) -> tuple[int, int]:
    """Random starts and kicks per start: more for small fields, where they are cheap."""
    if players <= 40:
        return 12, 60
    if players <= 100:
        return 6, 10
    return 4, 4


def seat_players(
    players: Sequence[str],
    sizes: Sequence[int],
    history: History,
    rng: random.Random,
    *,
    apart: Iterable[Sequence[str]] = (),
    fixed: dict[str, int] | None = None,
    starts: int | None = None,
    kicks: int | None = None,
    future: int = 0,
    ranking: Sequence[str] | None = None,
) -> list[list[str]]:
    """Who sits at which table (tables in the order of ``sizes``), minimising the partition cost.

    ``future``: rounds still to seat after this one. For a field of at most LOOKAHEAD_PLAYERS, the
    seatings of least cost found are compared by seating the remaining rounds ahead (quickly, on the same
    sizes): the one that leaves the least cost for later wins, so that early rounds do not paint later
    ones into a corner.

    ``ranking`` (grouping by standings, best first): tables are filled in that order, and players are swapped only
    between neighbouring tables, so each table holds players of about the same standing."""
    players = sorted(players)
    if sum(sizes) != len(players):
        raise SeatingError(f"{len(players)} players for {sum(sizes)} seats")
    weights = pair_weights(history, apart)
    search = _Search(players, list(sizes), weights, history, fixed or {}, rng)
    if ranking is not None:
        search.ranking = list(ranking)
        where = search.ranked_start()
        S = search.sums(where)
        search.descend(where, S)
        return [list(t) for t in _canonical(where, players, sizes)]
    default_starts, default_kicks = starts_for(len(players))
    lookahead = future > 0 and len(players) <= LOOKAHEAD_PLAYERS
    starts = (default_starts * (2 if lookahead else 1)) if starts is None else starts
    kicks = default_kicks if kicks is None else kicks
    found: dict[tuple, int] = {}
    for _ in range(max(1, starts)):
        where = search.start()
        S = search.sums(where)
        search.descend(where, S)
        cost = search.cost(where)
        local, local_cost = list(where), cost
        for _ in range(kicks):
            if local_cost == 0:
                break
            search.kick(where, S)
            search.descend(where, S)
            cost = search.cost(where)
            if cost <= local_cost:
                local, local_cost = list(where), cost
            else:
                where = list(local)
                S = search.sums(where)
        found.setdefault(_canonical(local, players, sizes), local_cost)
        if local_cost == 0 and not lookahead:
            break
    least = min(found.values())
    candidates = [k for k, c in found.items() if c == least]
    if lookahead and len(candidates) > 1:
        candidates.sort(key=lambda k: _ahead(k, players, sizes, history, apart, fixed, rng, future))
    return [list(t) for t in candidates[0]]


LOOKAHEAD_PLAYERS = 40


def _canonical(where: list[int], players: list[str], sizes: Sequence[int]) -> tuple:
    tables: list[list[str]] = [[] for _ in sizes]
    for i, t in enumerate(where):
        tables[t].append(players[i])
    return tuple(tuple(t) for t in tables)


def _ahead(
    tables: Sequence[Sequence[str]],
    players: list[str],
    sizes: Sequence[int],
    history: History,
    apart,
    fixed,
    rng: random.Random,
    future: int,
) -> int:
    """The cost the next ``future`` rounds would have after this seating (a quick simulation)."""
    h = History(Counter(history.met), history.clans, Counter(history.short), history.positions)
    largest = max(sizes)
    total = 0
    current: Sequence[Sequence[str]] = tables
    for _ in range(future):
        for t in current:
            for a, b in combinations(t, 2):
                h.met[frozenset((a, b))] += 1
            if len(t) < largest:
                for p in t:
                    h.short[p] += 1
        current = seat_players(players, sizes, h, rng, apart=apart, fixed=fixed, starts=3, kicks=4)
        total += partition_cost(current, pair_weights(h, apart), h, largest)
    return total


def seat_table(
    players: Sequence[str],
    history: History,
    rng: random.Random,
    clans: Sequence[str] = CLANS,
    fixed_clans: dict[str, str] | None = None,
) -> list[tuple[str, str]]:
    """One table's seat order and clans, exact: the seat order over all permutations (positions), then the
    clans over all injective choices (at most 7P5 = 2,520), each minimising repeats; ties by ``rng``."""
    players = list(players)
    rng.shuffle(players)
    order = min(permutations(players), key=lambda o: sum(POSITION * history.positions[(p, i)] for i, p in enumerate(o)))
    pool = list(clans)
    rng.shuffle(pool)
    fixed_clans = fixed_clans or {}
    best, best_cost = None, None
    for choice in permutations(pool, len(order)):
        if any(fixed_clans.get(p, c) != c for p, c in zip(order, choice, strict=True)):
            continue
        cost = sum(CLAN * history.clans[(p, c)] for p, c in zip(order, choice, strict=True))
        if best_cost is None or cost < best_cost:
            best, best_cost = choice, cost
            if cost == 0:
                break
    if best is None:
        raise SeatingError(f"no clans can be given to {', '.join(order)}")
    return list(zip(order, best, strict=True))


def exhaustive_partition_cost(
    players: Sequence[str], sizes: Sequence[int], history: History, apart: Iterable[Sequence[str]] = ()
) -> int:
    """The test oracle: the least partition cost over every way to split ``players`` into tables of ``sizes``."""
    weights = pair_weights(history, apart)
    largest = max(sizes)
    best = None

    def split(rest: list[str], sizes_left: list[int], acc: list[list[str]]):
        nonlocal best
        if not sizes_left:
            cost = partition_cost(acc, weights, history, largest)
            best = cost if best is None else min(best, cost)
            return
        size, others = sizes_left[0], sizes_left[1:]
        first = rest[0]  # the first remaining player anchors the next table: no partition counted twice
        for mates in combinations(rest[1:], size - 1):
            table = [first, *mates]
            left = [p for p in rest if p not in table]
            split(left, others, acc + [table])

    for arrangement in sorted(set(permutations(sorted(sizes, reverse=True)))):
        split(list(players), list(arrangement), [])
    return best if best is not None else 0
