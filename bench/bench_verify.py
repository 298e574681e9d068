"""How fast does `verify` re-run an archive of complete games from the database, and in how much memory?

    python bench/bench_verify.py                        10,000 games, one pass with a progress bar
    python bench/bench_verify.py --games 1000 --runs 3

The archive: the bundled golden games (2, 4 and 5 players, five rounds each) copied under new ids
(`relabel`: same payloads, a fresh chain) into a fresh SQLite file, filled by a separate process so
that the memory figures below are the verifier's alone. A pass streams every game from the database
(`Store.stream`, one game at a time) and verifies it: chain, hashes, seals, and a full engine re-run
checking every recorded digest, exactly what `referee verify` does for one game.

Figures: throughput as the median over the pass's chunks of 500 games (and over --runs passes), the
whole pass's rate, and memory: the process's peak resident set (getrusage max RSS) and its resident
set sampled after every chunk (flat: the archive is streamed, not loaded). Lines starting with RESULT
are read by bench/run.py.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.log import GOLDEN_GAMES, Store, golden, relabel, verify  # noqa: E402

CHUNK = 500


def fill(store: Store, n: int, batch: int = 500) -> int:
    sources = [golden(name) for name in GOLDEN_GAMES]
    events = 0
    for start in range(0, n, batch):
        logs = [relabel(sources[i % len(sources)], f"bench-{i:06d}") for i in range(start, min(n, start + batch))]
        store.import_logs(logs)
        events += sum(len(log) for log in logs)
    return events


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def verify_pass(store: Store, games: int, label: str) -> tuple[list[float], float, list[float]]:
    """One pass over the archive with a progress bar: (games/s per chunk, whole-pass games/s, RSS samples)."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    rates, samples = [], []
    columns = [
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    ]
    with Progress(*columns, transient=False) as progress:
        task = progress.add_task(label, total=games, rate="")
        start = chunk_start = time.perf_counter()
        count = 0
        for log in store.stream():
            found = verify(log)
            if found is not None:
                raise SystemExit(f"{log[0].game}: {found}")
            count += 1
            if count % CHUNK == 0 or count == games:
                now = time.perf_counter()
                size = CHUNK if count % CHUNK == 0 else count % CHUNK
                rates.append(size / (now - chunk_start))
                samples.append(rss_mb())
                chunk_start = now
                progress.update(task, completed=count, rate=f"{rates[-1]:.0f} games/s")
        whole = count / (time.perf_counter() - start)
    if count != games:
        raise SystemExit(f"verified {count} games, expected {games}")
    return rates, whole, samples


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000, help="games in the archive (default 10,000)")
    parser.add_argument("--runs", type=int, default=1, help="verify passes (default 1)")
    parser.add_argument("--fill", metavar="DB", help=argparse.SUPPRESS)  # the filling process
    args = parser.parse_args()
    if args.fill:
        with Store(args.fill) as store:
            print(fill(store, args.games))
        return
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "archive.db")
        start = time.perf_counter()
        events = int(
            subprocess.run(
                [sys.executable, __file__, "--games", str(args.games), "--fill", db],
                capture_output=True,
                text=True,
                check=True,
            ).stdout
        )
        print(
            f"archive: {args.games} games, {events} events, filled in {time.perf_counter() - start:.1f} s "
            f"({Path(db).stat().st_size / 2**20:.1f} MB SQLite)"
        )
        before = rss_mb()
        all_rates, wholes, samples = [], [], []
        with Store(db) as store:
            for run in range(1, args.runs + 1):
                rates, whole, rss = verify_pass(store, args.games, f"verify pass {run}/{args.runs}")
                all_rates += rates
                wholes.append(whole)
                samples += rss
        median = statistics.median(all_rates)
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"verify: median {median:.1f} games/s over {len(all_rates)} chunks of {CHUNK} "
            f"(min {min(all_rates):.1f}, max {max(all_rates):.1f}); whole pass {statistics.median(wholes):.1f} "
            f"games/s, {statistics.median(wholes) * events / args.games:.0f} events/s; "
            f"{args.games / statistics.median(wholes):.0f} s for the archive"
        )
        print(
            f"memory: peak {peak:.1f} MB max RSS; resident set {before:.1f} MB before the pass, "
            f"{min(samples):.1f} to {max(samples):.1f} MB during it (sampled every {CHUNK} games)"
        )
        print(f"RESULT verify_games_per_s={median:.1f}")
        print(f"RESULT verify_peak_rss_mb={peak:.1f}")
        print(f"RESULT verify_rss_growth_mb={max(samples) - min(samples):.1f}")


if __name__ == "__main__":
    main()
