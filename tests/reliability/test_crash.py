"""Crash safety on SQLite: writers killed with SIGKILL at random points, as a laptop closed mid-write.

Each trial starts a writer that creates games and enters their rounds (the golden games' entries),
and kills it with SIGKILL:

- "timer": after a random delay, from outside, wherever the writer is (reading, resolving, inside
  SQLite's commit, opening a fresh database and creating its schema);
- "inside": from inside SQLite, at a random virtual-machine step of an INSERT or a COMMIT;
- "cli": `referee demo` (the real command, a five-player game round by round) after a random delay.

After every trial the database opens and passes SQLite's integrity check, every game verifies (chain,
hashes, a full engine re-run against every digest), every event is the golden game's own (a round
wholly recorded, with its entries and its digest, or not there at all), and every write the writer
saw return is there (nothing acknowledged is lost).

``REFEREE_CRASH_SEED`` replays a run; the seed is printed with the counts.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import sqlite3
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from referee.log import EventType, Store, golden, verify
from tests.support.moderators import SOURCES, crash_writer
from tests.support.tally import note

LIBRARY_TRIALS = 50  # half "timer", half "inside"
CLI_TRIALS = 10
GAMES_PER_WRITER = 3
WRITER_STEPS = 1000  # SQLite progress-handler steps of a writer's writes, unkilled
ROOT = Path(__file__).parents[2]


def _seed() -> int:
    return int(os.environ.get("REFEREE_CRASH_SEED") or random.SystemRandom().randrange(10**6))


def _acks(path: Path) -> tuple[dict[str, int], dict[str, int], bool]:
    """From the writer's acknowledgements: per game, events certainly written and events begun."""
    done: dict[str, int] = {}
    begun: dict[str, int] = {}
    finished = False
    if path.exists():
        for line in path.read_text().splitlines():
            word, *rest = line.split()
            if word == "finished":
                finished = True
            elif word in ("begin", "done"):
                game, seq = rest[0], int(rest[1])
                (begun if word == "begin" else done)[game] = seq
    return done, begun, finished


def _check_database(db: Path, done: dict[str, int], begun: dict[str, int], context: str) -> int:
    """The checks after a kill; returns how many games were checked."""
    with sqlite3.connect(db) as conn:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",), context
    checked = 0
    with Store(str(db)) as store:  # opens (and finishes any interrupted transaction) without error
        games = {g.game for g in store.games()}
        for log in store.stream():
            game = log[0].game
            assert verify(log) is None, f"{context}: {game} does not verify: {verify(log)}"
            _same_as_golden(log, context)
            if game in begun:
                assert len(log) <= begun[game], f"{context}: {game} holds events never begun"
            checked += 1
        for game, seq in done.items():
            assert game in games, f"{context}: {game} was acknowledged and is lost"
            assert len(store.events(game)) >= seq, f"{context}: {game}: acknowledged event {seq} is lost"
    return checked


def _same_as_golden(log, context: str) -> None:
    """Every event is the golden game's own: each round wholly recorded, or not at all."""
    name = log[0].data["event"]
    source = next(golden(n) for n in SOURCES if golden(n)[0].data["event"] == name)
    want_rounds = {e.data["round"]: e.data for e in source if e.type == EventType.ROUND_RESOLVED}
    lines = source[1].data["lines"]
    capitals = [f"{c}: control 1 facedown @ {c}_capital" for c in log[0].data["clans"]]  # p.4 step 6
    setups = [e.data["lines"] for e in log if e.type == EventType.SETUP_RECORDED]
    batches = ([lines], [capitals, [line for line in lines if line not in capitals]])  # library writer; `referee demo`
    assert any(setups == b[: len(setups)] for b in batches), f"{context}: {log[0].game}: setup not whole: {setups}"
    rounds = [e.data for e in log if e.type == EventType.ROUND_RESOLVED]
    assert [r["round"] for r in rounds] == list(range(1, len(rounds) + 1)), f"{context}: {log[0].game}"
    for r in rounds:
        want = want_rounds[r["round"]]
        # a round is recorded with its entries in the canonical order (payload version 2); the golden games keep
        # the order they were typed in: the same round either way
        assert (sorted(r["entries"]), r["digest"]) == (sorted(want["entries"]), want["digest"]), (
            f"{context}: {log[0].game}: round {r['round']} not whole"
        )


