"""The pictures of how a game and a tournament went: the honor race on a game's page and in
the HTML record, the points after each round on a tournament's page. Their numbers are checked against the
commands' (two paths to one answer), and in Chromium at a phone's 375 px, a laptop and a 1920x1080 projector:
nothing overflows, no two texts of a chart overlap, axe-core finds no violation."""

import json
import random
import re

import pytest
from hypothesis import given, strategies as st

from tests.support import databases
from tests.support.browsing import Watched, need_browser, screenshot
from tests.support.serving import cli, players_csv, serve

GAME = "demo-five-player-1"
NAMES = [f"{first} {last}" for first, last in zip(
    ["Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu", "Mo", "Nia", "Oz", "Pia", "Quin",
     "Rae", "Sol", "Tam"],
    ["Lee", "Chen", "Park", "Ross", "Moss-Whitaker", "Wu", "Hart", "Ito", "Kane", "Dunn", "Lund", "Mori", "Sato",
     "Vos", "Amari", "Berg", "Castellanos", "Diaz", "Eto", "Fujiwara-Lindqvist"],
    strict=True,
)]  # fmt: skip
SIZES = {"phone": (375, 740), "laptop": (1366, 768), "projector": (1920, 1080)}


@pytest.fixture(scope="module")
def league(tmp_path_factory):
    """The demo games, and a tournament of 20 players over 3 rounds, every table's result entered by the judge."""
    path = tmp_path_factory.mktemp("charts")
    db = databases.demo(path / "games.db")
    cli(db, "tournament", "new", "league", "--name", "League", "--rounds", "3")
    cli(db, "tournament", "players", "add", "league", "--csv", players_csv(path / "players.csv", NAMES))
    rng = random.Random(24)
    for r in (1, 2, 3):
        tables = json.loads(cli(db, "tournament", "seat", "league", str(r), "--json"))["tables"]
        cli(db, "tournament", "post", "league", str(r))
        for t in tables:
            honors = [f"{s['name']}={rng.randint(5, 45)}" for s in t["seats"]]
            cli(db, "tournament", "result", "league", str(r), str(t["table"]), *honors, "--reason", "paper")
        cli(db, "tournament", "close", "league", str(r))
    return db


