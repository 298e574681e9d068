"""Tournaments through the commands a moderator types: a simulated 24-player, 3-round tournament whose games are
legal random rounds played through the engine (seeded), and the refusals."""

import json
import random
from collections import Counter, defaultdict
from fractions import Fraction as F
from itertools import combinations

from referee.cli.app import app
from tests.support.entry_point import referee, runner
from tests.support.tournament_play import next_sheet, setup_sheet

POINTS = {5: [10, 6, 3, 1, 0], 4: [10, 5, 2, 0], 3: [10, 4, 0]}


def ok(db, *args, input=None):
    result = runner.invoke(app, [*args, "--db", db], input=input)
    assert result.exit_code == 0, (args, result.output)
    return result.output


def js(db, *args):
    return json.loads(ok(db, *args, "--json"))


def play(db, game, rounds, rng):
    setup = setup_sheet(db, game, rng)  # the table's moderator records the starting control tokens first (p.4)
    if setup:
        ok(db, "setup", game, "-", input=setup)
    for _ in range(rounds):
        ok(db, "round", game, "-", "--yes", input=next_sheet(db, game, rng))


def hand_points(rows):
    """Placement points computed here, independently: rank on (honor, territories, provinces), level players share."""
    table = POINTS[len(rows)]
    key = lambda r: (r["honor"], r["territories"], r["provinces"])  # noqa: E731
    out = {}
    for r in rows:
        above = sum(1 for o in rows if key(o) > key(r))
        level = sum(1 for o in rows if key(o) == key(r))
        out[r["player"]] = F(sum(table[above : above + level]), level)
    return out


