"""Seating: table sizes, properties of the greedy-swap algorithm, and the exhaustive oracle on small cases."""

import random
from collections import Counter
from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st

from referee.tournament.seating import (
    CLANS,
    History,
    SeatingError,
    exhaustive_partition_cost,
    pair_weights,
    partition_cost,
    seat_players,
    seat_table,
    table_sizes,
)


@pytest.mark.parametrize(
    "players, sizes",
    [
        (3, [3]),
        (6, [3, 3]),
        (7, [4, 3]),
        (12, [4, 4, 4]),
        (13, [5, 4, 4]),
        (21, [5, 4, 4, 4, 4]),
        (200, [5] * 40),
        (24, [5, 5, 5, 5, 4]),
        (16, [4, 4, 4, 4]),
    ],
)
def test_table_sizes_are_ceil_p_over_5_tables_differing_by_at_most_one(players, sizes):
    assert table_sizes(players) == sizes


def test_table_sizes_honour_preferences_and_copies():
    assert table_sizes(16, (4,)) == [4, 4, 4, 4]
    assert table_sizes(12, (5, 4)) == [4, 4, 4]
    with pytest.raises(SeatingError, match="11 players cannot sit at tables of 4, 5"):
        table_sizes(11, (5, 4))
    with pytest.raises(SeatingError, match="only 3 game copies"):
        table_sizes(20, copies=3)
    with pytest.raises(SeatingError, match="at least 3"):
        table_sizes(2)


def random_history(rnd: random.Random, players: list[str], rounds: int) -> History:
    tables = []
    for _ in range(rounds):
        order = list(players)
        rnd.shuffle(order)
        for size in table_sizes(len(order)):
            group, order = order[:size], order[size:]
            tables.append([(p, CLANS[i]) for i, p in enumerate(group)])
    return History.of(tables, 5)


@settings(max_examples=30)
@given(st.integers(6, 40), st.integers(0, 4), st.integers(0, 2**32))
def test_everyone_present_is_seated_once_at_tables_of_valid_sizes(n, rounds, seed):
    rnd = random.Random(seed)
    players = [f"p{i}" for i in range(n)]
    h = random_history(rnd, players, rounds)
    sizes = table_sizes(n)
    tables = seat_players(players, sizes, h, random.Random(seed), starts=2, kicks=2)
    assert sorted(p for t in tables for p in t) == sorted(players)
    assert [len(t) for t in tables] == sizes
    for t in tables:
        seats = seat_table(t, h, random.Random(seed))
        assert sorted(p for p, _ in seats) == sorted(t)
        assert len({c for _, c in seats}) == len(seats) and {c for _, c in seats} <= set(CLANS)


@settings(max_examples=25)
@given(st.integers(6, 9), st.integers(1, 3), st.integers(0, 2**32))
def test_the_seating_reaches_the_exhaustive_minimum_on_small_cases(n, rounds, seed):
    """The oracle: every partition of the players into the round's tables, its least cost."""
    rnd = random.Random(seed)
    players = [f"p{i}" for i in range(n)]
    h = random_history(rnd, players, rounds)
    apart = [rnd.sample(players, 2)]
    sizes = table_sizes(n)
    tables = seat_players(players, sizes, h, random.Random(seed), apart=apart)
    found = partition_cost(tables, pair_weights(h, apart), h, max(sizes))
    assert found == exhaustive_partition_cost(players, sizes, h, apart)


def test_fixed_tables_and_keep_apart_are_kept():
    players = [f"p{i}" for i in range(20)]
    h = random_history(random.Random(3), players, 2)
    apart = [["p1", "p2", "p3", "p4"]]
    tables = seat_players(players, table_sizes(20), h, random.Random(9), apart=apart, fixed={"p7": 3, "p8": 1})
    assert "p7" in tables[2] and "p8" in tables[0]
    assert all(len(set(t) & set(apart[0])) <= 1 for t in tables)


def test_seating_is_deterministic_for_a_seed_whatever_the_order_of_entry():
    players = [f"p{i}" for i in range(30)]
    h = random_history(random.Random(5), players, 3)
    a = seat_players(players, table_sizes(30), h, random.Random(42))
    b = seat_players(list(reversed(players)), table_sizes(30), h, random.Random(42))
    assert a == b


def test_clans_and_seat_positions_avoid_repeats_exactly():
    h = History.of(
        [[("a", "crab"), ("b", "crane"), ("c", "lion")], [("d", "crab"), ("a", "crane"), ("b", "dragon")]], 5
    )
    seats = seat_table(["a", "b", "c"], h, random.Random(1))
    assert all(h.clans[(p, c)] == 0 for p, c in seats)
    assert all(h.positions[(p, i)] == 0 for i, (p, _) in enumerate(seats))


@pytest.mark.parametrize("n, size, rounds", [(16, 4, 5), (25, 5, 6)])
def test_known_designs_are_reached_without_repeated_opponents(n, size, rounds):
    """16 players at tables of 4 over 5 rounds, 25 at tables of 5 over 6 (affine planes of order 4 and 5)."""
    players = [f"p{i:02d}" for i in range(n)]
    done: list = []
    repeats = 0
    for r in range(1, rounds + 1):
        h = History.of(done, size)
        tables = seat_players(players, [size] * (n // size), h, random.Random(1000 + r), future=rounds - r)
        repeats += sum(h.met[frozenset(pair)] > 0 for t in tables for pair in combinations(t, 2))
        done += [seat_table(t, h, random.Random(r)) for t in tables]
    assert repeats == 0
    met = Counter(frozenset(pair) for t in done for pair in combinations([p for p, _ in t], 2))
    assert len(met) == n * (n - 1) // 2 and set(met.values()) == {1}  # everyone met everyone exactly once
