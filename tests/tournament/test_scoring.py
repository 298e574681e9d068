"""Scoring systems and standings: worked examples (the manual's), properties, and a hand-computed fixture run
through the real commands."""

import json
from fractions import Fraction as F

from hypothesis import given, strategies as st

from referee.cli.app import app
from referee.tournament.scoring import Finish, aggregate, placement, places, share, show, squares, table_points
from tests.support.entry_point import runner

POINTS = {"5": [10, 6, 3, 1, 0], "4": [10, 5, 2, 0], "3": [10, 4, 0]}


def fin(*honors):
    return [Finish(h) for h in honors]


# --- worked examples (docs/battle-for-rokugan/organiser.md) ---------------------------------------------------------
def test_placement_shares_the_points_of_the_places_covered():
    # 5 players 10/6/3/1/0; two level on honor, territories and provinces share places 2 and 3
    assert places(fin(30, 20, 20, 10, 0)) == [1, 2, 2, 4, 5]
    assert placement(fin(30, 20, 20, 10, 0), POINTS) == [10, F(9, 2), F(9, 2), 1, 0]


def test_placement_uses_the_game_tie_breaks_before_sharing():
    # honor, then territories, then provinces
    finishes = [Finish(12, 3, 5), Finish(12, 2, 6), Finish(5, 1, 2)]
    assert places(finishes) == [1, 2, 3]
    assert placement(finishes, POINTS) == [10, 4, 0]


def test_a_single_table_for_five_scores_a_smaller_table_with_its_first_entries():
    only_five = {"5": [10, 6, 3, 1, 0]}
    assert placement(fin(9, 7, 5, 3), only_five) == [10, 6, 3, 1]
    assert placement(fin(9, 7, 5), only_five) == [10, 6, 3]


def test_share_is_honor_over_the_table_mean_times_100():
    assert share(fin(30, 20, 10)) == [150, 100, 50]
    assert share(fin(30, 20, 10, 20)) == [150, 100, 50, 100]


def test_sum_of_squares():
    assert squares(fin(30, 20, 10)) == [F(900, 14), F(400, 14), F(100, 14)]
    assert [show(p) for p in squares(fin(30, 20, 10))] == ["64.29", "28.57", "7.14"]


def test_a_table_whose_honors_are_all_zero_shares_equally():
    assert placement(fin(0, 0, 0, 0), POINTS) == [F(17, 4)] * 4
    assert share(fin(0, 0, 0)) == [100] * 3
    assert squares(fin(0, 0, 0, 0)) == [25] * 4


def test_best_n_takes_the_later_round_among_equals_and_average_divides():
    games = [(1, F(10)), (2, F(4)), (3, F(10))]
    assert aggregate(games, "best", 2) == (20, [1, 3])
    assert aggregate([(1, F(4)), (2, F(4)), (3, F(3))], "best", 1) == (4, [2])
    assert aggregate(games, "average", 0) == (8, [1, 2, 3])
    assert aggregate(games, "sum", 0) == (24, [1, 2, 3])


def test_shown_rounded_half_up_to_two_decimals():
    assert show(F(1, 200)) == "0.01"
    assert show(F(2, 3)) == "0.67"
    assert show(F(-1, 200)) == "-0.01"
    assert show(F(44, 3)) == "14.67"


# --- properties ---------------------------------------------------------------------------------------------
tables = st.lists(st.tuples(st.integers(0, 60), st.integers(0, 9), st.integers(0, 20)), min_size=3, max_size=5)
systems = st.sampled_from(["placement", "share", "squares", "honor"])


@given(tables, systems, st.data())
def test_more_honor_never_lowers_a_players_points(rows, system, data):
    finishes = [Finish(*r) for r in rows]
    i = data.draw(st.integers(0, len(rows) - 1))
    more = data.draw(st.integers(1, 30))
    better = list(finishes)
    better[i] = Finish(finishes[i].honor + more, finishes[i].territories, finishes[i].provinces)
    assert table_points(system, better, POINTS)[i] >= table_points(system, finishes, POINTS)[i]


@given(tables, systems, st.randoms(use_true_random=False))
def test_renaming_or_reordering_players_changes_nothing(rows, system, rnd):
    """Points depend only on the table's size and honors: a seat's points follow its finish, whatever the order."""
    finishes = [Finish(*r) for r in rows]
    order = list(range(len(rows)))
    rnd.shuffle(order)
    points = table_points(system, finishes, POINTS)
    shuffled = table_points(system, [finishes[i] for i in order], POINTS)
    assert shuffled == [points[i] for i in order]


# --- a hand-computed fixture, through the commands -------------------------------------------------------------
def invoke(db, *args):
    result = runner.invoke(app, [*args, "--db", db])
    assert result.exit_code == 0, (args, result.output)
    return result


