"""The printed seating with every seat's phone-entry link and the organiser's signature on the printed sheets and
the standings: `referee tournament seat --links URL --sheet FILE` through
the entry point, the links opened under a real `referee serve --entry`, and the sheet measured in Chromium at
the width of an A4 page, each QR code read back from the picture Chromium draws."""

from __future__ import annotations

import html
import json
import random
import re
import stat
import urllib.error
import urllib.request
from pathlib import Path

from fastapi.testclient import TestClient

from referee.log import Store, entry as en
from referee.web import venue_app
from tests.support.entry_point import referee
from tests.support.serving import EVIL, cli, serve
from tests.support.tournament_play import next_sheet, setup_sheet

A4_PRINTABLE_PX = 703  # 210 mm less the sheet's 12 mm margins, at 96 CSS pixels an inch
MM = 96 / 25.4  # CSS pixels a millimetre
SEAT = re.compile(r'<li class="seat">(.*?)</li>', re.S)


def ok(db: str, *args: str) -> str:
    r = referee(db, *args)
    assert r.returncode == 0, r.stderr
    return r.stdout


def cup(tmp_path: Path, players: int = 9, name: str = "Cup") -> str:
    """A tournament of ``players`` registered players, not seated (9: a table of 5 and one of 4)."""
    db = str(tmp_path / "cup.db")
    ok(db, "tournament", "new", "cup", "--name", name, "--rounds", "2")
    for i in range(players):
        ok(db, "tournament", "players", "add", "cup", f"Player {i}")
    return db


def seats_of(sheet: Path) -> list[tuple[str, str, str]]:
    """(seat, player, link) of every seat printed on the sheet, in table order."""
    out = []
    for seat in SEAT.findall(sheet.read_text()):
        who = re.search(r"<strong>Seat (\d+): (.*?)</strong>", seat)
        url = re.search(r'<span class="url">(.*?)</span>', seat)
        assert who, seat
        out.append((who.group(1), html.unescape(who.group(2)), html.unescape(url.group(1)) if url else ""))
    return out


def tables_of(db: str) -> list[dict]:
    return json.loads(ok(db, "tournament", "seating", "cup", "1", "--json"))


def opened(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=20) as r:
            return r.status, r.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, exc.read().decode()


# --- the links: issued once, opened under `serve --entry`, issued again ------------------------------------------
def test_each_seat_gets_a_link_to_its_seat_page_and_a_second_run_revokes_them(tmp_path, home):
    db = cup(tmp_path)
    first, second = tmp_path / "round1.html", tmp_path / "round1-again.html"
    with serve(db, "127.0.0.1", "--entry") as served:
        out = ok(db, "tournament", "seat", "cup", "1", "--links", served.url, "--sheet", str(first))
        assert "11 phone link(s) printed on the sheet only" in out and "revoked" not in out  # 9 seats, 2 moderators
        tables = tables_of(db)
        seats = seats_of(first)
        want = [(str(s["seat"]), s["name"]) for t in tables for s in t["seats"]]
        assert [(n, who) for n, who, _ in seats] == want  # every seated player, next to their table and clan
        links = [url for _, _, url in seats]
        assert (
            all(re.fullmatch(re.escape(served.url) + r"/e/[A-Za-z0-9_-]{32}", u) for u in links)
            and len(set(links)) == 9
        )
        assert first.read_text().count("<svg") == 11 and "No link was issued before" in first.read_text()
        assert stat.S_IMODE(first.stat().st_mode) == 0o600  # capabilities: the organiser's file alone
        for t in tables:  # the moderator's line on each table's slip names the command that confirms
            assert f"<code>referee confirm {t['game']}</code>" in first.read_text()
        # each link opens its own seat's page: the clan and the game printed beside it
        clans = [(t["game"], s["clan"]) for t in tables for s in t["seats"]]
        for url, (game, clan) in zip(links, clans, strict=True):
            status, page = opened(url)
            title = re.search(r"<title>(.*?)</title>", page)
            assert status == 200 and title and clan.title() in title.group(1) and game in title.group(1), page[:400]
        moderators = re.findall(r'<li class="moderator">.*?<span class="url">(.*?)</span>', first.read_text(), re.S)
        assert len(moderators) == len(tables) and all("/m/" in m for m in moderators)
        assert all(opened(html.unescape(m))[0] == 200 for m in moderators)  # the table's page
        # the one way a link is made: `referee links` sees these as the seats' live links
        again = ok(db, "links", tables[0]["game"], "--base", served.url)
        assert again.count("a link is live") == len(tables[0]["seats"]) + 1 and "/e/" not in again  # and the moderator
        # only hashes are stored
        with Store(db) as store:
            assert all(store.exists(en.link_hash(u.rsplit("/", 1)[1]), en.ENTRY) for u in links)
        raw = Path(db).read_bytes()
        assert not any(u.rsplit("/", 1)[1].encode() in raw for u in links)

        # a second run for the seated round: the seating stays, every link is new, the first ones are revoked
        before = ok(db, "tournament", "export", "cup")
        out = ok(db, "tournament", "seat", "cup", "1", "--links", served.url, "--sheet", str(second))
        assert "round 1 is seated already" in out and "11 link(s) issued before revoked" in out
        assert ok(db, "tournament", "export", "cup") == before  # nothing recorded in the tournament
        renewed = [url for _, _, url in seats_of(second)]
        assert len(renewed) == 9 and not set(renewed) & set(links)
        assert "They replace the 11 links issued before for these games: those no longer work." in second.read_text()
        assert all(opened(u)[0] == 404 for u in links)
        assert all(opened(u)[0] == 200 for u in renewed)


