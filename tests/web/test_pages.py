"""`referee serve`'s pages and JSON through FastAPI's test client, and the command itself."""

import json
import socket
import subprocess
import sys
from urllib.parse import quote

import pytest
from fastapi.testclient import TestClient

from referee.cli.app import app as cli_app
from referee.web import venue_app
from tests.support.entry_point import runner
from tests.support.serving import EVIL, ROOT, cli, demo_and_a_game_begun, serve


@pytest.fixture(scope="module")
def demo(tmp_path_factory):
    db = str(tmp_path_factory.mktemp("web") / "games.db")
    demo_and_a_game_begun(db, EVIL)
    cli(db, "setup", "mid", "-", input="crab: objective the_last_line_of_defense\n")
    cli(db, "seal", "mid", "lion", input="the_plains_of_battle\n")
    cli(db, "round", "mid", "-", "--yes", input="crab: army 2 @ crab_capital\nlion: army 1 lion_capital > lion_coast\n")
    return db


@pytest.fixture(scope="module")
def client(demo):
    with TestClient(venue_app(demo), base_url="http://localhost") as c:
        yield c


def test_game_page_shows_board_last_round_replay_links_and_honor(client):
    page = client.get("/games/demo-five-player-1")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    html = page.text
    assert html.count("<svg") == 3  # the board now, the last round's tokens, the honor race
    for n in range(1, 6):
        assert f'href="/games/demo-five-player-1/rounds/{n}"' in html
    assert "Round 5" in html and "Battle for" in html and "Winner:" in html and "final" in html
    round_page = client.get("/games/demo-five-player-1/rounds/2")
    assert (
        round_page.status_code == 200
        and round_page.text.count("<svg") == 1
        and 'aria-current="page">Round 2' in round_page.text
    )
    picture = client.get("/games/demo-five-player-1/rounds/2.svg")
    assert picture.headers["content-type"].startswith("image/svg+xml") and picture.text.startswith("<svg")
    assert client.get("/games/demo-five-player-1/rounds/6.svg").status_code == 404
    assert client.get("/games/demo-five-player-1/board.svg").text.startswith("<svg")


def test_json_mirrors_the_cli(client, demo):
    game = "demo-five-player-1"
    assert client.get(f"/api/games/{game}").json() == json.loads(cli(demo, "show", game, "--json"))
    assert client.get(f"/api/games/{game}/board").json() == json.loads(cli(demo, "board", game, "--json"))
    assert client.get(f"/api/games/{game}/board?round=3").json() == json.loads(
        cli(demo, "board", game, "-r", "3", "--json")
    )
    score = client.get(f"/api/games/{game}/score").json()
    # the web's score is the CLI's, plus why it is provisional (the pages show it)
    assert {k: v for k, v in score.items() if k != "why_provisional"} == json.loads(cli(demo, "score", game, "--json"))
    assert score["provisional"] is False and score["why_provisional"] == []
    listed = client.get("/api/games").json()
    assert listed == json.loads(cli(demo, "games", "--json"))
    rounds = client.get(f"/api/games/{game}/rounds").json()
    replayed = json.loads(cli(demo, "replay", game, "--json"))
    assert client.get(f"/api/games/{game}/replay").json() == replayed
    replayed = [e for e in replayed["events"] if e["type"] == "RoundResolved"]  # /rounds: one a round
    assert [r["seal"] for r in rounds] == [r["seal"] for r in replayed]
    assert [r["report"] for r in rounds] == [r["report"] for r in replayed]
    assert client.get(f"/api/games/{game}/rounds/4").json()["report"] == replayed[3]["report"]
    assert client.get(f"/api/games/{game}/verify").json() == json.loads(cli(demo, "verify", game, "--json"))
    paths = client.get("/api/openapi.json").json()["paths"]  # the OpenAPI page lists every endpoint
    assert {
        "/api/games",
        "/api/games/{game}",
        "/api/games/{game}/board",
        "/api/games/{game}/score",
        "/api/games/{game}/rounds",
        "/api/games/{game}/rounds/{round_no}",
        "/api/games/{game}/replay",
        "/api/games/{game}/verify",
        "/api/heads",
    } <= set(paths)


