"""Champions of Rokugan's pages in a real browser (Debian's chromium, headless, playwright) at a 375-px phone, a
768-px tablet and a 1920x1080 projector (issue 38): a scenario being played, one ended (its settlement), one
lost, a campaign, and a scenario whose every name is markup, served by `referee serve` and published by
`referee champions publish`. The project's layout measure (MEASURE, tests/web/test_venue_pages_browser.py): no
word, number, name or status broken across lines, nothing wider than the screen but a table that scrolls in its
box; the pictures' texts do not overlap; no console error, no failed request, no axe-core violation; a hostile
name runs no script."""

from pathlib import Path

import pytest

from tests.support.browsing import Watched, need_browser
from tests.support.champions_seed import EVIL, HOSTILE, seed
from tests.support.serving import cli, serve
from tests.web.test_charts import texts_overlap_script
from tests.web.test_venue_pages_browser import MEASURE, STATUS_WORDS

SIZES = {"phone": (375, 740), "tablet": (768, 1024), "projector": (1920, 1080)}
PAGES = {
    "scenario being played": "/games/playing",
    "scenario ended": "/games/wc-1",
    "scenario lost": "/games/wc-2",
    "campaign": "/games/winter-court",
    "hostile names": "/games/hostile",
}
NAMES = [
    "Matsu Tsuko", "Asahina Takako", "Bayushi Aramoro", "Isawa Kaede", "Togashi Mitsu", "Minor Clan Bushi 1",
    "Minor Clan Bushi 2", "Ann", "Ben", "Cho", "Eri", EVIL, HOSTILE,
]  # fmt: skip
STATUSES = [*STATUS_WORDS, "Honorable", "Dishonored", "active", "eliminated", "corrupted", "success", "failure"]


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    need_browser()
    folder = tmp_path_factory.mktemp("champions-browser")
    db = str(folder / "champions.db")
    seed(db, folder)
    return db


@pytest.fixture(scope="module")
def server(seeded):
    with serve(seeded) as served:
        yield served.url


@pytest.mark.parametrize("size", list(SIZES))
def test_champions_pages_hold_at_every_size(server, browser, size):
    import axe_playwright_python

    axe = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text("utf-8")
    w, h = SIZES[size]
    problems = []
    with Watched(browser, w, h) as wp:
        for kind, path in PAGES.items():
            response = wp.page.goto(server + path)
            assert response.status == 200, (kind, response.status)
            got = wp.page.evaluate(MEASURE, [NAMES, STATUSES])
            # a name with '/' in it may break after the '/' in a sentence (the line-breaking rules allow it): the
            # page whose names are markup is held to the rest, never wider than the screen
            if got["broken"] and kind != "hostile names":
                problems.append(f"{kind}: broken inside: {got['broken'][:5]}")
            if got["over"] or got["sideways"] > 0:
                problems.append(f"{kind}: wider than the screen by {got['sideways']} px: {got['over'][:3]}")
            charts = wp.page.locator("figure.chart svg").count()
            if charts != (1 if kind == "campaign" else 2):
                problems.append(f"{kind}: {charts} charts")
            problems += [f"{kind}: {x}" for x in wp.page.evaluate(texts_overlap_script(), "figure.chart svg")]
            MEASURED.setdefault(kind, {})[size] = (len(got["broken"]), got["sideways"], len(got["over"]))
            wp.page.evaluate(axe)
            found = wp.page.evaluate("axe.run(document, {resultTypes: ['violations']})")["violations"]
            problems += [
                f"{kind}: axe {v['id']} ({v['impact']}) at {[n['target'] for n in v['nodes']][:2]}" for v in found
            ]
        assert wp.errors == [] and wp.failed == [], (wp.errors, wp.failed)
    print(size, "(words broken, px sideways, elements over) by page:", {k: v[size] for k, v in MEASURED.items()})
    assert problems == [], "\n".join(problems)


MEASURED: dict[str, dict[str, tuple[int, int, int]]] = {}  # what the measure found, printed with -s


def test_a_hostile_name_runs_no_script_and_reads_as_typed(server, browser):
    with Watched(browser, 375, 740) as wp:
        dialogs = []
        wp.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        wp.page.goto(server + "/games/hostile")
        wp.page.wait_for_load_state("networkidle")
        assert wp.page.get_by_role("rowheader", name=EVIL, exact=True).first.is_visible()
        assert wp.page.locator("h1 ~ p").first.inner_text().startswith(f"Champions of Rokugan · {EVIL}")
        assert wp.page.locator("img").count() == 0 and dialogs == []


def test_the_dishonored_champion_is_shown_on_a_phone(server, browser):
    """p.14, CR-11: the board's standing column says Dishonored for Aramoro (at -1 Honor after turn 1)."""
    with Watched(browser, 375, 740) as wp:
        wp.page.goto(server + "/games/playing")
        row = wp.page.locator("table.champions tbody tr", has_text="Bayushi Aramoro")
        assert row.locator("td.standing").inner_text() == "Dishonored"
        assert row.locator("td").nth(1).inner_text() == "-1"


def test_the_published_pages_open_from_file_with_no_network(seeded, browser, tmp_path):
    site = tmp_path / "site"
    cli(seeded, "champions", "publish", "winter-court", str(site))
    with Watched(browser, 375, 740) as wp:
        asked = wp.offline()
        wp.page.goto((site / "index.html").as_uri())
        assert wp.page.locator("h1").inner_text() == "winter-court"
        wp.page.get_by_role("link", name="The Fallen Lion").click()
        wp.page.wait_for_load_state()
        assert wp.page.locator("h1").inner_text() == "wc-1" and wp.page.locator("figure.chart svg").count() == 2
        got = wp.page.evaluate(MEASURE, [NAMES, STATUSES])
        assert got["broken"] == [] and got["over"] == [] and got["sideways"] <= 0, got
        assert all(u.startswith("file://") for u in asked) and wp.errors == [] and wp.failed == []
