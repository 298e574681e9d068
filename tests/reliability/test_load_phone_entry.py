"""The phone entry's load test runs: bench/load_entry.py at its smallest size, one table on
SQLite for a few seconds, through the command the manual's load test names (docs/benchmarks.md). Not a timed
test: it checks that the load client drives `referee serve --entry` end to end (five phones enter, submit and
poll, the moderator confirms with `referee confirm --yes`), that it reports a p50 and a p95 for every request
kind, and that its own check of what was recorded against what was sent holds: no error, no token lost or twice."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[2]
KINDS = ("page", "add_a_token", "page_after_a_write", "submit", "poll", "confirm")

# Asked without importing it: importing locust patches this process's threads and sockets (gevent).
if importlib.util.find_spec("locust") is None:
    pytest.skip("locust is a test dependency (pip install -e '.[test]')", allow_module_level=True)


def test_load_client_enters_and_confirms_one_table_on_sqlite(tmp_path):
    env = {**os.environ, "HOME": str(tmp_path), "TMPDIR": str(tmp_path)}  # the event's database: in this folder
    env.pop("REFEREE_DB", None)
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "bench" / "load_entry.py"),
            "--backend",
            "sqlite",
            "--tables",
            "1",
            "--think",
            "0.2",
            "--poll",
            "0.3",
            "--limit",
            "120",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    figures = dict(re.findall(r"^RESULT (\w+)=(\S+)$", done.stdout, re.M))
    assert figures["sqlite_rounds"] == "1"
    assert (figures["sqlite_errors"], figures["sqlite_lost"], figures["sqlite_duplicated"]) == ("0", "0", "0")
    for kind in KINDS:
        p50, p95 = float(figures[f"sqlite_{kind}_p50_ms"]), float(figures[f"sqlite_{kind}_p95_ms"])
        assert 0 < p50 <= p95, (kind, p50, p95)
    assert re.search(r"tokens sent: 25; lost: 0; duplicated: 0", done.stdout), done.stdout


def test_the_load_checks_count_a_lost_and_a_doubled_token(tmp_path):
    """The check behind "0 lost, 0 duplicated" sees both: a seat's draft missing a token, another's holding one
    twice, and a round not recorded."""
    from referee.log import entry as en
    from referee.log.storage import Store

    spec = importlib.util.spec_from_file_location("load_entry", ROOT / "bench" / "load_entry.py")
    load = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(load)
    db = str(tmp_path / "event.db")
    seats, sheets = load.make_event(db, 1)
    ((game, sheet),) = sheets.items()
    with Store(db) as store:
        for clan in {s["clan"] for s in seats}:
            mine = [line for line in sheet if line.startswith(f"{clan}:")]
            lines = mine[1:] if clan == seats[0]["clan"] else mine + mine[:1] if clan == seats[1]["clan"] else mine
            en.write_draft(store, en.draft_of(store, game, 1, clan), lines, True, 0, "phone")
    rounds, sent, lost, twice = load.check_recorded(db, sheets)
    assert (rounds, sent) == (0, 25)
    assert lost == 25 + 1  # the round not recorded (all 25), and one token of the first seat's draft
    assert twice == 1  # the second seat's draft holds one token twice
