"""Counts the reliability tests report at the end of the run (processes, trials, examples, failures).

A test calls ``note("...")``; ``conftest.py`` prints every line in a "reliability" section of the
terminal summary, so that the figures show in CI output whatever pytest's capture settings are.
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


def fuzz_lines() -> list[str]:
    if not CALLS:
        return []
    lines = [f"fuzz: {sum(CALLS.values())} examples in {len(CALLS)} targets"]
    for name, n in sorted(CALLS.items()):
        ends = OUTCOMES.get(name)
        detail = f" ({', '.join(f'{k}: {v}' for k, v in sorted(ends.items()))})" if ends else ""
        lines.append(f"  {name}: {n}{detail}")
    return lines
