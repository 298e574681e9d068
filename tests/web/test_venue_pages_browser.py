"""The venue pages in a real browser: Debian's chromium, headless, driven by playwright,
against `referee serve` started on a loopback port over a seeded database.

The browser is the run's (tests/support/browsing.py: one chromium a process, a fresh context a test).
"""

import re
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support import databases
from tests.support.browsing import Watched, need_browser, screenshot
from tests.support.serving import EVIL, PLAYERS as ROSTER, ROOT, cli, demo_and_a_game_begun, players_csv, serve

GAME = "demo-five-player-1"
PLAYERS = [*ROSTER[:13], EVIL]  # a name that must be shown as text


@pytest.fixture(scope="module")
def seeded(tmp_path_factory):
    need_browser()
    db = str(tmp_path_factory.mktemp("browser") / "games.db")
    demo_and_a_game_begun(db, "Spring open")
    cli(db, "setup", "mid", "-", input="crab: control @ crab_central\nlion: control @ lion_northwest\n")
    cli(
        db,
        "round",
        "mid",
        "-",
        "--yes",
        input="lion: army 3 lion_northwest > scorpion_north\ncrab: army 2 @ crab_central\n",
    )
    cli(db, "tournament", "new", "spring", "--name", "Spring Open", "--rounds", "3")
    players = players_csv(tmp_path_factory.mktemp("players") / "players.csv", PLAYERS)
    cli(db, "tournament", "players", "add", "spring", "--csv", players)
    cli(db, "tournament", "seat", "spring", "1")
    cli(db, "tournament", "post", "spring", "1")
    cli(db, "tournament", "announce", "spring", "Round 1 has begun")
    cli(db, "tournament", "clock", "spring", "--minutes", "120")
    return db


@pytest.fixture(scope="module")
def server(seeded):
    with serve(seeded) as served:
        yield served.url


PAGES = {
    "index": "/",
    "game": f"/games/{GAME}",
    "round": f"/games/{GAME}/rounds/3",
    "mid-game": "/games/mid",
    "not-found": "/games/no-such-game",
    "standings": "/tournaments/spring",
    "seating": "/tournaments/spring/seating/1",
    "tables": "/tournaments/spring/tables/1",
    "player": "/tournaments/spring/players/ann-lee",
    "projector": "/tournaments/spring/projector?pause=1",
    "projector-boards": "/tournaments/spring/projector?view=boards&pause=1",
    "sheet": "/tournaments/spring/sheet/1",
}


@pytest.mark.parametrize("kind", list(PAGES))
def test_every_page_loads_cleanly_and_fits_a_phone(server, browser, kind):
    for name, (w, h) in {"desktop": (1280, 900), "phone": (375, 740), "projector": (1920, 1080)}.items():
        with Watched(browser, w, h) as wp:
            response = wp.page.goto(server + PAGES[kind])
            assert response.status == (404 if kind == "not-found" else 200)
            wp.page.wait_for_load_state("networkidle")
            if kind == "not-found":  # the browser reports the page's own 404 status; nothing else may fail
                wp.errors.remove("Failed to load resource: the server responded with a status of 404 (Not Found)")
            assert wp.errors == [] and wp.failed == [], (wp.errors, wp.failed)
            overflow = wp.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
            assert overflow <= 0, f"{kind} at {w} px scrolls sideways by {overflow} px"
            screenshot(wp.page, f"venue-{kind}-{name}.png", full_page=True)


def test_not_found_page_links_back(server, browser):
    with Watched(browser) as wp:
        wp.page.goto(server + "/games/no-such-game")
        wp.page.get_by_role("link", name="Back to the list of games").click()
        wp.page.wait_for_url(server + "/")
        assert wp.page.get_by_role("link", name=GAME).count() == 1


def test_game_page_draws_one_arrow_per_attacking_token(server, browser):
    import httpx

    last = httpx.get(f"{server}/api/games/{GAME}/rounds/5").json()
    attacks = [e for e in last["entries"] if re.match(r"^\w+: (army|navy|shinobi) \d+ \S+ > ", e)]
    assert attacks
    with Watched(browser) as wp:
        wp.page.goto(server + PAGES["game"])
        figure = wp.page.locator("section[aria-labelledby='round-5'] figure svg")
        assert figure.count() == 1
        drawn = figure.locator("g.arrow").evaluate_all("gs => gs.map(g => g.getAttribute('data-entry'))")
        assert sorted(drawn) == sorted(attacks)
        assert figure.locator("title").first.text_content().endswith("round 5: the revealed tokens on the board")


