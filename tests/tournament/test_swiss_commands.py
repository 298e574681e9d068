"""A Kotei through the commands (under the command's real error boundary, tests/support/entry_point.py): 32 players, 5
Swiss rounds and a top-8 cut, one result read from a verified card game match log, the others entered by the
judge; checked against the pure standings (two paths to one answer) and for rematches."""

import json
from fractions import Fraction

from referee.tournament.swiss import Result, bracket_order, standings
from tests.support import manual
from tests.support.entry_point import referee, run_in_process

NAMES = [f"Player {i:02d}" for i in range(1, 33)]


def ok(db, *args):
    result = referee(db, *args)
    assert result.returncode == 0, (args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    return result.stdout


def test_a_32_player_5_round_kotei_with_a_top_8_cut(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    db = str(tmp_path / "kotei.db")
    ok(db, "tournament", "swiss", "new", "kotei", "--name", "Kotei Oslo", "--rounds", "5", "--cut", "8")
    roster = tmp_path / "players.txt"
    roster.write_text("\n".join(NAMES) + "\n")
    assert "32 players" in ok(db, "tournament", "swiss", "players", "kotei", "--file", str(roster))
    ids = [f"player-{i:02d}" for i in range(1, 33)]
    recorded: list[Result] = []
    met: set[frozenset] = set()
    for rnd in range(1, 6):
        paired = json.loads(ok(db, "tournament", "swiss", "pair", "kotei", "--json"))
        assert paired["round"] == rnd and paired["bye"] is None and paired["cost"]["rematches"] == 0
        lines = []
        for t in paired["tables"]:
            a, b = t["players"]
            pair = frozenset((a, b))
            assert pair not in met, f"round {rnd}: {a} and {b} meet again"
            met.add(pair)
            if rnd == 1 and t["table"] == 1:
                # the first table plays its match through `referee ccg`, started when the judge arrives in
                # turn 9: a starts turn 10 on 40 Family Honor, an honor victory (C-03)
                ok(
                    db,
                    "ccg",
                    "new",
                    "kotei-r1-t1",
                    *("--turn", "9", "--active", b, "--favor", "none", "--phase", "end"),
                    "--player",
                    f"{a}: honor 40, strength 6, gold 5",
                    "--player",
                    f"{b}: honor 6, strength 6, gold 5",
                )
                ok(db, "ccg", "pass", "kotei-r1-t1")
                out = ok(db, "tournament", "swiss", "accept", "kotei", "1", "kotei-r1-t1")
                assert "wins (honor), match kotei-r1-t1" in out
                recorded.append(Result(1, a, b, a, "honor"))
                continue
            if (ids.index(a) + ids.index(b) + rnd) % 11 == 0:  # now and then time is called: a draw (C-10)
                lines.append(f"{t['table']}: draw time")
                recorded.append(Result(rnd, a, b, None, "time"))
            else:
                winner = min(a, b, key=ids.index) if (ids.index(a) * 7 + rnd) % 5 else max(a, b, key=ids.index)
                lines.append(f"{t['table']}: {winner} military")
                recorded.append(Result(rnd, a, b, winner, "military"))
        sheet = tmp_path / f"r{rnd}.txt"
        sheet.write_text("\n".join(lines) + "\n")
        assert f"round {rnd} complete" in ok(
            db, "tournament", "swiss", "result", "kotei", str(rnd), "--file", str(sheet)
        )
    shown = json.loads(ok(db, "tournament", "swiss", "standings", "kotei", "--json"))["standings"]
    expected = standings(ids, recorded)  # the pure standings of the same results
    assert [s["player"] for s in shown] == [s.player for s in expected]
    assert [Fraction(s["points"]) for s in shown] == [s.points for s in expected]
    assert sum(Fraction(s["points"]) for s in shown) == 80  # 16 matches a round, one point each
    explained = ok(db, "tournament", "swiss", "standings", "kotei", "--explain")
    assert "OMW%" in explained and "each at least 1/3" in explained
    # the cut: the top 8 seeded 1-8, 4-5, 2-7, 3-6
    top = [s["player"] for s in shown[:8]]
    cut = json.loads(ok(db, "tournament", "swiss", "pair", "kotei", "--json"))
    assert cut["round"] == 6 and cut["kind"] == "cut"
    seeds = bracket_order(8)
    assert [t["players"] for t in cut["tables"]] == [[top[seeds[i] - 1], top[seeds[i + 1] - 1]] for i in range(0, 8, 2)]
    for rnd in (6, 7, 8):
        if rnd > 6:
            ok(db, "tournament", "swiss", "pair", "kotei")
        tables = json.loads(ok(db, "tournament", "swiss", "pairings", "kotei", str(rnd), "--json"))["tables"]
        lines = [f"{t['table']}: {t['players'][0]} military" for t in tables]
        out = ok(db, "tournament", "swiss", "result", "kotei", str(rnd), *lines)
    assert f"{NAMES[ids.index(top[0])]} wins the tournament" in out
    assert "verified" in ok(db, "tournament", "swiss", "verify", "kotei")
    final = json.loads(ok(db, "tournament", "swiss", "standings", "kotei", "--json"))
    assert final["champion"] == top[0]
    # the exports: CSV standings as the JSON says, and JSON Lines that import (verified) into another database
    sheet = tmp_path / "standings.csv"
    ok(db, "tournament", "swiss", "standings", "kotei", "--csv", str(sheet))
    rows = sheet.read_text().splitlines()
    assert rows[0].startswith("rank,id,name,points") and len(rows) == 33
    assert [r.split(",")[1] for r in rows[1:]] == [s["player"] for s in final["standings"]]
    exported = tmp_path / "kotei.jsonl"
    ok(db, "tournament", "swiss", "export", "kotei", "-o", str(exported))
    other = str(tmp_path / "other.db")
    assert "verified" in ok(other, "tournament", "swiss", "import", str(exported))
    assert json.loads(ok(other, "tournament", "swiss", "standings", "kotei", "--json")) == final
    lines = exported.read_text().splitlines()
    assert json.loads(lines[2])["type"] == "SwissRoundPaired"  # round 1's pairing, edited: the chain breaks
    tampered = tmp_path / "tampered.jsonl"
    tampered.write_text("\n".join([*lines[:2], lines[2].replace("player-01", "player-0X"), *lines[3:]]) + "\n")
    refused = referee(str(tmp_path / "third.db"), "tournament", "swiss", "import", str(tampered))
    assert refused.returncode == 1 and "nothing was stored" in refused.stderr


def test_refusals_are_one_line(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    db = str(tmp_path / "k.db")
    ok(db, "tournament", "swiss", "new", "k", "--name", "K", "--rounds", "3", "--cut", "0", "--no-time-draws")
    ok(db, "tournament", "swiss", "players", "k", "Ann", "Bob", "Cat", "Dan")
    ok(db, "tournament", "swiss", "pair", "k")
    for args, says in [
        (["result", "k", "1", "1: draw time"], "time called is not a draw in this tournament"),
        (["result", "k", "1", "1: zed military"], "no player 'zed'"),
        (["result", "k", "1", "9: ann military"], "round 1 has tables 1 to 2, not 9"),
        (["result", "k", "1", "1: ann sleeping"], "a win is by"),
        (["pair", "k"], "round 1 still has tables without a result"),
        (["standings", "nope"], "no tournament 'nope'"),
    ]:
        result = referee(db, "tournament", "swiss", *args)
        assert result.returncode == 1 and "Traceback" not in result.stderr, (args, result.stderr)
        errors = [ln for ln in result.stderr.splitlines() if ln.startswith("error:")]
        assert len(errors) == 1 and says in errors[0], (args, result.stderr)
    ok(db, "tournament", "swiss", "result", "k", "1", "1: ann military", "2: draw")
    again = referee(db, "tournament", "swiss", "result", "k", "1", "1: bob military")
    assert again.returncode == 1 and "a correction needs a reason" in again.stderr
    ok(db, "tournament", "swiss", "result", "k", "1", "1: bob military", "--reason", "the scores were swapped")
    table_cmd = referee(db, "tournament", "standings", "k")
    assert table_cmd.returncode == 1 and "a Swiss tournament, not one seated at tables" in table_cmd.stderr


def test_a_draw_and_a_single_point_read_as_said_and_a_refused_new_makes_no_database(tmp_path, monkeypatch):
    """Issue 33: a C-01 draw reads "draw" (not "draw (draw)"), time called "draw (time called)" (C-10), on
    `swiss pairings` and on the served player's page alike; a player with one point reads "1 point in 1 round";
    a `swiss new` or `tournament new` refused (a bad cut, an empty name, a bad id, bad table sizes) makes no
    database file."""
    monkeypatch.setenv("HOME", str(tmp_path))
    for args in (
        ("swiss", "new", "k", "--name", "K", "--cut", "7"),
        ("swiss", "new", "k", "--name", " "),
        ("swiss", "new", "K!", "--name", "K"),
        ("new", "t", "--name", "T", "--sizes", "9"),
    ):
        where = tmp_path / "none.db"
        refused = referee(str(where), "tournament", *args)
        assert refused.returncode == 1 and refused.stderr.startswith("error: "), (args, refused.stderr)
        assert not where.exists(), args
    db = str(tmp_path / "k.db")
    ok(db, "tournament", "swiss", "new", "k", "--name", "K", "--rounds", "2", "--cut", "0")
    ok(db, "tournament", "swiss", "players", "k", "Ann", "Bob", "Cat", "Dan", "Eve", "Fay")
    ok(db, "tournament", "swiss", "pair", "k")
    ok(db, "tournament", "swiss", "result", "k", "1", "1: ann military", "2: draw", "3: draw time")
    tables = ok(db, "tournament", "swiss", "pairings", "k", "1")
    assert "[draw]" in tables and "[draw (time called)]" in tables and "(draw)" not in tables, tables
    explained = ok(db, "tournament", "swiss", "standings", "k", "--explain")
    assert "ann: 1 point in 1 round;" in explained and "cat: 0.5 points in 1 round;" in explained, explained
    from fastapi.testclient import TestClient

    from referee.web import venue_app

    with TestClient(venue_app(db), base_url="http://localhost") as client:
        assert "rank 1 · 1 point in 1 round" in client.get("/tournaments/k/players/ann").text
        assert "<td>draw</td>" in client.get("/tournaments/k/players/cat").text  # table 2
        assert "<td>draw (time called)</td>" in client.get("/tournaments/k/players/eve").text  # table 3


def test_a_field_smaller_than_the_cut_is_said_at_round_1(tmp_path, monkeypatch):
    """Seven players for a cut to the top 8: round 1's pairing says so at once (players register only before
    round 1), and after the Swiss rounds the cut is refused with one line; the standings stand as final."""
    monkeypatch.setenv("HOME", str(tmp_path))
    db = str(tmp_path / "k.db")
    ok(db, "tournament", "swiss", "new", "k", "--name", "K", "--rounds", "1", "--cut", "8")
    ok(db, "tournament", "swiss", "players", "k", "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")
    first = referee(db, "tournament", "swiss", "pair", "k")
    assert first.returncode == 0 and "bye: Gus" in first.stdout
    assert (
        first.stderr
        == "note: 7 players for a cut to the top 8: the cut cannot be paired, the Swiss standings will be final\n"
    )
    ok(db, "tournament", "swiss", "result", "k", "1", "1: ann military", "2: cat honor", "3: eve dishonor")
    cut = referee(db, "tournament", "swiss", "pair", "k")
    assert cut.returncode == 1 and cut.stderr.splitlines()[0].endswith(
        "a cut to the top 8 needs 8 players still in; 7 are"
    )


def test_verify_finds_a_pairing_its_algorithm_does_not_give():
    """A pairing recorded with a whole chain but not the one "swiss-blossom" gives is named by verify."""
    from referee.log.swiss import verify
    from referee.log.tournaments import chain
    from referee.tournament.model import payload_of
    from referee.tournament.swiss import pair_round
    from referee.tournament.swiss_desk import SwissCreated, SwissPlayersRegistered, SwissRoundPaired, pairing_event

    players = [{"id": p, "name": p} for p in ("ann", "bob", "cat", "dan")]
    right = pairing_event(pair_round(1, [p["id"] for p in players], []))
    wrong = SwissRoundPaired(1, [["ann", "dan"], ["bob", "cat"]], None, right.algorithm, right.version, right.cost)
    assert wrong.pairs != right.pairs
    for pairing, problems in ((right, 0), (wrong, 1)):
        events, after = [], None
        for item in (SwissCreated("k", "K"), SwissPlayersRegistered(players), pairing):
            after = chain("k", after, *payload_of(item))
            events.append(after)
        found = verify(events)
        assert len(found) == problems, found
        if problems:
            assert "round 1's pairing is not what swiss-blossom gives" in found[0]


def test_a_pairing_is_found_again_by_the_version_that_recorded_it():
    """Twelve players after two rounds (drawn at random, seed 106) where the two versions of swiss-blossom pick
    different pairings of one least cost: a log whose round 3 was paired by version 1 verifies, the same pairs
    claimed as version 2's are named, and a version the code does not know is named too."""
    import random

    from referee.log.swiss import verify
    from referee.log.tournaments import chain
    from referee.tournament.model import payload_of
    from referee.tournament.swiss import pair_round
    from referee.tournament.swiss_desk import SwissCreated, SwissPlayersRegistered, SwissResultRecorded, pairing_event

    rng = random.Random(106)
    rng.choice([6, 8, 10, 12])  # the draws of the search that found this field
    ids = [f"p{i:02d}" for i in range(12)]
    items: list = [SwissCreated("k", "K", rounds=3, cut=0), SwissPlayersRegistered([{"id": p, "name": p} for p in ids])]
    results: list[Result] = []
    for rnd in (1, 2):
        paired = pair_round(rnd, ids, results, version=1)
        items.append(pairing_event(paired))
        for table, (a, b) in enumerate(paired.pairs, 1):
            winner = rng.choice([a, b, None])
            results.append(Result(rnd, a, b, winner, "military" if winner else "time"))
            items.append(SwissResultRecorded(rnd, table, winner, "military" if winner else "time"))
    one, two = (pair_round(3, ids, results, version=v) for v in (1, 2))
    assert one.pairs != two.pairs and one.cost == two.cost  # two pairings of one least cost

    def problems(last) -> list[str]:
        events, after = [], None
        for item in [*items, last]:
            after = chain("k", after, *payload_of(item))
            events.append(after)
        return verify(events)

    from dataclasses import replace

    recorded = pairing_event(one)
    assert problems(recorded) == []
    assert "round 3's pairing is not what swiss-blossom gives" in problems(replace(recorded, version=2))[0]
    assert "swiss-blossom has versions 1, 2, not 7" in problems(replace(recorded, version=7))[0]


def manual_kotei() -> list[str]:
    return manual.commands("docs/l5r-ccg/organiser.md", "A whole Kotei, as the organiser types it")


def test_the_manuals_kotei_runs_as_printed(tmp_path):
    """The manual's whole Kotei (docs/l5r-ccg/organiser.md), every command as printed, by the real entry point in
    a fresh folder holding a copy of examples/: the match's result accepted, the rounds paired with no rematch, the
    cut seeded by the standings, the winner named; the export verifies and imports elsewhere; the site is
    written."""
    import os
    import shlex
    import shutil
    from pathlib import Path

    commands = manual_kotei()
    assert len(commands) >= 25 and sum("swiss pair" in c for c in commands) == 8
    shutil.copytree(Path(__file__).parents[2] / "examples", tmp_path / "examples")
    env = {**os.environ, "COLUMNS": "120", "HOME": str(tmp_path)}
    said = []
    for command in commands:
        done = run_in_process([*shlex.split(command)[1:]], cwd=tmp_path, env=env)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (command, done.stdout[-1500:], done.stderr)
        said.append((command, done.stdout))
    out = dict(said)  # a command said more than once: its last output
    pairings = [o for c, o in said if c == "referee tournament swiss pair kotei"]
    assert "table 1: Ann Lee against Bo Chen" in pairings[0]
    accepted = next(o for c, o in said if "swiss accept" in c)
    assert "table 1: Ann Lee wins (honor), match kotei-r1-t1" in accepted
    assert "Quin Abe wins the tournament" in said[-4][1]
    assert all("rematches 0" in o for o in pairings[:5]) and "elimination round 1 of the cut" in pairings[5]
    explained = out["referee tournament swiss standings kotei --explain"].splitlines()[1:]
    ranked = [line.split(".", 1)[1].split(":", 1)[0].strip() for line in explained]  # ids, in rank order
    names = {n.lower().replace(" ", "-"): n for n in (tmp_path / "examples/kotei/players.txt").read_text().split("\n")}
    for table, (a, b) in enumerate([(1, 8), (4, 5), (2, 7), (3, 6)], 1):  # the cut seeded by those standings
        assert f"table {table}: {names[ranked[a - 1]]} against {names[ranked[b - 1]]}" in pairings[5]
    assert "every pairing found again: verified" in out["referee tournament swiss verify kotei"]
    assert "42 files written to kotei-site" in out["referee tournament publish kotei kotei-site"]
    assert ok(str(tmp_path / "other.db"), "tournament", "swiss", "import", str(tmp_path / "kotei.jsonl"))
