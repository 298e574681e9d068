"""Shared pytest options, fixtures, the run's processes and the end-of-run summary.

- ``--regen-golden`` rewrites the golden replay transcripts (tests/battle/golden/).
- The run is spread over one process a processor (pytest-xdist, ``-n auto`` in pyproject.toml; ``-n 0`` runs
  it in this process alone). Each process has its own temporary folders, HOME and databases; the run has one
  PostgreSQL server (tests/support/pg_server.py: started by the first process that needs it, stopped at the end) and
  each process one chromium (tests/support/browsing.py: a fresh context a test).
- ``pg_server``, ``pg_url`` and ``any_db`` (tests/support/pg_server.py): the run's PostgreSQL server, and a fresh
  database per test on either backend. ``chromium`` and ``browser`` (tests/support/browsing.py).
- Hypothesis profiles: ``ci`` (the default: the example counts written beside each property) and ``deep``
  (``--hypothesis-profile=deep``: fifty times as many, or $REFEREE_FUZZ_SCALE times, for the long fuzzing runs
  of ``bench/fuzz.py``; tests/support/fuzzing.py scales the hostile-input properties by it).
- The "reliability" summary prints the counts of the store, concurrency, crash and fuzz tests, added up over
  the run's processes.
- No test writes outside its temporary folders (tests/support/isolation.py): every process of the run, and every
  process it starts, has a temporary HOME; the run fails, naming the path, when anything new appears there or
  at the top of /.
- ``slow``: what starts processes, servers or browsers, uses PostgreSQL, or searches long is marked here
  (``SLOW``, ``is_slow``), in one place: ``pytest -m "not slow"`` runs the rest, every command in this
  process on SQLite, in about a minute. A test outside that list that takes more than 20 seconds fails, naming
  itself (tests/support/timing.py): it belongs in the list, or should be made faster.
"""

from __future__ import annotations

import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest
from hypothesis import settings

from tests.support import pg_server as postgres, tally
from tests.support.browsing import browser, chromium  # noqa: F401  (fixtures)
from tests.support.isolation import Watch
from tests.support.pg_server import any_db, pg_server, pg_url  # noqa: F401  (fixtures)
from tests.support.timing import pytest_runtest_makereport, pytest_runtest_protocol  # noqa: F401  (the fast tests' limit)

# Compiled modules are kept (__pycache__, ignored by git) even where PYTHONDONTWRITEBYTECODE is set, as on some
# CI images: otherwise every process of the run, and every `python -m referee` a test starts, compiles the
# package and rewrites the test modules' asserts again (about 4 s a process).
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

WATCH: Watch | None = None
RUN_KEY = "referee_run"  # the run's shared folder, handed to every worker

# No per-example deadline anywhere: on a loaded two-core machine a slow example is not a failure, and a
# failing example is printed whole, so it can be pinned as an @example.
settings.register_profile("ci", deadline=None, print_blob=True)
settings.register_profile(
    "deep", deadline=None, print_blob=True, max_examples=round(100 * float(os.environ.get("REFEREE_FUZZ_SCALE", "50")))
)
settings.load_profile("ci")