def test_a_finished_games_result_is_at_the_top_on_a_phone(server, browser):
    """Issue 33: on a 375×812 phone the result of a finished game (its winner and every clan's honor) is on the
    first screen of the game's page, as `/api/games/GAME/score` gives it; before, it was some 8,000 px down. A
    game still being played shows no result there."""
    import httpx

    score = httpx.get(f"{server}/api/games/{GAME}/score").json()
    assert not score["provisional"] and score["winners"]
    with Watched(browser, 375, 812) as wp:
        wp.page.goto(server + PAGES["game"])
        box = wp.page.locator("#result").bounding_box()
        assert box is not None and box["y"] + box["height"] <= 812, box
        text = wp.page.inner_text("#result")
        assert f"Winner: {' and '.join(score['winners'])} ({score['tiebreak']})" in text
        totals = wp.page.locator("#result ol.totals li").all_inner_texts()
        assert [t.split(": ")[-1] for t in totals] == [f"{s['total']} honor" for s in score["scores"]]
        assert [t.split()[1] for t in totals] == [s["clan"] for s in score["scores"]]
        wp.page.goto(server + PAGES["mid-game"])
        assert wp.page.locator("#result").count() == 0


def test_escaped_name_runs_no_script(server, browser):
    with Watched(browser) as wp:
        dialogs = []
        wp.page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
        wp.page.goto(server + "/games/mid")
        assert wp.page.get_by_role("cell", name=EVIL).count() == 1  # shown as text
        assert dialogs == []


def test_a_round_recorded_elsewhere_is_announced_within_10_seconds(server, browser, seeded):
    with Watched(browser, 375, 740) as wp:
        wp.page.goto(server + "/games/mid")
        notice = wp.page.locator("#fresh")
        assert notice.is_hidden()
        recorded = subprocess.run(
            [sys.executable, "-m", "referee", "round", "mid", "-", "--yes", "--db", seeded],
            input="crab: army 1 @ crab_central\n",
            capture_output=True,
            text=True,
            cwd=ROOT,
        )
        assert recorded.returncode == 0, recorded.stderr
        start = time.monotonic()
        notice.wait_for(state="visible", timeout=10_000)
        assert time.monotonic() - start <= 10
        assert "New results" in notice.text_content()
        assert wp.page.url.endswith("/games/mid")  # the reader's page was not reloaded under them
        notice.get_by_role("link", name="reload").click()
        wp.page.wait_for_load_state()
        assert wp.page.locator("#round-2").count() == 1 and wp.page.locator("#fresh").is_hidden()


@pytest.mark.parametrize(
    "kind", ["index", "game", "round", "not-found", "standings", "seating", "tables", "player", "projector", "sheet"]
)
def test_no_serious_accessibility_violation(server, browser, kind):
    import axe_playwright_python

    axe = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text("utf-8")
    with Watched(browser) as wp:
        wp.page.goto(server + PAGES[kind])
        wp.page.evaluate(axe)  # as the browser's own tools run it: the page's policy admits no script but its own
        result = wp.page.evaluate("axe.run(document, {resultTypes: ['violations']})")
        serious = [
            (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
            for v in result["violations"]
            if v["impact"] in ("serious", "critical")
        ]
        assert serious == [], serious


def test_html_record_opens_from_file_with_no_network(seeded, browser, tmp_path):
    record = tmp_path / "game.html"
    cli(seeded, "export", GAME, "--format", "html", "-o", str(record))
    with Watched(browser) as wp:
        asked = wp.offline()
        wp.page.goto(record.as_uri())
        wp.page.wait_for_load_state("networkidle")
        assert all(u.startswith("file://") for u in asked) and wp.failed == [] and wp.errors == []
        for n in range(1, 6):
            heading = wp.page.locator(f"#round-{n}")
            assert heading.is_visible()
            assert wp.page.locator(f"section[aria-labelledby='round-{n}'] svg g.arrow").count() > 0
        screenshot(wp.page, "record.png")
        pdf = wp.page.pdf(format="A4")  # printable: one round a page, and the honor page
        assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) >= 6  # five rounds and the honor, each from a new page


