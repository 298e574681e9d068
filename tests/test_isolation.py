"""The home-folder guard (tests/isolation.py): the run and every process it starts have a temporary HOME of the
session's, not the machine's, and a write into it is found."""

import os
import pwd
import subprocess
import sys
import tempfile
from pathlib import Path

import isolation


def test_the_tests_and_their_processes_have_a_temporary_home():
    home = Path(os.environ["HOME"])
    real = Path(pwd.getpwuid(os.getuid()).pw_dir)
    assert home != real and Path.home() == home
    assert home.is_relative_to(tempfile.gettempdir()) and home.name == "home"
    seen = subprocess.run(
        [sys.executable, "-c", "from pathlib import Path; print(Path.home())"], capture_output=True, text=True
    ).stdout.strip()
    assert seen == str(home)


def test_a_write_into_the_home_folder_is_found(tmp_path, monkeypatch):
    """A second guard, on a home of its own: a new file there is a stray, a tool's cache is not, unless it
    names the referee."""
    monkeypatch.setattr(isolation, "_project_files", lambda: set())
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    watch = isolation.Watch()
    try:
        (watch.home / ".cache").mkdir()
        (watch.home / ".cache" / "fontconfig").mkdir()
        assert watch.strays() == []
        (watch.home / ".referee-settings").write_text("x")
        (watch.home / ".cache" / "referee").mkdir()
        assert watch.strays() == [str(watch.home / ".referee-settings"), str(watch.home / ".cache" / "referee")]
    finally:
        watch.close()
    assert Path(os.environ["HOME"]) != watch.home  # the session's own home is back
