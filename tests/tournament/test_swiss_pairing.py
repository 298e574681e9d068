"""Swiss pairing, standings and the cut for one-against-one games (referee/engine/tournament/swiss.py; C-10).

The pairing is checked against an exhaustive search of every pairing on small fields: it has the fewest
rematches (none whenever a pairing without one exists), then the least total squared score difference,
then the least rank distance."""

from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings, strategies as st

from referee.engine.tournament.swiss import (
    COSTS,
    VERSION,
    VERSIONS,
    Result,
    SwissError,
    bracket_order,
    cut,
    next_elimination,
    pair_cost,
    pair_round,
    seeded_order,
    standings,
)


def all_pairings(items):
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for k, other in enumerate(rest):
        for more in all_pairings(rest[:k] + rest[k + 1 :]):
            yield [(first, other), *more]


def best_cost(players, results, bye):
    table = {s.player: s for s in standings(players, results) if s.player != bye}
    met = {frozenset((r.a, r.b)) for r in results if r.b is not None}
    best = None
    for pairing in all_pairings(list(table)):
        total = tuple(sum(pair_cost(table[a], table[b], met)[k] for a, b in pairing) for k in range(4))
        best = total if best is None or total < best else best
    return best


def cost_of(pairing):
    return tuple(pairing.cost[k] for k in COSTS)


@st.composite
def history(draw, min_players=2, max_players=8):
    """A field and some earlier rounds, each paired at random (so rematches may be forced), with results."""
    n = draw(st.integers(min_players, max_players))
    players = [f"p{i}" for i in range(n)]
    results = []
    for rnd in range(1, draw(st.integers(0, 4)) + 1):
        order = draw(st.permutations(players))
        if n % 2:
            results.append(Result(rnd, order[-1], None, order[-1], "bye"))
            order = order[:-1]
        for i in range(0, len(order), 2):
            a, b = order[i], order[i + 1]
            outcome = draw(st.sampled_from(["a", "b", "draw"]))
            winner = {"a": a, "b": b, "draw": None}[outcome]
            results.append(Result(rnd, a, b, winner, "draw" if winner is None else "military"))
    return players, results


@settings(max_examples=150, deadline=None)
@given(history(), st.sampled_from(VERSIONS), st.one_of(st.none(), st.integers(0, 10**12 - 1)))
def test_pairing_is_as_good_as_an_exhaustive_search(field, version, seed):
    """C-10 Swiss: no rematch whenever a pairing without one exists, then the least score difference; by
    either version of the algorithm (networkx's matching, rustworkx's), the players in the entry order or in
    the order a seed draws (round 1's: the ranks, and so the rank distance, follow that order)."""
    players, results = field
    rnd = max((r.round for r in results), default=0) + 1
    pairing = pair_round(rnd, players, results, version=version, seed=seed)
    assert pairing.version == version and pairing.seed == seed
    order = players if seed is None else seeded_order(players, seed)
    assert cost_of(pairing) == best_cost(order, results, pairing.bye)
    met = {frozenset((r.a, r.b)) for r in results if r.b is not None}
    assert pairing.cost["rematches"] == sum(frozenset(p) in met for p in pairing.pairs)
    seated = [p for pair in pairing.pairs for p in pair] + ([pairing.bye] if pairing.bye else [])
    assert sorted(seated) == sorted(players)  # every player once


@settings(max_examples=100, deadline=None)
@given(history(min_players=3))
def test_the_bye_goes_to_the_lowest_ranked_player_without_one(field):
    players, results = field
    if len(players) % 2 == 0:
        players = players[:-1]
        gone = f"p{len(players)}"
        results = [r for r in results if gone not in (r.a, r.b)]
    pairing = pair_round(9, players, results)
    table = standings(players, results)
    without = [s.player for s in table if s.byes == 0]
    assert pairing.bye == (without[-1] if without else table[-1].player)


@settings(max_examples=100, deadline=None)
@given(history(), st.data())
def test_points_are_one_a_match_and_standings_are_ordered(field, data):
    players, results = field
    table = standings(players, results)
    assert sum(s.points for s in table) == len(results)  # a match gives 1 point in all; a bye is a win
    keys = [(s.points, s.omwp, s.oomwp) for s in table]
    assert keys == sorted(keys, reverse=True)
    assert all(Fraction(1, 3) <= s.mwp <= 1 for s in table)


def test_a_forced_rematch_only_when_no_other_pairing_exists():
    """Two players who already met must meet again: the only pairing (rematches counted, not refused)."""
    results = [Result(1, "ann", "bob", "ann", "honor")]
    pairing = pair_round(2, ["ann", "bob"], results)
    assert pairing.pairs == (("ann", "bob"),) and pairing.cost["rematches"] == 1


def test_pairing_down_from_an_odd_score_group():
    """Round 1 gave two winners, a drawn pair (time called) and two losers; the drawn pair has met, so both
    float: down to the losers, the winners' group staying whole (C-10)."""
    players = ["a", "b", "c", "d", "e", "f"]
    results = [
        Result(1, "a", "d", "a", "military"),
        Result(1, "b", "e", "b", "military"),
        Result(1, "c", "f", None, "time"),
    ]
    pairing = pair_round(2, players, results)
    assert pairing.pairs[0] == ("a", "b")  # the winners meet; c and f each meet a loser
    assert {frozenset(p) for p in pairing.pairs[1:]} in (
        {frozenset("cd"), frozenset("fe")},
        {frozenset("ce"), frozenset("fd")},
    )
    assert pairing.cost == {"rematches": 0, "score_difference_squared": 2, "pair_down_height": 2, "rank_distance": 5}
    assert pairing.algorithm == "swiss-blossom" and pairing.to_dict()["pairs"]


