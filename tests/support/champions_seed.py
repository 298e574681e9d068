"""Champions of Rokugan records for the page tests, made through the commands as a moderator types them: the
manual's campaign (tests/champions/test_commands.py runs it as printed), a scenario still being played, and one
whose every name is markup (names typed at a table are hostile input)."""

from __future__ import annotations

import shlex
from pathlib import Path

from tests.support import manual
from tests.support.serving import EVIL, ROOT, cli

HOSTILE = '"><img src=x onerror=alert(2)>'  # a second markup name, an attribute breaker
HOSTILE_SETUP = f"""
scenario: {EVIL}
type: battle
difficulty: 0
turns: 6
favor: {EVIL}
champion: {EVIL}, honor 5, destiny 1, player {HOSTILE}
champion: Togashi Mitsu, honor 5, destiny 1, player {EVIL}
champion: Bayushi Aramoro, honor 0, destiny 1, player Eri
companion: {HOSTILE}, honor 2, destiny 0
companion: Minor Clan Bushi 2, honor 2, destiny 0
objective: {EVIL}: {HOSTILE}, revealed, instant, 2
objective: Togashi Mitsu: {EVIL} secret, hidden, end, 3/1
objective: Bayushi Aramoro: Whispers, hidden, instant, 2
"""
HOSTILE_REPORTS = [
    f"{EVIL}: melee {HOSTILE}, outnumbered, wound",
    f"{EVIL}: eliminates {EVIL}, 2 glory, unit of 2",
    f"ally {EVIL}: eliminates {EVIL}, unit of 2",
    f"{EVIL}: completes {HOSTILE}",
    f"Oni {EVIL} attacks Bayushi Aramoro",
    "Bayushi Aramoro: deception",
]
PLAYING_REPORTS = [  # The Fallen Lion's first turn and a start of the second: Aramoro Dishonored, a card face down
    "examples/champions/fallen-lion-turn1.txt",
]


def seed(db: str, folder: Path) -> None:
    """The manual's campaign (``winter-court``, scenarios ``wc-1`` to ``wc-3``), ``playing`` (The Fallen Lion
    after its first turn) and ``hostile`` (every name markup), in ``db``; the example files read from ROOT."""
    for command in manual.commands("docs/champions/moderator.md", "A whole campaign, as the table reports it"):
        args = shlex.split(command)[1:]
        if args[0] == "games" or args[1] in ("export", "publish", "replay", "verify", "show"):
            continue
        cli(db, *[str(ROOT / a) if a.startswith("examples/") else a for a in args])
    cli(db, "champions", "new", "playing", str(ROOT / "examples/champions/fallen-lion.txt"))
    cli(db, "champions", "event", "playing", "--sheet", str(ROOT / "examples/champions/fallen-lion-turn1.txt"))
    sheet = folder / "hostile.txt"
    sheet.write_text(HOSTILE_SETUP)
    cli(db, "champions", "new", "hostile", str(sheet))
    cli(db, "champions", "event", "hostile", *HOSTILE_REPORTS)
