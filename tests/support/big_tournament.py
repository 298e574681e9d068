"""A 200-player tournament for the venue pages at the venue's scale: round 1 played and closed (most tables
played to the end, one game called when time ran out, one table entered by the head judge), round 2 posted
and under way (tables at different rounds of play, one called, one entered by the judge), the clock and an
announcement set. Built through the organiser's commands; the tables' legal random rounds recorded through
the game log's OpenGame (as the round commands record them, without a process each), seeded. Shared by
the browser tests and docs/screenshots.py."""

from __future__ import annotations

import json
import random
from pathlib import Path

from referee.log import OpenGame, Store
from tests.support.serving import EVIL, cli
from tests.support.tournament_play import random_sheet, setup_sheet

TID = "autumn"
FIRST = [
    "Ann", "Bo", "Cy", "Di", "Ed", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu", "Mo", "Nia", "Oda", "Pia",
    "Quinn", "Rui", "Sol", "Tomasz", "Uma", "Vik", "Wen", "Xavier", "Yuki",
]  # fmt: skip
LAST = ["Lee", "Chen", "Park", "Ross", "Moss", "Wu", "Hart", "Ito", "Kane", "Dunn", "Lund", "Mori", "Sato", "Vos"]
LONG = "Maximiliana Oyelaran-Whitcombe"  # the longest name: it must never break inside itself


def names(n: int) -> list[str]:
    """``n`` distinct names: the longest one, one written as markup, then first and last names in turn."""
    pairs = [f"{f} {last}" for last in LAST for f in FIRST]
    random.Random(7).shuffle(pairs)
    return [LONG, EVIL, *pairs[: n - 2]]


def play(db: str, game: str, rounds: int, rng: random.Random) -> None:
    with Store(db) as store:
        table = OpenGame(store, game)
        sheet = setup_sheet(db, game, rng)
        if sheet:
            table.record_setup(sheet)
        for _ in range(rounds - len(table.fold.rounds)):
            table.record_round(random_sheet(table.state, rng))


def build(db: str, folder: Path, n: int = 200) -> dict:
    """The tournament in ``db``; what the pages show of it: the called and judged tables' games, a player."""
    rng = random.Random(24)
    cli(db, "tournament", "new", TID, "--name", "Autumn Championship", "--date", "2026-11-28", "--rounds", "3")
    roster = folder / "players.csv"
    roster.write_text("name,club\n" + "".join(f'"{x}",Club {i % 9}\n' for i, x in enumerate(names(n))))
    cli(db, "tournament", "players", "add", TID, "--csv", str(roster))
    out: dict = {"called": [], "judged": []}
    for r in (1, 2):
        tables = json.loads(cli(db, "tournament", "seat", TID, str(r), "--json"))["tables"]
        cli(db, "tournament", "post", TID, str(r))
        for i, t in enumerate(tables):
            if i == 2:  # time ran out after round 2
                play(db, t["game"], 2, rng)
                cli(db, "tournament", "call", TID, t["game"], "--reason", "time ran out")
                out["called"].append(t["game"])
            elif i == 4:  # played on paper: the head judge enters it
                honors = [f"{s['name']}={10 + k}" for k, s in enumerate(t["seats"])]
                cli(db, "tournament", "result", TID, str(r), str(t["table"]), *honors, "--reason", "played on paper")
                out["judged"].append(t["game"])
            else:
                play(db, t["game"], 5 if r == 1 else 1 + i % 4, rng)
        if r == 1:
            cli(db, "tournament", "close", TID, "1")
    cli(db, "tournament", "announce", TID, "Round 2 has begun: find your table on the screen or your phone")
    cli(db, "tournament", "clock", TID, "--minutes", "150")
    listed = json.loads(cli(db, "tournament", "players", "list", TID, "--json"))
    out["player"] = next(p["player"] for p in listed if p["name"] == LONG)
    return out
