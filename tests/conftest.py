"""Shared pytest options, fixtures and the end-of-run summary.

- ``--regen-golden`` rewrites the golden replay transcripts (tests/golden/).
- ``pg_server``, ``pg_url`` and ``any_db`` (tests/pg_server.py): a throwaway PostgreSQL server for the
  session (pytest-postgresql), and a fresh database per test on either backend.
- The "reliability" summary prints the counts of the concurrency, crash and fuzz tests.
- No test writes outside its temporary folders (tests/isolation.py): the run fails, naming the path.
"""

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


@pytest.hookimpl(trylast=True)
def pytest_sessionfinish(session, exitstatus):
    if WATCH is None:
        return
    strays = WATCH.strays()
    WATCH.close()
    if strays:
        session.config.stray_writes = strays
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
