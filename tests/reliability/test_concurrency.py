"""Concurrent moderators on one database, on SQLite and on PostgreSQL.

- Library level: N = 8 processes, each playing its own game to the end and, lap by lap, racing all
  the others on one shared game (read, wait for everyone, append). Then N more processes re-running
  whenever refused until the shared game is over.
- Command line: N = 8 `referee round` processes released at one instant on a shared game, and N on
  games of their own.

Afterwards every game verifies, every event a moderator was told it recorded is in the log exactly
once, no other event is there, and every refused writer got the GameChanged error ("another moderator
wrote to the game first ... nothing of yours was recorded"), never an invitation to enter it again; on
the command line the refused moderator is shown what was recorded, exit 1, and nothing else.
"""

from __future__ import annotations

import json
import multiprocessing
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from referee.log import EventType, Store, verify
from tests.support.moderators import CLI_AT_THE_LINE, SHARED_SOURCE, first_opener, free_moderator, moderator, start_game
from tests.support.tally import note

PROCESSES = 8
LAPS = 5
ROOT = Path(__file__).parents[2]
CHANGED = "another moderator wrote to the game first"


def _spawn(target, args_list):
    """Run ``target(*args, barrier, results)`` in a process for each ``args``; (exit codes, results)."""
    ctx = multiprocessing.get_context("spawn")
    with ctx.Manager() as manager:
        results = manager.list()
        barrier = ctx.Barrier(len(args_list))
        procs = [ctx.Process(target=target, args=(*args, barrier, results)) for args in args_list]
        for p in procs:
            p.start()
        for p in procs:
            p.join(300)
        codes = [p.exitcode for p in procs]
        return codes, list(results)


def _backend(url: str) -> str:
    return "postgresql" if url.startswith("postgresql") else "sqlite"


def _check_shared(store: Store, shared: str, results) -> tuple[int, int]:
    """Every win in the log exactly once, nothing else in it; every refusal the concurrency error."""
    log = store.events(shared)
    assert verify(log) is None
    rounds = [e for e in log if e.type == EventType.ROUND_RESOLVED]
    assert [e.data["round"] for e in rounds] == [1, 2, 3, 4, 5]
    assert [e.seq for e in log] == list(range(1, len(log) + 1))
    wins = [(r[2], r[3]) for r in results if r[0] == "won"]
    assert sorted(wins) == sorted((e.seq, e.hash) for e in rounds), "a reported win is missing, or an event nobody won"
    assert len(set(wins)) == len(wins), "one event reported won twice"
    refused = [r for r in results if r[0] == "refused"]
    for _, _, seq, message in refused:
        assert CHANGED in message and "nothing of yours was recorded" in message and f"(event {seq})" in message
    return len(wins), len(refused)


def test_moderators_race_on_one_game_and_play_their_own(any_db):
    with Store(any_db) as s:
        start_game(s, "shared", SHARED_SOURCE)
    start = time.perf_counter()
    codes, results = _spawn(moderator, [(any_db, i, "shared", LAPS) for i in range(PROCESSES)])
    errors = [r[3] for r in results if r[0] == "error"]
    assert not errors, errors[0]
    assert codes == [0] * PROCESSES
    with Store(any_db) as s:
        wins, refused = _check_shared(s, "shared", results)
        assert wins == LAPS and refused == LAPS * (PROCESSES - 1)  # exactly one winner per lap
        own = [g for g in s.games() if g.game.startswith("own-")]
        assert len(own) == PROCESSES
        for g in own:
            log = s.events(g.game)
            assert verify(log) is None and [e.seq for e in log] == list(range(1, 9))  # ... round 5, GameEnded
            reported = sorted((r[2], r[3]) for r in results if r[0] == "own" and r[1] == g.game)
            assert reported == [(e.seq, e.hash) for e in log[2:7]]
    note(
        f"concurrency [{_backend(any_db)}], lap race: {PROCESSES} processes, {PROCESSES} own games x 5 rounds "
        f"({PROCESSES * LAPS} rounds, all recorded) + {PROCESSES * LAPS} racing appends on one game: {wins} won, "
        f"{refused} refused with GameChanged, 0 lost, 0 duplicated, 0 other errors "
        f"({time.perf_counter() - start:.1f} s)"
    )


def test_moderators_rerun_when_refused_until_the_game_is_over(any_db):
    with Store(any_db) as s:
        start_game(s, "shared", SHARED_SOURCE)
    start = time.perf_counter()
    codes, results = _spawn(free_moderator, [(any_db, i, "shared") for i in range(PROCESSES)])
    errors = [r[3] for r in results if r[0] == "error"]
    assert not errors, errors[0]
    assert codes == [0] * PROCESSES
    with Store(any_db) as s:
        wins, refused = _check_shared(s, "shared", results)
    assert wins == 5
    note(
        f"concurrency [{_backend(any_db)}], re-run on refusal: {PROCESSES} processes on one game: {wins} rounds "
        f"won, {refused} refused with GameChanged and re-run, 0 lost, 0 duplicated, 0 other errors "
        f"({time.perf_counter() - start:.1f} s)"
    )


