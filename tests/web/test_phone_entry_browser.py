"""The phone entry in a real browser: five Chromium phone contexts (375×812) enter the bench round at
once through a real `referee serve --entry`, two by taps on the board picture (JavaScript on) and three by the
no-JavaScript forms; the moderator confirms with `referee confirm` in one test and on the moderator's page in
the other; the recorded round equals the same sheet typed with `referee round` (state digest and report), the
phones show the seal. The pages are measured at 375 px: no sideways scrolling, no word or number broken
across lines, every control at least 44 px tall and wide; the taps are counted (≤ 3 a token on average)."""

from __future__ import annotations

import html
import re
from contextlib import contextmanager
from itertools import zip_longest
from pathlib import Path

from referee.engine import state_digest
from referee.log import EventType, OpenGame, Store, entry as en
from tests.support.entry_point import referee
from tests.support.serving import serve
from tests.web.test_phone_entry import five_player_game, tracked_four_player_game
from tests.web.test_venue_pages_browser import MEASURE

PHONE = {"width": 375, "height": 812}
TAPPERS = 2  # the first two seats tap (JavaScript on), the other three use the forms (JavaScript off)
TARGET = 44  # px: the smallest tap target


def split_line(line: str) -> dict[str, str]:
    _, rest = line.split(":", 1)
    rest, _, blessing = rest.strip().partition(" + ")
    if " @ " in rest:
        token, to = rest.split(" @ ")
        return {"token": token, "to": to, "from": "", "blessing": blessing}
    m = re.fullmatch(r"(.+?) (\S+) > (\S+)", rest)
    assert m, line
    return {"token": m.group(1), "to": m.group(3), "from": m.group(2), "blessing": blessing}


# The point of the board picture a finger would tap for a province: inside its region, where the element on top
# belongs to that province (a region, or the province's own label or capital), scrolled into view.
TAP_POINT = """(pid) => {
  const region = document.querySelector(`#board [data-province="${pid}"]`);
  region.scrollIntoView({block: 'center'});
  const of = el => { const r = el && el.closest('[data-province]'); if (r) return r.getAttribute('data-province');
                     const g = el && el.closest('g[data-territory]'); return g ? g.id : null; };
  region.closest('.scroll').scrollLeft += region.getBoundingClientRect().left - innerWidth / 2;
  const b = region.getBoundingClientRect();
  for (let i = 1; i < 8; i++) for (let j = 1; j < 8; j++) {
    const x = b.left + b.width * j / 8, y = b.top + b.height * i / 8;
    if (of(document.elementFromPoint(x, y)) === pid) return [x, y];
  }
  return null;
}"""

TAP_TARGETS = """() => [...document.querySelectorAll('main button, main a, main select, main textarea')]
  .filter(el => el.getClientRects().length && getComputedStyle(el).visibility !== 'hidden')
  .map(el => { const r = el.getBoundingClientRect();
               return [el.textContent.trim() || el.name, Math.round(r.width), Math.round(r.height)]; })"""


REGIONS = """() => [...document.querySelectorAll('#board [data-province]')].map(el => {
  const r = el.getBoundingClientRect(); return Math.min(r.width, r.height); })"""


def tap_in(page, line: str) -> int:
    """One token entered by taps on a phone with JavaScript: the token, its province on the board, the place
    (`@` or a border, among those the referee accepts); how many taps it took."""
    f = split_line(line)
    assert not f["blessing"], "the bench round has no blessing"
    page.click(f'#tap-tokens button[data-token="{f["token"]}"]')
    point = page.evaluate(TAP_POINT, f["to"])
    assert point, f"no tappable point of {f['to']} on the board"
    page.mouse.click(*point)
    place = page.locator(f'#tap-places button[data-from="{f["from"]}"]')
    place.wait_for()
    offered = page.eval_on_selector_all("#tap-places button", "bs => bs.map(b => b.dataset.from)")
    assert f["from"] in offered and "" in offered, offered
    with page.expect_navigation():
        place.click()
    return 3


def fill_in(page, line: str) -> None:
    """One token entered by the no-JavaScript form: the token, the province, the border, Add."""
    f = split_line(line)
    page.select_option("select[name=token]", f["token"])
    page.select_option("select[name=to]", f["to"])
    page.select_option("select[name=from]", f["from"])
    if f["blessing"]:
        page.select_option("select[name=blessing]", f["blessing"])
    page.click("#add button[type=submit]")


