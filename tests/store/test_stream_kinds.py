"""One event store for every stream: a game records its kind, an older database gains the column on open and
keeps its games, a new kind of game is written and read through the same append and reader, and the tournament
uses the same store (no second chain, insert or table definition)."""

from __future__ import annotations

import inspect
import sqlite3

import pytest

from referee.core.errors import RefereeError
from referee.games.battle.records import golden
from referee.games.battle.service import OpenGame, new_game
from referee.store import families
from referee.store.events import check_chain
from referee.store.families import GameChanged, UnknownGame
from referee.store.storage import DEFAULT_KIND, Store
from referee.tournaments import service as tournaments
from referee.tournaments.service import TOURNAMENTS, TournamentChanged, read_events

OLD_GAME_TABLE = (
    "PRAGMA foreign_keys=OFF; CREATE TABLE game_old (id VARCHAR(64) PRIMARY KEY, created_at VARCHAR NOT NULL);"
    "INSERT INTO game_old SELECT id, created_at FROM game; DROP TABLE game; ALTER TABLE game_old RENAME TO game;"
)


def test_a_new_kind_of_game_is_written_and_read_by_the_same_store(any_db):
    with Store(any_db) as store:
        first = store.append("deck-1", [("MatchStarted", {"players": ["a", "b"]})], None, kind="l5r-ccg")
        more = store.append("deck-1", [("TurnPlayed", {"n": 1}), ("TurnPlayed", {"n": 2})], first[-1])
        assert store.kind("deck-1") == "l5r-ccg"
        events = store.events("deck-1")
        assert [e.type for e in events] == ["MatchStarted", "TurnPlayed", "TurnPlayed"]
        assert events == first + more and check_chain(events) is None
        assert [e.payload_version for e in events] == [1, 1, 1]  # a type the store does not know: version 1
        with pytest.raises(GameChanged):  # the version check, as for a Battle for Rokugan game
            store.append("deck-1", [("TurnPlayed", {"n": 3})], first[-1])
        listed = {g.game: g.kind for g in store.games()}
        assert listed == {"deck-1": "l5r-ccg"}
        with pytest.raises(UnknownGame):
            store.kind("nowhere")


def test_a_game_made_by_new_game_is_a_battle_for_rokugan_game(any_db):
    with Store(any_db) as store:
        new_game(store, "g1", ["crab", "crane"])
        assert store.kind("g1") == DEFAULT_KIND == "battle-for-rokugan"
        assert [g.kind for g in store.games()] == [DEFAULT_KIND]


def test_an_older_database_without_the_kind_column_keeps_working(tmp_path):
    """A database written before games had kinds: opened, it gains the column; its games read as the default
    kind, replay and verify unchanged, and a new kind can be added to it."""
    path = tmp_path / "old.db"
    recorded = golden("two-player")
    with Store(str(path)) as store:
        store.import_logs([recorded])
    with sqlite3.connect(path) as conn:  # the game table as it was before the kind column
        conn.executescript(OLD_GAME_TABLE)
        assert "kind" not in {r[1] for r in conn.execute("PRAGMA table_info(game)")}
    with Store(str(path), create=False) as store:
        game = recorded[0].game
        assert store.kind(game) == DEFAULT_KIND
        assert store.events(game) == list(recorded)
        store.append("cards", [("MatchStarted", {})], None, kind="champions")
        assert {g.game: g.kind for g in store.games()} == {game: DEFAULT_KIND, "cards": "champions"}
        OpenGame(store, game)  # the fold reads it as before


def test_an_older_database_that_cannot_take_the_column_reads_the_default_kind(tmp_path, monkeypatch):
    """A file the store cannot alter (read-only, here an ALTER the database refuses): read as the default kind."""
    path = tmp_path / "old.db"
    with Store(str(path)) as store:
        new_game(store, "g1", ["crab", "crane"])
    with sqlite3.connect(path) as conn:
        conn.executescript(OLD_GAME_TABLE)
    monkeypatch.setitem(families.MIGRATED, ("game", "kind"), "NOT A COLUMN (((")
    with Store(str(path), create=False) as store:
        assert store.unmigrated == {("game", "kind")}
        assert store.kind("g1") == DEFAULT_KIND
        assert [g.kind for g in store.games()] == [DEFAULT_KIND]


def test_the_tournament_is_a_family_of_the_one_store(any_db):
    """The tournament's stream goes through the store's append (version check included) and reader."""
    from referee.engine.tournament.events import PlayersRegistered, PointsAdjusted, TournamentCreated

    with Store(any_db) as store:
        tournaments.create(store, TournamentCreated("cup", "Cup", "2026-11-20"))
        tournaments.OpenTournament(store, "cup").record([PlayersRegistered([{"id": "p1", "name": "Aiko", "club": ""}])])
        log = tournaments.OpenTournament(store, "cup")
        other = tournaments.OpenTournament(store, "cup")
        log.record([PointsAdjusted("p1", "1", "first")])
        with pytest.raises(TournamentChanged):
            other.record([PointsAdjusted("p1", "1", "second")])
        events = read_events(store, "cup")
        assert events == store.events("cup", TOURNAMENTS) and check_chain(events) is None
        assert not store.exists("cup")  # a tournament is not a game


def test_no_second_copy_of_the_store_in_the_tournament_service():
    """The tournament service defines no table, insert, select or chain of its own."""
    code = inspect.getsource(tournaments)
    code = "".join(line for line in code.splitlines(True) if not line.lstrip().startswith("from "))  # not its imports
    for word in ("SQLModel", "create_all", "INSERT", "SELECT", "event_hash", "engine.", "sqlalchemy"):
        assert word not in code, word
    assert families.TOURNAMENT_TABLES == {t.name for t in TOURNAMENTS.tables}


def test_every_kind_of_record_is_opened_by_the_registry_and_takes_back_its_last_event_alike(tmp_path):
    """One service shape in the three games: the registry opens a record of any kind (``Game.open``) into a
    service holding its events and its fold, whose ``retract(reason, seq=None)`` takes back the last event in
    effect as a new event (``seq``, when given, must name it), and the registry says where it stands."""
    from referee.games.registry import game_of, status
    from tests.support.entry_point import referee

    db = str(tmp_path / "kinds.db")
    players = ["--player", "alice: honor 6, strength 6, gold 5", "--player", "bob: honor 5, strength 5, gold 5"]
    made = [
        referee(db, "new", "bfr", "--clans", "crab,lion", home=tmp_path),
        referee(db, "setup", "bfr", "-", stdin="crab: control 1 facedown @ crab_central\n", home=tmp_path),
        referee(db, "ccg", "new", "m1", *players, home=tmp_path),
        referee(db, "ccg", "event", "m1", "reveal 1 personality Doji Hoturi", home=tmp_path),
        referee(db, "champions", "demo", "fallen-lion", home=tmp_path),
    ]
    assert all(r.returncode == 0 for r in made), [r.stderr for r in made]
    with Store(db) as store:
        for game in ("bfr", "m1", "fallen-lion"):
            events = store.events(game)
            kind = game_of(events)
            service = kind.open(store, game)
            assert service.events == events and service.fold is not None
            last = events[-1].seq
            with pytest.raises(RefereeError):  # an event that is not the last in effect is not taken back
                service.retract("a typing mistake", last - 1 if kind.kind.name != "champions" else 999)
            service.retract("a typing mistake")
            after = store.events(game)
            assert len(after) == len(events) + 1 and after[-1].type == "EventRetracted"
            assert after[-1].payload["seq"] == last and status(after) == status(events[:-1])  # as if never recorded