def test_standings_match_a_hand_computed_fixture(tmp_path):
    """Six players, tables of 3 (10/4/0), two rounds seated by hand, results entered by the judge, one adjustment.

    Round 1: A 20, B 15, C 10 -> A 10, B 4, C 0.  D 12 (3 territories), E 12 (2), F 5 -> D 10, E 4, F 0 (R-25).
    Round 2: A, E, F all 10 and level -> 14/3 each.  B, C, D all 0 -> 14/3 each (an all-zero table shares).
    C gets +4 (an adjustment).  Totals: A = D = 44/3; B = C = E = 26/3; F = 14/3.
    Points per game (adjustments included): A = D = 22/3, B = C = E = 13/3, F = 7/3.
    Tables won: A = D = 1 + 1/3; every other player 1/3.
    Average opponent points: A (B, C, E, F) = D (E, F, B, C) = (13+13+13+7)/3/4 = 23/6: shared first; A and D never
    met, so head-to-head is not used.  B (A, C, C, D) = C (A, B, B, D) = 70/3/4 = 35/6 > E (D, F, A, F) = 29/6.
    Head-to-head B v C: round 1 B finished above C; round 2 level: B 1, C 0.  So: A 1=, D 1=, B 3, C 4, E 5, F 6.
    """
    db = str(tmp_path / "t.db")
    invoke(
        db,
        "tournament",
        "new",
        "fix",
        "--name",
        "Fixture",
        "--rounds",
        "2",
        "--sizes",
        "3",
        "--tiebreaks",
        "points,wins,aop,h2h",
    )
    for name in "ABCDEF":
        invoke(db, "tournament", "players", "add", "fix", name)
    seat1 = tmp_path / "r1.csv"
    seat1.write_text(
        "table,seat,player,clan\n1,1,A,crab\n1,2,B,crane\n1,3,C,lion\n2,1,D,crab\n2,2,E,crane\n2,3,F,lion\n"
    )
    seat2 = tmp_path / "r2.csv"
    seat2.write_text(
        "table,seat,player,clan\n1,1,A,dragon\n1,2,E,lion\n1,3,F,crab\n2,1,B,lion\n2,2,C,unicorn\n2,3,D,dragon\n"
    )
    invoke(db, "tournament", "seat", "fix", "1", "--from", str(seat1))
    invoke(db, "tournament", "result", "fix", "1", "1", "A=20", "B=15", "C=10", "--reason", "played on paper")
    invoke(
        db, "tournament", "result", "fix", "1", "2", "D=12:3:5", "E=12:2:6", "F=5:1:2", "--reason", "played on paper"
    )
    invoke(db, "tournament", "seat", "fix", "2", "--from", str(seat2))
    invoke(db, "tournament", "result", "fix", "2", "1", "A=10", "E=10", "F=10", "--reason", "played on paper")
    invoke(db, "tournament", "result", "fix", "2", "2", "B=0", "C=0", "D=0", "--reason", "played on paper")
    invoke(db, "tournament", "adjust", "fix", "C", "4", "--reason", "a ruling restored a province")
    data = json.loads(invoke(db, "tournament", "standings", "fix", "--json").output)
    got = [
        (r["name"], r["rank"], r["shared"], F(r["total"]), F(r["wins"]), F(r["aop"]), r["h2h"])
        for r in data["standings"]
    ]
    assert got == [
        ("A", 1, True, F(44, 3), F(4, 3), F(23, 6), None),
        ("D", 1, True, F(44, 3), F(4, 3), F(23, 6), None),
        ("B", 3, False, F(26, 3), F(1, 3), F(35, 6), 1),
        ("C", 4, False, F(26, 3), F(1, 3), F(35, 6), 0),
        ("E", 5, False, F(26, 3), F(1, 3), F(29, 6), None),
        ("F", 6, False, F(14, 3), F(1, 3), F(35, 6), None),  # F met D, E, A, E: (22 + 13 + 22 + 13) / 3 / 4
    ]
    assert data["standings"][0]["rounds"] == {"1": "10.00*", "2": "4.67*"}
    explained = invoke(db, "tournament", "standings", "fix", "--explain", "C").output
    assert "adjustments: 4.00" in explained and "total: 8.67" in explained and "h2h: 0" in explained
    assert "a table whose honors are all 0 shares its points equally" in explained


def test_a_dropped_then_reinstated_player_reads_dropped_only_while_dropped(tmp_path):
    db = str(tmp_path / "t.db")
    invoke(db, "tournament", "new", "dr", "--name", "Drops", "--rounds", "3", "--sizes", "3")
    for name in "ABCD":
        invoke(db, "tournament", "players", "add", "dr", name)
    invoke(db, "tournament", "rollcall", "dr", "1", "--absent", "D")
    invoke(db, "tournament", "seat", "dr", "1")
    invoke(db, "tournament", "players", "drop", "dr", "A", "--reason", "ill")
    invoke(db, "tournament", "rollcall", "dr", "2", "--present", "D")
    invoke(db, "tournament", "seat", "dr", "2")
    invoke(db, "tournament", "players", "reinstate", "dr", "A", "--reason", "better")
    invoke(db, "tournament", "rollcall", "dr", "3", "--absent", "A")
    invoke(db, "tournament", "seat", "dr", "3")
    rows = {
        r["name"]: r["rounds"]
        for r in json.loads(invoke(db, "tournament", "standings", "dr", "--json").output)["standings"]
    }
    assert rows["A"] == {"1": "playing", "2": "dropped", "3": "sat out"}
    assert rows["D"]["1"] == "sat out"
