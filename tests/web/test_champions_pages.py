"""Champions of Rokugan's pages under `referee serve` (FastAPI's test client) and `referee champions publish`
(issue 38): a scenario's page (the tracking board, each Champion's Honor, standing, Glory, Purity and status,
the Clan Objectives as the table may see them, Glory and the Group Honor turn by turn as pictures with their
tables, the settlement at the end, every event) and a campaign's (its Campaign Log, each player's Glory play by
play); the numbers are the commands' (two paths, one answer) and every name typed at the table is shown as
text. The same pages in a real browser at 375, 768 and 1920 px: tests/web/test_champions_pages_browser.py."""

import html
import json
import re

import pytest
from fastapi.testclient import TestClient

from referee.web import venue_app
from tests.support.champions_seed import EVIL, HOSTILE, seed
from tests.support.serving import cli


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    folder = tmp_path_factory.mktemp("champions-pages")
    db = str(folder / "champions.db")
    seed(db, folder)
    return db


@pytest.fixture(scope="module")
def client(db):
    with TestClient(venue_app(db), base_url="http://localhost") as c:
        yield c


def show(db: str, game: str) -> dict:
    return json.loads(cli(db, "champions", "show", game, "--json"))


def cells(page: str, table_class: str) -> list[list[str]]:
    """The text of each row of the table of that class, cell by cell."""
    body = page.split(f'<table class="{table_class}">', 1)[1].split("</table>", 1)[0].split("<tbody>", 1)[1]
    rows = re.findall(r"<tr>(.*?)</tr>", body, re.S)
    cell = re.compile(r"<t[hd][^>]*>(.*?)</t[hd]>", re.S)
    return [[html.unescape(re.sub(r"<[^>]+>", "", c)).strip() for c in cell.findall(r)] for r in rows]


def test_a_scenario_page_shows_the_board_as_the_commands_do(client, db):
    """The scenario still played: the tracking board (p.11), each Champion's values and standing (p.14) as
    `champions show --json` gives them; Aramoro Dishonored; his Hidden card face down (p.15, CH-07)."""
    page = client.get("/games/playing")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    board = show(db, "playing")
    text = html.unescape(re.sub(r"<[^>]+>", " ", page.text))
    assert f"Group Honor {board['group_honor']}" in " ".join(text.split())
    assert f"Threshold {board['threshold']}" in " ".join(text.split())
    assert "Imperial Favor Matsu Tsuko (Ann)" in " ".join(text.split())
    rows = cells(page.text, "champions")
    assert [(r[0], int(r[2]), r[3], int(r[4]), int(r[5]), r[7]) for r in rows] == [
        (c["name"], c["honor"], c["standing"].capitalize(), c["glory"], c["purity"], c["status"])
        for c in board["champions"]
    ]
    aramoro = next(r for r in rows if r[0] == "Bayushi Aramoro")
    assert aramoro[3] == "Dishonored" and aramoro[-1] == "hidden (face down)"
    assert "Whispers in the Court" not in page.text  # nowhere on the page: the board, the lines, the notes
    assert page.text.count("<svg") == 2 and 'id="glory"' in page.text and 'id="honor"' in page.text


def test_glory_and_group_honor_turn_by_turn_are_the_records(client, db):
    """Each chart's table: setup, each turn ended, and the end (the settlement, dashed); the last column is
    `champions show --json`'s end-of-game Glory, Group Honor and Threshold."""
    page = client.get("/games/wc-1").text
    ended = show(db, "wc-1")
    races = page.split('<table class="race">')[1:]
    assert len(races) == 2
    head = re.findall(r'<th scope="col" class="num">([^<]*)</th>', races[0])
    assert head == ["setup", "T1", "T2", "end"]
    glory = cells('<table class="race">' + races[0], "race")
    assert {r[0]: int(r[-1]) for r in glory} == ended["final_glory"]
    assert [r[1] for r in glory] == ["0"] * 5  # Glory starts at 0 (p.14)
    honor = cells('<table class="race">' + races[1], "race")
    assert honor[0][0] == "Group Honor" and int(honor[0][-1]) == ended["final_group_honor"]
    assert honor[1][0] == "Threshold" and int(honor[1][-1]) == ended["final_threshold"]
    assert int(honor[0][1]) == 14 and int(honor[1][1]) == 18  # at setup (p.11)
    assert 'class="last"' in page  # the settlement's step, dashed
    settlement = cells(page, "settlement")
    assert ["Matsu Tsuko", "glory", "End Objective Unbroken Line completed", "+3", "p.32"] in settlement
    assert "Victory: Group Honor 22 against the Threshold 18 (difference +4)" in page
    assert "Whispers in the Court" in page  # every card shown once the game has ended (CH-07)


