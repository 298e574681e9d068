"""The event store: where it lives, what it refuses, and the concurrency guard."""

from __future__ import annotations

import importlib
import inspect as pyinspect
import multiprocessing
import re
import sqlite3
import threading

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DatabaseError

from referee.cli.app import app
from referee.engine.model.digest import state_digest
from referee.engine.model.errors import RefereeError
from referee.log import (
    EventType,
    Fold,
    GameChanged,
    GameExists,
    OpenGame,
    Store,
    StoreError,
    UnknownGame,
    events as ev,
    game as game_module,
    golden,
    new_game,
    storage as store_module,
    verify,
)
from referee.log.replay import round_outcome
from tests.support.entry_point import runner

replay_module = importlib.import_module("referee.log.replay")  # the module: `referee.log.replay` is also a function

ROUND1 = golden("two-player")[2].data["entries"]
ROUND2 = golden("two-player")[3].data["entries"]


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "games.db")


@pytest.fixture
def store(any_db):
    """A store on each backend: SQLite and the throwaway PostgreSQL server (tests/support/pg_server.py)."""
    with Store(any_db) as s:
        yield s


def _started(store: Store, game: str = "t1") -> None:
    recorded = golden("two-player")
    new_game(store, game, ["crab", "crane"], players={"crab": "Aiko"}, event="Friday", table="3", date="2026-11-20")
    OpenGame(store, game).record_setup(recorded[1].data["lines"])


# --- where the database lives -------------------------------------------------------------------------
def test_default_database_is_created_under_saves(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("REFEREE_DB", raising=False)
    with Store() as s:
        new_game(s, "g", ["crab", "lion"])
    assert (tmp_path / "saves" / "referee.db").is_file()
    with sqlite3.connect(tmp_path / "saves" / "referee.db") as conn:
        assert conn.execute("select count(*) from event").fetchone() == (1,)


def test_environment_variable_and_argument_select_the_database(tmp_path, monkeypatch):
    monkeypatch.setenv("REFEREE_DB", f"sqlite:///{tmp_path / 'env.db'}")
    with Store() as s:
        assert s.url.endswith("env.db")
    with Store(str(tmp_path / "arg.db")) as s:  # a bare path is a SQLite file
        assert s.url == f"sqlite:///{tmp_path / 'arg.db'}"
    assert (tmp_path / "arg.db").is_file()
    with pytest.raises(StoreError, match="the folder .*nested does not exist"):  # only saves/ is ever made
        Store(str(tmp_path / "nested" / "arg.db"))
    assert not (tmp_path / "nested").exists()


# --- reading and writing ------------------------------------------------------------------------------
def test_commands_append_a_chained_log(store):
    _started(store)
    event, state, report = OpenGame(store, "t1").record_round("\n".join(ROUND1))
    log = store.events("t1")
    assert [e.seq for e in log] == [1, 2, 3]
    assert [e.type for e in log] == ["GameCreated", "SetupRecorded", "RoundResolved"]
    assert log[0].prev_hash == ev.GENESIS and log[1].prev_hash == log[0].hash and log[2].prev_hash == log[1].hash
    assert log[2] == event and event.data["digest"] == state_digest(state) and report.round == 1
    assert event.data["seal"] == event.seal and re.fullmatch(r"[0-9A-Z]{4}(-[0-9A-Z]{4}){3}", event.seal)
    assert log[0].data["engine_version"] and log[0].data["board_version"] == Fold.of(log).board.version
    assert verify(log) is None


def test_refused_entries_record_nothing(store):
    _started(store)
    with pytest.raises(RefereeError, match="share no border"):
        OpenGame(store, "t1").record_round(["crab: army 3 crab_central > crane_south"])
    assert len(store.events("t1")) == 2


def test_unknown_and_duplicate_games(store):
    with pytest.raises(UnknownGame, match="no game 'nope'"):
        store.events("nope")
    new_game(store, "g", ["crab", "lion"])
    with pytest.raises(GameExists):
        new_game(store, "g", ["crab", "lion"])
    with pytest.raises(RefereeError, match="2 to 5 different clans"):
        new_game(store, "h", ["crab"])
    with pytest.raises(RefereeError, match="not a valid game id"):
        new_game(store, "bad id!", ["crab", "lion"])
    assert [g.game for g in store.games()] == ["g"]


def test_games_lists_headers_and_stream_yields_each_game(store):
    _started(store, "a")
    _started(store, "b")
    OpenGame(store, "b").record_round(ROUND1)
    info = {g.game: g for g in store.games()}
    assert info["a"].events == 2 and info["b"].events == 3
    assert info["a"].header["event"] == "Friday" and info["a"].header["players"] == {"crab": "Aiko"}
    streamed = list(store.stream())
    assert [log[0].game for log in streamed] == ["a", "b"]
    assert streamed[1] == store.events("b")


def test_head_follows_another_writer_and_never_holds_it_up(store, any_db):
    """A table session asks for the game's head before every line (on the driver connection it keeps):
    each asking sees a write made meanwhile by another connection, and the asking holds no lock that
    would refuse or delay that write. Both backends."""
    _started(store)
    assert store.head("t1") == store.events("t1")[-1].hash and store.head("nobody") is None
    for _ in range(2):  # the second asking is the kept one
        asked = store.head("t1")
        with Store(any_db) as other:  # another moderator's connection
            OpenGame(other, "t1").record_round(ROUND1 if asked == store.events("t1")[1].hash else ROUND2)
            written = other.events("t1")[-1].hash
        assert asked != written and store.head("t1") == written


# --- append-only, enforced by the database ------------------------------------------------------------
@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE event SET payload = '{}' WHERE seq = 2",
        "UPDATE event SET seq = 9 WHERE seq = 1",
        "DELETE FROM event WHERE seq = 2",
        "DELETE FROM event",
        "UPDATE game SET id = 'other'",
        "DELETE FROM game",
    ],
)
def test_the_database_refuses_updates_and_deletes(store, sql):
    _started(store)
    before = store.events("t1")
    with pytest.raises(DatabaseError, match="append-only"):
        with store.engine.begin() as conn:
            conn.execute(text(sql))
    _plain_client_refuses(store, sql)  # a plain client, bypassing SQLAlchemy, is refused too
    assert store.events("t1") == before


