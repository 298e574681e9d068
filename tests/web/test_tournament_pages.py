"""The tournament's venue pages over a tournament run through the commands:
standings, seating by table and by player name, table status, player pages, the projector, the
organiser's notices, and `referee tournament publish` (a static site with QR-coded seating sheets)."""

import json
import random
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from referee.cli.app import app as cli_app
from referee.web import venue_app
from tests.support.entry_point import run_in_process, runner
from tests.support.serving import EVIL, PLAYERS, cli, players_csv
from tests.support.tournament_play import setup_sheet

NAMES = [*PLAYERS[:11], EVIL]  # a name that must be shown as text


def seed(tmp_path, post=True) -> str:
    db = str(tmp_path / "t.db")
    cli(db, "tournament", "new", "spring", "--name", "Spring Open", "--date", "2026-11-21", "--rounds", "3")
    cli(db, "tournament", "players", "add", "spring", "--csv", players_csv(tmp_path / "players.csv", NAMES))
    cli(db, "tournament", "seat", "spring", "1")
    if post:
        cli(db, "tournament", "post", "spring", "1")
    return db


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    path = tmp_path_factory.mktemp("tournament")
    db = seed(path)
    cli(db, "tournament", "announce", "spring", f"Lunch at 13:00 {EVIL}")
    cli(db, "tournament", "clock", "spring", "--minutes", "90")
    table1 = json.loads(cli(db, "tournament", "seating", "spring", "1", "--json"))[0]
    clan = table1["seats"][0]["clan"]
    cli(db, "setup", table1["game"], "-", input=setup_sheet(db, table1["game"], random.Random(1)))  # p.4
    cli(db, "round", table1["game"], "-", "--yes", input=f"{clan}: army 1 @ {clan}_capital\n")  # table 1 plays a round
    return db


@pytest.fixture(scope="module")
def client(db):
    with TestClient(venue_app(db), base_url="http://localhost") as c:
        yield c


def test_standings_rows_are_the_players_with_a_column_per_round(client, db):
    html = client.get("/tournaments/spring").text
    rows = re.findall(r'<th scope="row"><a href="/tournaments/spring/players/([a-z0-9-]+)">([^<]*)</a>', html)
    assert sorted(name for _, name in rows) == sorted(n.replace("<", "&lt;").replace(">", "&gt;") for n in NAMES)
    assert '<th scope="col" class="num">R1</th>' in html and ">honor</th>" in html and ">wins</th>" in html
    api = client.get("/api/tournaments/spring/standings").json()
    assert api == json.loads(cli(db, "tournament", "standings", "spring", "--json"))


def test_seating_by_table_and_by_player_name_and_the_search(client, db):
    by_table = json.loads(cli(db, "tournament", "seating", "spring", "1", "--json"))
    assert client.get("/api/tournaments/spring/seating/1").json() == by_table
    assert client.get("/api/tournaments/spring/seating/1?by=player").json() == json.loads(
        cli(db, "tournament", "seating", "spring", "1", "--by", "player", "--json")
    )
    html = client.get("/tournaments/spring/seating/1").text
    for tb in by_table:
        assert f'id="table-{tb["table"]}"' in html
    found = client.get("/tournaments/spring/seating/1", params={"q": "fay"}).text
    assert "1 player(s) matching" in found
    table = next(tb["table"] for tb in by_table if any(s["name"] == "Fay Wu" for s in tb["seats"]))
    assert re.search(rf'Fay Wu</a></th><td class="num"><a href="#table-{table}">{table}</a>', found)
    odd = client.get("/tournaments/spring/seating/1", params={"q": EVIL}).text
    assert EVIL not in odd and "1 player(s) matching" in odd


def test_status_player_page_and_notices(client, db):
    status = client.get("/api/tournaments/spring/status/1").json()
    assert status == json.loads(cli(db, "tournament", "status", "spring", "1", "--json"))
    tables = client.get("/tournaments/spring/tables/1").text
    for x in status:
        assert f'href="/games/{x["game"]}"' in tables
    page = client.get("/tournaments/spring/players/fay-wu").text
    assert "Fay Wu" in page and "/games/spring-r1-t" in page
    home = client.get("/tournaments/spring").text
    assert "Lunch at 13:00 &lt;script&gt;" in home and EVIL not in home
    assert re.search(r"ends at <strong>\d\d:\d\d</strong> — (89|90) min left", home)