def test_a_simulated_tournament_end_to_end(tmp_path):
    db = str(tmp_path / "t.db")
    rng = random.Random(2026)
    ok(db, "tournament", "new", "sim", "--name", "Simulated Open", "--date", "2026-11-21", "--rounds", "3")
    roster = tmp_path / "players.csv"
    roster.write_text(
        "name,club,id\n" + "".join(f"Player {i:02d},{'Kyoto' if i in (1, 2) else ''},\n" for i in range(1, 25)), "utf-8"
    )
    ok(db, "tournament", "players", "add", "sim", "--csv", str(roster))
    assert len(js(db, "tournament", "players", "list", "sim")) == 24

    # round 1: a no-show and a standby; the standby fills a short table
    ok(db, "tournament", "rollcall", "sim", "1", "--absent", "Player 24", "--standby", "Player 23")
    seated = js(db, "tournament", "seat", "sim", "1")
    assert [len(t["seats"]) for t in seated["tables"]] == [5, 5, 5, 4, 4]
    names = [s["name"] for t in seated["tables"] for s in t["seats"]]
    assert "Player 23" in names and "Player 24" not in names and len(set(names)) == 23
    kyoto = [t["table"] for t in seated["tables"] for s in t["seats"] if s["name"] in ("Player 01", "Player 02")]
    assert kyoto[0] != kyoto[1]  # one club, kept apart
    games_before = {g["game"] for g in js(db, "games")}
    assert games_before == {t["game"] for t in seated["tables"]}
    header = {g["game"]: g for g in js(db, "games")}[seated["tables"][0]["game"]]
    assert header["event"] == "Simulated Open" and header["table"] == "1"

    # a seat swap between tables 1 and 2 (before their games began): new games, the old ones stay
    a, b = seated["tables"][0]["seats"][0]["name"], seated["tables"][1]["seats"][0]["name"]
    ok(db, "tournament", "amend", "sim", "1", "--swap", a, b, "--reason", "sat at the wrong table")
    by_player = {r["name"]: r for r in js(db, "tournament", "seating", "sim", "1", "--by", "player")}
    assert by_player[a]["table"] == 2 and by_player[b]["table"] == 1
    assert by_player[a]["game"] == "sim-r1-t2-a1"
    assert games_before < {g["game"] for g in js(db, "games")}

    status = js(db, "tournament", "status", "sim", "1")
    games = {s["table"]: s["game"] for s in status}
    play(db, games[1], 3, rng)  # time runs out after round 3
    ok(db, "tournament", "call", "sim", games[1], "--reason", "time ran out")
    for table in (2, 3, 4):
        play(db, games[table], 5, rng)
    players5 = [s["name"] for t in js(db, "tournament", "seating", "sim", "1") if t["table"] == 5 for s in t["seats"]]
    ok(
        db,
        "tournament",
        "result",
        "sim",
        "1",
        "5",
        *[f"{n}={10 + i}" for i, n in enumerate(players5)],
        "--reason",
        "the table played on paper",
    )
    status = {s["table"]: s for s in js(db, "tournament", "status", "sim", "1")}
    assert status[1]["state"] == "called" and status[5]["state"] == "entered by the judge"
    assert status[2]["state"] == "finished" and status[2]["rounds_played"] == 5
    ok(db, "tournament", "close", "sim", "1")

    # a drop and a late entry
    dropped = status[3]["players"][0]
    ok(db, "tournament", "players", "drop", "sim", dropped, "--reason", "went home")
    ok(db, "tournament", "players", "add", "sim", "Late Comer")
    for r in (2, 3):
        tables = js(db, "tournament", "seat", "sim", str(r))["tables"]
        seated_names = {s["name"] for t in tables for s in t["seats"]}
        assert dropped not in seated_names and "Late Comer" in seated_names
        for t in tables:
            play(db, t["game"], 5, rng)
        if r == 2:
            ok(db, "tournament", "close", "sim", "2")

    data = js(db, "tournament", "standings", "sim")
    rows = {r["name"]: r for r in data["standings"]}
    assert len(rows) == 25
    assert rows[dropped]["dropped"] and rows[dropped]["rounds"]["2"] == "dropped"
    assert rows["Late Comer"]["rounds"]["1"] == "not entered"
    assert rows["Player 24"]["rounds"]["1"] == "sat out"
    assert all(r["rounds"]["3"].endswith("*") for r in rows.values() if r["rounds"]["3"][0].isdigit())
    assert not any(r["rounds"]["1"].endswith("*") for r in rows.values())

    # every total recomputed here from the results' honors
    results = js(db, "tournament", "results", "sim")
    assert {r["source"] for r in results} == {"log", "called", "judge"}
    by_table = defaultdict(list)
    for r in results:
        by_table[(r["round"], r["table"])].append(r)
    expected = Counter()
    for table in by_table.values():
        for pid, pts in hand_points(table).items():
            expected[pid] += pts
    assert {r["player"]: F(r["total"]) for r in data["standings"]} == {p: expected[p] for p in expected} | {
        r["player"]: F(0) for r in data["standings"] if r["player"] not in expected
    }
    order = [(F(r["total"]), r["honor"]) for r in data["standings"]]
    assert order == sorted(order, reverse=True)  # points, then honor (the default order's first two keys)

    # nobody met anybody three times in three rounds
    met = Counter()
    for table in by_table.values():
        met.update(frozenset(p) for p in combinations([r["player"] for r in table], 2))
    assert max(met.values()) <= 2

    # exports, the printable sheet, export / import / verify
    ok(db, "tournament", "standings", "sim", "--csv", str(tmp_path / "standings.csv"))
    ok(
        db,
        "tournament",
        "seating",
        "sim",
        "2",
        "--by",
        "player",
        "--csv",
        str(tmp_path / "seating.csv"),
        "--sheet",
        str(tmp_path / "sheet.txt"),
    )
    ok(db, "tournament", "results", "sim", "--csv", str(tmp_path / "results.csv"))
    standings_csv = (tmp_path / "standings.csv").read_text("utf-8").splitlines()
    assert standings_csv[0].startswith("rank,shared,player,name,club,dropped,round_1,round_2,round_3,adjustment,total")
    assert len(standings_csv) == 26
    assert (tmp_path / "seating.csv").read_text("utf-8").splitlines()[0] == "round,table,seat,player,name,clan,game"
    sheet = (tmp_path / "sheet.txt").read_text("utf-8")
    assert "Round 2: seating" in sheet and "Late Comer" in sheet and max(map(len, sheet.splitlines())) <= 80
    ok(db, "tournament", "export", "sim", "-o", str(tmp_path / "sim.jsonl"))
    other = str(tmp_path / "other.db")
    ok(other, "tournament", "import", str(tmp_path / "sim.jsonl"))
    assert js(other, "tournament", "verify", "sim")["ok"]
    assert js(db, "tournament", "verify", str(tmp_path / "sim.jsonl"))["ok"]
    lines = (tmp_path / "sim.jsonl").read_text().splitlines()
    lines[1] = lines[1].replace("Player", "Plauer", 1)  # the registrations, edited
    (tmp_path / "bad.jsonl").write_text("\n".join(lines) + "\n")
    bad = referee(db, "tournament", "verify", str(tmp_path / "bad.jsonl"))
    assert bad.returncode == 1 and "edited payload" in bad.stderr