def accessible(page, what: str, live: bool = False) -> None:
    """No serious or critical axe violation on the page (axe run as the browser's own tools run it). ``live``:
    the page reads the table again every few seconds by design (it says so on the page), so axe's
    ``meta-refresh`` rule (WCAG 2.2.1) is the one left out."""
    import axe_playwright_python

    page.evaluate((Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text("utf-8"))
    rules = "{'meta-refresh': {enabled: false}}" if live else "{}"
    result = page.evaluate(f"axe.run(document, {{resultTypes: ['violations'], rules: {rules}}})")
    serious = [
        (v["id"], [n["target"] for n in v["nodes"]][:3])
        for v in result["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert serious == [], f"{what}: {serious}"


def measure(page, what: str) -> None:
    """The page at 375 px: no sideways scrolling, no word or number broken, every control large enough."""
    got = page.evaluate(MEASURE, [[], ["not started", "entering", "submitted"]])
    assert got["sideways"] <= 0, f"{what}: scrolls sideways by {got['sideways']} px"
    assert not got["over"], f"{what}: wider than the screen: {got['over'][:5]}"
    assert not got["broken"], f"{what}: broken inside: {got['broken'][:5]}"
    targets = page.evaluate(TAP_TARGETS)
    assert targets, f"{what}: no control found"
    small = [t for t in targets if t[1] < TARGET or t[2] < TARGET]
    assert not small, f"{what}: tap targets under {TARGET} px: {small[:5]}"


@contextmanager
def five_phones(tmp_path, chromium, game: str):
    """A served database with the games `game` and `typed` before their round 1, the seats' links and the
    moderator's, and five phone contexts on them (the first TAPPERS with JavaScript); yields (db, sheet,
    served, browser, phones, links)."""
    db = str(tmp_path / "games.db")
    sheet = five_player_game(db, game, "typed")
    with serve(db, "127.0.0.1", "--entry") as served:
        out = referee(db, "links", game, "--base", served.url)
        links = dict(re.findall(r"^(\w+): (\S+)$", out.stdout, re.M))
        assert len(links) == 6 and links["moderator"].startswith(served.url + "/m/"), out.stdout
        contexts = []
        try:
            phones = {}
            for i, clan in enumerate(c for c in links if c != "moderator"):
                contexts.append(chromium.new_context(viewport=PHONE, java_script_enabled=i < TAPPERS))
                page = contexts[-1].new_page()
                page.goto(links[clan])
                phones[clan] = page
            yield db, sheet, served, chromium, phones, links
        finally:
            for context in contexts:
                context.close()


def enter_the_round(phones: dict, sheet: list[str]) -> tuple[int, int]:
    """The five phones enter the sheet at once (each its own clan's lines, in turn as at a table) and submit;
    the (taps, tokens) of the phones that tap."""
    clans = list(phones)
    tappers = set(clans[:TAPPERS])
    by_clan = {c: [x for x in sheet if x.startswith(c + ":")] for c in clans}
    taps = tokens = 0
    for clan, page in phones.items():  # the taps only with JavaScript, else the form
        assert page.is_visible("#taps") == (clan in tappers)
        assert page.is_visible("#add") == (clan not in tappers)
    for row in zip_longest(*by_clan.values()):
        for line in filter(None, row):
            clan = line.split(":")[0]
            page = phones[clan]
            if clan in tappers:
                taps += tap_in(page, line)
                tokens += 1
            else:
                fill_in(page, line)
            assert line in html.unescape(page.inner_html("#mine")), line
    smallest = min(phones[clans[0]].evaluate(REGIONS))
    print(f"the smallest province region of the board at {PHONE['width']} px: {smallest:.0f} px")
    assert smallest >= TARGET  # the board is wider than the phone, in a box that scrolls sideways
    for clan, page in phones.items():
        # five tokens listed: no more can be added, by taps or by the form (issue 33)
        assert page.is_visible("#full") and not page.is_visible("#taps") and not page.is_visible("#add")
        measure(page, f"{clan}'s list")
        if clan in tappers:  # axe runs as a script: in the pages with JavaScript (the same template without it)
            accessible(page, f"{clan}'s list")
        page.click("#submit")
        assert page.is_visible("#submitted")
    for clan, page in phones.items():
        page.reload()
        assert page.locator("#others > li").count() == 5 and "none" not in page.inner_text("#others")
        measure(page, f"{clan}'s submitted view")
    return taps, tokens


def the_same_round_as_typed(db: str, game: str, sheet: list[str]) -> str:
    """`referee round` types the same sheet in the game `typed`: the same entries, the same state digest, the
    same report (`referee replay`, the game's name and seal aside); the seal of the phones' round."""
    typed = referee(db, "round", "typed", "-", "--yes", stdin="\n".join(sheet) + "\n")
    assert typed.returncode == 0, typed.stderr
    with Store(db) as store:
        a, b = OpenGame(store, "typed"), OpenGame(store, game)
        ra = [e for e in a.events if e.type == EventType.ROUND_RESOLVED][-1].data
        rb = [e for e in b.events if e.type == EventType.ROUND_RESOLVED][-1].data
        assert ra["entries"] == rb["entries"] and ra["digest"] == rb["digest"] == state_digest(b.state)
        assert state_digest(a.state) == state_digest(b.state)
        seal = en.seal_of(store, game, 1)
    assert seal
    seals = re.compile(r"\b[0-9A-Z]{4}(-[0-9A-Z]{4})+\b")
    stamps = re.compile(r"\d{4}-\d\d-\d\d[T ][0-9:.+Z]+")

    def report(g: str) -> str:
        out = referee(db, "replay", g)
        assert out.returncode == 0, out.stderr
        return stamps.sub("T", seals.sub("S", out.stdout.replace(g, "G")))

    assert report(game) == report("typed")
    return seal


def phones_show_the_seal(phones: dict, seal: str) -> None:
    """A submitted seat's page reads the table again by itself (a meta refresh, with or without JavaScript):
    the phones show the seal without anyone reloading them."""
    for clan, page in phones.items():
        page.wait_for_selector("#seal", timeout=20_000)
        assert page.inner_text("#seal") == seal and "round 2" in page.inner_text("h1"), clan
        measure(page, f"{clan}'s page of round 2")


def test_five_phones_by_taps_and_forms_and_referee_confirm(tmp_path, chromium):
    with five_phones(tmp_path, chromium, "phones") as (db, sheet, _, _, phones, _):
        taps, tokens = enter_the_round(phones, sheet)
        print(f"taps per token by the board picture: {taps}/{tokens} = {taps / tokens:.2f}")
        assert tokens >= 9 and taps / tokens <= 3
        confirmed = referee(db, "confirm", "phones", "--yes")
        assert confirmed.returncode == 0, confirmed.stderr
        seal = the_same_round_as_typed(db, "phones", sheet)
        assert seal in confirmed.stdout
        phones_show_the_seal(phones, seal)


def test_five_phones_and_the_moderators_page_resolves(tmp_path, chromium):
    with five_phones(tmp_path, chromium, "phones") as (db, sheet, _, browser, phones, links):
        table = browser.new_page(viewport=PHONE)  # a context of its own, closed with the page
        table.goto(links["moderator"])
        assert table.locator("#states td", has_text="not started").count() == 5
        measure(table, "the moderator's page before the round")
        enter_the_round(phones, sheet)
        table.reload()
        assert table.locator("#states td", has_text="submitted").count() == 5
        assert "passes the placement check" in table.inner_text("#check")
        assert html.unescape(table.inner_html("#sheet")).splitlines() == ["round: 1", *sheet]
        measure(table, "the moderator's page, every clan submitted")
        accessible(table, "the moderator's page", live=True)
        # the moderator opens a seat's list: the edit page fits the phone too
        table.click(f'#states tr[data-clan="{next(iter(phones))}"] a')
        assert table.locator("textarea#lines").input_value().splitlines() == [
            x for x in sheet if x.startswith(next(iter(phones)) + ":")
        ]
        measure(table, "the moderator's edit page")
        accessible(table, "the moderator's edit page")
        table.go_back()
        table.reload()
        table.click("#resolve button")
        seal = the_same_round_as_typed(db, "phones", sheet)
        assert table.inner_text("#seal") == seal and "round 2" in table.inner_text("h1")
        phones_show_the_seal(phones, seal)
        table.close()


# --- issue 33: each blessing button beside each listed token blesses that token, by taps and without JavaScript
LISTED = "#mine > li"


def shown_list(page) -> list[str]:
    return [x.strip() for x in page.locator(f"{LISTED} .line").all_inner_texts()]


def press_beside(page, i: int, label: str, touch: bool) -> None:
    """The button ``label`` in the i-th listed token's row: a tap (a phone with JavaScript and a touch screen) or
    a click (JavaScript off); its form is sent and the page comes back."""
    button = page.locator(LISTED).nth(i).locator("button", has_text=label)
    assert button.count() == 1, (i, label)
    with page.expect_navigation():
        button.tap() if touch else button.click()


def every_blessing_beside_every_token(page, bare: list[str], touch: bool) -> int:
    """Each `+ blessing N` beside each of the four listed tokens pressed in turn: exactly that token carries it,
    the count says 5 of 5; its `− blessing N` takes it off again. How many presses."""
    pressed = 0
    for i in range(len(bare)):
        labels = page.locator(LISTED).nth(i).locator("button", has_text="+ blessing").all_inner_texts()
        assert labels, i
        for label in labels:
            press_beside(page, i, label, touch)
            blessing = label.strip()[2:]
            assert shown_list(page) == [f"{x} + {blessing}" if k == i else x for k, x in enumerate(bare)], (i, label)
            assert page.inner_text("#count").startswith("5 of 5 tokens")
            press_beside(page, i, f"− {blessing}", touch)
            assert shown_list(page) == bare
            pressed += 1
    return pressed


def test_each_blessing_button_blesses_the_token_beside_it_and_the_round_equals_the_sheet_typed(tmp_path, chromium):
    """Issue 33 at 375×812 in Chromium: the Dragon (taps, JavaScript on) and the Lion (the forms, JavaScript off)
    list four tokens each; every `+ blessing N` beside every one of them is pressed, and exactly that token
    carries it (the Dragon: blessing 2 and its blessing 3, the Lion: blessing 2); the phone says "4 of 5" and
    what is missing before Submit. Then each blesses the token of the sheet, the Phoenix taps its list, the
    moderator's Edit enters the Scorpion's, `referee confirm` records the round: the same round as the sheet
    typed with `referee round`, blessings included."""
    db = str(tmp_path / "games.db")
    sheet = tracked_four_player_game(db, "phones", "typed")
    mine = {c: [x for x in sheet if x.startswith(c + ":")] for c in ("dragon", "lion", "phoenix", "scorpion")}
    with serve(db, "127.0.0.1", "--entry") as served:
        out = referee(db, "links", "phones", "--base", served.url)
        links = dict(re.findall(r"^(\w+): (\S+)$", out.stdout, re.M))
        contexts = []
        try:
            pages = {}
            for clan, js in (("dragon", True), ("lion", False), ("phoenix", True)):
                contexts.append(
                    chromium.new_context(viewport=PHONE, java_script_enabled=js, has_touch=js, is_mobile=js)
                )
                pages[clan] = contexts[-1].new_page()
                pages[clan].goto(links[clan])
            presses = 0
            for clan in ("dragon", "lion"):
                page, touch = pages[clan], clan == "dragon"
                bare = [x.split(" + ")[0] for x in mine[clan]]
                assert len(bare) == 4 and bare != mine[clan]  # four tokens, one of them blessed on the sheet
                for line in bare:
                    tap_in(page, line) if touch else fill_in(page, line)
                assert shown_list(page) == bare
                count = page.inner_text("#count")
                assert count.startswith("4 of 5 tokens. 1 missing: exactly 5 placed, blessings included"), count
                box, submit = page.locator("#count").bounding_box(), page.locator("#submit").bounding_box()
                assert box and submit and box["y"] < submit["y"]  # said before Submit
                assert page.inner_text("#submit") == "Submit my 4 of 5 tokens"
                measure(page, f"{clan}'s four tokens and their blessing buttons")
                presses += every_blessing_beside_every_token(page, bare, touch)
                # the sheet's blessing, on the sheet's token
                k = next(i for i, x in enumerate(mine[clan]) if " + " in x)
                press_beside(page, k, "+ " + mine[clan][k].split(" + ")[1], touch)
                assert shown_list(page) == mine[clan]
                assert page.inner_text("#count").startswith("5 of 5 tokens") and not page.is_visible("#add")
                measure(page, f"{clan}'s five tokens")
                page.click("#submit")
                assert page.is_visible("#submitted")
            assert presses == 2 * 4 + 1 * 4  # the Dragon: two buttons beside each token, the Lion: one
            print(f"blessing buttons pressed beside the listed tokens: {presses}")
            for line in mine["phoenix"]:
                tap_in(pages["phoenix"], line)
            pages["phoenix"].click("#submit")
            contexts.append(chromium.new_context(viewport=PHONE))
            table = contexts[-1].new_page()
            table.goto(links["moderator"])
            assert table.inner_text('#states tr[data-clan="phoenix"] td.count') == "5 of 5"
            table.click('#states tr[data-clan="scorpion"] a')
            table.fill("textarea#lines", "\n".join(x.split(": ", 1)[1] for x in mine["scorpion"]))
            table.check("input[name=submitted]")
            table.click("#edit button[type=submit]")
            assert table.locator("#states td", has_text="submitted").count() == 4
            counts = [table.inner_text(f"#states tr[data-clan={c}] td.count") for c in mine]
            assert counts == ["5 of 5"] * 3 + ["5 of 5 (by the moderator)"], counts
            assert "passes the placement check" in table.inner_text("#check")
            confirmed = referee(db, "confirm", "phones", "--yes")
            assert confirmed.returncode == 0, confirmed.stderr
            seal = the_same_round_as_typed(db, "phones", sheet)
            assert seal in confirmed.stdout
        finally:
            for context in contexts:
                context.close()