def test_without_links_nothing_is_issued(tmp_path, home):
    db = cup(tmp_path)
    out = ok(db, "tournament", "seat", "cup", "1")
    assert "link" not in out and "sheet" not in out
    with Store(db) as store:
        assert not any(en.links_of(store, t["game"]) for t in tables_of(db))
    # --sheet alone writes the printed seating, one slip a table, and issues nothing
    ok(db, "tournament", "seat", "cup", "2", "--sheet", str(tmp_path / "r2.html"))
    text = (tmp_path / "r2.html").read_text()
    assert "/e/" not in text and "<svg" not in text and len(seats_of(tmp_path / "r2.html")) == 9
    with Store(db) as store:
        assert not any(en.links_of(store, t["game"]) for t in tables_of(db))


def test_bad_input_is_refused_and_nothing_is_recorded(tmp_path, home):
    db = cup(tmp_path, name=f"Cup {EVIL}")
    before = ok(db, "tournament", "export", "cup")
    usage = referee(db, "tournament", "seat", "cup", "1", "--links", "http://10.0.0.2:8000")  # no --sheet
    assert usage.returncode == 2 and "--sheet" in usage.stderr and "Traceback" not in usage.stderr
    for bad in ("javascript:alert(1)", "http://host/a b", 'http://x/"><script>', "10.0.0.2:8000", "http://"):
        r = referee(db, "tournament", "seat", "cup", "1", "--links", bad, "--sheet", str(tmp_path / "s.html"))
        assert r.returncode == 2 and "expected an address" in r.stderr, (bad, r.stderr)
    r = referee(db, "links", "any", "--base", "javascript:alert(1)")
    assert r.returncode == 2 and "expected an address" in r.stderr
    missing = tmp_path / "no-such-folder" / "s.html"
    r = referee(db, "tournament", "seat", "cup", "1", "--links", "http://10.0.0.2:8000", "--sheet", str(missing))
    assert r.returncode == 1 and r.stderr.startswith(f"error: {missing}: no such folder"), r.stderr
    r = referee(db, "tournament", "seat", "cup", "1", "--links", "http://10.0.0.2:8000", "--sheet", str(tmp_path))
    assert r.returncode == 1 and r.stderr.startswith(f"error: {tmp_path}: a folder"), r.stderr
    assert ok(db, "tournament", "export", "cup") == before  # the round not seated, no link issued
    assert not (tmp_path / "s.html").exists()
    # a name is shown as text on the sheet
    ok(db, "tournament", "seat", "cup", "1", "--links", "http://10.0.0.2:8000", "--sheet", str(tmp_path / "s.html"))
    text = (tmp_path / "s.html").read_text()
    assert EVIL not in text and html.escape(EVIL, quote=False) in text


