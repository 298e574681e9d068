"""The card game's venue pages in a real browser (Debian's chromium, headless, playwright) at phone, laptop
and projector sizes: a match's page and a 32-player, 5-round Swiss tournament with its top-8 cut, seeded
through the commands; the pages load cleanly, fit the width, and show what the commands say."""

import json

import pytest
import test_browser
from serving import cli, serve
from test_browser import Watched, _need_browser

from referee.tournament.swiss import bracket_order

SIZES = {"phone": (375, 740), "laptop": (1280, 800), "projector": (1920, 1080)}


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    _need_browser()
    db = str(tmp_path_factory.mktemp("ccg-browser") / "kotei.db")
    cli(db, "ccg", "demo")
    cli(db, "tournament", "swiss", "new", "kotei", "--name", "Kotei <Oslo>", "--rounds", "5", "--cut", "8")
    cli(db, "tournament", "swiss", "players", "kotei", *[f"Player {i:02d}" for i in range(1, 33)])
    for rnd in range(1, 9):
        tables = json.loads(cli(db, "tournament", "swiss", "pair", "kotei", "--json"))["tables"]
        lines = [f"{t['table']}: {min(t['players'])} {'military' if rnd % 2 else 'honor'}" for t in tables]
        cli(db, "tournament", "swiss", "result", "kotei", str(rnd), *lines)
    return db


@pytest.fixture(scope="module")
def server(seeded):
    with serve(seeded) as served:
        yield served.url


chromium = test_browser.browser  # the venue tests' chromium context, as a fixture of this module

PAGES = {"index": "/", "match": "/games/ccg-demo-1", "swiss": "/tournaments/kotei"}


@pytest.mark.parametrize("kind", list(PAGES))
def test_card_game_pages_load_cleanly_and_fit(server, chromium, kind, tmp_path):
    for name, (w, h) in SIZES.items():
        with Watched(chromium, w, h) as wp:
            response = wp.page.goto(server + PAGES[kind])
            assert response.status == 200
            wp.page.wait_for_load_state("networkidle")
            assert wp.errors == [] and wp.failed == [], (wp.errors, wp.failed)
            overflow = wp.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{kind} at {w} px scrolls sideways by {overflow} px"
            wp.page.screenshot(path=str(tmp_path / f"{kind}-{name}.png"), full_page=True)


def test_the_swiss_page_shows_the_standings_and_every_round(server, chromium, seeded):
    standings = json.loads(cli(seeded, "tournament", "swiss", "standings", "kotei", "--json"))
    with Watched(chromium, 1920, 1080) as wp:
        wp.page.goto(server + "/tournaments/kotei")
        rows = wp.page.locator("table.standings tbody tr")
        assert rows.count() == 32
        names = [rows.nth(i).locator("th").inner_text() for i in range(32)]
        assert names == [s["name"] for s in standings["standings"]]  # the page and the command agree
        assert wp.page.locator("h1").inner_text() == "Kotei <Oslo>"  # escaped, shown as text
        headings = wp.page.locator("h2").all_inner_texts()
        assert headings[:3] == ["Cut, round 3", "Cut, round 2", "Cut, round 1"] and "Round 1" in headings
        first_cut = wp.page.locator("table.pairings").nth(2).locator("tbody tr")
        assert first_cut.count() == 4
        top = [s["name"] for s in standings["standings"][:8]]
        seeds = bracket_order(8)
        assert first_cut.nth(0).locator("td").nth(1).inner_text() == top[seeds[0] - 1]
        assert first_cut.nth(0).locator("td").nth(2).inner_text() == top[seeds[1] - 1]
        champion = standings["champion"]
        assert wp.page.locator("p.announcement strong").inner_text() == f"Player {champion.split('-')[1]}"


def test_the_match_page_shows_the_result_and_each_event(server, chromium):
    with Watched(chromium, 375, 740) as wp:
        wp.page.goto(server + "/games/ccg-demo-1")
        assert "alice wins: military victory" in wp.page.locator("p.announcement").inner_text()
        assert wp.page.locator("ol.events > li").count() == 20
        cells = wp.page.locator("tbody tr").first.locator("td").all_inner_texts()
        assert cells[:2] == ["16", "none"]  # bob: 16 Family Honor, no province left
        box = wp.page.locator("div.scroll").first.bounding_box()  # the table scrolls inside its box, not the page
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375
