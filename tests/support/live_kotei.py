"""The manual's whole Kotei (docs/l5r-ccg/organiser.md: 64 players, 6 Swiss rounds, a top-4 cut; two late
players before round 2, round 2 paired again, a drop and a reinstatement, a swap by hand), every command as
printed: its commands read from the manual, and the database they make (built once a process:
tests/support/databases.py), for the tests of the commands, the pages and the browser."""

from __future__ import annotations

import os
import shlex
import shutil
from collections.abc import Callable
from pathlib import Path

from tests.support.entry_point import Ran, run_in_process

ROOT = Path(__file__).resolve().parent.parent.parent
TID = "kotei"


PAGE = "docs/l5r-ccg/organiser.md"


def commands() -> list[str]:
    """The manual block's commands, in order, each without its comment."""
    from tests.support import manual

    return manual.commands(PAGE, "A whole Kotei, as the organiser types it")


def run(folder: Path, db: str | None = None, after: Callable[[str, Ran], None] | None = None) -> list[tuple]:
    """Every command of the block, by the real entry point, in ``folder`` holding a copy of examples/ (its own
    HOME), on ``db`` (default: the folder's saves/referee.db, as the manual runs it); ``after(command, ran)``
    is called after each. Each command must succeed; the list of (command, what it printed)."""
    shutil.copytree(ROOT / "examples", folder / "examples", dirs_exist_ok=True)
    env = {**os.environ, "COLUMNS": "120", "HOME": str(folder)}
    env.pop("REFEREE_DB", None)
    if db is not None:
        env["REFEREE_DB"] = db
    said = []
    for command in commands():
        done = run_in_process([*shlex.split(command)[1:]], cwd=folder, env=env)
        assert done.returncode == 0 and "Traceback" not in done.stderr, (command, done.stdout[-1500:], done.stderr)
        said.append((command, done.stdout, done.stderr))
        if after is not None:
            after(command, done)
    return said


def build(db: str) -> None:
    """The manual's Kotei played into the database ``db``."""
    folder = Path(db).parent / "readme-kotei"
    folder.mkdir(exist_ok=True)
    run(folder, db)


def played(to: str | Path) -> str:
    """A copy of the manual's Kotei at ``to`` (built once a process)."""
    from tests.support import databases

    return databases.copy_of("readme-kotei", to, build)
