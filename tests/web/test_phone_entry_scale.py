"""The phone entry at an event's scale: `referee serve --entry --workers N` on PostgreSQL
(refused on SQLite), the seat's game folded once per chain head and shared by the requests, the link streams
read without the drafts, and a SQLite database served in WAL mode. The load test itself is
tests/reliability/test_load_phone_entry.py (bench/load_entry.py); its figures are in the manual (docs/benchmarks.md)."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar

import pytest

from referee.log import EventType, OpenGame, Store, entry as en
from tests.support.entry_point import ROOT, referee
from tests.web.test_phone_entry import env_home, five_player_game, free_port


def test_workers_are_refused_on_sqlite_with_a_usage_error(tmp_path):
    db = str(tmp_path / "games.db")
    five_player_game(db, "t1")
    out = referee(db, "serve", "--entry", "--workers", "2", "--port", str(free_port()), home=tmp_path)
    assert out.returncode == 2, out.stderr
    assert "--workers" in out.stderr and "SQLite takes one writer at a time" in out.stderr
    assert "Traceback" not in out.stderr and out.stdout == ""


def _children(pid: int) -> list[int]:
    import psutil

    return [p.pid for p in psutil.Process(pid).children(recursive=True)]


def _seat_writes(base: str, secret: str, lines: list[str]) -> None:
    """One phone (its own cookies) adds ``lines`` through the no-JavaScript form, then submits."""
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

    def form(page: str, **fields: str) -> bytes:
        kept = {k: re.search(rf'name="{k}" value="([^"]*)"', page).group(1) for k in ("csrf", "version", "round")}  # type: ignore[union-attr]
        return urllib.parse.urlencode({**kept, **fields}).encode()

    page = opener.open(f"{base}/e/{secret}").read().decode()
    for line in lines:
        rest = line.split(":", 1)[1].strip()
        rest, _, blessing = rest.partition(" + ")
        if " @ " in rest:
            token, to = rest.split(" @ ")
            fields = {"token": token, "to": to, "from": "", "blessing": blessing}
        else:
            m = re.fullmatch(r"(.+?) (\S+) > (\S+)", rest)
            assert m, line
            fields = {"token": m.group(1), "from": m.group(2), "to": m.group(3), "blessing": blessing}
        page = opener.open(f"{base}/e/{secret}/add", data=form(page, **fields)).read().decode()
    opener.open(f"{base}/e/{secret}/submit", data=form(page)).read()


def test_workers_on_postgresql_serve_a_round_entered_on_the_phones(pg_url, tmp_path):
    """Two worker processes on one PostgreSQL database: five seats enter the bench round at once, each from its
    own connection (so spread over the workers), the moderator confirms, and the round recorded is the sheet."""
    import threading

    sheet = five_player_game(pg_url, "phones")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    out = referee(pg_url, "links", "phones", "--base", base, home=tmp_path)
    secrets_ = dict(re.findall(r"^(\w+): " + re.escape(base) + r"/e/(\S+)$", out.stdout, re.M))
    assert len(secrets_) == 5, out.stdout + out.stderr
    server = subprocess.Popen(
        [sys.executable, "-m", "referee", "serve", "--entry", "--workers", "2", "--port", str(port), "--db", pg_url],
        cwd=ROOT,
        env=env_home(tmp_path),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(base + "/favicon.ico", timeout=1)
                break
            except OSError:
                time.sleep(0.1)
        else:
            raise AssertionError("no server")
        deadline = time.monotonic() + 30
        while len(_children(server.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert len(_children(server.pid)) >= 2  # the workers (and uvicorn's own helper, if any)
        phones = [
            threading.Thread(target=_seat_writes, args=(base, s, [x for x in sheet if x.startswith(f"{c}:")]))
            for c, s in secrets_.items()
        ]
        for p in phones:
            p.start()
        for p in phones:
            p.join(120)
        confirmed = referee(pg_url, "confirm", "phones", "--yes", home=tmp_path)
        if confirmed.returncode:
            os.killpg(server.pid, signal.SIGINT)
            raise AssertionError(confirmed.stderr + server.communicate(timeout=30)[1][-4000:])
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGINT)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
            server.wait()
    with Store(pg_url) as store:
        resolved = [e for e in store.events("phones") if e.type == EventType.ROUND_RESOLVED]
    assert sorted(resolved[0].data["entries"]) == sorted(sheet)


def test_the_seat_game_is_folded_once_per_head_and_read_only(tmp_path):
    db = str(tmp_path / "games.db")
    sheet = five_player_game(db, "g")
    games = en.Games()
    with Store(db) as store:
        first = games.read(store, "g")
        assert games.read(store, "g") is first  # the same head: the same fold
        first.check_round()  # round 1 may be entered (asked once, the answer kept)
        first.check_round()
        with pytest.raises(TypeError):
            first.enter_round("\n".join(["round: 1", *sheet]))
        OpenGame(store, "g").enter_round("\n".join(["round: 1", *sheet]))  # the moderator records round 1
        moved = games.read(store, "g")
        assert moved is not first and moved.state.round == 2 and first.state.round == 1
        assert moved.events[-1].hash == store.head("g")


def test_links_are_listed_without_reading_the_drafts(tmp_path):
    db = str(tmp_path / "games.db")
    five_player_game(db, "a", "b")
    with Store(db) as store:
        secret = en.issue_link(store, "a", "crab")
        en.issue_link(store, "b", "crab")
        draft = en.draft_of(store, "a", 1, "crab")
        en.write_draft(store, draft, [], False, 0, "phone")
        listed = store.games(en.ENTRY, kind=en.LINK_KIND)
        assert {i.kind for i in listed} == {en.LINK_KIND} and len(listed) == 2
        assert [link.hash for link in en.links_of(store, "a")] == [en.link_hash(secret)]
        assert len(store.games(en.ENTRY)) == 3  # the draft is there, and not among the links


def test_a_served_sqlite_database_is_in_wal_mode_and_a_draft_is_read_at_once(tmp_path):
    db = str(tmp_path / "games.db")
    five_player_game(db, "g")
    with Store(db) as store, Store(db) as other:
        assert store.write_ahead()
        with store.engine.connect() as conn:
            assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
        written = en.write_draft(store, en.draft_of(store, "g", 1, "crab"), ["x"], False, 0, "phone")
        assert en.draft_of(other, "g", 1, "crab") == written  # another connection (a process) sees it at once
        with store.engine.connect() as conn:  # the unsynced commit left the connection's setting as it was
            assert conn.exec_driver_sql("PRAGMA synchronous").scalar() == 2
    assert not Store("sqlite://").write_ahead()  # in memory: nothing to switch
