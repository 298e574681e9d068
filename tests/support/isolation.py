"""The session-wide check that no test wrote outside its temporary folders.

At the start of the session every test's temporary files are pointed into one folder of the session's
own (``TMPDIR`` for the tests and every process they start; pytest's ``tmp_path`` is separate and
also temporary), and so is the home folder: ``HOME`` is an empty folder of the session's, for the tests
and every process they start, so that nothing else on the machine writing to the real home folder can
fail the run, and a write of the referee's into a home folder is seen. At the end, the places a stray
write would land are compared with what they held before: the top level of ``/`` and of the session's
home folder (where the browser and its tools may keep their own caches, ``TOOL_HOME``, none of them the
referee's), and the project's tree outside its ignored folders (``saves/``, ``.venv``, caches). Anything
new there fails the run, naming the path.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# The project's own folders that tests and tools may write to (all ignored by git).
ALLOWED_IN_PROJECT = {
    ".venv",
    ".git",
    ".pytest_cache",
    ".hypothesis",
    ".mypy_cache",
    ".ruff_cache",
    "saves",
    "__pycache__",
    "build",
    "referee.egg-info",
}


# What third-party tools make in a home folder (chromium, fontconfig, playwright...): not the referee's,
# unless an entry inside them names it.
TOOL_HOME = {".cache", ".config", ".local", ".pki", ".fontconfig", ".mozilla"}


def _top_level(folder: Path) -> set[str]:
    try:
        return {entry.name for entry in os.scandir(folder)}
    except OSError:
        return set()


def _project_files() -> set[str]:
    """The project's files that git does not ignore (tracked or not)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT,
            capture_output=True,
            text=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):  # not a git checkout: walk it
        out = set()
        for folder, dirs, files in os.walk(ROOT):
            dirs[:] = [d for d in dirs if d not in ALLOWED_IN_PROJECT and not d.endswith(".egg-info")]
            out.update(str(Path(folder, f).relative_to(ROOT)) for f in files)
        return out
    return {line for line in listed.splitlines() if line.split("/", 1)[0] not in ALLOWED_IN_PROJECT}


class Watch:
    """What the watched places held at the start of the session."""

    def __init__(self) -> None:
        self.session_tmp = Path(tempfile.mkdtemp(prefix="referee-tests-"))
        os.chmod(self.session_tmp, 0o755)  # a throwaway database server run as another user can enter it
        self._old_tmpdir = os.environ.get("TMPDIR")
        os.environ["TMPDIR"] = str(self.session_tmp)
        tempfile.tempdir = str(self.session_tmp)
        self.home = self.session_tmp / "home"
        self.home.mkdir()
        self._old_home = os.environ.get("HOME")
        os.environ["HOME"] = str(self.home)  # Path.home() and every process started: the session's own
        self.places = {Path("/"): _top_level(Path("/")), self.home: set()}
        self.project = _project_files()

    def strays(self) -> list[str]:
        """Paths created outside the temporary folders since the start."""
        found = [
            str(place / name)
            for place, before in self.places.items()
            for name in sorted(_top_level(place) - before)
            if not (place == self.home and name in TOOL_HOME)
        ]
        for tool in sorted(TOOL_HOME):  # the tools' folders: only an entry naming the referee is a stray
            found += [str(self.home / tool / n) for n in sorted(_top_level(self.home / tool)) if "referee" in n.lower()]
        found += [str(ROOT / name) for name in sorted(_project_files() - self.project)]
        return found

    def close(self) -> None:
        if self._old_home is None:
            os.environ.pop("HOME", None)
        else:
            os.environ["HOME"] = self._old_home
        tempfile.tempdir = None
        if self._old_tmpdir is None:
            os.environ.pop("TMPDIR", None)
        else:
            os.environ["TMPDIR"] = self._old_tmpdir
        shutil.rmtree(self.session_tmp, ignore_errors=True)
