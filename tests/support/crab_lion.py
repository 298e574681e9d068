"""The game the round-identity and table-session tests start from: "g", crab and lion, set up by hand (the
starting control tokens, p.4), on SQLite (fixture ``db``) or on each backend (fixture ``both_db``); and what
`referee show` says of it."""

from __future__ import annotations

import json

import pytest

from referee.cli.app import app
from tests.support.entry_point import runner

SETUP = "crab: control @ crab_central\nlion: control @ lion_northwest\n"


def begin(db: str) -> str:
    assert runner.invoke(app, ["new", "g", "--clans", "crab,lion", "--partial-setup", "--db", db]).exit_code == 0
    assert runner.invoke(app, ["setup", "g", "-", "--db", db], input=SETUP).exit_code == 0
    return db


@pytest.fixture(name="db")
def begun_db(tmp_path):
    return begin(str(tmp_path / "g.db"))


@pytest.fixture(name="both_db")
def begun_on_each_backend(any_db):
    """The game on SQLite and on PostgreSQL."""
    return begin(any_db)


def shown(db: str) -> dict:
    return json.loads(runner.invoke(app, ["show", "g", "--json", "--db", db]).output)


def round_seals(db: str) -> list[str]:
    return [s["seal"] for s in shown(db)["seals"] if s.get("round")]
