"""The manual's walkthrough of a whole game (docs/battle-for-rokugan/moderator.md): every command of the block,
exactly as printed, run under the command's real error boundary in a fresh folder (a copy of examples/), typing at
the prompts what its comments say."""

import json
import os
import re
import shlex
import shutil
from pathlib import Path

from tests.support import manual
from tests.support.entry_point import run_in_process

ROOT = Path(__file__).parents[2]
TYPED = {"seal friday-t3 crab": "reclaiming_lost_lands\n", "seal friday-t3 crane": "way_of_the_sail\n"}


def walkthrough() -> list[str]:
    return manual.commands("docs/battle-for-rokugan/moderator.md", "A whole game, as the moderator types it")


def test_every_command_of_the_walkthrough_runs_as_printed(tmp_path):
    commands = walkthrough()
    assert {c.split()[1] for c in commands} >= {
        "new",
        "setup",
        "seal",
        "round",
        "event",
        "retract",
        "correct",
        "score",
        "reveal",
        "replay",
        "verify",
        "export",
        "games",
    }
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    found: dict[str, str] = {}  # the placeholders, filled in from what the commands printed
    outputs = []
    for command in commands:
        args = shlex.split(command)[1:]
        args = [found.get(a, a) for a in args]
        typed = TYPED.get(command.removeprefix("referee "))
        result = run_in_process([*args], stdin=typed, cwd=tmp_path, env={**os.environ, "COLUMNS": "120"})
        assert result.returncode == 0, (command, result.stdout[-2000:], result.stderr)
        assert "Traceback" not in result.stderr
        outputs.append(result.stdout)
        if args[0] == "seal":
            found[f"{args[2].upper()}-CODE"] = re.search(r"Reveal code: (\S+)", result.stdout).group(1)
        if args[0] == "round" and "round3.txt" in command:
            found["ROUND-3-SEAL"] = re.findall(r"seal (\w{4}(?:-\w{4}){3})", result.stdout)[-1]
    scores = [out for c, out in zip(commands, outputs, strict=True) if c.startswith("referee score")]
    assert "provisional" in scores[0] and "2 objectives still sealed" in scores[0] and "Winner:" not in scores[0]
    assert "Winner:" in scores[1] and "crane (Doji Kenji)" in scores[1]
    retracted = next(out for c, out in zip(commands, outputs, strict=True) if c.startswith("referee retract"))
    assert "remove the peace token from lion_capital" in retracted
    record = (tmp_path / "friday-t3.txt").read_text()
    assert record.rstrip().splitlines()[-1].startswith("result: ")
    listed = run_in_process(["games", "--json"], cwd=tmp_path)
    assert json.loads(listed.stdout)[0]["state"].startswith("finished: ")