def test_a_seating_stays_hidden_until_posted(tmp_path):
    db = seed(tmp_path, post=False)
    with TestClient(venue_app(db), base_url="http://localhost") as c:
        assert c.get("/tournaments/spring/seating/1").status_code == 404
        assert c.get("/api/tournaments/spring/seating/1").status_code == 404
        assert c.get("/api/tournaments/spring/status/1").status_code == 404
        assert "not posted yet" in c.get("/tournaments/spring").text
        assert "No round posted yet" in c.get("/tournaments/spring/players/ann-lee").text
        assert "spring-r1-t" not in c.get("/tournaments/spring/projector?view=seating").text
        # a table's game names its players and clans: it stays off the pages too
        assert c.get("/games/spring-r1-t1").status_code == 404 and c.get("/api/games/spring-r1-t1").status_code == 404
        assert "spring-r1-t" not in c.get("/").text and "spring-r1-t" not in c.get("/api/games").text
        assert "spring-r1-t" not in c.get("/api/heads").text
        cli(db, "tournament", "post", "spring", "1")
        assert c.get("/tournaments/spring/seating/1").status_code == 200
        assert "spring-r1-t" in c.get("/tournaments/spring/players/ann-lee").text
        assert c.get("/games/spring-r1-t1").status_code == 200 and "spring-r1-t1" in c.get("/").text


def test_projector_cycles_with_a_visible_pause(client):
    page = client.get("/tournaments/spring/projector").text
    refresh = re.search(r'<meta http-equiv="refresh" content="20; url=([^"]+)">', page)
    assert refresh and "view=seating" in refresh.group(1)
    assert "Next: seating in 20 s" in page and "pause=1" in page
    paused = client.get("/tournaments/spring/projector?view=seating&pause=1").text
    assert 'http-equiv="refresh"' not in paused and "Paused" in paused and "resume the cycle" in paused
    boards = client.get("/tournaments/spring/projector?view=boards&top=2").text
    assert boards.count("<svg") == 2 and "1–2 of 3" in boards  # at most two boards a screen: three tables, two screens
    assert "url=/tournaments/spring/projector?seconds=20&amp;top=2&amp;view=boards&amp;page=2" in boards
    last = client.get("/tournaments/spring/projector?view=boards&top=2&page=2").text
    assert last.count("<svg") == 1 and "3–3 of 3" in last and "view=standings&amp;page=1" in last
    assert "Table 3" in last and "Table 1" not in last


def test_projector_pages_hold_every_row_and_table_once(client):
    """Each view paged to fill the screen: every standings row and every table appears on exactly one page, and
    the cycle visits every page of every view, then starts again."""
    url, seen = "/tournaments/spring/projector?view=standings&page=1", []
    for _ in range(20):
        page = client.get(url).text
        view = re.search(r"view=(\w+)&amp;page=(\d+)&amp;pause=1", page).groups()
        if seen and view == seen[0][0]:
            break
        seen.append((view, page))
        url = re.search(r'<meta http-equiv="refresh" content="20; url=([^"]+)">', page).group(1).replace("&amp;", "&")
    views = [v for (v, _), _ in seen]
    assert views[0] == "standings" and set(views) == {"standings", "seating", "boards"}
    names = [n for (v, _), page in seen if v == "standings" for n in re.findall(r'<th scope="row">([^<]*)</th>', page)]
    assert sorted(names) == sorted(n.replace("<", "&lt;").replace(">", "&gt;") for n in NAMES)
    tables = [t for (v, _), page in seen if v == "seating" for t in re.findall(r'<h2 id="table-(\d+)">', page)]
    assert sorted(tables, key=int) == [str(n) for n in range(1, len(tables) + 1)] and len(tables) >= 2


