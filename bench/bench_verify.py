"""How fast does `verify` re-run an archive of complete games from the database, and in how much memory?

    python bench/bench_verify.py                        10,000 games, one pass with a progress bar
    python bench/bench_verify.py --games 1000 --runs 3

The archive: the bundled golden games (2, 4 and 5 players, five rounds each) copied under new ids
(`relabel`: same payloads, a fresh chain) into a fresh SQLite file, filled by a separate process so
that the memory figures below are the verifier's alone. A pass streams every game from the database
(`Store.stream`, one game at a time) and verifies it: chain, hashes, seals, and a full engine re-run
checking every recorded digest, exactly what `referee verify` does for one game.

Every game of the archive is signed, as an organiser's closed game is (referee/records/signing.py: one Ed25519
signature over its closing event's chain head). Each run makes two passes: the plain one (the figures above),
then the signed one, which also checks each game's signatures as `referee verify --key FINGERPRINT` does
(signatures streamed from the database in the games' order, each checked against the record's event and
its public key, and required to be the organiser's).

Figures: throughput as the median over the pass's chunks of 500 games (and over --runs passes), the
whole pass's rate, and memory: the process's peak resident set (getrusage max RSS) and its resident
set sampled after every chunk (flat: the archive is streamed, not loaded). Lines starting with RESULT
are read by bench/run.py.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.doctor import processors  # noqa: E402
from referee.games.battle.records import GOLDEN_GAMES, golden, relabel  # noqa: E402
from referee.games.battle.replay import verify  # noqa: E402
from referee.records import signing  # noqa: E402
from referee.records.keys import declare, public_hex  # noqa: E402
from referee.store.signatures import ensure_schema, fingerprint, store_signatures, stream_signatures  # noqa: E402
from referee.store.storage import Store  # noqa: E402

CHUNK = 500
KEY_SEED = bytes(range(32))  # the bench's organiser key: fixed, so that both processes know its fingerprint


def organiser():
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    return Ed25519PrivateKey.from_private_bytes(KEY_SEED)


def fill(store: Store, n: int, batch: int = 500) -> int:
    sources = [golden(name) for name in GOLDEN_GAMES]
    key = organiser()
    ensure_schema(store)
    declare(store, "Bench archive", key)  # the database's organiser key: doctor checks each signer against it
    events = 0
    for start in range(0, n, batch):
        logs = [relabel(sources[i % len(sources)], f"bench-{i:06d}") for i in range(start, min(n, start + batch))]
        store.import_logs(logs)
        store_signatures(store, [signing.sign(key, "game", log[0].game, log[-1]) for log in logs])
        events += sum(len(log) for log in logs)
    return events


def games_and_signatures(store: Store, key: list[str]):
    """Each game's log with its signature check, the signatures streamed beside the games (same order)."""
    signed = stream_signatures(store, "game")
    pending = next(signed, None)
    for log in store.stream():
        game = log[0].game
        while pending is not None and pending[0] < game:
            pending = next(signed, None)
        sigs = pending[1] if pending is not None and pending[0] == game else []
        yield log, signing.check("game", log, sigs, key=key)


CPUS = processors()  # `referee doctor`'s processes by default


def doctor_rate(db: str, games: int, jobs: int, runs: int) -> float:
    """`referee doctor --jobs JOBS` over the archive, run as a user runs it (its own process, a temporary HOME):
    games per second of the whole command, the best of ``runs``."""
    best = float("inf")
    with tempfile.TemporaryDirectory() as home:
        env = {**os.environ, "HOME": home}
        env.pop("REFEREE_DB", None)
        for _ in range(runs):
            start = time.perf_counter()
            done = subprocess.run(
                [sys.executable, "-m", "referee", "doctor", "--db", db, "--jobs", str(jobs), "--json"],
                capture_output=True,
                text=True,
                env=env,
                cwd=home,
            )
            best = min(best, time.perf_counter() - start)
            if done.returncode != 0 or not json.loads(done.stdout)["ok"]:
                raise SystemExit(f"doctor --jobs {jobs}: {done.stderr or done.stdout[:300]}")
    return games / best


