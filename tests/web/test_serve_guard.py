"""`referee serve` as a door from the network, over HTTP to a real `referee serve`
and through FastAPI's test client: a missing database is refused and nothing is made; reading never writes;
every response carries the security headers; a Host that is not a served name is refused (DNS rebinding), so a
printed sheet's QR code carries only a served name; HEAD is answered."""

import hashlib
import http.client
import os
import re
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from referee.web import venue_app
from tests.support import databases
from tests.support.entry_point import run_in_process
from tests.support.serving import ROOT, cli, free_port, players_csv, serve

GAME = "demo-five-player-1"


def fingerprint(db: str) -> tuple[str, list]:
    """The database file's bytes (hashed) and its schema: what any write would change."""
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        schema = sorted(conn.execute("SELECT type, name FROM sqlite_master").fetchall())
    return hashlib.sha256(Path(db).read_bytes()).hexdigest(), schema


def ask(port: int, path: str, host: str | None = None, method: str = "GET") -> tuple[int, dict, bytes]:
    """One request to the served port with the Host header given (default: 127.0.0.1:port)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        conn.putrequest(method, path, skip_host=True)
        conn.putheader("Host", host if host is not None else f"127.0.0.1:{port}")
        conn.endheaders()
        r = conn.getresponse()
        return r.status, {k.lower(): v for k, v in r.getheaders()}, r.read()
    finally:
        conn.close()


@pytest.fixture(scope="module")
def games_only(tmp_path_factory):
    return databases.demo(tmp_path_factory.mktemp("guard") / "games.db")


@pytest.fixture(scope="module")
def with_tournament(tmp_path_factory):
    path = tmp_path_factory.mktemp("guard-t")
    db = databases.demo(path / "games.db")
    cli(db, "tournament", "new", "spring", "--name", "Spring Open", "--rounds", "3")
    names = ["Ann Lee", "Bo Chen", "Cy Park", "Di Ross", "Ed Moss", "Fay Wu", "Gus Hart", "Hal Ito"]
    cli(db, "tournament", "players", "add", "spring", "--csv", players_csv(path / "players.csv", names))
    cli(db, "tournament", "seat", "spring", "1")
    cli(db, "tournament", "post", "spring", "1")
    return db


@pytest.fixture(scope="module")
def served(games_only, with_tournament):
    """A real `referee serve` over each database, for the module's read-only requests (a server a test that
    gives it its own options starts itself)."""
    with serve(games_only) as games, serve(with_tournament) as tournament:
        yield {"games only": games, "with a tournament": tournament}
    assert "Traceback" not in games.err + tournament.err


def test_serve_refuses_a_missing_database_and_makes_no_file(tmp_path):
    missing = tmp_path / "missing.db"
    home = tmp_path.parent / f"{tmp_path.name}-home"
    home.mkdir()
    env = {**os.environ, "HOME": str(home)}
    out = subprocess.run(
        [sys.executable, "-m", "referee", "serve", "--port", str(free_port()), "--db", str(missing)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        env=env,
    )
    assert out.returncode == 1 and out.stderr.startswith(f"error: {missing}: no database here"), out.stderr
    assert "Traceback" not in out.stderr and not missing.exists() and list(tmp_path.iterdir()) == []
    shown = run_in_process(["games", "--db", str(missing)], cwd=ROOT, env=env)
    assert shown.returncode == 1 and shown.stderr.splitlines()[0] == out.stderr.splitlines()[0]


READS = [
    "/",
    f"/games/{GAME}",
    f"/games/{GAME}/rounds/2",
    f"/games/{GAME}/board.svg",
    "/api/games",
    "/api/heads",
    "/api/tournaments",
    f"/api/games/{GAME}/verify",
    "/tournaments/spring",
    "/tournaments/spring/seating/1",
    "/tournaments/spring/players/ann-lee",
    "/tournaments/spring/projector?view=boards&pause=1",
    "/api/tournaments/spring/standings",
    "/tournaments/nope",
    "/no/such/page",
]


@pytest.mark.parametrize("kind", ["games only", "with a tournament"])
def test_reading_every_page_writes_nothing(kind, games_only, with_tournament, served):
    db = games_only if kind == "games only" else with_tournament
    before = fingerprint(db)
    for path in READS:
        status, _, _ = ask(served[kind].port, path)
        assert status in (200, 404), (path, status)
    assert fingerprint(db) == before


def check_headers(path: str, status: int, headers: dict) -> None:
    policy = headers.get("content-security-policy", "")
    assert "frame-ancestors 'none'" in policy and "default-src 'none'" in policy, (path, status, policy)
    assert headers.get("x-content-type-options") == "nosniff", (path, status)
    assert headers.get("referrer-policy") == "no-referrer", (path, status)


def test_every_response_carries_the_security_headers(served):
    port = served["with a tournament"].port
    for path in [*READS, "/api/docs", "/api/openapi.json", f"/games/{GAME}/rounds/9.svg"]:
        status, headers, body = ask(port, path)
        check_headers(path, status, headers)
        if headers["content-type"].startswith("text/html") and path != "/api/docs":
            # the page's own style and script carry the nonce its policy names, and nothing else runs
            nonce = re.search(r"'nonce-([^']+)'", headers["content-security-policy"]).group(1)
            html = body.decode()
            assert html.count(f'nonce="{nonce}"') == html.count("<style") + html.count("<script"), path
            assert "'unsafe-inline'" not in headers["content-security-policy"]
    status, headers, _ = ask(port, f"/api/games/{GAME}/head")
    again = ask(port, f"/api/games/{GAME}/head", method="GET")
    assert status == 200 and again[1]["etag"] == headers["etag"]
    refused = ask(port, "/", host="evil.example")
    check_headers("/ refused", refused[0], refused[1])


@pytest.mark.parametrize("host", ["evil.example", "evil.example:80", "127.0.0.1.evil.example", "", "[::1", "a/b"])
def test_a_host_that_is_not_a_served_name_is_refused(served, host):
    port = served["with a tournament"].port
    status, _, body = ask(port, "/tournaments/spring/sheet/1", host=host)
    assert status in (400, 421) and b"Spring" not in body and b"<svg" not in body
    for name in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "LOCALHOST"):
        assert ask(port, "/", host=name)[0] == 200, name


def test_a_name_given_to_serve_is_served_and_is_the_one_the_qr_code_carries(with_tournament):
    with serve(with_tournament, "0.0.0.0", "--name", "venue.example") as served:
        status, _, body = ask(served.port, "/tournaments/spring/sheet/1", host=f"venue.example:{served.port}")
        assert status == 200 and f"QR code of http://venue.example:{served.port}/tournaments/spring" in body.decode()
        assert ask(served.port, "/", host="rebound.example")[0] == 421


def test_the_qr_code_never_carries_a_name_the_server_was_not_given(with_tournament):
    with TestClient(venue_app(with_tournament), base_url="http://localhost") as c:
        assert c.get("/tournaments/spring/sheet/1", headers={"Host": "evil.example"}).status_code == 421
        page = c.get("/tournaments/spring/sheet/1").text
        assert "QR code of http://localhost/tournaments/spring" in page and "evil" not in page


def test_head_is_answered_as_get_without_a_body(served):
    port = served["with a tournament"].port
    for path in READS:
        got, head = ask(port, path), ask(port, path, method="HEAD")
        assert head[0] == got[0] and head[2] == b"", path
        assert head[1]["content-type"] == got[1]["content-type"], path
        assert int(head[1]["content-length"]) == len(got[2]), path