class Links(HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.scripts = [], 0

    def handle_starttag(self, tag, attrs):
        self.scripts += tag == "script"
        for k, v in attrs:
            if k in ("href", "src") and v:
                self.links.append(v)


def test_publish_writes_a_static_site_whose_links_all_resolve(tmp_path, db):
    site = tmp_path / "site"
    out = cli(db, "tournament", "publish", "spring", str(site), "--url", "https://example.org/spring")
    assert "files written" in out
    pages = sorted(site.rglob("*.html"))
    assert (
        (site / "index.html").exists()
        and (site / "seating-1.html").exists()
        and (site / "sheets" / "seating-1.html").exists()
    )
    assert len(list((site / "players").glob("*.html"))) == len(NAMES)
    for page in pages:
        parser = Links()
        text = page.read_text("utf-8")
        parser.feed(text)
        assert parser.scripts == 0 and EVIL not in text, page
        for link in parser.links:
            assert not re.match(r"^[a-z]+:", link), (page, link)  # relative: works from file:// and any host
            target = link.split("#")[0]
            if target:
                assert (page.parent / target).resolve().exists(), (page, link)
    sheet = (site / "sheets" / "seating-1.html").read_text("utf-8")
    assert (
        "https://example.org/spring" in sheet and "<svg" in sheet and "QR code of https://example.org/spring" in sheet
    )
    assert sum(n.replace("<", "&lt;").replace(">", "&gt;") in sheet for n in NAMES) == len(NAMES)


def test_organiser_commands_refuse_bad_input(db):
    out = run_in_process(["tournament", "post", "spring", "3", "--db", db], cwd=Path(__file__).parents[2])
    assert (
        out.returncode == 1
        and out.stderr.splitlines()[0] == "error: tournament 'spring', round 3: not seated, nothing to post"
        and "Traceback" not in out.stderr
    )
    assert runner.invoke(cli_app, ["tournament", "clock", "spring", "--db", db]).exit_code == 2
    assert runner.invoke(cli_app, ["tournament", "clock", "spring", "--ends", "25h", "--db", db]).exit_code == 2
    assert runner.invoke(cli_app, ["tournament", "announce", "spring", "--db", db]).exit_code == 2
    assert runner.invoke(cli_app, ["tournament", "announce", "nope", "hello", "--db", db]).exit_code == 1


@pytest.mark.parametrize(
    "path",
    [
        "/tournaments/nope",
        "/tournaments/Bad!",
        "/tournaments/spring/seating/9",
        "/tournaments/spring/seating/x",
        "/tournaments/spring/players/nobody",
        "/tournaments/spring/players/Bad%20Id",
        "/tournaments/" + "a" * 50,
    ],
)
def test_unknown_tournament_ids_are_a_404_page(client, path):
    page = client.get(path)
    assert page.status_code == 404 and 'href="/"' in page.text


def test_tournament_head_changes_with_a_notice_or_a_round(tmp_path):
    db = seed(tmp_path)
    with TestClient(venue_app(db), base_url="http://localhost") as c:
        tag = c.get("/api/tournaments/spring/head").headers["etag"]
        assert c.get("/api/tournaments/spring/head", headers={"If-None-Match": tag}).status_code == 304
        page = c.get("/tournaments/spring").text
        assert 'id="fresh"' in page and tag.replace('"', '\\"') in page  # the page knows the head it shows
        cli(db, "tournament", "announce", "spring", "Round 1 starts now")
        second = c.get("/api/tournaments/spring/head", headers={"If-None-Match": tag})
        assert second.status_code == 200 and second.headers["etag"] != tag
        table1 = json.loads(cli(db, "tournament", "seating", "spring", "1", "--json"))[0]
        clan = table1["seats"][0]["clan"]
        cli(db, "setup", table1["game"], "-", input=setup_sheet(db, table1["game"], random.Random(1)))
        cli(db, "round", table1["game"], "-", "--yes", input=f"{clan}: army 1 @ {clan}_capital\n")
        assert (
            c.get("/api/tournaments/spring/head", headers={"If-None-Match": second.headers["etag"]}).status_code == 200
        )


def test_venue_notices_are_append_only(any_db):
    """Nothing recorded is changed or deleted: a later notice supersedes an earlier one (SQLite and PostgreSQL)."""
    from sqlalchemy import text
    from sqlalchemy.exc import DatabaseError

    from referee.log import Store, venue

    with Store(any_db) as store:
        venue.record(store, "spring", "announce", "first")
        venue.record(store, "spring", "clear", "")
        venue.record(store, "spring", "post", "2")
        for sql in ("UPDATE venue_notice SET value = 'x'", "DELETE FROM venue_notice"):
            with pytest.raises(DatabaseError, match="append-only"):
                with store.engine.begin() as conn:
                    conn.execute(text(sql))
        read = venue.read(store, "spring")
        assert read.announcements == [] and read.posted == 2 and read.count == 3


def test_serve_and_publish_show_one_set_of_pages(tmp_path, db, client):
    """The published files are exactly the pages of `site.tournament_site`, and `referee serve` answers each of
    them at its own address with the same kind of page: the set is written once."""
    from referee.log import Store, tournaments as tlog, venue as venue_log
    from referee.views import site as vsite
    from referee.views.links import ServedLinks, StaticLinks

    with Store(db, create=False) as store:
        loaded = tlog.load(store, "spring")
        pages = list(vsite.tournament_site(loaded, venue_log.read(store, "spring"), url="", events_of=store.events))
    out = tmp_path / "site"
    cli(db, "tournament", "publish", "spring", str(out))
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*") if p.is_file())
    assert written == sorted(StaticLinks(0)(*p.link) for p in pages)
    kinds = {p.link[0] for p in pages}
    assert {"tournament", "seating", "tables", "sheet", "player", "game", "round", "round_svg", "board_svg"} <= kinds
    for p in pages:
        served = client.get(ServedLinks()(*p.link))
        assert served.status_code == 200 and served.headers["content-type"].startswith(p.media_type), p.link
