"""Shared pytest options. ``--regen-golden`` rewrites the golden replay transcripts (tests/golden/)."""


def pytest_addoption(parser):
    parser.addoption(
        "--regen-golden", action="store_true", default=False,
        help="rewrite tests/golden/*.txt from the current engine instead of comparing (review the diff)",
    )
