"""How fast does `verify` re-run complete games from the database, and how much memory does it take?

    python bench/bench_verify.py                       200 games, median of 5 runs
    python bench/bench_verify.py --games 10000 --runs 1

The games are the bundled golden games (2, 4 and 5 players, five rounds each) copied under new ids
(`relabel`: same payloads, a fresh chain) into a fresh SQLite file. Each run streams every game
from the database (`Store.stream`) and verifies it: chain, hashes, seals, and a full engine re-run
checking every recorded digest. Peak memory is measured on a separate streaming pass with
tracemalloc (Python allocations) and with getrusage (the process's maximum resident set).
"""

from __future__ import annotations

import argparse
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.log import GOLDEN_GAMES, Store, golden, relabel, verify  # noqa: E402


def fill(store: Store, n: int, batch: int = 500) -> int:
    sources = [golden(name) for name in GOLDEN_GAMES]
    events = 0
    for start in range(0, n, batch):
        logs = [relabel(sources[i % len(sources)], f"bench-{i:06d}") for i in range(start, min(n, start + batch))]
        store.import_logs(logs)
        events += sum(len(log) for log in logs)
    return events


def verify_all(store: Store) -> int:
    count = 0
    for log in store.stream():
        found = verify(log)
        if found is not None:
            raise SystemExit(f"{log[0].game}: {found}")
        count += 1
    return count


def timed_runs(store: Store, runs: int) -> list[float]:
    rates = []
    for _ in range(runs):
        start = time.perf_counter()
        count = verify_all(store)
        rates.append(count / (time.perf_counter() - start))
    return rates


def peak_memory(store: Store) -> tuple[float, float]:
    tracemalloc.start()
    verify_all(store)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
    return peak / 2**20, rss_kib / 2**10


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="games in the database (default 200)")
    parser.add_argument("--runs", type=int, default=5, help="timed verify passes; the median is reported")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        with Store(str(Path(tmp) / "bench.db")) as store:
            start = time.perf_counter()
            events = fill(store, args.games)
            print(f"filled {args.games} games ({events} events) in {time.perf_counter() - start:.1f} s")
            rates = timed_runs(store, args.runs)
            print(f"verify: median {statistics.median(rates):.1f} games/s over {len(rates)} run(s) "
                  f"(min {min(rates):.1f}, max {max(rates):.1f}); "
                  f"{statistics.median(rates) * events / args.games:.0f} events/s")
            traced, rss = peak_memory(store)
            print(f"memory verifying {args.games} games streaming: peak {traced:.1f} MB traced (tracemalloc), "
                  f"max RSS {rss:.1f} MB")


if __name__ == "__main__":
    main()
