"""`referee ccg ...` through the command's real error boundary (in process: tests/support/entry_point.py; a temporary
HOME and database): the manual's whole match (docs/l5r-ccg/moderator.md) as printed, the bundled demo against the
rules package (two paths to one answer), refusals (exit 1, one line, nothing recorded), usage errors (exit 2),
export/import, corrections, and the Battle for Rokugan commands next to a match."""

import json
import os
import shlex

import pytest

from referee.engine import ccg
from tests.support import manual
from tests.support.entry_point import ROOT, referee, run_in_process

PLAYERS = ["--player", "alice: honor 6, strength 6, gold 5", "--player", "bob: honor 5, strength 5, gold 5"]


@pytest.fixture
def db(tmp_path, monkeypatch):
    monkeypatch.setenv("HOME", str(tmp_path))
    return str(tmp_path / "t.db")


def ok(db, *args, stdin=None):
    result = referee(db, *args, stdin=stdin)
    assert result.returncode == 0, (args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    return result


def refused(db, *args, code=1):
    result = referee(db, *args)
    assert result.returncode == code, (args, result.stdout, result.stderr)
    assert "Traceback" not in result.stderr
    return result


def walkthrough() -> list[str]:
    return manual.commands("docs/l5r-ccg/moderator.md", "A whole match, as the moderator types it")


def test_the_manuals_whole_match_runs_as_printed(tmp_path):
    commands = walkthrough()
    assert {shlex.split(c)[2] for c in commands if c.startswith("referee ccg")} >= {
        "new",
        "event",
        "battle",
        "duel",
        "honor",
        "pass",
        "retract",
        "correct",
        "score",
        "replay",
        "verify",
        "export",
    }
    env = {**os.environ, "COLUMNS": "120", "HOME": str(tmp_path)}
    out = {}
    for command in commands:
        args = shlex.split(command)[1:]
        result = run_in_process([*args], cwd=tmp_path, env=env)
        assert result.returncode == 0, (command, result.stdout[-2000:], result.stderr)
        out[" ".join(args[:2])] = result.stdout
    assert "alice wins: military victory" in out["ccg score"]
    assert "bob: 17 Family Honor; provinces none" in out["ccg score"]
    assert "verified" in out["ccg verify"]
    assert "finished: alice wins (military)" in out["games"]
    # the export is the match: verified on its own, and the same end as the bundled demo (two paths)
    exported = tmp_path / "kotei-r1-t4.jsonl"
    verify = run_in_process(["ccg", "verify", str(exported)], cwd=tmp_path, env=env)
    assert verify.returncode == 0, verify.stderr
    demo = run_in_process(["ccg", "demo"], cwd=tmp_path, env=env)
    score = run_in_process(["ccg", "score", "ccg-demo-1", "--json"], cwd=tmp_path, env=env)
    walked = run_in_process(["ccg", "score", "kotei-r1-t4", "--json"], cwd=tmp_path, env=env)
    assert demo.returncode == 0, demo.stderr
    a, b = json.loads(score.stdout), json.loads(walked.stdout)
    assert {k: v for k, v in a.items() if k != "game"} == {k: v for k, v in b.items() if k != "game"}


def _demo_by_the_package():
    text = (ROOT / "referee" / "data" / "games" / "ccg-demo.txt").read_text()
    setup = [ln.removeprefix("player ") for ln in text.splitlines() if ln.startswith("player ")]
    match = ccg.new_match(tuple(ccg.parse_player(s) for s in setup))
    for line in text.splitlines():
        if line.strip() and not line.startswith(("#", "player ")):
            match, _ = ccg.apply(match, ccg.parse_event(line))
    return match


def test_the_demo_through_the_commands_is_the_demo_by_the_rules_package(db):
    out = ok(db, "ccg", "demo").stdout
    assert "match over: alice wins: military victory" in out
    shown = json.loads(ok(db, "ccg", "score", "ccg-demo-1", "--json").stdout)
    match = _demo_by_the_package()
    assert shown["result"] == match.result.to_dict()
    assert {p["name"]: p["honor"] for p in shown["players"]} == {p.name: p.honor for p in match.players}
    assert "verified" in ok(db, "ccg", "verify", "ccg-demo-1").stdout
    steps = json.loads(ok(db, "ccg", "replay", "ccg-demo-1", "--json").stdout)
    assert steps[-1]["match"]["result"]["victory"] == "military"


def test_a_refused_line_is_one_line_exit_1_and_nothing_is_recorded(db):
    ok(db, "ccg", "new", "m1", *PLAYERS)
    before = ok(db, "ccg", "replay", "m1", "--json").stdout
    bad = refused(db, "ccg", "event", "m1", "lobby alice Hida Kisada (2PH)", "battle 9: A (1F) vs -")
    assert bad.stderr.splitlines()[0] == (
        "error: match 'm1', turn 1: line 2 \"battle 9: A (1F) vs -\": bob's province 9 does not exist "
        "(provinces 1 to 4) "
        "(pp.30-40 Setting Up: Provinces)"
    )
    assert len([ln for ln in bad.stderr.splitlines() if ln.startswith("error:")]) == 1
    not_understood = refused(db, "ccg", "battle", "m1", "1: A (1F) against B (1F)")
    assert "expected 'battle <province> [strength N]: <units> vs <units>'" in not_understood.stderr
    assert ok(db, "ccg", "replay", "m1", "--json").stdout == before  # nothing kept
    refused(db, "ccg", "duel", "m1", "alice A (5F) vs bob B (4C)")
    assert "unknown player 'carol'" in refused(db, "ccg", "honor", "m1", "carol +1", "--reason", "x").stderr


def test_usage_errors_exit_2(db):
    refused(db, "ccg", "new", "m1", "--player", "alice: honor 1, strength 1, gold 1", code=2)
    ok(db, "ccg", "new", "m1", *PLAYERS)
    refused(db, "ccg", "correct", "m1", "2", code=2)  # no lines, no --reason
    refused(db, "ccg", "event", "m1", code=2)
    refused(db, "ccg", "new", "Bad_Id", *PLAYERS)  # as `referee new` refuses it


def test_tied_honor_needs_who_goes_first(db):
    tied = ["--player", "alice: honor 5, strength 6, gold 5", "--player", "bob: honor 5, strength 5, gold 5"]
    out = refused(db, "ccg", "new", "m1", *tied)
    assert "both start on 5 Family Honor" in out.stderr and "hint: --first NAME" in out.stderr
    assert "turn 1: bob goes first" in ok(db, "ccg", "new", "m1", *tied, "--first", "bob").stdout


def test_correct_and_retract_are_new_events_and_verify(db):
    ok(db, "ccg", "new", "m1", *PLAYERS)
    ok(db, "ccg", "battle", "m1", "2: Hida Kisada (4F) vs -")
    ok(db, "ccg", "honor", "m1", "bob -3", "--reason", "entered by mistake")
    ok(db, "ccg", "retract", "m1", "--reason", "never happened")
    fixed = ok(db, "ccg", "correct", "m1", "2", "battle 2: Hida Kisada (7F) vs -", "--reason", "the katana")
    assert "+ battle 2: Hida Kisada (7F) vs -" in fixed.stdout
    state = json.loads(ok(db, "ccg", "score", "m1", "--json").stdout)
    assert state["players"][1]["provinces"] == [1, 3, 4] and state["players"][1]["honor"] == 5
    assert "5 events" in ok(db, "ccg", "verify", "m1").stdout
    # a correction that makes a later event impossible is refused, nothing recorded
    ok(db, "ccg", "battle", "m1", "3: Hida Yakamo (1F) vs -")
    out = refused(db, "ccg", "correct", "m1", "2", "battle 3: A (1F) vs -", "--reason", "x")
    assert 'event 6 can no longer be applied: "battle 3: Hida Yakamo (1F) vs -": a battle was already fought at' in (
        out.stderr
    )
    refused(db, "ccg", "retract", "m1", code=2)


def test_export_import_round_trip_and_a_tampered_file_is_refused(db, tmp_path):
    ok(db, "ccg", "demo")
    exported = tmp_path / "m.jsonl"
    ok(db, "ccg", "export", "ccg-demo-1", "-o", str(exported))
    other = str(tmp_path / "other.db")
    assert "imported ccg-demo-1: 49 events, verified" in ok(other, "ccg", "import", str(exported)).stdout
    here, there = (ok(d, "ccg", "score", "ccg-demo-1", "--json").stdout for d in (db, other))
    assert here == there
    lines = exported.read_text().splitlines()
    at = next(n for n, line in enumerate(lines) if "(4F)" in line)
    lines[at] = lines[at].replace("(4F)", "(9F)")
    tampered = tmp_path / "t.jsonl"
    tampered.write_text("\n".join(lines) + "\n")
    out = refused(str(tmp_path / "third.db"), "ccg", "import", str(tampered))
    assert "edited payload" in out.stderr
    assert not (tmp_path / "third.db").exists()  # verified before the database is opened: nothing made
    assert refused(db, "ccg", "verify", str(tampered)).stdout.count("NOT verified") == 1


def test_the_board_game_commands_beside_a_match(db):
    """`referee games` lists both kinds; the Battle for Rokugan commands refuse a match with one line, and a
    Battle for Rokugan game is refused by `referee ccg`."""
    ok(db, "ccg", "new", "m1", *PLAYERS)
    ok(db, "new", "g1", "--clans", "crab,lion")
    rows = {r["game"]: r for r in json.loads(ok(db, "games", "--json").stdout)}
    assert rows["m1"]["clans"] == ["alice", "bob"] and rows["m1"]["state"] == "card game, turn 1: alice"
    assert rows["g1"]["clans"] == ["crab", "lion"] and rows["g1"]["state"] == "setup"
    ok(db, "games")
    health = ok(db, "doctor").stdout  # each stream verified by its own rules
    assert "m1: ok, verified: 1 events" in health and "the database is healthy" in health
    for command in (["show", "m1"], ["replay", "m1"], ["verify", "m1"], ["score", "m1"]):
        out = refused(db, *command)
        assert "a card game match, not a Battle for Rokugan game" in out.stdout + out.stderr, command
    assert "is a Battle for Rokugan game" in refused(db, "ccg", "score", "g1").stderr


def test_deck_command(tmp_path):
    def deck_check(*args):
        result = run_in_process(["ccg", "deck", *args], cwd=ROOT, env={**os.environ, "HOME": str(tmp_path)})
        assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
        return result

    deck = tmp_path / "deck.txt"
    deck.write_text("1 Kyuden Hida (stronghold)\n4 Hida Yakamo (personality)\n2 Wedding (event)\n")
    assert "NOT legal (4 problems)" in deck_check(str(deck)).stdout
    problems = json.loads(deck_check(str(deck), "--json").stdout)["problems"]
    assert len(problems) == 4 and any("Hida Yakamo: 4 copies" in p["message"] for p in problems)
    assert {(p["code"], p["title"], p["copies"]) for p in problems} == {  # p.67, C-07: each problem as data
        ("copies", "Hida Yakamo", 4),
        ("event-copies", "Wedding", 2),
        ("deck-size", "Dynasty", 6),
        ("deck-size", "Fate", 0),
    }
    deck.write_text("3 Ashigaru\n")
    assert deck_check(str(deck)).stderr.startswith('error: line 1: "3 Ashigaru"')


def test_each_line_of_an_entry_is_read_once(db, monkeypatch):
    """`referee ccg event`: each line of the entry is read once by the notation: the line recorded is the line
    read, and the match it leaves is the one the rules played (not read and played again to fold it in)."""
    import referee.games.ccg.service as service

    ok(db, "ccg", "new", "m1", *PLAYERS)
    reads: list[str] = []
    real = ccg.parse_event
    monkeypatch.setattr(service.ccg, "parse_event", lambda line, **kw: reads.append(line) or real(line, **kw))
    lines = ["reveal 1 personality Doji Hoturi", "reveal 2 personality Kakita Toshimoko"]
    ok(db, "ccg", "event", "m1", *lines)
    assert reads == lines
    monkeypatch.undo()
    assert "every event re-applied: verified" in ok(db, "ccg", "verify", "m1").stdout  # as the rules replay it
