"""The phone entry in a real browser (issue 23): five Chromium phone contexts (375×812) enter the bench round
through the no-JavaScript forms of a real `referee serve --entry`, the moderator confirms with `referee
confirm`, and the phones show the seal; the page fits the phone and its controls are large enough to tap."""

from __future__ import annotations

import html
import os
import re
from itertools import zip_longest

from entry_point import referee
from serving import CHROMIUM, FLAGS, serve
from test_browser import _need_browser
from test_phone_entry import five_player_game

from referee.log import Store, entry as en


def split_line(line: str) -> dict[str, str]:
    _, rest = line.split(":", 1)
    rest, _, blessing = rest.strip().partition(" + ")
    if " @ " in rest:
        token, to = rest.split(" @ ")
        return {"token": token, "to": to, "from": "", "blessing": blessing}
    m = re.fullmatch(r"(.+?) (\S+) > (\S+)", rest)
    assert m, line
    return {"token": m.group(1), "to": m.group(3), "from": m.group(2), "blessing": blessing}


def test_five_phones_enter_a_round_and_see_the_seal(tmp_path):
    _need_browser()
    from playwright.sync_api import sync_playwright

    db = str(tmp_path / "games.db")
    sheet = five_player_game(db, "phones")
    home = tmp_path / "chromium"
    env = {**os.environ, "HOME": str(home), "XDG_CONFIG_HOME": str(home / "c"), "XDG_CACHE_HOME": str(home / "k")}
    with serve(db, "127.0.0.1", "--entry") as served, sync_playwright() as p:
        out = referee(db, "links", "phones", "--base", served.url)
        links = dict(re.findall(r"^(\w+): (\S+)$", out.stdout, re.M))
        assert len(links) == 5, out.stdout
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True, env=env)
        try:
            phones = {}
            for clan, url in links.items():
                context = browser.new_context(viewport={"width": 375, "height": 812}, java_script_enabled=False)
                page = context.new_page()
                page.goto(url)
                phones[clan] = page
            by_clan = {c: [x for x in sheet if x.startswith(c + ":")] for c in links}
            for row in zip_longest(*by_clan.values()):  # the five phones in turn, as at the table
                for line in filter(None, row):
                    page = phones[line.split(":")[0]]
                    f = split_line(line)
                    page.select_option("select[name=token]", f["token"])
                    page.select_option("select[name=to]", f["to"])
                    page.select_option("select[name=from]", f["from"])
                    if f["blessing"]:
                        page.select_option("select[name=blessing]", f["blessing"])
                    page.click("#add button[type=submit]")
                    assert line in html.unescape(page.inner_html("#mine"))
            for page in phones.values():
                # the page fits the phone: no sideways scrolling, buttons at least 40 px tall
                assert page.evaluate("document.documentElement.scrollWidth") <= 375
                heights = page.eval_on_selector_all("button", "bs => bs.map(b => b.getBoundingClientRect().height)")
                assert heights and min(heights) >= 40, heights
                page.click("#submit")
                assert page.is_visible("#submitted")
            assert "Submitted by every clan" in next(iter(phones.values())).content()
            confirmed = referee(db, "confirm", "phones", "--yes")
            assert confirmed.returncode == 0, confirmed.stderr
            with Store(db) as store:
                seal = en.seal_of(store, "phones", 1)
            assert seal
            for page in phones.values():
                page.reload()
                assert page.inner_text("#seal") == seal and "round 2" in page.inner_text("h1")
        finally:
            browser.close()