# --- refusals: one line on stderr, exit 1, nothing recorded --------------------------------------------------------
def small(tmp_path, n=8):
    db = str(tmp_path / "t.db")
    ok(db, "tournament", "new", "cup", "--name", "Cup", "--rounds", "2")
    for i in range(n):
        ok(db, "tournament", "players", "add", "cup", f"P{i}")
    return db


def refused(db, *args, expect):
    before = ok(db, "tournament", "export", "cup")
    result = referee(db, *args)
    assert result.returncode == 1, result
    lines = result.stderr.strip().splitlines()
    assert "Traceback" not in result.stderr and lines[0].startswith("error: ") and expect in lines[0], result.stderr
    assert ok(db, "tournament", "export", "cup") == before  # nothing recorded
    return lines[0]


def test_an_unknown_player_is_refused(tmp_path):
    db = small(tmp_path)
    refused(db, "tournament", "players", "drop", "cup", "Nobody", expect="no player 'Nobody' in tournament 'cup'")
    refused(db, "tournament", "rollcall", "cup", "1", "--absent", "Nobody", expect="no player 'Nobody'")


def test_seating_a_round_twice_is_refused(tmp_path):
    db = small(tmp_path)
    ok(db, "tournament", "seat", "cup", "1")
    refused(db, "tournament", "seat", "cup", "1", expect="round 1 is already seated")
    refused(db, "tournament", "seat", "cup", "3", expect="round 3: tournament 'cup' has rounds 1 to 2")


def test_duplicate_names_are_refused_unless_an_id_separates_them(tmp_path):
    db = small(tmp_path)
    refused(db, "tournament", "players", "add", "cup", "p0", expect="player 'p0' is already registered (id p0)")
    ok(db, "tournament", "players", "add", "cup", "P0", "--id", "p0-osaka")
    line = refused(db, "tournament", "players", "drop", "cup", "P0", expect="ambiguous")
    assert "p0, p0-osaka" in line
    ok(db, "tournament", "players", "drop", "cup", "p0-osaka")


def test_a_csv_with_a_bad_row_names_the_row_and_records_nothing(tmp_path):
    db = small(tmp_path)
    roster = tmp_path / "more.csv"
    roster.write_text("name,club\nAiko,Edo\nBen,\nP3,\nDai,\n", "utf-8")
    refused(
        db,
        "tournament",
        "players",
        "add",
        "cup",
        "--csv",
        str(roster),
        expect="row 4: player 'P3' is already registered",
    )
    roster.write_text("name,club\nAiko,Edo\n,\n", "utf-8")
    refused(db, "tournament", "players", "add", "cup", "--csv", str(roster), expect="row 3: no name")
    assert "Aiko" not in {p["name"] for p in js(db, "tournament", "players", "list", "cup")}


def test_a_result_for_a_game_not_in_the_tournament_is_refused(tmp_path):
    db = small(tmp_path)
    ok(db, "tournament", "seat", "cup", "1")
    ok(db, "new", "stray", "--clans", "crab,lion,crane")
    refused(
        db,
        "tournament",
        "call",
        "cup",
        "stray",
        "--reason",
        "time",
        expect="game 'stray' is not a game of tournament 'cup'",
    )
    refused(db, "tournament", "result", "cup", "1", "7", "P1=3", "--reason", "paper", expect="round 1 has no table 7")
    refused(db, "tournament", "result", "cup", "1", "1", "P1=3", "--reason", "paper", expect="the result names P1")
    refused(db, "tournament", "close", "cup", "1", expect="round 1 cannot be closed: no result yet at table 1")


def test_usage_errors_exit_2(tmp_path):
    db = small(tmp_path)
    result = referee(db, "tournament", "amend", "cup", "1", "--reason", "x")
    assert result.returncode == 2 and "Traceback" not in result.stderr


