"""The tournament's event stream in the store (both backends): append-only for real, hash-chained, one writer wins;
and the tournament package stays pure."""

import ast
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.exc import DatabaseError

from referee.cli.app import app
from referee.engine.tournament.events import PointsAdjusted
from referee.store.storage import Store
from referee.tournaments.service import OpenTournament, TournamentChanged, read_events, verify
from tests.support.entry_point import run_in_process, runner

PACKAGE = Path(__file__).parents[2] / "referee" / "engine" / "tournament"


def ok(db, *args):
    result = runner.invoke(app, [*args, "--db", db])
    assert result.exit_code == 0, (args, result.output)
    return result.output


def start(db):
    ok(db, "tournament", "new", "cup", "--name", "Cup", "--rounds", "2")
    for i in range(7):
        ok(db, "tournament", "players", "add", "cup", f"P{i}")
    ok(db, "tournament", "seat", "cup", "1")
    return db


@pytest.fixture
def started(any_db):
    return start(any_db)


@pytest.mark.parametrize(
    "sql",
    [
        "UPDATE tournament_event SET payload = '{}' WHERE seq = 2",
        "DELETE FROM tournament_event WHERE seq = 3",
        "DELETE FROM tournament",
    ],
)
def test_the_database_refuses_updates_and_deletes(started, sql):
    with Store(started) as store:
        before = read_events(store, "cup")
        with pytest.raises(DatabaseError, match="append-only"):
            with store.engine.begin() as conn:
                conn.execute(text(sql))
        assert read_events(store, "cup") == before
        assert verify(before) == []


def test_of_two_writers_one_wins_and_the_other_is_told(started):
    with Store(started) as store:
        first, second = OpenTournament(store, "cup"), OpenTournament(store, "cup")
        first.record([PointsAdjusted("p1", "1", "first judge")])
        with pytest.raises(TournamentChanged, match="changed under you"):
            second.record([PointsAdjusted("p2", "1", "second judge")])
        events = read_events(store, "cup")
    assert [e.payload.get("reason") for e in events[-1:]] == ["first judge"]
    assert verify(events) == []


def test_verify_recomputes_the_seating_cost_and_finds_a_changed_one(started):
    with Store(started) as store:
        events = read_events(store, "cup")
    seated = next(i for i, e in enumerate(events) if e.type == "RoundSeated")
    from referee.tournaments.service import chain

    forged = list(events[:seated])
    payload = {**events[seated].payload, "cost": events[seated].payload["cost"] + 7}
    forged.append(chain("cup", forged[-1], "RoundSeated", payload))
    problems = verify(forged)
    assert len(problems) == 1 and "recorded cost" in problems[0] and "recomputed" in problems[0]


ALLOWED = {
    "__future__",
    "collections",
    "csv",
    "dataclasses",
    "fractions",
    "hashlib",  # the Swiss round 1's order from its seed (swiss.seeded_order): a fixed function, no randomness
    "io",
    "itertools",
    "math",
    "networkx",  # the Swiss pairing's minimum-cost matching: a pure graph library (no I/O, no clock)
    "rustworkx",  # the same matching compiled (the pairing's version 2): a pure graph library too
    "random",
    "re",
    "typing",
}


def test_the_tournament_package_is_pure():
    """Standard library, referee.engine.battle and referee.core.shown (the pure escape of user text) only, and
    networkx's and rustworkx's matching; no I/O builtins; randomness only through a Random(seed) handed in."""
    offenders = []
    files = sorted(PACKAGE.glob("*.py"))
    assert len(files) >= 7
    for path in files:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.ImportFrom)
                and node.level >= 2
                and (node.level, (node.module or "").split(".")[0]) not in {(2, "battle"), (3, "core")}
            ):
                offenders.append(f"{path.name}: imports ..{node.module}")
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module.split(".")[0] not in ALLOWED:
                offenders.append(f"{path.name}: imports {node.module}")
            elif isinstance(node, ast.Import):
                offenders += [
                    f"{path.name}: imports {a.name}" for a in node.names if a.name.split(".")[0] not in ALLOWED
                ]
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("open", "print", "input")
            ):
                offenders.append(f"{path.name}:{node.lineno} calls {node.func.id}()")
            elif (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id == "random"
                and node.attr != "Random"
            ):
                offenders.append(f"{path.name}:{node.lineno} uses the global random.{node.attr}")
    assert offenders == []


