"""The manual's 64-player Kotei (tests/support/live_kotei.py: late players, a re-pair, a swap by hand, a drop and
a reinstatement, a top-4 cut) served by `referee serve` and measured in a real browser (Debian's chromium,
headless, playwright) at 375x740, 768x1024 and 1920x1080 with the venue pages' layout measure
(tests/web/test_venue_pages_browser.py's MEASURE): no word, number or name broken inside itself, nothing wider
than the screen but a table scrolling in its box; on the phone every result of a round's tables and of a
player's rounds on the screen with no sideways swipe, and no record, ruling or date broken at its hyphens (the
match page's "(C-" / "01)"); the projector's two views filling the screen, in type about 1/30 of its height,
with nothing to scroll; the match slips printed at A4, one slip a page; axe-core finding no violation."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support import live_kotei
from tests.support.browsing import Watched, need_browser, screenshot
from tests.support.serving import serve
from tests.web.test_venue_pages_browser import MEASURE, STATUS_WORDS

SIZES = {"phone": (375, 740), "tablet": (768, 1024), "projector": (1920, 1080)}
T = "/tournaments/kotei"
PAGES = {
    "standings": T,
    "round 1 (a match's log)": f"{T}/rounds/1",
    "round 2 (paired again)": f"{T}/rounds/2",
    "round 3 (a bye, a drop)": f"{T}/rounds/3",
    "round 4 (a swap)": f"{T}/rounds/4",
    "semi-finals": f"{T}/rounds/7",
    "final": f"{T}/rounds/8",
    "slips": f"{T}/rounds/2/slips",
    "player (late, a loss)": f"{T}/players/rin-kato",
    "player (late, a bye)": f"{T}/players/sol-vega",
    "player (reinstated)": f"{T}/players/eli-shaw",
    "player (champion)": f"{T}/players/oli-brandt",
    "projector pairings": f"{T}/projector?view=pairings&pause=1",
    "projector pairings, last page": f"{T}/projector?view=pairings&page=9&pause=1",
    "projector standings": f"{T}/projector?view=standings&pause=1",
    "projector standings, last page": f"{T}/projector?view=standings&page=9&pause=1",
    "match": "/games/kotei-r1-t1",
}
WORDS = [*STATUS_WORDS, "champion", "swapped", "bye (a win)", "lost in the final", "lost in the semi-finals"]
# every result on the screen, and on the phone with no sideways swipe: its box within the screen, and the box
# that would scroll it not wider than itself; a record, a ruling or a date on one line
RESULTS = r"""() => {
  const vw = document.documentElement.clientWidth, out = [];
  for (const cell of document.querySelectorAll('td.result-cell')) {
    const r = cell.getBoundingClientRect(), box = cell.closest('.scroll');
    const hidden = box && box.scrollWidth > box.clientWidth + 1;
    if (r.left < -1 || r.right > vw + 1 || hidden) out.push(cell.textContent.trim() + ' ' + Math.round(r.right));
  }
  const lines = el => { const range = document.createRange(); range.selectNodeContents(el);
    return new Set([...range.getClientRects()].filter(r => r.width > 0.5).map(r => Math.round(r.top))).size; };
  const rules = [...document.querySelectorAll('.rule')].filter(el => lines(el) > 1).map(el => el.textContent);
  // a record (3-1-0), a ruling (C-10), a date: never broken at its hyphens, which the measure lets prose do
  const walker = document.createTreeWalker(document.querySelector('main'), NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    for (const m of node.data.matchAll(/\S*(\d-\d|[A-Z]-\d|W-L-D)\S*/g)) {
      const range = document.createRange(); range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      const tops = new Set([...range.getClientRects()].filter(r => r.width > 0.5).map(r => Math.round(r.top)));
      if (tops.size > 1) rules.push(m[0]);
    }
  }
  return {off: out, cells: document.querySelectorAll('td.result-cell').length, rules};
}"""


@pytest.fixture(scope="module")
def kotei(tmp_path_factory):
    need_browser()
    db = live_kotei.played(tmp_path_factory.mktemp("swiss-browser") / "kotei.db")
    with serve(db) as served:
        yield served.url, db


def names(db: str) -> list[str]:
    import json

    from tests.support.entry_point import referee

    return [p["name"] for p in json.loads(referee(db, "tournament", "swiss", "players", "kotei", "--json").stdout)]


@pytest.mark.parametrize("size", list(SIZES))
def test_every_page_of_the_event_holds_at_every_size(kotei, browser, size):
    import axe_playwright_python

    url, db = kotei
    axe = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text("utf-8")
    w, h = SIZES[size]
    everyone = names(db)
    problems = []
    with Watched(browser, w, h) as wp:
        for kind, path in PAGES.items():
            response = wp.page.goto(url + path)
            assert response.status == 200, (kind, response.status)
            got = wp.page.evaluate(MEASURE, [everyone, WORDS])
            if got["broken"]:
                problems.append(f"{kind}: broken inside: {got['broken'][:5]}")
            if got["over"] or got["sideways"] > 0:
                problems.append(f"{kind}: wider than the screen by {got['sideways']} px: {got['over'][:3]}")
            shown = wp.page.evaluate(RESULTS)
            if shown["off"]:
                problems.append(f"{kind}: results off the screen: {shown['off'][:3]}")
            if shown["rules"]:
                problems.append(f"{kind}: broken at a hyphen: {shown['rules'][:5]}")
            if kind.startswith(("round", "semi", "final", "player")) and not shown["cells"]:
                problems.append(f"{kind}: no result cell measured")
            if kind.startswith("projector"):
                if got["cover"] < 0.9:
                    problems.append(f"{kind}: the content covers {got['cover']:.0%} of the screen")
                if size == "projector" and got["tall"] > 0:
                    problems.append(f"{kind}: {got['tall']} px below the screen")
                font = wp.page.evaluate(
                    "() => parseFloat(getComputedStyle(document.querySelector("
                    "'ol.names li, table.standings tbody td')).fontSize)"
                )
                if size == "projector" and font < 0.95 * h / 30:
                    problems.append(f"{kind}: type of {font:.0f} px, under 1/30 of {h} px")
            wp.page.evaluate(axe)
            found = wp.page.evaluate("axe.run(document, {resultTypes: ['violations']})")["violations"]
            problems += [
                f"{kind}: axe {v['id']} ({v['impact']}) at {[n['target'] for n in v['nodes']][:2]}" for v in found
            ]
            if size == "phone":
                screenshot(wp.page, f"swiss-{re.sub(r'[^a-z]+', '-', kind)}.png", full_page=True)
        assert wp.errors == [] and wp.failed == [], (wp.errors, wp.failed)
    assert problems == [], "\n".join(problems)


def test_the_projector_shows_the_round_by_name_then_every_player_in_the_standings(kotei, browser):
    """The projector's pairing by name is the last posted round's (the final's two players), each line as `swiss
    pairings --by name` says it; the cycle then pages through the standings, every player once, in their
    places."""
    import json

    from tests.support.entry_point import referee

    url, db = kotei
    final = json.loads(referee(db, "tournament", "swiss", "pairings", "kotei", "--json").stdout)
    standings = json.loads(referee(db, "tournament", "swiss", "standings", "kotei", "--json").stdout)["standings"]
    assert final["round"] == 8
    with Watched(browser, 1920, 1080) as wp:
        wp.page.goto(f"{url}{T}/projector?view=pairings&pause=1")
        lines = wp.page.locator("ol.names li").all_inner_texts()
        assert [" ".join(ln.split()) for ln in lines] == [r["line"] for r in final["by_name"]]
        assert wp.page.locator("h1").inner_text() == "Kotei Oslo: Cut, round 2: Final, by name"
        seen, href = [], wp.page.locator("a", has_text="resume the cycle").get_attribute("href")
        while "view=standings" in href:
            wp.page.goto(url + href.replace("&page=", "&pause=1&page="))
            seen += wp.page.locator("table.standings tbody th").all_inner_texts()
            href = wp.page.locator("a", has_text="resume the cycle").get_attribute("href")
        assert [n.replace("dropped", "").strip() for n in seen] == [s["name"] for s in standings]


def test_the_match_slips_print_one_slip_a_page_at_a4(kotei, browser):
    """Printed by Chromium at A4: as many pages as tables, each slip on its own page and whole (a slip split
    across pages would make one more), with both players' names, the table and both signature lines."""
    import json

    from tests.support.entry_point import referee

    url, db = kotei
    tables = json.loads(referee(db, "tournament", "swiss", "pairings", "kotei", "2", "--json").stdout)["tables"]
    with Watched(browser, 1280, 900) as wp:
        wp.page.goto(f"{url}{T}/rounds/2/slips")
        slips = wp.page.locator("section.slip")
        assert slips.count() == len(tables) == 33
        for i in (0, 16, 32):
            text = slips.nth(i).inner_text()
            assert f"Table {tables[i]['table']}" in text and text.count("signature") == 2
        wp.page.emulate_media(media="print")
        a4 = wp.page.evaluate("() => { const d = document.createElement('div'); d.style.height = '273mm';"
                              " document.body.appendChild(d); const h = d.getBoundingClientRect().height;"
                              " d.remove(); return h; }")  # fmt: skip
        tallest = max(wp.page.evaluate("() => [...document.querySelectorAll('section.slip')]"
                                       ".map(s => s.getBoundingClientRect().height)"))  # fmt: skip
        assert tallest <= a4, (tallest, a4)  # each slip fits an A4 page inside its margins
        pdf = wp.page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == len(tables)
