"""Champions of Rokugan: what a table waits for. Medians of

- folding a scenario record of N report events in process (every append folds the whole record first);
- one `referee champions event` command and one `referee champions show` command, cold start (SQLite);
- `referee casebook referee/data/casebook/champions` (its 239 cases).

    python bench/bench_champions.py [--events 200] [--runs 7]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from referee.log import Store, champions as log

ROOT = Path(__file__).resolve().parent.parent

SETUP = (ROOT / "examples" / "champions" / "fallen-lion.txt").read_text()
LINES = [  # one report each, in the notation the table types: an action and what it moved
    "Matsu Tsuko: melee Samurai, wound",
    "Matsu Tsuko: honor -1, scenario",
    "Bayushi Aramoro: eliminates Samurai, 1 glory",
    "Matsu Tsuko: purity -1",
    "Matsu Tsuko: purity +1",
]


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1e3)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--events", type=int, default=200)
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "bench.db")
        with Store(db) as store:
            log.create_scenario(store, "bench", SETUP)
            for i in range(args.events):
                store_lines = [LINES[i % len(LINES)]]
                events = store.events("bench")
                store.append("bench", [(log.REPORTED, {"turn": 1, "lines": store_lines})], events[-1])
            events = store.events("bench")
            fold_ms = median_ms(lambda: log.fold_scenario(events), args.runs)
        env = {**os.environ, "REFEREE_DB": db}

        def command(*argv: str) -> None:
            subprocess.run([sys.executable, "-m", "referee", *argv], env=env, capture_output=True, check=True)

        event_ms = median_ms(
            lambda: command("champions", "event", "bench", "Matsu Tsuko: honor +1, scenario"), args.runs
        )
        show_ms = median_ms(lambda: command("champions", "show", "bench"), args.runs)
        casebook_ms = median_ms(
            lambda: command("casebook", str(ROOT / "referee" / "data" / "casebook" / "champions")), args.runs
        )
    print(f"fold a scenario record of {len(events)} events: {fold_ms:.1f} ms (median of {args.runs})")
    print(f"RESULT champions_fold_ms={fold_ms:.1f}")
    print(f"RESULT champions_event_cli_ms={event_ms:.0f}")
    print(f"RESULT champions_show_cli_ms={show_ms:.0f}")
    print(f"RESULT champions_casebook_ms={casebook_ms:.0f}")


if __name__ == "__main__":
    main()