# The slow tests, in one place: a test file named here (by its path under tests/) is slow whole;
# "room/file.py::name" marks the tests whose name starts so. Beside them, is_slow marks every test on PostgreSQL
# and every browser test.
SLOW = frozenset(
    {
        "battle/test_game_commands.py::test_locked_database",
        "battle/test_table_session.py",  # `referee table` typed into, a line at a time
        "cli/test_command_line.py::test_missing_file_is_a_clear_error",  # the entry point as its own process
        "cli/test_command_line.py::test_refused_entry_is_one_line",
        "cli/test_command_line.py::test_the_tournament_commands_are_built_only_when_named",
        "cli/test_command_line.py::test_unreadable_line_names_line",
        "cli/test_command_line.py::test_usage_error_exits_2",
        "cli/test_hostile_input.py::test_a_file_over_the_size_limit",  # a process's memory measured
        "cli/test_hostile_input.py::test_a_long_header_under_the_limit",
        "cli/test_hostile_input.py::test_closed_standard_input",
        "cli/test_odd_digits.py::test_odd_digits_in_the_phone_forms",  # a real `referee serve --entry`
        "project/test_benchmarks.py",  # each benchmark script, run as a user runs it
        "project/test_code_checks.py",  # ruff, mypy and lint-imports over the tree
        "project/test_isolation.py::test_the_tests_and_their_processes_have_a_temporary_home",
        "project/test_isolation.py::test_a_fast_test_over_the_limit",  # a small pytest run of its own
        "records/test_key_files.py::test_a_huge_file_given_as_a_key",  # a process's memory measured
        "records/test_signing.py::test_doctor_in",  # doctor's processes
        "reliability/test_concurrency.py",  # 8 and 16 processes racing
        "reliability/test_crash.py",  # writers killed
        "reliability/test_fuzz_readers_and_commands.py",  # every reader, notation and command fed random input
        "reliability/test_fuzz_champions.py::test_any_champions_command_line",
        "reliability/test_fuzz_tournament_commands.py::test_tournament_commands_never_crash",
        "reliability/test_load_phone_entry.py",  # the load test at its smallest size
        "store/test_event_store.py::test_two_processes",
        "tournament/test_seating_sheets_and_links.py::test_each_seat_gets_a_link",
        "tournament/test_table_results.py::test_two_judges_at_once",  # two commands racing
        "web/test_card_game_pages_browser.py",
        "web/test_champions_pages_browser.py",
        "web/test_swiss_pages_browser.py",
        "web/test_charts.py",
        "web/test_pages.py::test_commands_without_a_database_do_not_load",  # what a new process imports
        "web/test_pages.py::test_help_and_one_shot_commands_do_not_import",
        "web/test_pages.py::test_serve_",  # `referee serve` as its own process
        "web/test_phone_entry.py::test_server_killed_mid_entry",  # `referee serve` killed
        "web/test_phone_entry_browser.py",
        "web/test_phone_entry_scale.py",  # serve with two workers
        "web/test_serve_guard.py",  # a real `referee serve` over HTTP
        "web/test_serve_tls.py",  # `referee serve` over TLS, a listener between
        "web/test_venue_pages_browser.py",
    }
)
TESTS = Path(__file__).resolve().parent


def under_tests(path: Path) -> str:
    """A test file's path under tests/ ("room/test_x.py"), as the SLOW list names it."""
    try:
        return path.resolve().relative_to(TESTS).as_posix()
    except ValueError:
        return path.name


def is_slow(item: pytest.Item) -> bool:
    name = under_tests(item.path)
    if name in SLOW or any(f"{name}::{item.name}".startswith(entry) for entry in SLOW if "::" in entry):
        return True
    uses = set(getattr(item, "fixturenames", ()))
    if uses & {"pg_url", "pg_server", "chromium", "browser"}:
        return True
    callspec = getattr(item, "callspec", None)
    return "any_db" in uses and callspec is not None and callspec.params.get("any_db") == "postgresql"


def pytest_addoption(parser):
    parser.addoption(
        "--regen-golden",
        action="store_true",
        default=False,
        help="rewrite tests/battle/golden/*.txt from the current engine instead of comparing (review the diff)",
    )


def _controller(config) -> bool:
    return not hasattr(config, "workerinput")


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "slow: starts processes, servers or browsers, uses PostgreSQL, or searches long (tests/conftest.py)",
    )
    if _controller(config):
        config.referee_run = Path(tempfile.mkdtemp(prefix="referee-run-"))
        config.referee_run.chmod(0o755)  # a database server run as another user enters it
        config.referee_outputs = []
        config.referee_pg = postgres.run_server(config.referee_run, owner=True)
        config.referee_pg.watch()
    else:
        config.referee_run = Path(config.workerinput[RUN_KEY])
        postgres.run_server(config.referee_run, owner=False)