def test_omw_floor_of_one_third():
    """C-10: each opponent's match-win percentage counts for at least 1/3."""
    results = [
        Result(1, "ann", "bob", "ann", "military"),
        Result(1, "cat", "dan", "cat", "dishonor"),
        Result(2, "ann", "cat", "ann", "honor"),
        Result(2, "bob", "dan", "bob", "enlightenment"),
        Result(3, "ann", "dan", "ann", "military"),
        Result(3, "bob", "cat", "cat", "military"),
    ]
    table = {s.player: s for s in standings(["ann", "bob", "cat", "dan"], results)}
    assert table["dan"].mwp == Fraction(1, 3)  # 0 of 3, floored
    assert table["ann"].omwp == (Fraction(1, 3) + Fraction(2, 3) + Fraction(1, 3)) / 3
    assert [s.player for s in standings(["ann", "bob", "cat", "dan"], results)] == ["ann", "cat", "bob", "dan"]
    assert "OMW%" in table["ann"].explain()


def test_the_cut_is_seeded_so_the_top_two_meet_in_the_final():
    assert bracket_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert bracket_order(16)[:4] == [1, 16, 8, 9]
    players = [f"p{i}" for i in range(1, 11)]
    results = [Result(1, players[i], players[i + 1], players[i], "military") for i in range(0, 10, 2)]
    table = standings(players, results)
    first = cut(table, 8)
    top = [s.player for s in table[:8]]
    assert first[0] == (top[0], top[7]) and first[2] == (top[1], top[6])
    semis = next_elimination(first, [a for a, _ in first])
    final = next_elimination(semis, [a for a, _ in semis])
    assert final == ((top[0], top[1]),)
    assert next_elimination(final, [top[0]]) == ()
    top4 = cut(table, 4)  # 1-4, 2-3
    assert top4 == ((top[0], top[3]), (top[1], top[2]))
    assert cut(table, 2) == ((top[0], top[1]),)
    with pytest.raises(SwissError, match="a power of two"):
        cut(table, 6)
    with pytest.raises(SwissError, match="needs 16 players still in; 10 are"):
        cut(table, 16)
    with pytest.raises(SwissError, match="did not play"):
        next_elimination(first, [top[3]] * 4)


@pytest.mark.parametrize(
    "args, says",
    [
        ((1, "a", "b", "c", "military"), "the winner c is not a or b"),
        ((1, "a", "b", None, "military"), "a draw is draw or time"),
        ((1, "a", "b", "a", "draw"), "a win is by"),
        ((1, "a", None, "a", "military"), "bye is a win by bye"),
        ((1, "a", "a", "a", "military"), "cannot play against a"),
    ],
)
def test_a_result_that_cannot_be_is_one_line(args, says):
    with pytest.raises(SwissError, match=says):
        Result(*args)


def test_dropped_players_are_not_paired():
    players = ["a", "b", "c", "d"]
    pairing = pair_round(
        2, players, [Result(1, "a", "b", "a", "military"), Result(1, "c", "d", "c", "military")], dropped=["d"]
    )
    assert pairing.bye == "b" and pairing.pairs == (("a", "c"),)


def test_thirty_two_players_five_rounds_never_rematch():
    """A Kotei-sized field: 32 players, 5 rounds, the higher seed always winning: no rematch, pairs within
    score groups (every group is even), one point a match."""
    players = [f"p{i:02d}" for i in range(32)]
    results = []
    for rnd in range(1, 6):
        pairing = pair_round(rnd, players, results)
        assert pairing.cost["rematches"] == 0 and pairing.bye is None
        assert pairing.cost["score_difference_squared"] == 0
        results += [Result(rnd, a, b, a, "military") for a, b in pairing.pairs]
    table = standings(players, results)
    assert table[0].points == 5 and sum(s.points for s in table) == 80
    assert len({frozenset((r.a, r.b)) for r in results}) == 80


def test_exhaustive_search_is_itself_exhaustive():
    assert sum(1 for _ in all_pairings(list(range(8)))) == 105  # 7 x 5 x 3
    assert all(len(p) == 3 for p in all_pairings(list(range(6))))
    assert len(list(combinations(range(8), 2))) == 28


@settings(max_examples=40, deadline=None)
@given(history(min_players=10, max_players=40), st.integers(0, 2**32))
def test_both_versions_find_pairings_of_one_cost(field, seed):
    """Fields too large to search whole: the two versions (two solvers of one matching) agree on the least
    cost, and each seats every player once with the same bye."""
    players, results = field
    rnd = max((r.round for r in results), default=0) + 1
    one, two = (pair_round(rnd, players, results, version=v) for v in (1, 2))
    assert cost_of(one) == cost_of(two) and one.bye == two.bye
    for p in (one, two):
        assert sorted(x for pair in p.pairs for x in pair) == sorted(x for x in players if x != p.bye)


def test_the_desk_pairs_by_the_latest_version_and_refuses_an_unknown_one():
    assert VERSION == max(VERSIONS) and pair_round(1, ["a", "b"], []).version == VERSION
    with pytest.raises(SwissError, match="swiss-blossom has versions 1, 2, not 9"):
        pair_round(1, ["a", "b"], [], version=9)
