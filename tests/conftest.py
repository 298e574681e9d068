"""Shared pytest options, fixtures and the end-of-run summary.

- ``--regen-golden`` rewrites the golden replay transcripts (tests/golden/).
- ``pg_server``, ``pg_url`` and ``any_db`` (tests/pg_server.py): a throwaway PostgreSQL server for the
  session (pytest-postgresql), and a fresh database per test on either backend.
- The "reliability" summary prints the counts of the concurrency, crash and fuzz tests.
- No test writes outside its temporary folders (tests/isolation.py): the run, and every process it starts,
  has a temporary HOME; the run fails, naming the path, when anything new appears there or at the top of /.
- ``slow``: the test files that start processes, databases, servers or browsers, or run long property
  searches, are marked here (``SLOW``), in one place: ``pytest -m "not slow"`` runs the pure, fast tests
  (the engine, the notations, the casebook, the fold, the tournament rules) in under a minute. A new test
  file is fast unless it is named here.
"""

import os

import pytest
import tally
from hypothesis import settings
from isolation import Watch
from pg_server import any_db, pg_server, pg_url, summary_lines  # noqa: F401  (fixtures)

WATCH: Watch | None = None

# No per-example deadline anywhere: on a loaded two-core machine a slow example is not a failure, and a
# failing example is printed whole, so it can be pinned as an @example.
settings.register_profile("referee", deadline=None, print_blob=True)
settings.load_profile("referee")


def pytest_addoption(parser):
    parser.addoption(
        "--regen-golden",
        action="store_true",
        default=False,
        help="rewrite tests/golden/*.txt from the current engine instead of comparing (review the diff)",
    )


SLOW = frozenset(
    {
        "test_bench.py",
        "test_board_svg.py",
        "test_browser.py",
        "test_cards_game_cli.py",
        "test_cards_game_log.py",
        "test_cli.py",
        "test_cli_games.py",
        "test_charts.py",
        "test_cli_golden.py",
        "test_code_checks.py",
        "test_concurrency.py",
        "test_crash.py",
        "test_engine_properties.py",
        "test_export_html.py",
        "test_fuzz.py",
        "test_game_end.py",
        "test_hardening.py",
        "test_log_store.py",
        "test_moderator_paths.py",
        "test_one_answer.py",
        "test_pool_cli.py",
        "test_readme_walkthrough.py",
        "test_round_identity.py",
        "test_round_service.py",
        "test_rules_options_cli.py",
        "test_rulings.py",
        "test_seat_links.py",
        "test_store_kinds.py",
        "test_table_session.py",
        "test_tournament_cli.py",
        "test_tournament_fuzz.py",
        "test_tournament_store.py",
        "test_verify_path.py",
        "test_web.py",
        "test_web_guard.py",
        "test_web_tournament.py",
    }
)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "slow: starts processes, databases, servers or browsers, or searches long (tests/conftest.py)"
    )


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in SLOW:
            item.add_marker(pytest.mark.slow)


RELIABILITY = {
    "test_log_store.py": "store (both backends)",
    "test_concurrency.py": "concurrency",
    "test_crash.py": "crash",
    "test_fuzz.py": "fuzz",
}


def pytest_terminal_summary(terminalreporter):
    lines = summary_lines() + tally.LINES + tally.fuzz_lines()
    outcomes = {}
    for status in ("passed", "failed", "error", "skipped", "xfailed", "xpassed"):
        for report in terminalreporter.stats.get(status, []):
            module = getattr(report, "nodeid", "").split("::")[0].rsplit("/", 1)[-1]
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
    strays = getattr(terminalreporter.config, "stray_writes", None)
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
    # no organiser key unless a test makes one (tests/test_signing.py): games close unsigned, whatever the
    # machine's ~/.referee holds
    os.environ["REFEREE_KEY_FILE"] = str(WATCH.session_tmp / "no-organiser-key")


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    if WATCH is None:
        return
    strays = WATCH.strays()
    WATCH.close()
    if strays:
        session.config.stray_writes = strays
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
