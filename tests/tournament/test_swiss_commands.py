"""A Kotei through the commands (under the command's real error boundary, tests/support/entry_point.py): 32 players, 5
Swiss rounds and a top-8 cut, one result read from a verified card game match log, the others entered by the
judge; checked against the pure standings (two paths to one answer) and for rematches."""

import json
from fractions import Fraction

from referee.engine.tournament.swiss import Result, bracket_order, standings
from tests.support.entry_point import referee

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
    said = ok(db, "tournament", "swiss", "standings", "kotei", "--csv", str(sheet))
    assert said.startswith(f"standings of 'kotei' (CSV) written to {sheet} (33 lines)\n"), said
    import csv

    with sheet.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 32 and list(rows[0])[:5] == ["place", "rank", "id", "name", "record"]
    assert [r["id"] for r in rows] == [s["player"] for s in final["standings"]]
    assert [float(r["points"]) for r in rows] == [float(Fraction(s["points"])) for s in final["standings"]]
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
    (a, b), (c, _) = (t["players"] for t in json.loads(ok(db, "tournament", "swiss", "pair", "k", "--json"))["tables"])
    for args, says in [
        (["result", "k", "1", "1: draw time"], "time called is not a draw in this tournament: enter the winner the"),
        (["result", "k", "1", "1: zed military"], "no player 'zed'"),
        (["result", "k", "1", "9: ann military"], "round 1 has tables 1 to 2, not 9"),
        (["result", "k", "1", f"1: {a} sleeping"], "a win is by"),
        (["result", "k", "1", f"1: {c} military"], f"the winner {c} is not {a} or {b}"),
        (["pair", "k"], "round 1 still has tables without a result: tables 1, 2"),
        (["standings", "nope"], "no tournament 'nope'"),
    ]:
        result = referee(db, "tournament", "swiss", *args)
        assert result.returncode == 1 and "Traceback" not in result.stderr, (args, result.stderr)
        errors = [ln for ln in result.stderr.splitlines() if ln.startswith("error:")]
        assert len(errors) == 1 and says in errors[0], (args, result.stderr)
    ok(db, "tournament", "swiss", "result", "k", "1", f"1: {a} time", "2: draw")  # time called, the judge decided
    again = referee(db, "tournament", "swiss", "result", "k", "1", f"1: {b} military")
    assert again.returncode == 1 and "a correction needs a reason" in again.stderr
    ok(db, "tournament", "swiss", "result", "k", "1", f"1: {b} judge", "--reason", "the scores were swapped")
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
        ("swiss", "new", "k", "--name", "K", "--cut", "6"),
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
    tables = [t["players"] for t in json.loads(ok(db, "tournament", "swiss", "pair", "k", "--json"))["tables"]]
    (won, lost), (drew, _), (timed, _) = tables
    ok(db, "tournament", "swiss", "result", "k", "1", f"1: {won} military", "2: draw", "3: draw time")
    shown = ok(db, "tournament", "swiss", "pairings", "k", "1")
    assert "[draw]" in shown and "[draw (time called)]" in shown and "(draw)" not in shown, shown
    names = {p: p.capitalize() for t in tables for p in t}
    explained = ok(db, "tournament", "swiss", "standings", "k", "--explain")
    assert f"{names[won]}: 1 point in 1 round (1-0-0);" in explained, explained
    assert f"{names[drew]}: 0.5 points in 1 round (0-0-1);" in explained, explained
    assert f"(opponents {names[won]}, each at least 1/3)" in explained  # the opponents by name
    from fastapi.testclient import TestClient

    from referee.web import venue_app

    with TestClient(venue_app(db), base_url="http://localhost") as client:
        assert "1 point in 1 round" in client.get(f"/tournaments/k/players/{won}").text
        assert '<td class="result-cell">draw</td>' in client.get(f"/tournaments/k/players/{drew}").text
        assert '<td class="result-cell">draw (time called)</td>' in client.get(f"/tournaments/k/players/{timed}").text


def test_a_field_smaller_than_the_cut_is_said_at_round_1(tmp_path, monkeypatch):
    """Seven players for a cut to the top 8: round 1's pairing says so at once, and after the Swiss rounds the cut
    is refused with one line; the standings stand as final. While a table has no result, `pair` names the tables
    still playing before anything of the cut."""
    monkeypatch.setenv("HOME", str(tmp_path))
    db = str(tmp_path / "k.db")
    ok(db, "tournament", "swiss", "new", "k", "--name", "K", "--rounds", "1", "--cut", "8")
    ok(db, "tournament", "swiss", "players", "k", "Ann", "Bob", "Cat", "Dan", "Eve", "Fay", "Gus")
    first = referee(db, "tournament", "swiss", "pair", "k", "--json")
    assert first.returncode == 0 and json.loads(first.stdout)["bye"]
    assert first.stderr == (
        "note: 7 players for a cut to the top 8: the cut cannot be paired unless players register late, the Swiss "
        "standings will be final\n"
    )
    tables = json.loads(first.stdout)["tables"]
    ok(db, "tournament", "swiss", "result", "k", "1", f"1: {tables[0]['players'][0]} military")
    early = referee(db, "tournament", "swiss", "pair", "k")
    assert early.returncode == 1 and early.stderr == "error: round 1 still has tables without a result: tables 2, 3\n"
    lines = [f"{t['table']}: {t['players'][1]} honor" for t in tables[1:]]
    ok(db, "tournament", "swiss", "result", "k", "1", *lines)
    cut = referee(db, "tournament", "swiss", "pair", "k")
    assert cut.returncode == 1 and cut.stderr.splitlines()[0].endswith(
        "a cut to the top 8 needs 8 players still in; 7 are"
    )
    assert "final standings" not in ok(db, "tournament", "swiss", "standings", "k")


def test_verify_finds_a_pairing_its_algorithm_does_not_give():
    """A pairing recorded with a whole chain but not the one "swiss-blossom" gives is named by verify."""
    from referee.engine.tournament.events import payload_of
    from referee.engine.tournament.swiss import pair_round
    from referee.engine.tournament.swiss_desk import (
        SwissCreated,
        SwissPlayersRegistered,
        SwissRoundPaired,
        pairing_event,
    )
    from referee.tournaments.service import chain
    from referee.tournaments.swiss import verify

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

    from referee.engine.tournament.events import payload_of
    from referee.engine.tournament.swiss import pair_round
    from referee.engine.tournament.swiss_desk import (
        SwissCreated,
        SwissPlayersRegistered,
        SwissResultRecorded,
        pairing_event,
    )
    from referee.tournaments.service import chain
    from referee.tournaments.swiss import verify

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