def test_standings_rows_equal_the_players_and_the_seating_search_finds_one(server, browser):
    with Watched(browser, 375, 740) as wp:
        wp.page.goto(server + PAGES["standings"])
        names = wp.page.locator("table.standings tbody th[scope=row] a").all_text_contents()
        assert sorted(names) == sorted(PLAYERS)
        wp.page.goto(server + PAGES["seating"])
        wp.page.get_by_label("Find your name").fill("kai")
        wp.page.get_by_role("button", name="Find").click()
        wp.page.wait_for_load_state()
        rows = wp.page.locator("table.by-player tbody tr")
        assert rows.count() == 1 and rows.first.locator("th").text_content() == "Kai Lund"
        table = rows.first.locator("td").first.text_content()
        rows.first.locator("td a").first.click()  # to the player's table, by table
        assert wp.page.url.endswith(f"#table-{table}")
        assert "Kai Lund" in wp.page.locator(f"#table-{table} + ol").text_content()
        assert wp.errors == [] and wp.failed == []


def test_projector_reloads_itself_between_cycles(server, browser):
    with Watched(browser, 1920, 1080) as wp:
        wp.page.goto(server + "/tournaments/spring/projector?seconds=5")
        wp.page.wait_for_url(re.compile(r"view=seating"), timeout=15_000)
        assert "round 1 seating" in wp.page.locator("h1").text_content()
        wp.page.get_by_role("link", name="pause").click()
        wp.page.wait_for_load_state()
        assert wp.page.get_by_text("Paused").is_visible()
        url = wp.page.url
        wp.page.wait_for_timeout(7_000)
        assert wp.page.url == url  # paused: no reload
        assert wp.errors == [] and wp.failed == []


def test_published_site_works_from_file(seeded, browser, tmp_path):
    site = tmp_path / "site"
    cli(seeded, "tournament", "publish", "spring", str(site), "--url", "https://example.org/spring")
    with Watched(browser, 375, 740) as wp:
        asked = wp.offline()
        wp.page.goto((site / "index.html").as_uri())
        assert sorted(wp.page.locator("table.standings tbody th[scope=row] a").all_text_contents()) == sorted(PLAYERS)
        wp.page.get_by_role("link", name="seating by table and by player").click()
        wp.page.wait_for_load_state()
        wp.page.get_by_role("link", name="Ann Lee").first.click()
        wp.page.wait_for_load_state()
        assert wp.page.locator("h1").text_content() == "Ann Lee"
        wp.page.locator("a[href*='games/spring-r1-t']").first.click()
        wp.page.wait_for_load_state()
        assert wp.page.locator("figure.board svg").count() >= 1
        wp.page.goto((site / "sheets" / "seating-1.html").as_uri())
        assert wp.page.locator("figure.qr svg").count() == 1
        screenshot(wp.page, "published-sheet.png", full_page=True)
        overflow = wp.page.evaluate("document.documentElement.scrollWidth - document.documentElement.clientWidth")
        assert overflow <= 0
        assert all(u.startswith("file://") for u in asked) and wp.errors == [] and wp.failed == []