def _plain_client_refuses(store: Store, sql: str) -> None:
    if store.is_sqlite:
        with sqlite3.connect(store.where) as conn:
            with pytest.raises(sqlite3.DatabaseError, match="append-only"):
                conn.execute(sql)
        return
    import psycopg

    from tests.support.pg_server import libpq_url

    with psycopg.connect(libpq_url(store.url)) as conn:
        with pytest.raises(psycopg.errors.RaiseException, match="append-only"):
            conn.execute(sql)


def test_reopening_an_existing_database_keeps_games_and_triggers(any_db):
    with Store(any_db) as s:
        s.import_logs([golden("five-player")])
    with Store(any_db) as again:
        assert [g.game for g in again.games()] == ["five-player"]
        assert again.events("five-player") == golden("five-player") and verify(again.events("five-player")) is None
        with pytest.raises(DatabaseError, match="append-only"):
            with again.engine.begin() as conn:
                conn.execute(text("DELETE FROM event WHERE seq = 7"))


def test_triggers_dropped_by_hand_come_back_on_open(db):
    with Store(db) as s:
        _started(s)
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TRIGGER event_no_delete")
    with Store(db):
        pass
    with sqlite3.connect(db) as conn, pytest.raises(sqlite3.DatabaseError, match="append-only"):
        conn.execute("DELETE FROM event")


