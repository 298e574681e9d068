"""Where the time goes: cProfile of `resolve` on the bench round, or of `verify` over an archive.

    python bench/hotspots.py resolve [--top 10]     2,000 resolutions of the bench round (bench_resolve.py)
    python bench/hotspots.py verify [--games 300]   verify every game of a fresh archive (bench_verify.py)
    python bench/hotspots.py verify --signed        ... and check each game's signatures, as `verify --key`

Prints the top functions by cumulative time, paths relative to the project. A profiler slows small
functions more than large ones: the figures are for finding where to look, the benchmarks are for
how fast it is.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))


def profile_resolve() -> cProfile.Profile:
    from bench_resolve import build

    from referee.engine.battle import resolve

    state, entries = build()
    resolve(state, entries)  # warm-up
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(2000):
        resolve(state, entries)
    profile.disable()
    return profile


def profile_verify(games: int, signed: bool = False) -> cProfile.Profile:
    from bench_verify import fill, games_and_signatures, organiser

    from referee.games.battle.replay import verify
    from referee.records.keys import public_hex
    from referee.store.signatures import fingerprint
    from referee.store.storage import Store

    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "archive.db")
        with Store(db) as store:
            fill(store, games)
        with Store(db) as store:
            profile = cProfile.Profile()
            profile.enable()
            if signed:  # each game's signatures checked as `verify --key` checks them
                key = [fingerprint(public_hex(organiser().public_key()))]
                logs = games_and_signatures(store, key)
            else:
                logs = ((log, None) for log in store.stream())
            for log, checked in logs:
                found = verify(log)
                if found is not None:
                    raise SystemExit(f"{log[0].game}: {found}")
                if checked is not None and (checked.problem or not checked.signed):
                    raise SystemExit(f"{log[0].game}: {checked.status}")
            profile.disable()
    return profile


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["resolve", "verify"])
    parser.add_argument("--top", type=int, default=10, help="how many functions (default 10)")
    parser.add_argument("--games", type=int, default=300, help="verify: games in the archive (default 300)")
    parser.add_argument("--signed", action="store_true", help="verify: check each game's signatures too (--key)")
    args = parser.parse_args()
    profile = profile_resolve() if args.what == "resolve" else profile_verify(args.games, args.signed)
    out = io.StringIO()
    pstats.Stats(profile, stream=out).sort_stats("cumulative").print_stats(args.top)
    root = str(HERE.parent) + "/"
    for line in out.getvalue().splitlines():
        if line.strip():
            print(line.replace(root, ""))


if __name__ == "__main__":
    main()
