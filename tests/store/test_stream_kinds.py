"""One event store for every stream: a game records its kind, an older database gains the column on open and
keeps its games, a new kind of game is written and read through the same append and reader, and the tournament
uses the same store (no second chain, insert or table definition)."""

from __future__ import annotations

import inspect
import sqlite3

import pytest

from referee.log import OpenGame, Store, check_chain, golden, new_game, storage, tournaments
from referee.log.storage import DEFAULT_KIND, GameChanged, UnknownGame
from referee.log.tournaments import TOURNAMENTS, TournamentChanged, read_events

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
    monkeypatch.setitem(storage.MIGRATED, ("game", "kind"), "NOT A COLUMN (((")
    with Store(str(path), create=False) as store:
        assert store.unmigrated == {("game", "kind")}
        assert store.kind("g1") == DEFAULT_KIND
        assert [g.kind for g in store.games()] == [DEFAULT_KIND]


def test_the_tournament_is_a_family_of_the_one_store(any_db):
    """The tournament's stream goes through the store's append (version check included) and reader."""
    from referee.tournament.model import PlayersRegistered, PointsAdjusted, TournamentCreated

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
    for word in ("SQLModel", "create_all", "INSERT", "SELECT", "event_hash", "engine.", "sqlalchemy"):
        assert word not in code, word
    assert storage.TOURNAMENT_TABLES == {t.name for t in TOURNAMENTS.tables}
