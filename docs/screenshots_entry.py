"""Remake the manual's screenshots of the phone entry (docs/screenshots/entry-*.png): the bundled five-player
game before its round 1, served by `referee serve --entry` on a loopback port; the seats' phones (375x812,
Debian's chromium) enter the round, the crab's phone by taps, and the moderator's page is photographed once
every clan has submitted.

    .venv/bin/python docs/screenshots_entry.py
"""

import re
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.support.serving import CHROMIUM, FLAGS, serve  # noqa: E402  (the tests' server and browser)
from tests.web.test_phone_entry import five_player_game  # noqa: E402  (the bench round's game)
from tests.web.test_phone_entry_browser import PHONE, TAP_POINT, fill_in, split_line, tap_in  # noqa: E402  (the tests' taps)

OUT = Path(__file__).resolve().parent / "screenshots"


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "games.db")
        sheet = five_player_game(db, "friday-t3")
        with serve(db, "127.0.0.1", "--entry") as served, sync_playwright() as p:
            out = subprocess.run(
                [sys.executable, "-m", "referee", "links", "friday-t3", "--base", served.url, "--db", db],
                check=True,
                capture_output=True,
                text=True,
            ).stdout
            links = dict(re.findall(r"^(\w+): (\S+)$", out, re.M))
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            phones = {  # the crab taps (JavaScript on), the others use the forms (JavaScript off)
                c: browser.new_context(viewport=PHONE, java_script_enabled=c == "crab").new_page()
                for c in links
                if c != "moderator"
            }
            for clan, page in phones.items():
                page.goto(links[clan])
            crab = phones["crab"]
            crab.screenshot(path=str(OUT / "entry-seat.png"))
            first = split_line(sheet[0])
            crab.click(f'#tap-tokens button[data-token="{first["token"]}"]')
            crab.screenshot(path=str(OUT / "entry-token.png"))
            crab.mouse.click(*crab.evaluate(TAP_POINT, first["to"]))
            crab.locator("#tap-places button").first.wait_for()
            crab.evaluate("document.getElementById('tap-more').scrollIntoView({block: 'end'})")
            crab.screenshot(path=str(OUT / "entry-place.png"))
            crab.goto(links["crab"])
            for line in sheet:
                clan = line.split(":")[0]
                (tap_in if clan == "crab" else fill_in)(phones[clan], line)
            crab.screenshot(path=str(OUT / "entry-list.png"))
            for page in phones.values():
                page.click("#submit")
            crab.reload()
            crab.evaluate("document.getElementById('submitted').scrollIntoView({block: 'start'})")
            crab.screenshot(path=str(OUT / "entry-submitted.png"))
            table = browser.new_context(viewport=PHONE).new_page()
            table.goto(links["moderator"])
            table.screenshot(path=str(OUT / "entry-moderator.png"), full_page=True)
            browser.close()


if __name__ == "__main__":
    main()
