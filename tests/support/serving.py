"""`referee serve` on a loopback port over a database, the headless chromium that reads its pages, and the
players whose names fill a tournament: shared by the web and browser tests and by docs/screenshots.py."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from referee.cli.app import app
from tests.support.entry_point import runner

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("REFEREE_CHROMIUM", "/usr/bin/chromium")  # Debian's chromium; none is downloaded
FLAGS = [  # headless, and nothing fetched from the network by the browser itself
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
EVIL = "<script>alert(1)</script>"  # a name or text that must be shown as text, never run
PLAYERS = [
    "Ann Lee",
    "Bo Chen",
    "Cy Park",
    "Di Ross",
    "Ed Moss",
    "Fay Wu",
    "Gus Hart",
    "Hal Ito",
    "Ivy Kane",
    "Jo Dunn",
    "Kai Lund",
    "Lu Mori",
    "Mo Sato",
    "Nia Vos",
]
START_SECONDS = 30


def cli(db: str, *args: str, input: str | None = None, code: int = 0) -> str:
    """A command as a moderator types it, on ``db``: its output, once its exit code is ``code``."""
    result = runner.invoke(app, [*args, "--db", db], input=input)
    assert result.exit_code == code, result.output
    return result.output


def demo_and_a_game_begun(db: str, event: str) -> None:
    """The demo games, and a game "mid" of crab (whose player's name is markup) and lion, set up by hand."""
    from tests.support import databases

    if "://" in db:
        cli(db, "demo")
    else:
        databases.demo(db)
    cli(
        db,
        "new",
        "mid",
        "--clans",
        "crab,lion",
        "--players",
        f"crab={EVIL},lion=Bo",
        "--event",
        event,
        "--partial-setup",
    )


def players_csv(path: Path, names: list[str]) -> str:
    """A CSV for `referee tournament players add --csv`: the names, in four clubs by turn; its path."""
    path.write_text("name,club\n" + "\n".join(f'"{n}",Club{i % 4}' for i, n in enumerate(names)) + "\n")
    return str(path)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@dataclass
class Served:
    url: str  # http://127.0.0.1:<port>
    port: int
    proc: subprocess.Popen
    out: str = ""  # what the command printed, once it has stopped
    err: str = ""


class NotServing(RuntimeError):
    pass


@contextmanager
def serve(db: str, host: str = "127.0.0.1", *more: str) -> Iterator[Served]:
    """`python -m referee serve` over ``db`` (``more``: further options), once its port takes connections;
    stopped on leaving."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "referee", "serve", "--host", host, "--port", str(port), "--db", db, *more],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    served = Served(f"http://127.0.0.1:{port}", port, proc)
    try:
        deadline = time.monotonic() + START_SECONDS
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    proc.kill()
                    served.out, served.err = proc.communicate(timeout=20)
                    raise NotServing(f"referee serve did not start: {served.err[-2000:]}") from None
                time.sleep(0.2)
        yield served
    finally:
        if proc.returncode is None:  # still running, or stopped and not yet waited for
            proc.terminate()
            served.out, served.err = proc.communicate(timeout=20)