def rss_mb() -> float:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize() / 2**20


def verify_pass(store: Store, games: int, label: str, signed: bool = False) -> tuple[list[float], float, list[float]]:
    """One pass over the archive with a progress bar: (games/s per chunk, whole-pass games/s, RSS samples);
    ``signed``: each game's signatures checked too, as the organiser's."""
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
        if signed:
            logs = games_and_signatures(store, [fingerprint(public_hex(organiser().public_key()))])
        else:
            logs = ((log, None) for log in store.stream())
        for log, checked in logs:
            found = verify(log)
            if found is not None:
                raise SystemExit(f"{log[0].game}: {found}")
            if checked is not None and (checked.problem or not checked.signed):
                raise SystemExit(f"{log[0].game}: {checked.status}")
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
        signed_rates, signed_wholes, growth = [], [], []
        peak = 0.0
        with Store(db) as store:
            for run in range(1, args.runs + 1):  # the two kinds of pass alternate: both see the same load
                rates, whole, rss = verify_pass(store, args.games, f"verify pass {run}/{args.runs}")
                all_rates += rates
                wholes.append(whole)
                samples += rss
                growth.append(max(rss) - min(rss))
                if run == 1:  # before the first signed pass loads `cryptography` (about 8 MB resident)
                    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
                rates, whole, rss = verify_pass(store, args.games, f"signed pass {run}/{args.runs}", signed=True)
                signed_rates += rates
                signed_wholes.append(whole)
                growth.append(max(rss) - min(rss))
        median = statistics.median(all_rates)
        signed_median = statistics.median(signed_rates)
        signed_peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(
            f"verify: median {median:.1f} games/s over {len(all_rates)} chunks of {CHUNK} "
            f"(min {min(all_rates):.1f}, max {max(all_rates):.1f}); whole pass {statistics.median(wholes):.1f} "
            f"games/s, {statistics.median(wholes) * events / args.games:.0f} events/s; "
            f"{args.games / statistics.median(wholes):.0f} s for the archive"
        )
        print(
            f"verify, signatures checked too (--key): median {signed_median:.1f} games/s over {len(signed_rates)} "
            f"chunks (min {min(signed_rates):.1f}, max {max(signed_rates):.1f}); whole pass "
            f"{statistics.median(signed_wholes):.1f} games/s"
        )
        print(
            f"memory: peak {peak:.1f} MB max RSS (plain verify; with the signed passes {signed_peak:.1f} MB); "
            f"resident set {before:.1f} MB before the first pass, {min(samples):.1f} to {max(samples):.1f} MB "
            f"during the plain passes; at most {max(growth):.1f} MB growth within a pass (sampled every {CHUNK} games)"
        )
        doctor = {jobs: doctor_rate(db, args.games, jobs, args.runs) for jobs in (1, CPUS)}
        print(
            f"`referee doctor` over the signed archive (the command as typed: start, integrity check, every game "
            f"verified and its signatures checked, the report written; best of {args.runs}): "
            + "; ".join(f"{rate:.1f} games/s with --jobs {jobs}" for jobs, rate in doctor.items())
        )
        print(f"RESULT verify_games_per_s={median:.1f}")
        print(f"RESULT verify_signed_games_per_s={signed_median:.1f}")
        print(f"RESULT verify_peak_rss_mb={peak:.1f}")
        print(f"RESULT verify_signed_peak_rss_mb={signed_peak:.1f}")
        print(f"RESULT verify_rss_growth_mb={max(growth):.1f}")
        print(f"RESULT doctor_games_per_s={doctor[CPUS]:.1f}")
        print(f"RESULT doctor_one_process_games_per_s={doctor[1]:.1f}")


if __name__ == "__main__":
    main()