def test_a_correction_of_a_finished_game_updates_the_standings_and_is_marked(tmp_path):
    db = str(tmp_path / "t.db")
    rng = random.Random(7)
    ok(db, "tournament", "new", "one", "--name", "One table", "--rounds", "1", "--sizes", "3", "--scoring", "honor")
    for name in ("Aiko", "Ben", "Chiyo"):
        ok(db, "tournament", "players", "add", "one", name)
    game = js(db, "tournament", "seat", "one", "1")["tables"][0]["game"]
    play(db, game, 4, rng)
    status = js(db, "tournament", "status", "one")[0]
    assert (status["state"], status["rounds_played"], status["result"]) == ("playing", 4, False)
    assert js(db, "tournament", "standings", "one")["standings"][0]["rounds"]["1"] == "playing"
    play(db, game, 1, rng)
    ok(db, "tournament", "close", "one", "1")
    before = {r["name"]: r for r in js(db, "tournament", "standings", "one")["standings"]}
    assert not any(r["rounds"]["1"].endswith("c") for r in before.values())
    sheet = tmp_path / "fix.txt"
    sheet.write_text(next_sheet(db, game, rng))  # round 5 entered again, differently
    ok(db, "correct", game, "5", str(sheet), "--reason", "a token was misread")
    after = {r["name"]: r for r in js(db, "tournament", "standings", "one")["standings"]}
    assert all(r["rounds"]["1"].endswith("c") and r["games"][0]["corrected"] for r in after.values())
    score = js(db, "score", game)
    honors = {s["clan"]: s["total"] for s in score["scores"]}
    seats = js(db, "tournament", "seating", "one", "1")[0]["seats"]
    assert {s["name"]: F(honors[s["clan"]]) for s in seats} == {n: F(r["total"]) for n, r in after.items()}


def test_clans_by_preference_the_lowest_ranked_chooses_first(tmp_path):
    """Round 2 at one table of 3: all three want crab first; the last after round 1 gets it, the next its second."""
    db = str(tmp_path / "t.db")
    ok(db, "tournament", "new", "pref", "--name", "Pref", "--rounds", "2", "--sizes", "3")
    for name in ("Aiko", "Ben", "Chiyo"):
        ok(db, "tournament", "players", "add", "pref", name)
    ok(db, "tournament", "seat", "pref", "1")
    ok(db, "tournament", "result", "pref", "1", "1", "Aiko=30", "Ben=20", "Chiyo=10", "--reason", "paper")
    wishes = tmp_path / "wishes.csv"
    wishes.write_text("player,clans\nAiko,crab;lion\nBen,crab;crane;lion\nChiyo,crab;unicorn\n", "utf-8")
    tables = js(db, "tournament", "seat", "pref", "2", "--preferences", str(wishes))["tables"]
    clans = {s["name"]: s["clan"] for s in tables[0]["seats"]}
    assert clans == {"Chiyo": "crab", "Ben": "crane", "Aiko": "lion"}
    wishes.write_text("player,clans\nAiko,crab;samurai\n", "utf-8")
    result = referee(db, "tournament", "seat", "pref", "2", "--preferences", str(wishes))
    assert result.returncode == 1 and "row 2: unknown clan 'samurai'" in result.stderr


def _one_round_played(db, tid):
    """A one-round tournament of four at one table, its result entered by the judge: Ben, Chiyo, Aiko, Dai."""
    ok(db, "tournament", "new", tid, "--name", tid.title(), "--rounds", "1", "--sizes", "4")
    for name in ("Aiko", "Ben", "Chiyo", "Dai"):
        ok(db, "tournament", "players", "add", tid, name)
    ok(db, "tournament", "seat", tid, "1")
    ok(db, "tournament", "result", tid, "1", "1", "Aiko=10", "Ben=30", "Chiyo=20", "Dai=5", "--reason", "paper")
    return db


def test_the_final_table_seats_the_top_n_in_rank_order(tmp_path):
    db = _one_round_played(str(tmp_path / "t.db"), "fin")
    out = ok(db, "tournament", "final", "fin", "3", "--pick", "Ben=crab", "--pick", "Chiyo=lion")
    assert "game fin-final" in out
    game = js(db, "show", "fin-final")
    assert game["players"] == {"crab": "Ben", "lion": "Chiyo", game["clans"][2]: "Aiko"}
    assert game["clans"][:2] == ["crab", "lion"]
    again = referee(db, "tournament", "final", "fin", "3")
    assert again.returncode == 1 and "already seated" in again.stderr


def test_final_clans_by_preference_the_leader_chooses_first(tmp_path):
    db = _one_round_played(str(tmp_path / "t.db"), "fp")
    wishes = tmp_path / "wishes.csv"
    wishes.write_text("player,clans\nAiko,crab\nBen,lion;crab\nChiyo,lion;crab;crane\n", "utf-8")
    ok(db, "tournament", "final", "fp", "3", "--preferences", str(wishes))
    game = js(db, "show", "fp-final")
    assert game["players"] == {"lion": "Ben", "crab": "Chiyo", game["clans"][2]: "Aiko"}  # Aiko's crab was taken
    assert game["clans"][2] not in ("lion", "crab")


