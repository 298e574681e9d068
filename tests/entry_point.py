"""`python -m referee` in a subprocess: the real entry point, with its error boundary, true exit codes, and
standard output and standard error apart."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def referee(
    db: str, *args: str, stdin: str | None = None, columns: int = 200, home: Path | None = None
) -> subprocess.CompletedProcess[str]:
    """``referee ARGS --db DB`` at a terminal ``columns`` wide; ``home``: run there, as its HOME too."""
    env = {**os.environ, "COLUMNS": str(columns)}
    if home is not None:
        env["HOME"] = str(home)
    return subprocess.run(
        [sys.executable, "-m", "referee", *args, "--db", db],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=home or ROOT,
        env=env,
    )