# --- issue 24: every page kind at the venue's scale, on a phone, a tablet and the projector -----------------
SIZES = {"phone": (375, 740), "tablet": (768, 1024), "projector": (1920, 1080)}
STATUS_WORDS = [  # what a cell or a badge says of a table, a round or a result
    "playing", "not entered", "sat out", "dropped", "called", "judge's entry", "entered by the judge", "finished",
    "no game", "provisional", "* provisional", "corrected", "final", "clan to choose",
]  # fmt: skip
MEASURE = """([names, statuses]) => {
  const vw = document.documentElement.clientWidth, vh = window.innerHeight;
  const shown = el => { const s = getComputedStyle(el); return s.visibility !== 'hidden' && s.display !== 'none'
                        && el.getClientRects().length > 0; };
  const lines = range => new Set([...range.getClientRects()].filter(r => r.width > 0.5)
                                   .map(r => Math.round(r.top + r.height / 2))).size;
  const broken = [];
  // every word of every text on the page stays on one line
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!el || el.closest('svg, script, style, [hidden], .url') || !shown(el)) continue;
    for (const m of node.data.matchAll(/\\S+/g)) {
      const range = document.createRange();
      range.setStart(node, m.index); range.setEnd(node, m.index + m[0].length);
      if (lines(range) < 2) continue;
      // prose may break after a hyphen ("head-to-/head"); a word never breaks anywhere else
      let before = null;
      for (let i = 0; i < m[0].length; i++) {
        const one = document.createRange(); one.setStart(node, m.index + i); one.setEnd(node, m.index + i + 1);
        const r = one.getBoundingClientRect(), line = Math.round(r.top + r.height / 2);
        if (before !== null && line !== before && m[0][i - 1] !== '-') { broken.push(m[0]); break; }
        before = line;
      }
    }
  }
  // and every element whose whole text is a number, a name or a status stays on one line
  const whole = new Set([...names, ...statuses]);
  for (const el of document.querySelectorAll('main *')) {
    if (el.closest('svg') || !shown(el)) continue;
    const text = el.textContent.trim();
    if (!(whole.has(text) || /^[0-9][0-9.,:/=*c–-]*$/.test(text))) continue;
    const range = document.createRange(); range.selectNodeContents(el);
    if (lines(range) > 1) broken.push(text);
  }
  // nothing wider than the screen, but inside a box that scrolls on purpose
  const over = [];
  for (const el of document.querySelectorAll('body *')) {
    if (!shown(el) || el.closest('.scroll') || el.closest('svg') && el.tagName !== 'svg') continue;
    const r = el.getBoundingClientRect();
    if (r.right > vw + 1 || r.left < -1) {
      over.push(el.tagName + '.' + el.className + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
    }
  }
  for (const box of document.querySelectorAll('.scroll')) {
    const r = box.getBoundingClientRect();
    if (r.right > vw + 1 || r.left < -1) over.push('scroll box ' + Math.round(r.left) + '..' + Math.round(r.right));
  }
  // the content's box: what the page draws, within the screen
  let x0 = vw, y0 = vh, x1 = 0, y1 = 0;
  for (const el of document.querySelectorAll('main *')) {
    if (!shown(el)) continue;
    const r = el.getBoundingClientRect();
    if (r.width < 1 || r.height < 1 || r.bottom < 0 || r.top > vh) continue;
    x0 = Math.min(x0, Math.max(r.left, 0)); y0 = Math.min(y0, Math.max(r.top, 0));
    x1 = Math.max(x1, Math.min(r.right, vw)); y1 = Math.max(y1, Math.min(r.bottom, vh));
  }
  const cell = document.querySelector('table.standings tbody td');
  return {broken, over, sideways: document.documentElement.scrollWidth - vw,
          tall: document.documentElement.scrollHeight - vh,
          cover: Math.max(0, x1 - x0) * Math.max(0, y1 - y0) / (vw * vh),
          font: cell ? parseFloat(getComputedStyle(cell).fontSize) : null};
}"""


@pytest.fixture(scope="module")
def venue(tmp_path_factory):
    """The 200-player tournament (tests/support/big_tournament.py) served once for the module."""
    need_browser()
    from tests.support import big_tournament

    folder = tmp_path_factory.mktemp("venue")
    db = databases.demo(folder / "games.db")
    made = big_tournament.build(db, folder)
    with serve(db) as served:
        yield served.url, made


def venue_pages(made: dict) -> dict[str, str]:
    t = f"/tournaments/{big_tournament_id()}"
    return {
        "front": "/",
        "standings": t,
        "seating": f"{t}/seating/2",
        "tables": f"{t}/tables/2",
        "player": f"{t}/players/{made['player']}",
        "game (called)": f"/games/{made['called'][-1]}",
        "game (judge)": f"/games/{made['judged'][0]}",
        "round": f"/games/{made['called'][0]}/rounds/2",
        "projector standings": f"{t}/projector?pause=1",
        "projector standings, last page": f"{t}/projector?pause=1&page=99",
        "projector seating": f"{t}/projector?view=seating&pause=1",
        "projector boards": f"{t}/projector?view=boards&pause=1",
    }


def big_tournament_id() -> str:
    from tests.support import big_tournament

    return big_tournament.TID