def test_what_players_typed_is_escaped(client):
    html = client.get("/games/mid").text
    assert EVIL not in html and "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert EVIL not in client.get("/").text


def test_secret_objectives_never_shown_before_revealed(client):
    """p.10: objectives are revealed at the end of the game; one sealed stays hidden until its code is given."""
    texts = [
        client.get(path).text
        for path in (
            "/games/mid",
            "/games/mid/rounds/1",
            "/api/games/mid/board",
            "/api/games/mid/score",
            "/api/games/mid/rounds",
            "/api/games/mid/replay",
            "/api/games/mid",
        )
    ]
    for text in texts:
        for secret in ("last_line", "Last Line", "plains_of_battle", "Plains of Battle"):
            assert secret not in text
    assert client.get("/api/games/mid/board").json()["objectives"] == {}
    score = client.get("/api/games/mid/score").json()
    assert score["provisional"] and "objectives still sealed: lion" in score["why_provisional"]
    assert "provisional" in texts[0]


@pytest.mark.parametrize(
    "path",
    [
        "/games/nope",
        "/games/nope/rounds/1",
        "/games/mid/rounds/4",
        "/games/mid/rounds/x",
        "/games/..%2Fetc",
        "/games/x'%20OR%201=1--",
        "/games/%00",
        "/games/" + "a" * 80,
        "/no/such/page",
    ],
)
def test_unknown_or_odd_ids_are_a_404_page_with_a_link_back(client, path):
    page = client.get(path)
    assert page.status_code == 404 and 'href="/"' in page.text and "Not found" in page.text


def test_odd_ids_never_reach_the_database(demo):
    store_calls = []
    web = venue_app(demo)
    store = web.state.store
    real = store.events
    store.events = lambda game: store_calls.append(game) or real(game)
    with TestClient(web, base_url="http://localhost") as c:
        for odd in ("x' OR 1=1--", ".hidden", "a b", "é", "-x", "a" * 65, "a;b", "a/../b", "%"):
            assert c.get(f"/api/games/{quote(odd, safe='')}").status_code == 404
            assert c.get(f"/games/{quote(odd, safe='')}").status_code == 404
        assert store_calls == []
        assert c.get("/api/games/nope").status_code == 404 and store_calls == ["nope"]


def test_heads_etag_changes_when_a_round_is_recorded(demo):
    with TestClient(venue_app(demo), base_url="http://localhost") as c:
        first = c.get("/api/games/mid/head")
        tag = first.headers["etag"]
        assert c.get("/api/games/mid/head", headers={"If-None-Match": tag}).status_code == 304
        cli(demo, "round", "mid", "-", "--yes", input="crab: army 1 @ crab_capital\n")  # a moderator, elsewhere
        again = c.get("/api/games/mid/head", headers={"If-None-Match": tag})
        assert again.status_code == 200 and again.headers["etag"] != tag
        assert 'id="fresh"' in c.get("/games/mid").text  # the page carries the notice, hidden until needed


def _loaded(args: list[str], packages: tuple[str, ...]) -> str:
    """Run ``referee ARGS`` in a fresh interpreter; the line naming which of ``packages`` it loaded."""
    probe = (
        "import sys, runpy; sys.argv = ['referee'] + sys.argv[2:]\n"
        "try:\n    runpy.run_module('referee', run_name='__main__')\nexcept SystemExit:\n    pass\n"
        "wanted = tuple(sys.argv[1].split(','))\n"
        "print('LOADED', sorted({m.split('.')[0] for m in sys.modules if m.split('.')[0] in wanted}"
        " | {m for m in sys.modules if m.startswith('referee.web') and 'referee' in wanted}))"
    )
    cmd = [sys.executable, "-c", probe, ",".join(packages), *args]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT).stdout


def test_help_and_one_shot_commands_do_not_import_the_web_stack(demo):
    web = ("fastapi", "starlette", "uvicorn", "jinja2", "referee")
    for args in (["--help"], ["show", "demo-five-player-1", "--db", demo], ["score", "mid", "--db", demo]):
        out = _loaded(args, web)
        assert "LOADED []" in out, out