def test_moderators_opening_a_new_database_at_once(any_db):
    """A tournament's first minute: every moderator's first command creates the schema at once."""
    codes, results = _spawn(first_opener, [(any_db, i) for i in range(PROCESSES)])
    errors = [r[3] for r in results if r[0] == "error"]
    assert not errors, errors[0]
    assert codes == [0] * PROCESSES
    with Store(any_db) as s:
        games = [g.game for g in s.games()]
        assert sorted(games) == [f"first-{i:02d}" for i in range(PROCESSES)]
        assert all(verify(s.events(g)) is None for g in games)
    note(
        f"concurrency [{_backend(any_db)}], first open: {PROCESSES} processes opening a new database at once: "
        f"{PROCESSES} games started, 0 errors"
    )


# --- the command line ----------------------------------------------------------------------------------
def test_cli_moderators_released_at_one_instant(any_db, tmp_path):
    from referee.cli.app import app
    from tests.support.entry_point import runner

    setup = "crab: control @ crab_central\nlion: control @ lion_northwest\n"
    games = ["shared"] + [f"own-{i}" for i in range(PROCESSES)]
    for game in games:
        assert (
            runner.invoke(app, ["new", game, "--clans", "crab,lion", "--partial-setup", "--db", any_db]).exit_code == 0
        )
        assert runner.invoke(app, ["setup", game, "-", "--db", any_db], input=setup).exit_code == 0
    sheets = []
    for i in range(PROCESSES):  # a different entry for every moderator: its seal tells whose round it is
        sheet = tmp_path / f"sheet-{i}.txt"
        sheet.write_text(f"crab: army {1 + i % 4} @ crab_central\nlion: army {1 + i // 4} @ lion_northwest\n")
        sheets.append(sheet)
    go = tmp_path / "go"
    jobs = [(game, sheets[i]) for i in range(PROCESSES) for game in ("shared", f"own-{i}")]
    procs = []
    for n, (game, sheet) in enumerate(jobs):
        ready = tmp_path / f"ready-{n}"
        procs.append(
            (
                ready,
                subprocess.Popen(
                    [
                        sys.executable,
                        "-c",
                        CLI_AT_THE_LINE,
                        str(ready),
                        str(go),
                        "round",
                        game,
                        str(sheet),
                        "--yes",
                        "--db",
                        any_db,
                    ],
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    text=True,
                    cwd=ROOT,
                    stdin=subprocess.DEVNULL,
                ),
            )
        )
    deadline = time.monotonic() + 120
    while not all(r.exists() for r, _ in procs) and time.monotonic() < deadline:
        time.sleep(0.01)
    go.touch()  # every process has loaded the referee: they all start the command now
    outcomes = [
        (game, *p.communicate(timeout=180), p.returncode) for (game, _), (_, p) in zip(jobs, procs, strict=True)
    ]
    tracebacks = [err for *_, err, _ in outcomes if "Traceback" in err]
    assert not tracebacks, tracebacks[0]
    own = [(g, out, err, rc) for g, out, err, rc in outcomes if g != "shared"]
    assert all(rc == 0 for *_, rc in own), [err for *_, err, rc in own if rc]
    shared = [(out, err, rc) for g, out, err, rc in outcomes if g == "shared"]
    won = [out for out, _, rc in shared if rc == 0]
    refused = [err for _, err, rc in shared if rc != 0 and CHANGED in err]
    shown_what = [out for out, err, rc in shared if rc != 0 and CHANGED in err]
    assert all(
        "another moderator wrote to game 'shared' first:" in out and " resolved with " in out for out in shown_what
    )
    late = [err for _, err, rc in shared if rc != 0 and CHANGED not in err]  # read the game after round 5
    assert all(rc in (0, 1) for *_, rc in shared)
    for err in refused:
        assert err.startswith("error: game 'shared', round ") and err.count("\n") == 2, err
        assert f"{CHANGED}; nothing of yours was recorded; the game is now at " in err
        assert "hint: check the board (referee board shared) before entering a sheet again" in err
    shown = json.loads(runner.invoke(app, ["show", "shared", "--json", "--db", any_db]).output)
    seals = [s["seal"] for s in shown["seals"] if s.get("round")]
    for err in late:  # the only other refusal: the game was over by the time this moderator read it, its
        # five rounds played ("over"), or its end recorded as well ("has ended", p.10): which one, the race decides
        assert len(seals) == 5 and err.startswith("error: ") and ("over" in err or "has ended" in err), err
    printed = Counter(seal for out in won for seal in seals if f"seal {seal}" in out)
    assert len(seals) == len(won) and all(printed[s] == 1 for s in seals), "a round lost, or reported twice"
    for game in games:
        result = runner.invoke(app, ["verify", game, "--db", any_db])
        assert result.exit_code == 0, result.output
    note(
        f"concurrency [{_backend(any_db)}], command line: {len(jobs)} `referee round` processes released at once "
        f"({PROCESSES} on one game, {PROCESSES} on their own): {PROCESSES} own rounds recorded; on the shared game "
        f"{len(won)} recorded, {len(refused)} refused (exit 1, GameChanged)"
        + (f", {len(late)} refused as the game was over" if late else "")
        + ", 0 tracebacks, 0 lost"
    )
