"""Whole games played through the commands, for the tests of scores, the sealed end and retractions.

``play_sealed(db)``: the bundled two-player game, entered as a moderator does it: ``new`` with player
names, ``setup`` (the starting control tokens), each player ``seal``-s a secret objective at the prompt,
five ``round`` sheets; the reveal codes are returned for the end of the game.
"""

from __future__ import annotations

import re

from referee.cli.app import app
from referee.log import golden
from tests.support.entry_point import Ran, runner

GAME = "g"
OBJECTIVES = {"crab": "reclaiming_lost_lands", "crane": "way_of_the_sail"}  # as in the bundled game's setup


def cli(db: str, *args: str, input: str | None = None) -> Ran:
    """The command under its real error boundary: a refusal is exit 1 and one ``error:`` line, a usage error
    exit 2; anything else (a traceback) fails the test."""
    return runner.invoke(app, [*args, "--db", db], input=input)


def ok(db: str, *args: str, input: str | None = None) -> str:
    result = cli(db, *args, input=input)
    assert result.exit_code == 0, result
    return result.output


def golden_setup(name: str = "two-player") -> list[str]:
    """The bundled game's setup facts less the capitals (``new`` places them) and the open objectives."""
    events = golden(name)
    capitals = {f"{c}: control 1 facedown @ {c}_capital" for c in events[0].data["clans"]}
    return [line for line in events[1].data["lines"] if line not in capitals and " objective " not in line]


def golden_sheet(round_no: int, name: str = "two-player") -> str:
    return "\n".join(golden(name)[1 + round_no].data["entries"]) + "\n"


def seal(db: str, clan: str, objective: str, game: str = GAME) -> str:
    out = ok(db, "seal", game, clan, input=objective + "\n")
    return re.search(r"Reveal code: (\S+)", out).group(1)


def play_sealed(db: str, game: str = GAME, rounds: int = 5) -> dict[str, str]:
    """The two-player game with sealed objectives, ``rounds`` rounds played; the reveal codes."""
    ok(db, "new", game, "--clans", "crab,crane", "--players", "crab=Hida Aiko,crane=Doji Kenji")
    ok(db, "setup", game, "-", input="\n".join(golden_setup()) + "\n")
    codes = {clan: seal(db, clan, objective, game) for clan, objective in OBJECTIVES.items()}
    for n in range(1, rounds + 1):
        ok(db, "round", game, "-", "--yes", input=golden_sheet(n))
    return codes


def reveal_all(db: str, codes: dict[str, str], game: str = GAME) -> None:
    for clan, objective in OBJECTIVES.items():
        ok(db, "reveal", game, clan, objective, codes[clan])