def test_a_table_whose_game_is_over_gets_no_links_and_says_why(tmp_path, home):
    db = cup(tmp_path)
    ok(db, "tournament", "seat", "cup", "1")
    over = tables_of(db)[1]["game"]
    cli(db, "setup", over, "-", input=setup_sheet(db, over, random.Random(3)))
    rng = random.Random(5)
    for _ in range(5):
        cli(db, "round", over, "-", "--yes", input=next_sheet(db, over, rng))
    sheet = tmp_path / "s.html"
    out = ok(db, "tournament", "seat", "cup", "1", "--links", "http://10.0.0.2:8000", "--sheet", str(sheet))
    assert "6 phone link(s)" in out  # five seats and the moderator
    seats = seats_of(sheet)
    assert [bool(url) for _, _, url in seats] == [True] * 5 + [False] * 4
    why = re.search(r"No phone links for this table: ([^<]*)", html.unescape(sheet.read_text()))
    assert why and why.group(1).startswith(f"game {over!r}") and "ended" in why.group(1), why


# --- the organiser's signature on the printed sheets and the standings (issue 25, point 3) -------------------------
def signature_everywhere(db: str, tmp_path: Path) -> list[str]:
    """The signature line of: the links sheet, the text seating sheet, the standings as text, and the venue's
    standings page and printed seating sheet."""
    ok(db, "tournament", "seat", "cup", "1", "--links", "http://10.0.0.2:8000", "--sheet", str(tmp_path / "l.html"))
    ok(db, "tournament", "seating", "cup", "1", "--sheet", str(tmp_path / "s.txt"))
    ok(db, "tournament", "post", "cup", "1")
    with TestClient(venue_app(db), base_url="http://localhost") as client:
        pages = [client.get("/tournaments/cup").text, client.get("/tournaments/cup/sheet/1").text]
    texts = [
        (tmp_path / "l.html").read_text(),
        " ".join((tmp_path / "s.txt").read_text().split()),
        ok(db, "tournament", "standings", "cup"),
        *pages,
    ]
    found = [re.search(r"[Oo]rganiser's signature: ([^.<\n]+)", html.unescape(t)) for t in texts]
    assert all(found), texts
    return [m.group(1).strip() for m in found if m]


def test_the_printed_sheets_and_standings_say_unsigned(tmp_path, home):
    db = cup(tmp_path)
    shown = signature_everywhere(db, tmp_path)
    status = json.loads(ok(db, "tournament", "verify", "cup", "--json"))["signature"]
    assert status.startswith("unsigned") and shown == [status] * 5


def test_the_printed_sheets_and_standings_show_the_organisers_fingerprint(tmp_path, home, monkeypatch):
    db = cup(tmp_path)
    key = tmp_path / "cup.key"
    out = ok(db, "key", "new", "--name", "Cup", "--key-file", str(key))
    fp = next(line.split()[1] for line in out.splitlines() if line.startswith("key "))
    monkeypatch.setenv("REFEREE_KEY_FILE", str(key))
    shown = signature_everywhere(db, tmp_path)
    assert json.loads(ok(db, "tournament", "verify", "cup", "--json"))["signature"] == f"signed by {fp}"
    assert shown == [f"signed by {fp}"] * 5


