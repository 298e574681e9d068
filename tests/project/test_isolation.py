"""The home-folder guard (tests/support/isolation.py): the run and every process it starts have a temporary HOME of the
session's, not the machine's, and a write into it is found."""

import os
import pwd
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.support import isolation


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


def test_a_fast_test_over_the_limit_fails_naming_itself_and_a_slow_one_does_not(tmp_path):
    """The fast tests' time limit (tests/support/timing.py), on a small run of its own with a limit of 0.2 s: a test
    that is not marked slow and takes 0.5 s fails at its teardown, naming its time and the list of slow tests; the
    same sleep marked slow, and a quick test, pass."""
    (tmp_path / "test_timed.py").write_text(
        "import time\nimport pytest\n\n"
        "def test_sleeps():\n    time.sleep(0.5)\n\n"
        "@pytest.mark.slow\ndef test_sleeps_marked_slow():\n    time.sleep(0.5)\n\n"
        "def test_quick():\n    pass\n"
    )
    (tmp_path / "pytest.ini").write_text("[pytest]\nmarkers =\n    slow: slow\n")
    env = {**os.environ, "REFEREE_TEST_FAST_LIMIT": "0.2", "PYTHONPATH": str(Path(__file__).parents[2])}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-p",
            "tests.support.timing",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:xdist",
            "-rf",
        ],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert done.returncode == 1, done.stdout
    assert "3 passed, 1 error" in done.stdout, done.stdout  # the call passed; its teardown says it took too long
    assert re.search(r"test_timed\.py::test_sleeps took 0\.\d s, over the 0\.2 s a fast test may take", done.stdout)
    assert "test_sleeps_marked_slow took" not in done.stdout and "test_quick took" not in done.stdout
