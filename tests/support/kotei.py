"""A 32-player, 5-round Kotei with a top-8 cut, run through the commands as an organiser types them: shared by
the card game's browser test and the Swiss publish test. Round 1's first table plays its match through
`referee ccg` and its result is taken from the match log; a player drops after round 2 (so rounds 3 to 5
have a bye); time is called now and then (a draw); one result is corrected with a reason; the cut is played
to its final. Round 1 is paired from a seed given (``SEED``): the same event every run."""

from __future__ import annotations

import json

from tests.support.serving import cli

TID = "kotei"
NAME = "Kotei <Oslo>"  # markup in a name: shown as text
MATCH = "kotei-r1-t1"
DROPPED = "player-32"
SEED = 2026  # round 1's order: a seed given, so that the run is the same every time


def play(db: str) -> dict[str, str]:
    """The tournament, in the database ``db`` (which may hold other games); what the tests look for."""
    cli(db, "tournament", "swiss", "new", TID, "--name", NAME, "--rounds", "5", "--cut", "8")
    cli(db, "tournament", "swiss", "players", TID, *[f"Player {i:02d}" for i in range(1, 33)])
    corrected = ""
    for rnd in range(1, 9):
        if rnd == 3:
            cli(db, "tournament", "swiss", "drop", TID, DROPPED, "--reason", "went home")
        seed = ["--seed", str(SEED)] if rnd == 1 else []
        tables = json.loads(cli(db, "tournament", "swiss", "pair", TID, *seed, "--json"))["tables"]
        lines = []
        for t in tables:
            a, b = t["players"]
            if rnd == 1 and t["table"] == 1:  # played through `referee ccg` from turn 9: an honor victory for a
                cli(db, "ccg", "new", MATCH, "--turn", "9", "--active", b, "--favor", "none", "--phase", "end",
                    "--player", f"{a}: honor 40, strength 6, gold 5", "--player", f"{b}: honor 6, strength 6, gold 5",
                    "--event", NAME, "--table", "1")  # fmt: skip
                cli(db, "ccg", "pass", MATCH)
                cli(db, "tournament", "swiss", "accept", TID, "1", MATCH)
            elif rnd <= 5 and t["table"] % 7 == 3:  # time called: a draw (C-10)
                lines.append(f"{t['table']}: draw time")
            else:
                lines.append(f"{t['table']}: {min(a, b)} {'military' if rnd % 2 else 'honor'}")
        cli(db, "tournament", "swiss", "result", TID, str(rnd), *lines)
        if rnd == 2:  # the judge corrects a result entered wrongly
            a, b = tables[1]["players"]
            cli(db, "tournament", "swiss", "result", TID, "2", f"2: {max(a, b)} dishonor", "--reason", "swapped")
            corrected = max(a, b)
    return {"match": MATCH, "corrected": corrected}