# --- the sheet in Chromium: an A4 page's width, QR codes of a size a phone reads, each read back ----------------
def test_the_printed_sheet_fits_a4_and_every_qr_code_reads_back_as_its_link(tmp_path, home, chromium):
    """The sheet at an A4 page's printable width: one slip a seat and one for each table's moderator, each slip's
    box apart from every other (cut along its own dashes), each holding one QR code, its own: read back from the
    picture of that slip alone it is the link printed on it (a seat's /e/ link, the moderator's /m/ link), and no
    seat's slip carries another link."""
    import zxingcpp
    from PIL import Image

    db = cup(tmp_path, players=14)  # tables of 5, 5 and 4
    sheet = tmp_path / "sheet.html"
    base = "https://rokugan-spring-open.example.org:8443"  # a long address: longer links, denser codes
    ok(db, "tournament", "seat", "cup", "1", "--links", base, "--sheet", str(sheet))
    printed = [url for _, _, url in seats_of(sheet)]
    assert len(printed) == 14
    page = chromium.new_page(viewport={"width": A4_PRINTABLE_PX, "height": 1000})
    page.emulate_media(media="print")
    page.goto(sheet.as_uri())
    box = page.evaluate(
        """() => ({
          width: document.documentElement.scrollWidth,
          right: Math.max(...[...document.querySelectorAll('.slip, .seat, .url, h1, p')]
            .map(e => e.getBoundingClientRect().right)),
          codes: [...document.querySelectorAll('.qr svg path')].map(e => {
            const r = e.getBoundingClientRect(); return [r.width, r.height]; }),
        })"""
    )
    assert box["width"] <= A4_PRINTABLE_PX and box["right"] <= A4_PRINTABLE_PX, box
    assert len(box["codes"]) == 17  # 14 seats, 3 moderators
    smallest = min(min(w, h) for w, h in box["codes"])
    assert smallest >= 25 * MM, f"a QR code prints {smallest / MM:.1f} mm wide"
    slips = page.evaluate(
        """() => [...document.querySelectorAll('li.seat, li.moderator')].map(e => {
          const r = e.getBoundingClientRect(), s = getComputedStyle(e);
          return {kind: e.className, box: [r.left, r.top, r.right, r.bottom], border: s.borderTopStyle,
                  urls: [...e.querySelectorAll('.url')].map(u => u.textContent),
                  text: e.textContent};
        })"""
    )
    codes = page.evaluate(
        """() => [...document.querySelectorAll('.qr svg')].map(e => {
          const r = e.getBoundingClientRect(); return [r.left, r.top, r.right, r.bottom]; })"""
    )
    assert [s["kind"] for s in slips].count("seat") == 14 and len(slips) == 17
    assert all(s["border"] == "dashed" for s in slips)  # each slip cut along its own edge

    def meet(a, b) -> bool:
        return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

    for i, s in enumerate(slips):
        assert not any(meet(s["box"], o["box"]) for j, o in enumerate(slips) if j != i), s["text"][:80]
        assert sum(meet(s["box"], c) for c in codes) == 1, s["text"][:80]  # its own code, none other
        assert len(s["urls"]) == 1
        assert ("/m/" if s["kind"] == "moderator" else "/e/") in s["urls"][0], s["urls"]
    assert not any("/m/" in s["text"] for s in slips if s["kind"] == "seat")
    assert "Cut the slips apart along their dashes" in page.locator("p.warning").inner_text()
    for i, s in enumerate(slips):  # each slip's picture alone: one code, the link printed on that slip
        shot = tmp_path / f"slip-{i}.png"
        page.locator("li.seat, li.moderator").nth(i).screenshot(path=str(shot))
        read = [r.text for r in zxingcpp.read_barcodes(Image.open(shot))]
        assert read == s["urls"], (i, read, s["urls"])
    # read each code back from the picture Chromium draws at 96 dpi (a printer's is finer)
    seats = page.locator("li.seat")
    for i, url in enumerate(printed):
        shot = tmp_path / f"qr-{i}.png"
        seats.nth(i).locator(".qr").screenshot(path=str(shot))
        read = [r.text for r in zxingcpp.read_barcodes(Image.open(shot))]
        assert read == [url], (i, read)
        assert seats.nth(i).locator(".url").text_content() == url
    two_columns = page.evaluate(
        "() => new Set([...document.querySelectorAll('li.seat')].map(e => e.getBoundingClientRect().left)).size"
    )
    assert two_columns == 2  # two seats side by side on the page
    pdf = page.pdf(format="A4")
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) <= 4  # 17 slips, two a row: four pages at most
    phone = chromium.new_page(viewport={"width": 375, "height": 800})  # the sheet read on a phone
    phone.goto(sheet.as_uri())
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 375
    page.close()
    phone.close()