# What databases already hold: SQLite keeps each trigger's statement in the file as it was written.
HELD_SQLITE_TRIGGERS = {
    f"{table}_no_{op.lower()}": f"CREATE TRIGGER {table}_no_{op.lower()} BEFORE {op} ON {table} BEGIN "
    f"SELECT RAISE(ABORT, '{refused}: {op} on {table} refused'); END"
    for table, refused in [
        ("game", "the game log is append-only"),
        ("event", "the game log is append-only"),
        ("tournament", "the tournament log is append-only"),
        ("tournament_event", "the tournament log is append-only"),
        ("venue_notice", "the venue notices are append-only"),
    ]
    for op in ("UPDATE", "DELETE")
}


def _venue_database(db: str) -> None:
    """A tournament with its round-1 seating posted, through the commands: every append-only table made."""
    for args in (
        ["tournament", "new", "spring", "--name", "Spring Open", "--rounds", "3"],
        *(["tournament", "players", "add", "spring", name] for name in ("Ann", "Bo", "Cy")),
        ["tournament", "seat", "spring", "1"],
        ["tournament", "post", "spring", "1"],
    ):
        result = runner.invoke(app, [*args, "--db", db])
        assert result.exit_code == 0, (args, result.output)


def test_the_sqlite_triggers_are_the_statements_older_databases_hold(db):
    _venue_database(db)
    with sqlite3.connect(db) as conn:
        held = dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall())
    # "IF NOT EXISTS" is not kept in the file
    assert held == HELD_SQLITE_TRIGGERS


def test_an_older_postgres_database_opens_records_and_passes_doctor(pg_url):
    """Older versions wrote the tournament's and the venue's trigger functions with other line breaks."""
    import psycopg

    from tests.support.pg_server import libpq_url

    _venue_database(pg_url)
    with psycopg.connect(libpq_url(pg_url)) as conn:
        conn.execute(
            "CREATE OR REPLACE FUNCTION referee_tournament_append_only() RETURNS trigger LANGUAGE plpgsql AS $body$\n"
            "BEGIN\n  RAISE EXCEPTION USING MESSAGE =\n"
            "    'the tournament log is append-only: ' || TG_OP || ' on ' || TG_TABLE_NAME || ' refused';\nEND\n$body$"
        )
        conn.execute(
            "CREATE OR REPLACE FUNCTION venue_notice_append_only() RETURNS trigger LANGUAGE plpgsql AS $body$ BEGIN "
            "RAISE EXCEPTION USING MESSAGE = 'the venue notices are append-only: ' || TG_OP || ' on venue_notice "
            "refused'; END $body$"
        )
    for args in (["tournament", "announce", "spring", "Lunch at 13:00"], ["doctor"]):
        result = runner.invoke(app, [*args, "--db", pg_url])
        assert result.exit_code == 0, (args, result.output)
    assert "the database is healthy" in result.output
    with psycopg.connect(libpq_url(pg_url)) as conn:
        for sql, refused in [
            ("DELETE FROM venue_notice", "the venue notices are append-only: DELETE on venue_notice refused"),
            ("UPDATE tournament SET id = id", "the tournament log is append-only: UPDATE on tournament refused"),
            ("TRUNCATE event CASCADE", "the game log is append-only: TRUNCATE on event refused"),
        ]:
            with pytest.raises(psycopg.errors.RaiseException, match=refused), conn.transaction():
                conn.execute(sql)


def test_no_code_path_updates_or_deletes():
    source = pyinspect.getsource(store_module)
    code = source.split("# --- the store", 1)[1]  # below the trigger definitions
    code += pyinspect.getsource(game_module)  # the game service: it appends through the store only
    for word in ("update(", "delete(", "UPDATE ", "DELETE ", ".merge(", "session.delete"):
        assert word not in code, word


# --- damaged or foreign files ---------------------------------------------------------------------------
def test_a_damaged_file_is_a_clear_error(tmp_path):
    path = tmp_path / "broken.db"
    path.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StoreError, match="broken.db: cannot use this database") as info:
        Store(str(path))
    assert isinstance(info.value, RefereeError) and "not a database" in str(info.value)


