"""Scoring systems: each a small pure function of a table's size and its results, exact fractions.

A table's result is one ``Finish`` per seat: honor, then the game's own tie-breaks (R-25: territories,
provinces). ``places`` ranks a table (1, 2, 2, 4); every system gives points per seat, in seat order.

- placement: points by place from a table per table size; players level share the points of the places
  they cover; a single table configured for 5 scores a smaller table with its first k entries.
- share: honor / table mean x 100 (so 3- and 5-player tables are comparable).
- squares: honor^2 / sum of honor^2 x 100 (the Diplomacy anchor; sensitive to table size).
- honor: the honor itself.

A table whose honors are all 0 shares its points equally.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction


@dataclass(frozen=True)
class Finish:
    honor: int
    territories: int = 0
    provinces: int = 0

    @property
    def key(self) -> tuple[int, int, int]:
        return (self.honor, self.territories, self.provinces)


def places(finishes: Sequence[Finish]) -> list[int]:
    """Each seat's place: honor, then territories, then provinces (R-25); level players share a place (1, 2, 2, 4)."""
    return [1 + sum(1 for o in finishes if o.key > f.key) for f in finishes]


def winners(finishes: Sequence[Finish]) -> list[int]:
    """The seats that won (place 1): more than one is a shared win."""
    return [i for i, p in enumerate(places(finishes)) if p == 1]


def _all_zero(finishes: Sequence[Finish]) -> bool:
    return all(f.honor == 0 for f in finishes)


def placement_scale(points: dict, size: int) -> list[Fraction]:
    """The points by place for a table of ``size``: its own scale, else the first entries of a larger table's."""
    for n in sorted((int(k) for k in points), key=lambda n: (n != size, n < size, n)):
        if n >= size:
            return [Fraction(str(p)) for p in points[str(n)][:size]]
    raise ValueError(f"no placement points for a table of {size}")


def placement(finishes: Sequence[Finish], points: dict) -> list[Fraction]:
    n = len(finishes)
    scale = placement_scale(points, n)
    if _all_zero(finishes):
        return [sum(scale, Fraction(0)) / n] * n
    ranks = places(finishes)
    out = []
    for r in ranks:
        level = ranks.count(r)
        out.append(sum(scale[r - 1 : r - 1 + level], Fraction(0)) / level)
    return out


def share(finishes: Sequence[Finish], points: dict | None = None) -> list[Fraction]:
    total = sum(f.honor for f in finishes)
    n = len(finishes)
    if total == 0:
        return [Fraction(100)] * n
    return [Fraction(f.honor * n * 100, total) for f in finishes]


def squares(finishes: Sequence[Finish], points: dict | None = None) -> list[Fraction]:
    total = sum(f.honor**2 for f in finishes)
    n = len(finishes)
    if total == 0:
        return [Fraction(100, n)] * n
    return [Fraction(f.honor**2 * 100, total) for f in finishes]


def honor(finishes: Sequence[Finish], points: dict | None = None) -> list[Fraction]:
    return [Fraction(f.honor) for f in finishes]


SYSTEMS: dict[str, Callable[..., list[Fraction]]] = {
    "placement": placement,
    "share": share,
    "squares": squares,
    "honor": honor,
}

FORMULAS = {
    "placement": "points by place from the table for the table's size; level players share the places they cover",
    "share": "honor / table mean honor x 100",
    "squares": "honor^2 / sum of the table's honor^2 x 100",
    "honor": "the honor scored",
}


def table_points(system: str, finishes: Sequence[Finish], points: dict) -> list[Fraction]:
    """Points per seat for one table: depends only on the table's size and its finishes."""
    return SYSTEMS[system](finishes, points)


def aggregate(games: Sequence[tuple[int, Fraction]], how: str, best: int) -> tuple[Fraction, list[int]]:
    """A player's total over ``(round, points)`` games, and the rounds counted.

    sum: every game; best: the N games with the most points (the later round first among equals);
    average: points per game played."""
    if not games:
        return Fraction(0), []
    if how == "best":
        chosen = sorted(games, key=lambda g: (-g[1], -g[0]))[:best]
        return sum((p for _, p in chosen), Fraction(0)), sorted(r for r, _ in chosen)
    total = sum((p for _, p in games), Fraction(0))
    if how == "average":
        return total / len(games), sorted(r for r, _ in games)
    return total, sorted(r for r, _ in games)


def show(value: Fraction) -> str:
    """Rounded half-up (away from zero) to 2 decimals, as shown everywhere."""
    sign = "-" if value < 0 else ""
    cents = (abs(value) * 100 + Fraction(1, 2)).__floor__()
    return f"{sign}{cents // 100}.{cents % 100:02d}"
