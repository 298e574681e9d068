"""Remake the manual's screenshots (docs/screenshots/*.png): the demo games, a 14-player tournament and a
200-player one (tests/support/big_tournament.py: called and judge-entered tables, a round under way), served by
`referee serve` on a loopback port and photographed by Debian's chromium on a 375-px phone, a 768-px tablet,
a laptop and a 1920x1080 projector.

    .venv/bin/python docs/screenshots.py
"""

import random
import subprocess
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from tests.support import big_tournament  # noqa: E402  (the tests' 200-player tournament)
from tests.support.serving import CHROMIUM, FLAGS, PLAYERS, players_csv, serve  # noqa: E402  (the tests' server and browser)
from tests.support.tournament_play import setup_sheet  # noqa: E402  (the tests' own helper: a legal setup for a table)

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
BIG = f"/tournaments/{big_tournament.TID}"
PHONE, TABLET, WALL = (375, 800), (768, 1024), (1920, 1080)
SHOTS = [  # file, path, (width, height); "{called}", "{judged}" and "{player}": of the 200-player tournament
    ("game-desktop.png", "/games/demo-five-player-1", (1280, 1000)),
    ("round-phone.png", "/games/demo-five-player-1/rounds/3", PHONE),
    ("index-desktop.png", "/", (1000, 420)),
    ("not-found-phone.png", "/games/no-such-game", (375, 420)),
    ("standings-phone.png", BIG, PHONE),
    ("standings-tablet.png", BIG, TABLET),
    ("seating-desktop.png", "/tournaments/spring/seating/1?q=ivy", (1000, 700)),
    ("seating-phone.png", f"{BIG}/seating/2", PHONE),
    ("tables-desktop.png", f"{BIG}/tables/2", (1280, 700)),
    ("player-phone.png", f"{BIG}/players/{{player}}", (375, 600)),
    ("game-called-phone.png", "/games/{called}", PHONE),
    ("projector-standings.png", f"{BIG}/projector?pause=1", WALL),
    ("projector-seating.png", f"{BIG}/projector?view=seating&pause=1", WALL),
    ("projector-boards.png", f"{BIG}/projector?view=boards&pause=1", WALL),
    ("projector-small.png", "/tournaments/spring/projector?pause=1", WALL),
    ("projector-tablet.png", f"{BIG}/projector?view=seating&pause=1", TABLET),
    ("seating-sheet.png", "/tournaments/spring/sheet/1", (900, 1100)),
]


def referee(*args: str, input: str | None = None) -> str:
    return subprocess.run(
        [sys.executable, "-m", "referee", *args], check=True, capture_output=True, text=True, input=input
    ).stdout


def tournament(db: str, tmp: str) -> None:
    """A 14-player tournament, round 1 seated and posted, one round played at each table."""
    import json

    referee("tournament", "new", "spring", "--name", "Spring Open", "--date", "2026-11-21", "--rounds", "3", "--db", db)
    players = players_csv(Path(tmp) / "players.csv", PLAYERS)
    referee("tournament", "players", "add", "spring", "--csv", players, "--db", db)
    referee("tournament", "seat", "spring", "1", "--db", db)
    referee("tournament", "post", "spring", "1", "--db", db)
    referee("tournament", "announce", "spring", "Round 1 has begun: find your table below", "--db", db)
    referee("tournament", "clock", "spring", "--minutes", "150", "--db", db)
    for table in json.loads(referee("tournament", "seating", "spring", "1", "--json", "--db", db)):
        clans = [s["clan"] for s in table["seats"]]
        sheet = "".join(f"{c}: army 2 @ {c}_capital\n" for c in clans)
        setup = setup_sheet(db, table["game"], random.Random(table["table"]))  # the starting control tokens (p.4)
        referee("setup", table["game"], "-", "--db", db, input=setup)
        referee("round", table["game"], "-", "--yes", "--db", db, input=sheet)


CHARTS = [  # file, path, the section photographed, width
    ("honor-race.png", "/games/demo-five-player-1", "race", 1000),
    ("honor-race-phone.png", "/games/demo-five-player-1", "race", 375),
    ("points-race.png", "/tournaments/league", "points-race", 1000),
]


def league(db: str, tmp: str) -> None:
    """A 20-player tournament over 3 rounds, every table's result entered by the judge: its points picture."""
    import json

    rng = random.Random(24)
    names = [*PLAYERS, "Oz Amari", "Pia Berg", "Quin Castellanos", "Rae Diaz", "Sol Eto", "Tam Fujiwara"]
    referee("tournament", "new", "league", "--name", "Winter League", "--rounds", "3", "--db", db)
    referee("tournament", "players", "add", "league", "--csv", players_csv(Path(tmp) / "league.csv", names), "--db", db)
    for r in ("1", "2", "3"):
        for table in json.loads(referee("tournament", "seat", "league", r, "--json", "--db", db))["tables"]:
            honors = [f"{s['name']}={rng.randint(5, 45)}" for s in table["seats"]]
            referee("tournament", "result", "league", r, str(table["table"]), *honors, "--reason", "paper", "--db", db)
        referee("tournament", "post", "league", r, "--db", db)
        referee("tournament", "close", "league", r, "--db", db)


def seat_links(tmp: str, browser) -> None:
    """The printed seating with each seat's phone link (`tournament seat --links`), as printed: A4's width."""
    db = str(Path(tmp) / "links.db")
    referee("tournament", "new", "autumn", "--name", "Autumn Open", "--rounds", "3", "--db", db)
    referee(
        "tournament", "players", "add", "autumn", "--csv", players_csv(Path(tmp) / "p9.csv", PLAYERS[:9]), "--db", db
    )
    sheet = Path(tmp) / "links.html"
    referee(
        "tournament", "seat", "autumn", "1", "--links", "https://192.168.1.20:8000", "--sheet", str(sheet), "--db", db
    )
    page = browser.new_page(viewport={"width": 760, "height": 1000})
    page.emulate_media(media="print")
    page.goto(sheet.as_uri())
    page.screenshot(path=str(OUT / "seating-links-sheet.png"), full_page=True)
    page.close()


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "games.db")
        subprocess.run([sys.executable, "-m", "referee", "demo", "--db", db], check=True, capture_output=True)
        tournament(db, tmp)
        league(db, tmp)
        made = big_tournament.build(db, Path(tmp))
        subprocess.run(
            [
                sys.executable,
                "-m",
                "referee",
                "export",
                "demo-five-player-1",
                "--format",
                "html",
                "-o",
                str(Path(tmp) / "game.html"),
                "--db",
                db,
            ],
            check=True,
        )
        fill = {"called": made["called"][-1], "judged": made["judged"][-1], "player": made["player"]}
        with serve(db) as served, sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
            for name, path, (w, h) in SHOTS:
                page = browser.new_page(viewport={"width": w, "height": h})
                page.goto(f"{served.url}{path.format(**fill)}")
                page.screenshot(path=str(OUT / name))
                page.close()
            for name, path, section, w in CHARTS:
                page = browser.new_page(viewport={"width": w, "height": 900})
                page.goto(f"{served.url}{path}")
                page.locator(f"section[aria-labelledby={section!r}]").screenshot(path=str(OUT / name))
                page.close()
            page = browser.new_page(viewport={"width": 1000, "height": 1300})
            page.goto((Path(tmp) / "game.html").as_uri() + "#round-3")
            page.screenshot(path=str(OUT / "record-round.png"))
            seat_links(tmp, browser)
            browser.close()


if __name__ == "__main__":
    main()
