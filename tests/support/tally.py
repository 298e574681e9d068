"""Counts the reliability tests report at the end of the run (processes, trials, examples, failures).

A test calls ``note("...")``; ``conftest.py`` prints every line in a "reliability" section of the
terminal summary, so that the figures show in CI output whatever pytest's capture settings are. Each process
of the run (pytest-xdist's workers) keeps its own counts; the run's controller adds them up (``lines``).
"""

from __future__ import annotations

from collections import Counter

LINES: list[str] = []
CALLS: Counter[str] = Counter()  # fuzz examples run, by target
OUTCOMES: dict[str, Counter[str]] = {}  # by target: how the examples ended (exit 0, exit 1, ...)


def note(line: str) -> None:
    LINES.append(line)


def count(name: str) -> int:
    """One more example of the fuzz target ``name``; returns the running count."""
    CALLS[name] += 1
    return CALLS[name]


def outcome(name: str, label: str) -> None:
    OUTCOMES.setdefault(name, Counter())[label] += 1


def state() -> dict:
    """This process's counts, for the run's summary (merged over the run's processes by ``lines``)."""
    return {"lines": list(LINES), "calls": dict(CALLS), "outcomes": {k: dict(v) for k, v in OUTCOMES.items()}}


def lines(states: list[dict]) -> list[str]:
    """The reliability lines of the whole run: every process's notes, and the fuzz examples added up."""
    calls: Counter[str] = Counter()
    outcomes: dict[str, Counter[str]] = {}
    for s in states:
        calls.update(s["calls"])
        for name, ends in s["outcomes"].items():
            outcomes.setdefault(name, Counter()).update(ends)
    said = [line for s in states for line in s["lines"]]
    if not calls:
        return said
    said.append(f"fuzz: {sum(calls.values())} examples in {len(calls)} targets")
    for name, n in sorted(calls.items()):
        ends = outcomes.get(name)
        detail = f" ({', '.join(f'{k}: {v}' for k, v in sorted(ends.items()))})" if ends else ""
        said.append(f"  {name}: {n}{detail}")
    return said
