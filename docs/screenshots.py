"""Remake the README's screenshots (docs/screenshots/*.png): the demo game served by `referee serve`
on a loopback port, photographed by Debian's chromium at phone and desktop widths.

    .venv/bin/python docs/screenshots.py
"""

import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "docs" / "screenshots"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SHOTS = [  # file, path, width, height
    ("game-desktop.png", "/games/demo-five-player-1", 1280, 1000),
    ("round-phone.png", "/games/demo-five-player-1/rounds/3", 375, 800),
    ("index-desktop.png", "/", 1000, 420),
    ("not-found-phone.png", "/games/no-such-game", 375, 420),
]


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "games.db")
        subprocess.run([sys.executable, "-m", "referee", "demo", "--db", db], check=True, capture_output=True)
        subprocess.run([sys.executable, "-m", "referee", "export", "demo-five-player-1", "--format", "html", "-o",
                        str(Path(tmp) / "game.html"), "--db", db], check=True)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        server = subprocess.Popen([sys.executable, "-m", "referee", "serve", "--port", str(port), "--db", db],
                                  stdout=subprocess.DEVNULL)
        try:
            time.sleep(3)
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
                for name, path, w, h in SHOTS:
                    page = browser.new_page(viewport={"width": w, "height": h})
                    page.goto(f"http://127.0.0.1:{port}{path}")
                    page.screenshot(path=str(OUT / name))
                    page.close()
                page = browser.new_page(viewport={"width": 1000, "height": 1300})
                page.goto((Path(tmp) / "game.html").as_uri() + "#round-3")
                page.screenshot(path=str(OUT / "record-round.png"))
                browser.close()
        finally:
            server.terminate()
            server.wait()


if __name__ == "__main__":
    main()