def test_a_campaign_page_numbers_its_plays_and_links_its_scenarios(client, db):
    page = client.get("/games/winter-court")
    assert page.status_code == 200
    logged = json.loads(cli(db, "champions", "campaign", "show", "winter-court", "--json"))
    rows = cells(page.text, "campaign")
    assert [r[0] for r in rows] == ["1", "2", "3", "4"]  # the play number first (issue 38)
    assert [r[4:7] for r in rows] == [
        [str(dict(p["glory"])[x]) for x in ("Ann", "Ben", "Cho")] for p in logged["plays"]
    ]
    for game in ("wc-1", "wc-2", "wc-2-replay", "wc-3"):
        assert f'href="/games/{game}"' in page.text
        assert client.get(f"/games/{game}").status_code == 200
    assert "replayed: does not count" in page.text
    assert "Ann has the most Glory and chooses the Clan whose ending is read" in page.text
    assert page.text.count("<svg") == 1
    totals = {r[0]: int(r[1]) for r in cells(page.text.replace("<table>", '<table class="totals">', 1), "totals")}
    assert totals == logged["totals"] == {"Ann": 19, "Ben": 8, "Cho": 12}


def test_every_name_typed_at_the_table_is_shown_as_text(client):
    """Names are hostile input: a Champion, a player, a scenario, an objective and an Enemy named as markup are
    escaped in the page, its pictures and its event lines; no script or element of theirs reaches the page."""
    page = client.get("/games/hostile").text
    assert EVIL not in page and HOSTILE not in page and "<img" not in page
    assert html.escape(EVIL, quote=False) in page
    for svg in re.findall(r"<svg.*?</svg>", page, re.S):
        assert "<script" not in svg and "<img" not in svg
    assert page.count("<script") == 1  # the page's own freshness check, nothing else
    assert "secret" not in page  # Mitsu's Hidden card, named with markup, stays face down


def test_publish_writes_the_same_pages(db, tmp_path, client):
    """`referee champions publish`: a campaign's page and its scenarios', each the served page's content."""
    site = tmp_path / "site"
    said = cli(db, "champions", "publish", "winter-court", str(site))
    assert said.startswith("6 files written under")
    names = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    assert names == [
        "games/wc-1.html", "games/wc-2-replay.html", "games/wc-2.html", "games/wc-3.html",
        "games/winter-court.html", "index.html",
    ]  # fmt: skip
    published = (site / "games" / "wc-1.html").read_text()
    served = client.get("/games/wc-1").text

    def tables(text: str) -> list[str]:
        return re.findall(r"<table.*?</table>", text, re.S)

    assert tables(published) == tables(served) and "<script" not in published
    assert 'href="../games/winter-court.html"' not in published  # a scenario links its own page only
    assert 'href="../games/wc-1.html"' in (site / "games" / "winter-court.html").read_text()
    one = tmp_path / "one"
    assert cli(db, "champions", "publish", "playing", str(one)).startswith("2 files written")
    assert "no game 'nosuch'" in cli(db, "champions", "publish", "nosuch", str(one), code=1)


@pytest.fixture(scope="module")
def other_kinds(tmp_path_factory):
    """The Champions records beside the bundled card-game match (ccg-demo-1), served."""
    folder = tmp_path_factory.mktemp("other-kinds")
    db = str(folder / "kinds.db")
    seed(db, folder)
    cli(db, "ccg", "demo")
    with TestClient(venue_app(db), base_url="http://localhost") as c:
        yield c


@pytest.mark.parametrize(
    "address",
    [
        "/api/games/{g}",
        "/api/games/{g}/board",
        "/api/games/{g}/score",
        "/api/games/{g}/replay",
        "/api/games/{g}/rounds",
        "/api/games/{g}/rounds/1",
        "/api/games/{g}/verify",
        "/games/{g}/board.svg",
        "/games/{g}/rounds/1",
        "/games/{g}/rounds/1.svg",
    ],
)
def test_a_battle_for_rokugan_address_of_another_games_record_is_not_found(other_kinds, address):
    """A scenario, a campaign and a card-game match have no board, rounds or score of Battle for Rokugan's: each
    such address answers 404 naming what reads the record and where its page is, never a 500."""
    for game, kind in (("playing", "Champions"), ("winter-court", "campaign"), ("ccg-demo-1", "card game")):
        got = other_kinds.get(address.format(g=game), headers={"accept": "application/json"})
        assert got.status_code == 404, (address, game, got.status_code, got.text[:200])
        assert kind in got.text and f"/games/{game}" in got.text, (address, game, got.text[:200])