def test_grouping_by_standings_seats_players_of_a_standing_together(tmp_path):
    db = str(tmp_path / "t.db")
    ok(db, "tournament", "new", "swiss", "--name", "Swiss", "--rounds", "2", "--sizes", "4", "--group-by-standings")
    names = [f"N{i:02d}" for i in range(16)]
    for name in names:
        ok(db, "tournament", "players", "add", "swiss", name)
    tables = js(db, "tournament", "seat", "swiss", "1")["tables"]
    for t in tables:
        seats = [s["name"] for s in t["seats"]]
        ok(
            db,
            "tournament",
            "result",
            "swiss",
            "1",
            str(t["table"]),
            *[f"{n}={40 - 10 * i}" for i, n in enumerate(seats)],
            "--reason",
            "paper",
        )
    result = referee(db, "tournament", "seat", "swiss", "2")
    assert result.returncode == 1 and "close round 1 first" in result.stderr
    ok(db, "tournament", "close", "swiss", "1")
    ranking = [r["name"] for r in js(db, "tournament", "standings", "swiss")["standings"]]
    second = js(db, "tournament", "seat", "swiss", "2")
    assert second["algorithm"] == "greedy-swap-grouped"
    first_round = {s["name"]: t["table"] for t in tables for s in t["seats"]}
    for t in second["tables"]:
        seats = [s["name"] for s in t["seats"]]
        # every table holds players who finished in the same place in round 1 (the winners together, ...)
        assert len({ranking.index(n) // 4 for n in seats}) == 1, (t["table"], seats)
        assert len({first_round[n] for n in seats}) == 4  # and nobody meets again


def test_a_game_is_finished_only_when_every_sealed_objective_is_revealed(tmp_path):
    import re

    from referee.boarddata import load_board

    db = str(tmp_path / "t.db")
    rng = random.Random(11)
    ok(db, "tournament", "new", "obj", "--name", "Objectives", "--rounds", "1", "--sizes", "3")
    for name in ("Aiko", "Ben", "Chiyo"):
        ok(db, "tournament", "players", "add", "obj", name)
    table = js(db, "tournament", "seat", "obj", "1")["tables"][0]
    game, clan = table["game"], table["seats"][0]["clan"]
    objective = sorted(load_board().objectives)[0]
    sealed = ok(db, "seal", game, clan, input=objective + "\n")
    code = re.search(r"Reveal code: (\w{5}-\w{5})", sealed).group(1)
    play(db, game, 5, rng)
    status = js(db, "tournament", "status", "obj")[0]
    assert (status["rounds_played"], status["state"], status["sealed_objectives_left"], status["result"]) == (
        5,
        "playing",
        1,
        False,
    )
    refused = referee(db, "tournament", "close", "obj", "1")
    assert refused.returncode == 1 and "1 sealed objective(s) left" in refused.stderr
    ok(db, "reveal", game, clan, objective, code)
    status = js(db, "tournament", "status", "obj")[0]
    assert (status["state"], status["sealed_objectives_left"], status["result"]) == ("finished", 0, True)
    ok(db, "tournament", "close", "obj", "1")


def test_a_mistyped_database_is_refused_not_created(tmp_path):
    """Only `tournament new` and `tournament import` make a database, as `new`, `demo` and `import` do for
    games: any other tournament command on a path with no database says so (exit 1) and leaves nothing there,
    so a mistyped --db never turns into an empty tournament list or an empty file."""
    missing = tmp_path / "mistyped.db"
    commands = [
        ["tournament", "list"],
        ["tournament", "standings", "t1"],
        ["tournament", "status", "t1"],
        ["tournament", "players", "list", "t1"],
        ["tournament", "seat", "t1", "1"],
        ["tournament", "export", "t1"],
    ]
    for args in commands:
        result = referee(str(missing), *args)
        assert result.returncode == 1, (args, result.stdout, result.stderr)
        assert result.stderr.startswith(f"error: {missing}: no database here"), (args, result.stderr)
        assert "`referee tournament new`" in result.stderr and "Traceback" not in result.stderr
        assert not missing.exists(), args
    ok(str(missing), "tournament", "new", "t1", "--name", "Friday")  # the one that creates
    assert missing.exists() and "t1" in ok(str(missing), "tournament", "list")
