"""The card game's venue pages in a real browser (Debian's chromium, headless, playwright) at phone, laptop
and projector sizes: a match's page and a 32-player, 5-round Swiss tournament with its top-8 cut, seeded
through the commands (tests/support/kotei.py), served by `referee serve` and published by `referee tournament
publish`; the pages load cleanly, fit the width with no number or name broken across lines, and show what the
commands say."""

import json

import pytest

from referee.engine.tournament.swiss import bracket_order
from tests.support import databases, kotei
from tests.support.browsing import Watched, need_browser, screenshot
from tests.support.serving import cli, serve
from tests.web.test_venue_pages_browser import MEASURE, STATUS_WORDS

SIZES = {"phone": (375, 740), "tablet": (768, 1024), "laptop": (1280, 800), "projector": (1920, 1080)}


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    need_browser()
    return databases.kotei(tmp_path_factory.mktemp("ccg-browser") / "kotei.db", demo_match=True)


@pytest.fixture(scope="module")
def server(seeded):
    with serve(seeded) as served:
        yield served.url


PAGES = {
    "index": "/",
    "match": "/games/ccg-demo-1",
    "swiss": "/tournaments/kotei",
    "swiss round": "/tournaments/kotei/rounds/3",
    "swiss cut": "/tournaments/kotei/rounds/6",
    "swiss player": f"/tournaments/kotei/players/{kotei.DROPPED}",
    "tournament match": f"/games/{kotei.MATCH}",
}


@pytest.mark.parametrize("kind", list(PAGES))
def test_card_game_pages_load_cleanly_and_fit(server, browser, kind):
    for name, (w, h) in SIZES.items():
        with Watched(browser, w, h) as wp:
            response = wp.page.goto(server + PAGES[kind])
            assert response.status == 200
            wp.page.wait_for_load_state("networkidle")
            assert wp.errors == [] and wp.failed == [], (wp.errors, wp.failed)
            overflow = wp.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{kind} at {w} px scrolls sideways by {overflow} px"
            got = wp.page.evaluate(MEASURE, [[f"Player {i:02d}" for i in range(1, 33)], STATUS_WORDS])
            assert got["broken"] == [] and got["over"] == [], (kind, name, got["broken"][:5], got["over"][:3])
            screenshot(wp.page, f"card-game-{kind}-{name}.png", full_page=True)


def test_the_swiss_page_shows_the_standings_the_rounds_and_the_cut(server, browser, seeded):
    standings = json.loads(cli(seeded, "tournament", "swiss", "standings", "kotei", "--json"))
    with Watched(browser, 1920, 1080) as wp:
        wp.page.goto(server + "/tournaments/kotei")
        rows = wp.page.locator("table.standings tbody tr")
        assert rows.count() == 32
        names = [rows.nth(i).locator("th a").inner_text() for i in range(32)]
        assert names == [s["name"] for s in standings["standings"]]  # the page and the command agree
        assert wp.page.locator("h1").inner_text() == "Kotei <Oslo>"  # escaped, shown as text
        rounds = wp.page.locator("ul.rounds a").all_inner_texts()
        assert rounds[:5] == [f"Round {n}" for n in range(1, 6)] and rounds[5:] == [
            "Cut, round 1: Quarter-finals",
            "Cut, round 2: Semi-finals",
            "Cut, round 3: Final",
        ]
        stages = wp.page.locator("ol.bracket > li > h3").all_inner_texts()
        assert stages == ["Quarter-finals", "Semi-finals", "Final"]
        first_cut = wp.page.locator("ol.bracket > li").first.locator("li.match")
        assert first_cut.count() == 4
        top = [s["name"] for s in sorted(standings["standings"], key=lambda s: s["rank"])[:8]]  # the Swiss ranks
        seeds = bracket_order(8)
        for i in range(4):  # 1-8, 4-5, 2-7, 3-6: each match's players and their seeds
            shown = first_cut.nth(i).locator("p").all_inner_texts()
            assert shown[0].split()[0] == str(seeds[2 * i]) and top[seeds[2 * i] - 1] in shown[0]
            assert shown[1].split()[0] == str(seeds[2 * i + 1]) and top[seeds[2 * i + 1] - 1] in shown[1]
        champion = standings["champion"]
        assert wp.page.locator("p.announcement strong").inner_text() == f"Player {champion.split('-')[1]}"
        # a round's page: its tables, the bye of the player who had none, the pairing's cost as recorded
        wp.page.get_by_role("link", name="Round 3", exact=True).first.click()
        wp.page.wait_for_load_state()
        paired = json.loads(cli(seeded, "tournament", "swiss", "pairings", "kotei", "3", "--json"))
        cells = wp.page.locator("table.pairings tbody tr").first.locator("td").all_inner_texts()
        first = paired["tables"][0]["players"]
        assert cells[:3] == ["1", *[f"Player {p.split('-')[1]}" for p in first]]
        assert (
            wp.page.locator("p", has_text="Bye (a win)").inner_text().endswith(f"Player {paired['bye'].split('-')[1]}")
        )
        assert f"rematches {paired['cost']['rematches']}" in wp.page.locator("div.cost").inner_text()
        # a player's page says what `standings --explain` says of them
        wp.page.locator("table.pairings tbody tr").first.locator("td a").first.click()
        wp.page.wait_for_load_state()
        explained = cli(seeded, "tournament", "swiss", "standings", "kotei", "--explain").splitlines()
        line = wp.page.locator("p.explain").inner_text()
        assert f"  {line}" in explained
        assert wp.errors == [] and wp.failed == []