def test_a_foreign_sqlite_file_is_a_clear_error(tmp_path):
    path = tmp_path / "foreign.db"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE event (id INTEGER PRIMARY KEY, what TEXT)")
    with pytest.raises(StoreError, match="not a referee database: its table 'event' lacks"):
        Store(str(path))


# --- the concurrency guard ------------------------------------------------------------------------------
def _prepare(store: Store, game: str):
    events = store.events(game)
    lines, state, report = round_outcome(Fold.of(events), ROUND1)
    return events[-1], ev.round_resolved(report.round, lines, state_digest(state))


def _race(db: str, game: str, barrier, results) -> None:
    with Store(db) as s:
        after, payload = _prepare(s, game)
        barrier.wait()  # both have read event N-1; both now append event N
        try:
            s.append(game, [(EventType.ROUND_RESOLVED, payload)], after)
            results.append("won")
        except GameChanged as exc:
            results.append(str(exc))


def _check_race(db: str, results) -> None:
    assert sorted(r == "won" for r in results) == [False, True]
    lost = next(r for r in results if r != "won")
    assert "another moderator wrote to the game first (event 3); nothing of yours was recorded" in lost
    assert "re-run" not in lost  # a refused write is never an invitation to enter the same sheet again
    with Store(db) as s:
        log = s.events("race")
        assert [e.seq for e in log] == [1, 2, 3] and verify(log) is None


