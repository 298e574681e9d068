"""A long fuzzing run of the hostile-input properties, outside the test suite: every reader, notation and command fed
random and mutated input (tests/reliability/test_fuzz_readers_and_commands.py,
tests/reliability/test_fuzz_champions.py, tests/reliability/test_fuzz_tournament_commands.py) under hypothesis's
``deep`` profile, fifty times the suite's examples (over 150,000), spread over one process a processor. It prints
how many examples ran and every traceback found, with the example that found it, and exits 1 when there was one.

    .venv/bin/python bench/fuzz.py                 # the deep run, on SQLite: about 40 minutes on two cores
    .venv/bin/python bench/fuzz.py --scale 200     # longer: 200 times the suite's examples
    .venv/bin/python bench/fuzz.py --postgresql    # the commands on PostgreSQL too (its server is started)

A failing example is printed whole (``print_blob``), so that it can be pinned in the property as an
``@example`` and kept as a regression test.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PROPERTIES = [
    "tests/reliability/test_fuzz_readers_and_commands.py",
    "tests/reliability/test_fuzz_champions.py",
    "tests/reliability/test_fuzz_tournament_commands.py",
]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--scale", type=float, default=50, help="times the suite's examples (default 50)")
    parser.add_argument("--postgresql", action="store_true", help="run the commands on PostgreSQL too")
    parser.add_argument("--workers", default="auto", help="processes (pytest-xdist's -n; default: one a processor)")
    args = parser.parse_args()
    report = Path(tempfile.mkdtemp(prefix="referee-fuzz-")) / "report.xml"
    env = {**os.environ, "REFEREE_FUZZ_SCALE": str(args.scale)}
    env["REFEREE_TEST_PG"] = "require" if args.postgresql else "off"
    command = [
        sys.executable,
        "-m",
        "pytest",
        *PROPERTIES,
        "--hypothesis-profile=deep",
        "-p",
        "no:cacheprovider",
        "-n",
        args.workers,
        "-rN",
        f"--junitxml={report}",
        *([] if args.postgresql else ["-k", "not postgresql"]),
    ]
    started = time.monotonic()
    done = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)
    minutes = (time.monotonic() - started) / 60
    examples = re.search(r"fuzz: (\d+) examples in (\d+) targets", done.stdout)
    failures = _failures(report) if report.exists() else []
    print(f"RESULT fuzz_scale={args.scale:g}")
    print(f"RESULT fuzz_minutes={minutes:.1f}")
    print(f"RESULT fuzz_examples={examples.group(1) if examples else 0}")  # the readers' and commands' targets
    print(f"RESULT fuzz_properties={_count(report)}")
    print(f"RESULT fuzz_tracebacks={len(failures)}")
    for name, text in failures:
        print(f"\n=== {name}\n{text}")
    if done.returncode not in (0, 1) or (done.returncode == 1 and not failures):
        print(done.stdout[-4000:], done.stderr[-4000:], sep="\n")  # the run itself broke: say how
        return 2
    return 1 if failures else 0


def _count(report: Path) -> int:
    return sum(1 for _ in ET.parse(report).iter("testcase")) if report.exists() else 0


def _failures(report: Path) -> list[tuple[str, str]]:
    """Each failed property: its name, and hypothesis's falsifying example with the traceback."""
    found = []
    for case in ET.parse(report).iter("testcase"):
        for problem in [*case.iter("failure"), *case.iter("error")]:
            found.append((f"{case.get('classname')}::{case.get('name')}", (problem.text or "")[-6000:]))
    return found


if __name__ == "__main__":
    sys.exit(main())
