"""How many examples a hostile-input property tries: the count written beside it under the ``ci`` profile (the
suite's), fifty times as many under ``deep`` (``--hypothesis-profile=deep``: ``bench/fuzz.py``), the profiles
registered in tests/conftest.py. No per-example deadline (a slow example on a loaded machine is no failure), and
no health check stops a search: these properties build large inputs on purpose."""

from __future__ import annotations

from hypothesis import HealthCheck, settings

CI_EXAMPLES = 100  # hypothesis's own default, the ci profile's


def examples(n: int) -> settings:
    """``n`` examples under the ci profile; as many times more as the loaded profile asks beyond its 100."""
    scale = settings.default.max_examples / CI_EXAMPLES
    return settings(deadline=None, suppress_health_check=list(HealthCheck), max_examples=max(1, round(n * scale)))