def test_two_threads_appending_the_same_event_one_wins(any_db):
    with Store(any_db) as s:
        _started(s, "race")
    barrier, results = threading.Barrier(2), []
    threads = [threading.Thread(target=_race, args=(any_db, "race", barrier, results)) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    _check_race(any_db, results)


def test_two_processes_appending_the_same_event_one_wins(any_db):
    db = any_db
    with Store(db) as s:
        _started(s, "race")
    ctx = multiprocessing.get_context("spawn")
    with ctx.Manager() as manager:
        barrier, results = manager.Barrier(2), manager.list()
        procs = [ctx.Process(target=_race, args=(db, "race", barrier, results)) for _ in range(2)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(120)
        _check_race(db, list(results))


def test_a_stale_writer_gets_game_changed_and_loses_nothing(store):
    _started(store)
    stale = store.events("t1")
    OpenGame(store, "t1").record_round(ROUND1)
    winner = store.events("t1")
    _, payload = _prepare(store, "t1")
    with pytest.raises(GameChanged) as info:
        store.append("t1", [(EventType.ROUND_RESOLVED, payload)], stale[-1])
    assert isinstance(info.value, RefereeError) and info.value.seq == 3
    assert store.events("t1") == winner


# --- a game kept open (the table session, and every command that writes) ----------------------------------
def test_an_open_game_records_rounds_without_reading_or_resolving_the_log_again(store, monkeypatch):
    _started(store)
    log = OpenGame(store, "t1")
    reads, resolved = [], []
    monkeypatch.setattr(store, "events", lambda game: reads.append(game) or [])
    real = replay_module.play_round
    monkeypatch.setattr(replay_module, "play_round", lambda *a: resolved.append(1) or real(*a))
    recorded = golden("two-player")
    for r in (1, 2):
        event, state, _ = log.record_round(recorded[1 + r].data["entries"])
        assert event.data["digest"] == recorded[1 + r].data["digest"] == state_digest(log.state)
    assert reads == [] and len(resolved) == 2  # each round resolved once; the log never read again
    monkeypatch.undo()
    assert store.events("t1") == log.events and verify(log.events) is None


def test_a_refused_event_leaves_the_open_game_as_it_was(store):
    _started(store)
    log = OpenGame(store, "t1")
    before = (log.fold.seq, state_digest(log.state), len(log.events))
    with pytest.raises(RefereeError, match="share no border"):
        log.record_round(["crab: army 3 crab_central > crane_south"])
    with pytest.raises(RefereeError):  # refused by the fold itself (R-24: objectives are revealed after round 5)
        log.reveal_objective("crab", "emerald_empire")
    assert (log.fold.seq, state_digest(log.state), len(log.events)) == before
    assert len(store.events("t1")) == 2


def test_an_open_game_overtaken_by_another_writer_refuses_and_catches_up(store):
    _started(store)
    log = OpenGame(store, "t1")
    OpenGame(store, "t1").record_round(ROUND1)  # another moderator, on the same game
    with pytest.raises(GameChanged):
        log.record_round(ROUND1)
    assert log.events == store.events("t1") and log.state.round == 2  # re-read: the other round is in the fold
    log.record_round(golden("two-player")[3].data["entries"])
    assert verify(store.events("t1")) is None and len(store.events("t1")) == 4


def test_a_new_game_and_its_capitals_are_one_transaction(store):
    capitals = ["crab: control 1 facedown @ crab_capital", "lion: control 1 facedown @ lion_capital"]
    events = new_game(store, "g", ["crab", "lion"], setup=capitals)
    assert [e.type for e in store.events("g")] == ["GameCreated", "SetupRecorded"] == [e.type for e in events]
    for refused in (
        "crab: control 1 facedown @ nowhere_at_all",  # not understood
        "scorpion: control 1 facedown @ scorpion_capital",
    ):  # understood; the engine refuses it
        with pytest.raises(RefereeError):
            new_game(store, "h", ["crab", "lion"], setup=[*capitals, refused])
        assert not store.exists("h")  # no game without its setup


# --- PostgreSQL specifics ---------------------------------------------------------------------------------
@pytest.mark.parametrize("sql", ["TRUNCATE event CASCADE", "TRUNCATE game CASCADE"])
def test_postgres_refuses_truncate(pg_url, sql):
    with Store(pg_url) as s:
        s.import_logs([golden("five-player")])
        with pytest.raises(DatabaseError, match="append-only"):
            with s.engine.begin() as conn:
                conn.execute(text(sql))
        _plain_client_refuses(s, sql)
        assert s.events("five-player") == golden("five-player")


def test_a_foreign_postgres_database_is_a_clear_error(pg_url):
    import psycopg

    from tests.support.pg_server import libpq_url

    with psycopg.connect(libpq_url(pg_url)) as conn:
        conn.execute("CREATE TABLE event (id integer PRIMARY KEY, what text)")
    with pytest.raises(StoreError, match="not a referee database: its table 'event' lacks"):
        Store(pg_url)


def test_an_unreachable_postgres_server_is_a_clear_error():
    from tests.support.pg_server import _free_port

    with pytest.raises(StoreError, match="cannot use this database.*(refused|connect)"):
        Store(f"postgresql+psycopg://referee@127.0.0.1:{_free_port()}/rokugan?connect_timeout=5")


def test_a_payload_is_read_as_json_reads_it():
    """The store reads payloads with orjson for speed: every value is the one ``json.loads`` gives, integers
    beyond 64 bits, NaN, huge exponents and lone surrogates included, and what is not JSON is refused alike."""
    import json

    from referee.log.storage import _loads

    for raw in (
        '{"a":1,"a":2}',
        '{"a":1.0,"b":-0.0,"c":0.1,"d":[1,2,{"e":null}]}',
        '{"a":123456789012345678901234567890,"b":-9223372036854775809}',
        '{"a":9223372036854775807}',
        '{"a":[{"b":[18446744073709551616]}],"c":"12345678901234567890123"}',
        "123456789012345678901234567890",
        '{"a":1e400}',
        '{"a":NaN}',
        '{"a":"\\ud800"}',
        '{"a":"東 é \\u2028"}',
    ):
        got, want = _loads(raw), json.loads(raw)
        assert repr(got) == repr(want), raw  # the same types too: an int stays an int
    for bad in ("{", "", "nul"):
        with pytest.raises(ValueError):
            _loads(bad)
    with pytest.raises(TypeError):
        _loads(None)  # type: ignore[arg-type]
