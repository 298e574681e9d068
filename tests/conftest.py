"""Shared pytest options, fixtures and the end-of-run summary.

- ``--regen-golden`` rewrites the golden replay transcripts (tests/golden/).
- ``pg_server``, ``pg_url`` and ``any_db`` (tests/pg_server.py): a throwaway PostgreSQL server for the
  session, and a fresh database per test on either backend.
- The "reliability" summary prints the counts of the concurrency, crash and fuzz tests.
"""

from pg_server import any_db, pg_server, pg_url, summary_lines  # noqa: F401  (fixtures)
import tally


def pytest_addoption(parser):
    parser.addoption(
        "--regen-golden", action="store_true", default=False,
        help="rewrite tests/golden/*.txt from the current engine instead of comparing (review the diff)",
    )


def pytest_terminal_summary(terminalreporter):
    lines = summary_lines() + tally.LINES + tally.fuzz_lines()
    if lines:
        terminalreporter.write_sep("-", "reliability")
        for line in lines:
            terminalreporter.write_line(line)
