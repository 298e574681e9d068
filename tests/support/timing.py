"""The fast tests stay fast: a test not marked ``slow`` that takes more than ``FAST_LIMIT`` seconds of wall time,
setup to teardown, fails at its teardown, naming its time and where the slow tests are listed
(tests/conftest.py, ``SLOW``). ``REFEREE_TEST_FAST_LIMIT`` sets another limit (its own test sets a small one)."""

from __future__ import annotations

import os
import time

import pytest

FAST_LIMIT = float(os.environ.get("REFEREE_TEST_FAST_LIMIT", "20"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    item.referee_started = time.monotonic()
    yield


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if call.when != "teardown" or item.get_closest_marker("slow") or not report.passed:
        return
    took = time.monotonic() - getattr(item, "referee_started", time.monotonic())
    if took > FAST_LIMIT:
        report.outcome = "failed"
        report.longrepr = (
            f"{item.nodeid} took {took:.1f} s, over the {FAST_LIMIT:g} s a fast test may take: make it faster, "
            f"or name it in SLOW (tests/conftest.py)"
        )