def test_commands_without_a_database_do_not_load_the_database_stack():
    """The casebook run and a round adjudicated from files never open a database: SQLAlchemy, SQLModel and
    the database drivers stay unloaded (they are most of a command's start-up)."""
    db = ("sqlalchemy", "sqlmodel", "psycopg", "sqlite3")
    casebook = ["casebook", str(ROOT / "referee" / "data" / "casebook")]
    files = [
        "adjudicate",
        "examples/round1.txt",
        "--board",
        "examples/board-round1.txt",
        "--clans",
        "dragon,phoenix,scorpion",
    ]
    for args in (["--help"], casebook, files):
        out = _loaded(args, db)
        assert "LOADED []" in out, (args, out)


@pytest.mark.parametrize("host", ["127.0.0.1", "0.0.0.0"])
def test_serve_binds_and_says_when_the_pages_are_public(demo, host):
    import httpx

    with serve(demo, host) as served:
        assert httpx.get(f"{served.url}/games/mid", timeout=10).status_code == 200
    assert f":{served.port}/" in served.out
    assert ("public and read-only" in served.out) == (host == "0.0.0.0")
    assert "Traceback" not in served.err


def test_serve_says_so_when_the_port_is_taken(demo):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        out = subprocess.run(
            [sys.executable, "-m", "referee", "serve", "--port", str(port), "--db", demo],
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=60,
        )
    assert out.returncode == 1 and out.stderr.startswith(f"error: cannot serve on 127.0.0.1:{port}: ")
    assert "Traceback" not in out.stderr


def test_serve_refuses_a_bad_port():
    result = runner.invoke(cli_app, ["serve", "--port", "0"])
    assert result.exit_code == 2


def test_a_log_the_engine_cannot_replay_is_said_plainly(tmp_path):
    """A damaged database (a row changed behind the log's back) is a page saying so, never a traceback."""
    import sqlite3

    db = str(tmp_path / "games.db")
    cli(db, "new", "g1", "--clans", "crab,lion", "--partial-setup")
    cli(db, "round", "g1", "-", "--yes", input="crab: army 2 @ crab_capital\n")
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TRIGGER event_no_update")
        conn.execute("UPDATE event SET payload = replace(payload, 'crab_capital', 'nowhere_at_all') WHERE seq = 2")
    with TestClient(venue_app(db), base_url="http://localhost") as c:
        page = c.get("/games/g1")
        assert page.status_code == 500 and "cannot be replayed" in page.text and "Traceback" not in page.text
        assert c.get("/api/games/g1/score").json()["detail"].startswith("This log cannot be replayed")
        assert c.get("/api/games/g1/verify").json()["ok"] is False


def test_corrections_are_labelled_on_the_game_page(tmp_path):
    db = str(tmp_path / "games.db")
    cli(db, "new", "g2", "--clans", "crab,lion", "--players", "crab=Ann,lion=Bo", "--partial-setup")
    cli(db, "round", "g2", "-", "--yes", input="crab: army 2 @ crab_capital\n")
    cli(db, "round", "g2", "-", "--yes", input="lion: army 1 @ lion_capital\n")
    sheet = tmp_path / "fixed.txt"
    sheet.write_text("crab: army 3 @ crab_capital\n")
    cli(db, "correct", "g2", "1", str(sheet), "--reason", f"misread token {EVIL}")
    with TestClient(venue_app(db), base_url="http://localhost") as c:
        page = c.get("/games/g2").text
        assert "Round 1 (corrected)" in page and '<span class="badge corrected">correction</span> of round 1' in page
        assert "misread token &lt;script&gt;" in page and EVIL not in page
        round1 = c.get("/games/g2/rounds/1").text
        assert 'class="badge corrected">corrected</span>' in round1 and "crab: army 3 @ crab_capital" in round1
        assert "crab: army 2 @ crab_capital" not in round1  # the round as it now stands; the original stays in the log