def cells(html: str, caption: str) -> list[list[str]]:
    """The rows of the table with ``caption``: each row's cells as text."""
    table = html.split(f"<caption>{caption}</caption>")[1].split("</table>")[0]
    rows = re.findall(r"<tr>(.*?)</tr>", table, re.S)[1:]
    return [
        [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", r, re.S)] for r in rows
    ]


def test_the_honor_race_ends_on_the_score_and_its_last_step_is_the_objectives(league):
    from fastapi.testclient import TestClient

    from referee.web import venue_app

    final = json.loads(cli(league, "score", GAME, "--json"))
    with TestClient(venue_app(league), base_url="http://localhost") as c:
        html = c.get(f"/games/{GAME}").text
    rows = {r[0].split()[-1]: r[1:] for r in cells(html, "The honor race, as numbers")}
    assert set(rows) == {s["clan"] for s in final["scores"]}
    for s in final["scores"]:
        honor = [int(v) for v in rows[s["clan"]][:-1]]
        objective = sum(line["honor"] for line in s["lines"] if line["label"].startswith("objective "))
        assert len(honor) == 7 and honor[-1] == s["total"]  # setup, five rounds, the end: the score's total
        assert honor[-1] - honor[-2] == objective == int(rows[s["clan"]][-1])  # the last step: the objectives
    for s in final["scores"]:  # each line ends on its clan's initial and honor
        assert re.search(rf">[A-Z][a-z]? {s['total']}</text>", html)


def test_each_round_of_the_race_is_the_score_had_the_game_ended_then(league):
    """Round 2's column is the honor `referee score` gives a game ended after round 2 (a copy of its first rounds),
    objectives aside (they count at the end, p.10)."""
    from referee.engine.battle import final_score
    from referee.games.battle.fold import Fold
    from referee.store.storage import Store
    from referee.views.game import honor_race

    with Store(league, create=False) as store:
        fold = Fold.of(store.events(GAME))
    race = honor_race(fold)
    for n in range(1, 6):
        state = fold.played(n).after
        totals = {str(s.clan): s.total for s in final_score(state.with_(objectives={})).scores}
        assert {c["clan"]: c["honor"][n] for c in race["clans"]} == totals
    assert race["columns"] == ["setup", "R1", "R2", "R3", "R4", "R5", "end"]


def test_the_points_race_ends_on_the_standings(league):
    from fastapi.testclient import TestClient

    from referee.web import venue_app

    standings = json.loads(cli(league, "tournament", "standings", "league", "--json"))["standings"]
    with TestClient(venue_app(league), base_url="http://localhost") as c:
        html = c.get("/tournaments/league").text
    rows = cells(html, "Points after each round, as numbers")
    assert len(rows) == 16  # the top 16 of 20
    for row, expected in zip(rows, standings, strict=False):
        assert row[0] == str(expected["rank"]) and row[1] == expected["name"] and row[-1] == expected["total_shown"]
        assert [float(v) for v in row[2:]] == sorted(float(v) for v in row[2:])  # points only grow (sum)


def texts_overlap_script() -> str:
    return """(sel) => {
      const out = [];
      for (const svg of document.querySelectorAll(sel)) {
        const box = svg.getBoundingClientRect();
        const texts = [...svg.querySelectorAll('text')].map(t => [t.textContent, t.getBoundingClientRect()]);
        for (let i = 0; i < texts.length; i++) {
          const [a, r] = texts[i];
          const inside = r.left >= box.left - 0.5 && r.right <= box.right + 0.5
            && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5;
          if (!inside)
            out.push(`${a} outside the picture`);
          for (let j = i + 1; j < texts.length; j++) {
            const [b, s] = texts[j];
            const w = Math.min(r.right, s.right) - Math.max(r.left, s.left);
            const h = Math.min(r.bottom, s.bottom) - Math.max(r.top, s.top);
            if (w > 0.5 && h > 0.5) out.push(`${a} overlaps ${b}`);
          }
        }
      }
      return out;
    }"""


def measure(page) -> dict:
    return page.evaluate(
        """() => {
          const svg = document.querySelector('svg.chart');
          const r = svg.getBoundingClientRect();
          const label = svg.querySelector('text.end-label').getBoundingClientRect();
          const doc = document.documentElement;
          return {overflow: doc.scrollWidth - doc.clientWidth, left: r.left, right: r.right,
                  width: doc.clientWidth, label: label.height};
        }"""
    )


@pytest.fixture(scope="module")
def seeded(league):
    """The league, once a browser can read its pages."""
    need_browser()
    return league


@pytest.fixture(scope="module")
def served(league):
    need_browser()
    with serve(league) as s:
        yield s.url


@pytest.mark.parametrize("where", ["game", "tournament", "record"])
def test_charts_fit_every_screen_with_no_text_overlapping(served, league, browser, tmp_path, where):
    record = tmp_path / "game.html"
    cli(league, "export", GAME, "--format", "html", "-o", str(record))
    url = {"game": f"{served}/games/{GAME}", "tournament": f"{served}/tournaments/league", "record": record.as_uri()}
    figures = {}
    for size, (w, h) in SIZES.items():
        with Watched(browser, w, h) as wp:
            wp.page.goto(url[where])
            assert wp.errors == [] and wp.failed == [], (wp.errors, wp.failed)
            assert wp.page.evaluate(texts_overlap_script(), "svg.chart") == []
            m = measure(wp.page)
            assert m["overflow"] <= 0 and m["left"] >= 0 and m["right"] <= m["width"], (size, m)
            assert m["label"] >= 8, (size, m)  # an end label at least 8 px high, even on a phone
            figures[size] = round(m["label"], 1)
            screenshot(wp.page.locator("svg.chart"), f"chart-{where}-{size}.png")
    print(where, "end label height in px:", figures)


@pytest.mark.parametrize("where", ["game", "tournament", "record"])
def test_charts_pass_axe(served, league, browser, tmp_path, where):
    from pathlib import Path

    import axe_playwright_python

    axe = (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text("utf-8")
    record = tmp_path / "game.html"
    cli(league, "export", GAME, "--format", "html", "-o", str(record))
    url = {"game": f"{served}/games/{GAME}", "tournament": f"{served}/tournaments/league", "record": record.as_uri()}
    for w, h in (SIZES["phone"], SIZES["projector"]):
        with Watched(browser, w, h) as wp:
            wp.page.goto(url[where])
            wp.page.evaluate(axe)
            result = wp.page.evaluate("axe.run(document, {resultTypes: ['violations']})")
            assert [(v["id"], [n["target"] for n in v["nodes"]][:3]) for v in result["violations"]] == []


@given(st.lists(st.floats(min_value=0, max_value=400), min_size=1, max_size=16))
def test_end_labels_are_moved_apart_in_their_order_and_inside_the_picture(wanted):
    from referee.views.charts import GAP, spread

    low, high = 10.0, 10.0 + GAP * 16  # room for 16 labels
    placed = spread(wanted, low, high)
    by_wish = sorted(range(len(wanted)), key=lambda i: wanted[i])
    ys = [placed[i] for i in by_wish]
    assert all(b - a >= GAP - 1e-6 for a, b in zip(ys, ys[1:], strict=False))  # no two closer than a label
    assert all(low - 1e-6 <= y <= high + 1e-6 for y in ys)