def test_writers_killed_at_random_points_lose_nothing(tmp_path):
    seed = _seed()
    rnd = random.Random(seed)
    ctx = multiprocessing.get_context("fork")  # a fresh writer in milliseconds; it opens its own Store
    db = tmp_path / "crash.db"
    outcomes, modes, games_checked, fresh = Counter(), Counter(), 0, 0
    start = time.perf_counter()
    calibration = ctx.Process(
        target=crash_writer,
        args=(str(tmp_path / "calibration.db"), 999, GAMES_PER_WRITER, str(tmp_path / "calibration.txt"), None),
    )
    calibration.start()
    calibration.join(60)
    assert calibration.exitcode == 0
    seconds = min(time.perf_counter() - start, 2.0)  # a writer's whole run, unkilled, on this machine
    for trial in range(LIBRARY_TRIALS):
        mode = "timer" if trial % 2 == 0 else "inside"
        if trial % 10 == 0:  # now and then a brand-new file: kills land in the schema's creation too
            db = tmp_path / f"crash-{trial}.db"
            fresh += 1
        acks = tmp_path / f"acks-{trial}.txt"
        kill_at = rnd.randint(1, WRITER_STEPS) if mode == "inside" else None
        delay = rnd.uniform(0, seconds)
        context = f"trial {trial} ({mode}, seed {seed}, delay {delay:.3f} s, step {kill_at})"
        writer = ctx.Process(target=crash_writer, args=(str(db), trial, GAMES_PER_WRITER, str(acks), kill_at))
        writer.start()
        if mode == "timer":
            time.sleep(delay)
            os.kill(writer.pid, signal.SIGKILL)
        writer.join(60)
        assert writer.exitcode is not None, context
        done, begun, finished = _acks(acks)
        assert writer.exitcode in (0, -signal.SIGKILL), f"{context}: writer exit {writer.exitcode}"
        # A clean exit has acknowledged its whole run; a kill may still land after that, during the
        # process's own exit, so a killed writer may have finished too.
        assert finished or writer.exitcode == -signal.SIGKILL, f"{context}: exit 0 without finishing"
        outcomes["finished first" if finished else "killed"] += 1
        modes[mode] += 1
        games_checked += _check_database(db, done, begun, context)
    note(
        f"crash [sqlite]: {LIBRARY_TRIALS} SIGKILL trials of a library writer ({modes['timer']} at a random time, "
        f"{modes['inside']} inside SQLite at a random step of a write; {fresh} on a fresh file): "
        f"{outcomes['killed']} killed mid-run, {outcomes['finished first']} finished first; {games_checked} game "
        f"checks, 0 failures (seed {seed}, {time.perf_counter() - start:.1f} s)"
    )


def _games(db: Path) -> set[str]:
    if not db.exists():
        return set()
    with Store(str(db)) as store:
        return {g.game for g in store.games()}


def test_the_cli_killed_mid_game_loses_nothing(tmp_path):
    seed = _seed()
    rnd = random.Random(seed + 1)
    db = tmp_path / "demo.db"
    killed, rounds, start = 0, Counter(), time.perf_counter()
    began = time.perf_counter()  # a whole demo, unkilled, sets the range of the kill times
    whole = subprocess.run(
        [sys.executable, "-m", "referee", "demo", "--db", str(db)],
        cwd=tmp_path,
        capture_output=True,
        stdin=subprocess.DEVNULL,
    )
    assert whole.returncode == 0, whole.stderr.decode()
    seconds = time.perf_counter() - began
    _check_database(db, {}, {}, "the unkilled demo")
    for trial in range(CLI_TRIALS):
        delay = rnd.uniform(0.3 * seconds, seconds)  # after start-up, mostly: kills land while it writes
        context = f"cli trial {trial} (seed {seed}, delay {delay:.3f} s)"
        proc = subprocess.Popen(
            [sys.executable, "-m", "referee", "demo", "--db", str(db)],
            cwd=tmp_path,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            stdin=subprocess.DEVNULL,
        )
        before = _games(db)
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        _, err = proc.communicate(timeout=60)
        assert b"Traceback" not in err, err.decode()
        killed += proc.returncode == -signal.SIGKILL
        _check_database(db, {}, {}, context)
        with Store(str(db)) as store:
            for game in _games(db) - before:  # the game this trial's demo was playing, if it got that far
                rounds[sum(e.type == EventType.ROUND_RESOLVED for e in store.events(game))] += 1
    shown = subprocess.run(
        [sys.executable, "-m", "referee", "games", "--db", str(db)], capture_output=True, text=True, cwd=tmp_path
    )
    assert shown.returncode == 0 and "Traceback" not in shown.stderr
    spread = ", ".join(f"{n} game(s) left with {r} round(s)" for r, n in sorted(rounds.items()))
    note(
        f"crash [sqlite]: {CLI_TRIALS} SIGKILL trials of `referee demo` at a random time within its {seconds:.1f} s "
        f"run: {killed} killed mid-game "
        f"({spread}); 0 failures (seed {seed}, {time.perf_counter() - start:.1f} s)"
    )