@pytest.hookimpl(optionalhook=True)
def pytest_configure_node(node):
    """pytest-xdist: each worker is told the run's shared folder."""
    node.workerinput[RUN_KEY] = str(node.config.referee_run)


@pytest.hookimpl(optionalhook=True)
def pytest_testnodedown(node, error):
    """pytest-xdist: what a worker saw, for the run's summary."""
    said = getattr(node, "workeroutput", {}).get("referee")
    if said:
        node.config.referee_outputs.append(said)


def pytest_unconfigure(config):
    if _controller(config):
        config.referee_pg.stop()
        shutil.rmtree(config.referee_run, ignore_errors=True)


def pytest_collection_modifyitems(config, items):
    """Mark the slow tests, and hand them out first: the run's processes then end on short tests, together,
    rather than one of them alone on a browser test while the other waits (every process sorts alike)."""
    for item in items:
        if is_slow(item):
            item.add_marker(pytest.mark.slow)
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


RELIABILITY = {
    "store/test_event_store.py": "store (both backends)",
    "reliability/test_concurrency.py": "concurrency",
    "reliability/test_crash.py": "crash",
    "reliability/test_fuzz_readers_and_commands.py": "fuzz",
}


def _said(config) -> dict:
    """What this process saw: its strays, its counts and its share of the PostgreSQL server."""
    return {
        "strays": getattr(config, "stray_writes", []),
        "tally": tally.state(),
        "pg": postgres.status(),
    }


def pytest_terminal_summary(terminalreporter):
    config = terminalreporter.config
    seen = [_said(config), *getattr(config, "referee_outputs", [])]
    lines = postgres.summary_lines([s["pg"] for s in seen]) + tally.lines([s["tally"] for s in seen])
    outcomes = {}
    for status in ("passed", "failed", "error", "skipped", "xfailed", "xpassed"):
        for report in terminalreporter.stats.get(status, []):
            module = getattr(report, "nodeid", "").split("::")[0].removeprefix("tests/")
            if module in RELIABILITY and getattr(report, "when", "call") in ("call", "setup"):
                if status == "passed" and report.when != "call":
                    continue
                counts = outcomes.setdefault(module, {})
                counts[status] = counts.get(status, 0) + 1
    for module, name in RELIABILITY.items():
        if module in outcomes:
            counts = outcomes[module]
            lines.append(
                f"{name} tests: "
                + ", ".join(f"{n} {k}" for k, n in counts.items())
                + ("" if "failed" in counts or "error" in counts else ", 0 failed")
            )
    strays = [path for s in seen for path in s["strays"]]
    if strays:
        terminalreporter.write_sep("!", "tests wrote outside their temporary folders")
        for path in strays:
            terminalreporter.write_line(f"error: {path} was created by the test run", red=True)
    if lines:
        terminalreporter.write_sep("-", "reliability")
        for line in lines:
            terminalreporter.write_line(line)


def pytest_sessionstart(session):
    global WATCH
    WATCH = Watch()
    # no organiser key unless a test makes one (tests/records/test_signing.py): games close unsigned, whatever the
    # machine's ~/.referee holds
    os.environ["REFEREE_KEY_FILE"] = str(WATCH.session_tmp / "no-organiser-key")


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    config = session.config
    if WATCH is not None:
        strays = WATCH.strays()
        WATCH.close()
        if strays:
            config.stray_writes = strays
    if not _controller(config):
        config.workeroutput["referee"] = _said(config)
        return
    if any(s["strays"] for s in [_said(config), *config.referee_outputs]):
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A temporary HOME for an organiser's commands, with no key file, passphrase or database named by the
    environment (a test file may define its own ``home``)."""
    folder = tmp_path / "home"
    folder.mkdir()
    monkeypatch.setenv("HOME", str(folder))
    for name in ("REFEREE_KEY_FILE", "REFEREE_KEY_PASSPHRASE", "REFEREE_DB"):
        monkeypatch.delenv(name, raising=False)
    return folder