def test_no_code_path_updates_or_deletes_a_tournament_event():
    import inspect

    from referee.tournaments import service as tournaments

    code = inspect.getsource(tournaments).split("# --- the stream", 1)[1]
    for word in ("UPDATE ", "DELETE ", "TRUNCATE", ".merge(", "session.delete"):
        assert word not in code, word


def test_verify_checks_every_table_game_log(tmp_path):
    """A table's game log altered in the database: the tournament's verify names the game and what changed."""
    import json
    import sqlite3

    started = start(str(tmp_path / "cup.db"))  # the game log is altered with SQLite's own driver

    with Store(started) as store:
        game = read_events(store, "cup")[-1].payload["tables"][0]["game"]
        players = store.events(game)[0].payload["players"]
    with sqlite3.connect(started) as conn:  # past the triggers: a damaged file, as a disk or a hand could make it
        conn.execute("DROP TRIGGER event_no_update")
        conn.execute(
            "UPDATE event SET payload = ? WHERE game_id = ? AND seq = 1",
            (
                json.dumps(
                    {
                        **json.loads(
                            conn.execute("SELECT payload FROM event WHERE game_id = ? AND seq = 1", (game,)).fetchone()[
                                0
                            ]
                        ),
                        "players": {k: v + "!" for k, v in players.items()},
                    }
                ),
                game,
            ),
        )
    result = run_in_process(["tournament", "verify", "cup", "--db", started])
    assert result.returncode == 1 and f"game {game}: event 1: edited payload" in result.stderr


def test_an_import_of_a_malformed_event_with_a_valid_chain_is_refused_whole(tmp_path):
    """A file whose chain was recomputed over a payload of the wrong shape: refused in one line, nothing stored."""
    from referee.records.jsonl import export_jsonl
    from referee.tournaments.service import chain

    first = chain("cup", None, "TournamentCreated", {"tournament": "cup", "name": "Cup"})
    bad = chain(
        "cup",
        first,
        "RoundSeated",
        {"round": 1, "tables": [1, 2], "algorithm": "x", "version": 1, "cost": 0, "seed": 0},
    )
    path = tmp_path / "bad.jsonl"
    path.write_text(export_jsonl([first, bad]))
    db = str(tmp_path / "t.db")
    result = runner.invoke(app, ["tournament", "import", str(path), "--db", db])
    assert result.exit_code == 1 and "event 2: RoundSeated: a field has the wrong form" in result.stderr
    assert runner.invoke(app, ["tournament", "list", "--json", "--db", db]).output.strip() == "[]"


@pytest.mark.parametrize(
    "line, problem",
    [
        ("{not json", "line 2: not a JSON object"),
        ('["a list"]', "line 2: not a JSON object"),
        ('{"game": "cup"}', "line 2: field 'seq' must be int, got None"),
    ],
)
def test_an_import_of_a_line_that_is_not_an_event_names_the_line(tmp_path, line, problem):
    """Read as a game's export is read: the line and what is wrong with it, exit 1, nothing stored."""
    from referee.records.jsonl import export_jsonl
    from referee.tournaments.service import chain

    first = chain("cup", None, "TournamentCreated", {"tournament": "cup", "name": "Cup"})
    path = tmp_path / "bad.jsonl"
    path.write_text(export_jsonl([first]) + line + "\n")
    db = str(tmp_path / "t.db")
    result = run_in_process(["tournament", "import", str(path), "--db", db])
    assert result.returncode == 1 and result.stderr.startswith(f"error: {problem}"), result.stderr
    assert "refused whole" in result.stderr and "Traceback" not in result.stderr
    assert not (tmp_path / "t.db").exists()  # refused as read, before any database was made


def test_a_database_holding_tournaments_is_still_a_referee_database(started):
    """The store's foreign-table check knows the tournament tables: the game commands and doctor open it."""
    from referee.store.families import TOURNAMENT_TABLES, VENUE_TABLES
    from referee.tournaments.service import STORE_TABLES as TABLES
    from referee.tournaments.venue import VenueNoticeRow

    assert {t.name for t in TABLES} == TOURNAMENT_TABLES
    assert {VenueNoticeRow.__tablename__} == VENUE_TABLES
    ok(started, "tournament", "announce", "cup", "Round 1 starts at ten")  # the venue's notices: one more table
    assert "cup" in ok(started, "games")  # the seated tables' games are listed
    ok(started, "doctor")
