"""Moderators in other processes, for the concurrency and crash tests (importable by spawned children).

Every moderator plays the bundled golden games' own entries, so that every round it records can be
checked against the golden log: the same entries and the same digest, or the round is not there.
"""

from __future__ import annotations

import os
import traceback

from referee.engine.model.digest import state_digest
from referee.log import EventType, Fold, GameChanged, OpenGame, Store, events as ev, golden, new_game, recorded_header
from referee.log.replay import round_outcome

SOURCES = ("two-player", "four-player", "five-player")
SHARED_SOURCE = "five-player"


def start_game(store: Store, game: str, name: str) -> None:
    """Create ``game`` as a copy of the golden game ``name``: header and setup, no rounds yet."""
    log = golden(name)
    new_game(store, game, log[0].data["clans"], **recorded_header(log[0].data))
    OpenGame(store, game).record_setup(log[1].data["lines"])


def golden_round(name: str, round_no: int) -> list[str]:
    return list(golden(name)[1 + round_no].data["entries"])


def shared_sheet(round_no: int, index: int) -> list[str]:
    """Moderator ``index``'s sheet for the shared game: the golden round less one line, so every
    moderator's entry (and so its recorded event) is different."""
    lines = golden_round(SHARED_SOURCE, round_no)
    return lines[: index % len(lines)] + lines[index % len(lines) + 1 :]


# --- concurrency: a moderator process ------------------------------------------------------------------
def moderator(url: str, index: int, shared: str, laps: int, barrier, results) -> None:
    """Plays its own game to the end and, lap by lap, races every other moderator on ``shared``.

    A lap: read the shared game, wait for everyone to have read it, append the next round, wait for
    everyone to have written. Exactly one append of a lap can win; the others must be refused with
    GameChanged. Everything that happened is reported in ``results`` as tuples.
    """
    out = []
    try:
        with Store(url) as store:
            own = f"own-{index:02d}"
            name = SOURCES[index % len(SOURCES)]
            start_game(store, own, name)
            out.append(("created", own, 2, ""))
            for lap in range(1, laps + 1):
                event, _, _ = OpenGame(store, own).record_round(golden_round(name, lap))
                out.append(("own", own, event.seq, event.hash))
                events = store.events(shared)
                fold = Fold.of(events)
                lines, state, report = round_outcome(fold, shared_sheet(fold.state.round, index))
                payload = ev.round_resolved(report.round, lines, state_digest(state))
                barrier.wait(120)  # everyone has read the same log
                try:
                    won = store.append(shared, [(EventType.ROUND_RESOLVED, payload)], events[-1])[0]
                    out.append(("won", shared, won.seq, won.hash))
                except GameChanged as exc:
                    out.append(("refused", shared, exc.seq, str(exc)))
                barrier.wait(120)  # everyone has written: the next lap reads the new log
    except BaseException:  # anything else is a failure the parent reports
        out.append(("error", "", 0, traceback.format_exc()))
        try:
            barrier.abort()
        except Exception:
            pass
    results.extend(out)


def free_moderator(url: str, index: int, shared: str, barrier, results) -> None:
    """All start at once, then no barrier: enter rounds on ``shared`` as fast as possible, re-running
    when refused, until the game is over (what a moderator told "the game changed under you" does)."""
    out = []
    try:
        with Store(url) as store:
            store.events(shared)
            barrier.wait(120)
            while True:
                events = store.events(shared)
                fold = Fold.of(events)
                if fold.state.round > 5:
                    break
                lines, state, report = round_outcome(fold, shared_sheet(fold.state.round, index))
                payload = ev.round_resolved(report.round, lines, state_digest(state))
                try:
                    won = store.append(shared, [(EventType.ROUND_RESOLVED, payload)], events[-1])[0]
                    out.append(("won", shared, won.seq, won.hash))
                except GameChanged as exc:
                    out.append(("refused", shared, exc.seq, str(exc)))
    except BaseException:
        out.append(("error", "", 0, traceback.format_exc()))
    results.extend(out)


def first_opener(url: str, index: int, barrier, results) -> None:
    """Open a database nobody has opened yet, at the same moment as the others, and start a game."""
    try:
        barrier.wait(120)
        with Store(url) as store:
            start_game(store, f"first-{index:02d}", SOURCES[index % len(SOURCES)])
        results.append(("ok", index, 0, ""))
    except BaseException:
        results.append(("error", index, 0, traceback.format_exc()))


# --- the CLI at a starting line -----------------------------------------------------------------------
CLI_AT_THE_LINE = r"""
import sys, time
from pathlib import Path
from referee.cli.app import main
import referee.cli.render, referee.cli.round_entry  # loaded before the start
import referee.log, referee.log.storage, referee.log.game
ready, go = Path(sys.argv[1]), Path(sys.argv[2])
ready.touch()
deadline = time.monotonic() + 120
while not go.exists() and time.monotonic() < deadline:
    time.sleep(0.001)
sys.argv = ["referee", *sys.argv[3:]]
main()
"""


# --- crash safety: a writer that is killed -------------------------------------------------------------
def crash_writer(url: str, trial: int, games: int, acks: str, kill_at: int | None) -> None:
    """Create ``games`` games and play them to the end, appending one line to ``acks`` after every
    write has returned (``begin`` before it). ``kill_at``: SIGKILL itself from inside SQLite, at that
    many progress-handler calls into the writes (a kill in the middle of an INSERT or a COMMIT)."""
    fd = os.open(acks, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)

    def ack(text: str) -> None:
        os.write(fd, (text + "\n").encode())

    store = Store(url)
    if kill_at is not None:
        _kill_inside_writes(store, kill_at)
    for g in range(games):
        game = f"crash-{trial:03d}-{g}"
        name = SOURCES[(trial + g) % len(SOURCES)]
        ack(f"begin {game} 2 {name}")
        start_game(store, game, name)  # two events: GameCreated, SetupRecorded
        ack(f"done {game} 2 {name}")
        for r in range(1, 6):
            seq = 2 + r + (r == 5)  # round 5 closes the game: its GameEnded is written with it
            ack(f"begin {game} {seq} {name}")
            OpenGame(store, game).record_round(golden_round(name, r))
            ack(f"done {game} {seq} {name}")
    ack("finished")
    store.close()
    os.close(fd)


def _kill_inside_writes(store: Store, kill_at: int) -> None:
    from sqlalchemy import event as sa_event

    from referee.log import storage as store_module

    calls = {"n": 0, "writing": False}

    def progress() -> int:
        if calls["writing"]:
            calls["n"] += 1
            if calls["n"] >= kill_at:
                os.kill(os.getpid(), 9)
        return 0

    sa_event.listen(store.engine, "connect", lambda conn, _: conn.set_progress_handler(progress, 1))
    store.engine.dispose()  # new connections get the handler
    insert = store_module.Store.insert

    def watched(self, *args, **kwargs):
        calls["writing"] = True
        try:
            return insert(self, *args, **kwargs)
        finally:
            calls["writing"] = False

    store.insert = watched.__get__(store)  # type: ignore[method-assign]