@pytest.mark.parametrize("size", list(SIZES))
def test_venue_pages_hold_at_every_size(venue, browser, size):
    """Issue 24: at 375 px, 768 px and 1920x1080, for a 200-player tournament, every kind of page: no word, and no
    number, name or status, breaks inside itself; nothing is wider than the screen but a table that scrolls; the
    projector's views fill the screen, its standings in type about 1/30 of the screen's height, with nothing to
    scroll; axe-core finds no violation at all."""
    import axe_playwright_python

    from tests.support import big_tournament

    url, made = venue
    axe = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text("utf-8")
    w, h = SIZES[size]
    names = big_tournament.names(200)
    problems = []
    with Watched(browser, w, h) as wp:
        for kind, path in venue_pages(made).items():
            response = wp.page.goto(url + path)
            assert response.status == 200, (kind, response.status)
            got = wp.page.evaluate(MEASURE, [names, STATUS_WORDS])
            if got["broken"]:
                problems.append(f"{kind}: broken inside: {got['broken'][:5]}")
            if got["over"] or got["sideways"] > 0:
                problems.append(f"{kind}: wider than the screen by {got['sideways']} px: {got['over'][:3]}")
            if kind.startswith("projector"):
                if got["cover"] < 0.9:
                    problems.append(f"{kind}: the content covers {got['cover']:.0%} of the screen")
                if got["tall"] > 0 and size == "projector":  # on a phone or a tablet held upright it scrolls
                    problems.append(f"{kind}: {got['tall']} px below the screen")
                if "standings" in kind and got["font"] < 0.95 * h / 30:
                    problems.append(f"{kind}: standings in {got['font']:.0f} px type, under 1/30 of {h} px")
            wp.page.evaluate(axe)  # as the browser's own tools run it: the page's policy admits no other script
            found = wp.page.evaluate("axe.run(document, {resultTypes: ['violations']})")["violations"]
            problems += [
                f"{kind}: axe {v['id']} ({v['impact']}) at {[n['target'] for n in v['nodes']][:2]}" for v in found
            ]
        assert wp.errors == [] and wp.failed == [], (wp.errors, wp.failed)
    assert problems == [], "\n".join(problems)


def test_projector_pages_through_every_table_and_labels_called_and_judged(venue, browser):
    """The projector's boards show the top tables and page through the rest: every table once, the called and the
    judge-entered tables labelled; the board pictures' texts fit the boxes the layout gave them."""
    url, made = venue
    t = f"/tournaments/{big_tournament_id()}"
    with Watched(browser, 1920, 1080) as wp:
        seen, page = [], 1
        while True:
            wp.page.goto(f"{url}{t}/projector?view=boards&pause=1&page={page}")
            captions = wp.page.locator(".grid figcaption").all_text_contents()
            seen += [int(re.match(r"Table (\d+)", c).group(1)) for c in captions]
            for c in captions:
                if c.startswith("Table 3 "):
                    assert "called" in c
                if c.startswith("Table 5 "):
                    assert "judge's entry" in c
            if "view=boards" not in wp.page.locator("a", has_text="resume the cycle").get_attribute("href"):
                break
            page += 1
        assert sorted(seen) == list(range(1, len(seen) + 1)) and len(seen) >= 40 and page > 1
        wp.page.goto(f"{url}{t}")  # the standings label both kinds of result, in rounds 1 and 2
        badges = wp.page.locator("table.standings .badge.source").all_text_contents()
        assert badges.count("called") >= 10 and badges.count("judge's entry") >= 10, sorted(set(badges))
        wp.page.goto(f"{url}/games/{made['called'][-1]}")
        assert wp.page.locator("p.table-at .badge.source").text_content() == "called"
        assert "scored as it stood after round 2 (time ran out)" in wp.page.locator("p.table-at").text_content()
        wp.page.goto(f"{url}/games/{made['judged'][-1]}")
        assert wp.page.locator("p.table-at .badge.source").text_content() == "judge's entry"
        wp.page.goto(f"{url}/games/{made['called'][0]}/rounds/2")
        fits = wp.page.evaluate(
            """() => [...document.querySelectorAll(
                   'figure.board svg g.strength, figure.board svg g.outcome, figure.board svg g[class*="-token"]'
               )].map(g => {
                 const r = g.querySelector('rect').getBBox(), t = g.querySelector('text').getBBox();
                 return [g.textContent, t.width <= r.width + 0.5 && t.height <= r.height + 4];
               })"""
        )
        assert fits and all(ok for _, ok in fits), [text for text, ok in fits if not ok]