def test_the_match_page_shows_the_result_and_each_event(server, browser, seeded):
    with Watched(browser, 375, 740) as wp:
        wp.page.goto(server + "/games/ccg-demo-1")
        assert "alice wins: military victory" in wp.page.locator("p.announcement").inner_text()
        assert wp.page.locator("ol.events > li").count() == 48
        cells = wp.page.locator("tbody tr").first.locator("td").all_inner_texts()
        assert cells[:2] == ["17", "none"]  # bob: 17 Family Honor, no province left
        shown = json.loads(cli(seeded, "ccg", "score", "ccg-demo-1", "--json"))
        favor = shown["favor"] or "uncontrolled"
        assert wp.page.locator("p.favor").inner_text() == f"The Imperial Favor: {favor}"  # as score says
        box = wp.page.locator("div.scroll").first.bounding_box()  # the table scrolls inside its box, not the page
        assert box["x"] >= 0 and box["x"] + box["width"] <= 375


def test_the_published_site_holds_at_every_size(seeded, browser, tmp_path):
    """`referee tournament publish` of the Kotei, opened from file:// with no network at 375 px, a laptop and
    1920x1080: every page of the site (the standings and the bracket, each round, each player, the match) has no
    word, number, name or status broken inside itself and nothing wider than the screen but a table that
    scrolls in its box; its links stay in the site."""
    site = tmp_path / "site"
    cli(seeded, "tournament", "publish", "kotei", str(site))
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    assert len(pages) == 1 + 8 + 8 + 32 + 1, pages  # standings, 5 rounds and 3 of the cut and their slips, 32
    # players, the match
    names = [f"Player {i:02d}" for i in range(1, 33)]
    problems = []
    for size, (w, h) in SIZES.items():
        with Watched(browser, w, h) as wp:
            asked = wp.offline()
            for name in pages:
                wp.page.goto((site / name).as_uri())
                got = wp.page.evaluate(MEASURE, [names, STATUS_WORDS])
                if got["broken"]:
                    problems.append(f"{size} {name}: broken inside: {got['broken'][:5]}")
                if got["over"] or got["sideways"] > 0:
                    problems.append(f"{size} {name}: wider than the screen by {got['sideways']} px: {got['over'][:3]}")
            wp.page.goto((site / "index.html").as_uri())
            screenshot(wp.page, f"card-game-published-{size}.png", full_page=True)
            assert all(u.startswith("file://") for u in asked) and wp.errors == [] and wp.failed == []
    assert problems == [], "\n".join(problems)
