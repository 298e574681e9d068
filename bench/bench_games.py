"""How long does `referee games` take on a tournament's database, now that it shows each game's state?

    python bench/bench_games.py                  2,000 games, 5 runs
    python bench/bench_games.py --games 500 --runs 3

The archive: the bundled golden games copied under new ids into a fresh SQLite file (as bench_verify.py
fills it). Each run is the real command in its own process (`referee games --json`), so the figure
includes Python's start and imports; the state of every game is read from its events alone (no engine
run per game). Lines starting with RESULT are read by bench/run.py.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench_verify import fill  # noqa: E402

from referee.store.storage import Store  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "archive.db")
        with Store(db) as store:
            events = fill(store, args.games)
        times = []
        for _ in range(args.runs):
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "referee", "games", "--json", "--db", db], capture_output=True, text=True
            )
            times.append((time.perf_counter() - start) * 1000)
            assert done.returncode == 0, done.stderr
    median = statistics.median(times)
    print(
        f"referee games --json over {args.games} games ({events} events), {args.runs} runs: "
        f"median {median:.0f} ms (min {min(times):.0f}, max {max(times):.0f})"
    )
    print(f"RESULT games_list_ms={median:.1f}")


if __name__ == "__main__":
    main()
