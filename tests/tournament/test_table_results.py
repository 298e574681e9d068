"""A table's result by call or by the judge, through the commands a head judge types (under the command's real
error boundary, tests/support/entry_point.py; a temporary HOME), on SQLite and PostgreSQL:

- a called game reveals each sealed objective with its code, checked as `referee reveal` checks it (one function,
  ``Fold.check_reveal``), or declares it not met (R-28); a mismatch is refused with nothing recorded; a mistaken
  call is retracted (an event, with a reason) and made again before the round is closed;
- a judge's result carries the version it replaces: a second result for one table is refused with what the first
  wrote; after `close` a result is a correction, reasoned and marked `c` as a log's correction is.
"""

from __future__ import annotations

import json
import random
import re
import subprocess
import sys

import pytest

from referee.cli.app import app
from tests.support.entry_point import ROOT, referee, runner
from tests.support.tournament_play import next_sheet, setup_sheet


@pytest.fixture(autouse=True)
def home(tmp_path, monkeypatch):
    """Every command, and the processes two racing judges start, runs with a temporary HOME."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    return folder


def run(db, *args):
    """The command as typed: `python -m referee ... --db DB`; a refusal is one error line (and a hint), never a
    traceback."""
    result = referee(db, *args)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def ok(db, *args):
    result = run(db, *args)
    assert result.returncode == 0, (args, result.stdout, result.stderr)
    return result.stdout


def refused(db, *args, expect):
    result = run(db, *args)
    assert result.returncode == 1, (args, result.stdout, result.stderr)
    errors = [line for line in result.stderr.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1 and expect in errors[0], result.stderr
    return errors[0]


def js(db, *args):
    return json.loads(ok(db, *args, "--json"))


def tournament_events(db, tid):
    return js(db, "tournament", "verify", tid)["events"]


def in_process(db, *args, input=None):
    """A step the test only needs done (the setup, the rounds, a seal typed unseen), run in process: faster."""
    result = runner.invoke(app, [*args, "--db", db], input=input)
    assert result.exit_code == 0, (args, result.output)
    return result.output


def one_table(db, tid):
    """A one-round tournament of three at one table; its game, its seats (player name, clan)."""
    ok(db, "tournament", "new", tid, "--name", tid.title(), "--rounds", "1", "--sizes", "3", "--scoring", "honor")
    for name in ("Aiko", "Ben", "Chiyo"):
        in_process(db, "tournament", "players", "add", tid, name)
    table = json.loads(in_process(db, "tournament", "seat", tid, "1", "--json"))["tables"][0]
    return table["game"], [(s["name"], s["clan"]) for s in table["seats"]]


def play(db, game, rounds, seed):
    rng = random.Random(seed)
    setup = setup_sheet(db, game, rng)
    if setup:
        in_process(db, "setup", game, "-", input=setup)
    for _ in range(rounds):
        in_process(db, "round", game, "-", "--yes", input=next_sheet(db, game, rng))


def seal(db, game, clan, objective):
    out = in_process(db, "seal", game, clan, input=objective + "\n")
    return re.search(r"Reveal code: (\w{5}-\w{5})", out).group(1)


# --- issue 22, item 1: a called game reveals with the codes -------------------------------------------------
def test_a_call_reveals_each_sealed_objective_with_its_code_or_declares_it_not_met(any_db):
    """R-28 (referee/data/rulings.md): each sealed objective is revealed with its code or declared not met; on
    main a call took any objective for any clan, without a code."""
    db = any_db
    game, seats = one_table(db, "call")
    (_, first), (_, second), (_, third) = seats
    code = seal(db, game, first, "way_of_the_sail")
    other = seal(db, game, second, "emerald_empire")
    play(db, game, 3, seed=5)
    before = tournament_events(db, "call")

    # the objective the clan did not seal, or its own with a wrong code: refused as `referee reveal` refuses it
    wrong = refused(
        db,
        "tournament",
        "call",
        "call",
        game,
        "--reason",
        "time",
        "--objective",
        f"{first}=emerald_empire:{code}",
        "--objective",
        f"{second}=emerald_empire:{other}",
        expect=f"{first}: emerald_empire with code '{code}' does not match the objective sealed at setup",
    )
    assert wrong.startswith(f"error: game '{game}', called after round 3: ")
    refused(
        db,
        "tournament",
        "call",
        "call",
        game,
        "--reason",
        "time",
        "--objective",
        f"{first}=emerald_empire",
        "--not-met",
        second,
        expect=f"{first}: its objective is sealed: the reveal code given at sealing is needed",
    )
    # a sealed objective left out: named, with the two ways to settle it
    refused(
        db,
        "tournament",
        "call",
        "call",
        game,
        "--reason",
        "time",
        "--objective",
        f"{first}=way_of_the_sail:{code}",
        expect=f"{second} sealed an objective: reveal it with its code",
    )
    # a clan not at the table, an objective not understood: refused the same way
    absent = next(
        c
        for c in ("crab", "crane", "dragon", "lion", "phoenix", "scorpion", "unicorn")
        if c not in {first, second, third}
    )
    refused(
        db,
        "tournament",
        "call",
        "call",
        game,
        "--reason",
        "time",
        "--objective",
        f"{absent}=emerald_empire",
        "--objective",
        f"{first}=way_of_the_sail:{code}",
        "--not-met",
        second,
        expect=f"{absent} is not playing in this game",
    )
    assert tournament_events(db, "call") == before  # nothing recorded by any refusal

    # the code typed as a player types it (lower case, no dash, a prefix of the objective's id)
    typed = code.replace("-", "").lower()
    out = ok(
        db,
        "tournament",
        "call",
        "call",
        game,
        "--reason",
        "time ran out",
        "--objective",
        f"{first}=way_of_the:{typed}",
        "--not-met",
        second,
    )
    assert f"{first} way_of_the_sail" in out and f"{second} not met" in out
    called = js(db, "tournament", "results", "call")
    assert {r["source"] for r in called} == {"called"}
    # the call scores the same board `referee score` scores with the same objectives revealed: the objective
    # revealed with its code counts, the one declared not met does not
    export = ok(db, "tournament", "export", "call")
    event = [json.loads(line) for line in export.splitlines() if json.loads(line)["type"] == "GameCalled"][0]
    assert event["payload"]["objectives"] == {first: "way_of_the_sail", second: ""}
    assert event["payload"]["codes"] == {first: code, second: ""}


def test_the_reveal_and_the_call_ask_one_check(tmp_path, monkeypatch):
    """One function checks a reveal (``Fold.check_reveal``): `referee reveal` asks it through the log's fold, and
    `tournament call` asks it for each objective revealed at the call. Spied on, in process."""
    from referee.log.replay import Fold

    asked = []
    check = Fold.check_reveal

    def spy(self, clan, objective, code):
        asked.append((clan, objective))
        return check(self, clan, objective, code)

    monkeypatch.setattr(Fold, "check_reveal", spy)
    db = str(tmp_path / "t.db")
    ended, seats = one_table(db, "ended")
    code = seal(db, ended, seats[0][1], "way_of_the_sail")
    play(db, ended, 5, seed=3)
    asked.clear()
    in_process(db, "reveal", ended, seats[0][1], "way_of_the_sail", code)
    assert (seats[0][1], "way_of_the_sail") in asked
    cut, seats = one_table(db, "cut")
    code = seal(db, cut, seats[1][1], "emerald_empire")
    play(db, cut, 1, seed=4)
    asked.clear()
    in_process(db, "tournament", "call", "cut", cut, "--reason", "time", "--objective", f"{seats[1][1]}=emer:{code}")
    assert asked == [(seats[1][1], "emerald_empire")]


def test_a_mistaken_call_is_retracted_and_made_again_before_close(any_db):
    """On main a call could not be redone ("already called"); now it is retracted, as an event with a reason,
    and called again; once the round is closed it stands (a judge's result corrects it)."""
    db = any_db
    game, seats = one_table(db, "redo")
    (_, first), _, _ = seats
    code = seal(db, game, first, "way_of_the_sail")
    play(db, game, 2, seed=9)
    ok(db, "tournament", "call", "redo", game, "--reason", "time", "--not-met", first)  # the player misspoke
    refused(
        db,
        "tournament",
        "call",
        "redo",
        game,
        "--reason",
        "time",
        "--objective",
        f"{first}=way_of_the_sail:{code}",
        expect=f"game '{game}' was already called",
    )
    usage = run(db, "tournament", "retract-call", "redo", game, "--reason", " ")
    assert usage.returncode == 2 and "needs a reason" in usage.stderr
    out = ok(db, "tournament", "retract-call", "redo", game, "--reason", "the objective was met after all")
    assert "is retracted" in out
    assert js(db, "tournament", "status", "redo")[0]["state"] == "playing"  # the table has no result again
    refused(db, "tournament", "retract-call", "redo", game, "--reason", "twice", expect="is not called")
    ok(db, "tournament", "call", "redo", game, "--reason", "time", "--objective", f"{first}=way_of_the_sail:{code}")
    export = [json.loads(line) for line in ok(db, "tournament", "export", "redo").splitlines()]
    kinds = [e["type"] for e in export]
    assert kinds[-3:] == ["GameCalled", "CallRetracted", "GameCalled"]
    retraction = export[-2]["payload"]
    assert retraction["reason"] == "the objective was met after all" and retraction["call"] == export[-3]["seq"]
    assert export[-1]["payload"]["objectives"] == {first: "way_of_the_sail"}
    ok(db, "tournament", "close", "redo", "1")
    refused(db, "tournament", "retract-call", "redo", game, "--reason", "late", expect="round 1 is closed")
    assert js(db, "tournament", "verify", "redo")["ok"]


# --- issue 28, item 6 and issue 22, item 7: the judge's result and its version ------------------------------
def test_a_second_result_for_one_table_is_refused_with_what_the_first_wrote(any_db):
    """On main both results exit 0 and the last wins silently."""
    db = any_db
    one_table(db, "twice")
    ok(db, "tournament", "result", "twice", "1", "1", "Aiko=30", "Ben=20", "Chiyo=10", "--reason", "paper")
    before = tournament_events(db, "twice")
    error = refused(
        db,
        "tournament",
        "result",
        "twice",
        "1",
        "1",
        "Aiko=10",
        "Ben=20",
        "Chiyo=30",
        "--reason",
        "paper, mine",
        expect="round 1, table 1 already has a result",
    )
    assert f"event {before}, the judge's result (reason 'paper'): Aiko 30, Ben 20, Chiyo 10" in error
    assert tournament_events(db, "twice") == before
    # replacing it names the version replaced; a stale version is refused the same way
    ok(
        db,
        "tournament",
        "result",
        "twice",
        "1",
        "1",
        "Aiko=10",
        "Ben=20",
        "Chiyo=30",
        "--reason",
        "recount",
        "--replaces",
        str(before),
    )
    refused(
        db,
        "tournament",
        "result",
        "twice",
        "1",
        "1",
        "Aiko=11",
        "Ben=20",
        "Chiyo=30",
        "--reason",
        "again",
        "--replaces",
        str(before),
        expect=f"the result of event {before} was replaced (event {before + 1}",
    )
    status = js(db, "tournament", "status", "twice")[0]
    assert status["event"] == before + 1
    rows = {r["name"]: r["honor"] for r in js(db, "tournament", "results", "twice")}
    assert rows == {"Aiko": 10, "Ben": 20, "Chiyo": 30}


def test_two_judges_at_once_one_result_is_recorded_and_the_other_is_told_what(any_db):
    """Two `tournament result` for one table started together: exactly one is recorded; the other, whichever it is,
    is refused naming what the first wrote (the store's version check, then the fold's)."""
    db = any_db
    one_table(db, "race")
    base = [sys.executable, "-m", "referee", "tournament", "result", "race", "1", "1", "--reason", "paper"]
    honors = {"a": ["Aiko=30", "Ben=20", "Chiyo=10"], "b": ["Aiko=10", "Ben=20", "Chiyo=30"]}
    procs = {
        k: subprocess.Popen(
            [*base, *v, "--db", db], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        for k, v in honors.items()
    }
    done = {k: (p.wait(timeout=120), p.stderr.read()) for k, p in procs.items()}
    codes = sorted(code for code, _ in done.values())
    assert codes == [0, 1], done
    winner = next(k for k, (code, _) in done.items() if code == 0)
    loser_err = next(err for code, err in done.values() if code == 1)
    assert "Traceback" not in loser_err
    first = ", ".join(h.replace("=", " ") for h in honors[winner])
    assert "already has a result" in loser_err and first in loser_err, loser_err
    rows = [f"{r['name']} {r['honor']}" for r in js(db, "tournament", "results", "race")]
    assert ", ".join(rows) == first


def test_a_result_after_close_is_a_reasoned_correction_marked_c(any_db):
    """Issue 22, item 7: on main a judge's result entered again after `close` changed the closed standings
    unmarked; now it needs the version it replaces and a reason, and the standings mark it `c` and say why, as
    they mark a correction from a game log."""
    db = any_db
    one_table(db, "late")
    ok(db, "tournament", "result", "late", "1", "1", "Aiko=30", "Ben=20", "Chiyo=10", "--reason", "paper")
    ok(db, "tournament", "close", "late", "1")
    standings = js(db, "tournament", "standings", "late")
    assert not any(r["rounds"]["1"].endswith("c") for r in standings["standings"]) and not standings["corrections"]
    version = js(db, "tournament", "status", "late")[0]["event"]
    usage = run(db, "tournament", "result", "late", "1", "1", "Aiko=30", "Ben=20", "Chiyo=12", "--reason", "")
    assert usage.returncode == 2 and "needs a reason" in usage.stderr
    refused(
        db,
        "tournament",
        "result",
        "late",
        "1",
        "1",
        "Aiko=30",
        "Ben=20",
        "Chiyo=12",
        "--reason",
        "recount",
        expect="round 1, table 1 already has a result",
    )
    out = ok(
        db,
        "tournament",
        "result",
        "late",
        "1",
        "1",
        "Aiko=30",
        "Ben=20",
        "Chiyo=12",
        "--reason",
        "Chiyo's honor miscounted",
        "--replaces",
        str(version),
    )
    assert "a correction of a closed round, marked c" in out
    standings = js(db, "tournament", "standings", "late")
    cells = {r["name"]: r["rounds"]["1"] for r in standings["standings"]}
    assert cells == {"Aiko": "30.00c", "Ben": "20.00c", "Chiyo": "12.00c"}
    assert [(c["round"], c["table"], c["source"], c["reason"]) for c in standings["corrections"]] == [
        (1, 1, "judge", "Chiyo's honor miscounted")
    ]
    shown = ok(db, "tournament", "standings", "late")
    corrected_in = js(db, "tournament", "status", "late")[0]["event"]
    assert corrected_in == tournament_events(db, "late") > version
    assert (
        f"c round 1, table 1: the judge's result entered after the round closed (event {corrected_in}): "
        "Chiyo's honor miscounted" in shown
    )
    status = js(db, "tournament", "status", "late")[0]
    assert (status["corrected"], status["provisional"]) == (True, False)
    results = {r["name"]: r for r in js(db, "tournament", "results", "late")}
    assert results["Chiyo"]["honor"] == 12 and results["Chiyo"]["corrected"]
    assert js(db, "tournament", "verify", "late")["ok"]
