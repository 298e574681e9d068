"""Benchmark: the cost of one guess at a sealed objective, and of recovering one from a public log.

    python bench/bench_objective.py [--runs 15]

A sealed objective is ``scrypt(game|clan|objective|code)`` with a salt of its own (referee/games/battle/commitment.py).
Someone holding the exported log and wanting a clan's objective must try objectives and codes until one
matches: 12 objectives x 2^50 codes, half of them on average. One guess costs one scrypt call; this
prints the measured median of that call, and the resulting expected CPU time. For comparison, the scheme
logs were sealed with before (SHA-256, a 32-bit code). Not a timed test: it prints figures.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import time

from referee.games.battle import commitment
from referee.games.battle.boarddata import load_board

YEAR = 365.25 * 24 * 3600


def median_seconds(call, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    objectives = len(load_board().objectives)
    code = commitment.new_code()
    salt = bytes(commitment.SALT_BYTES)
    guess = median_seconds(lambda: commitment.commit("friday-t3", "crab", "emerald_empire", code, salt=salt), args.runs)
    expected = objectives * 2**commitment.CODE_BITS / 2  # guesses, on average, to find one clan's objective
    print(
        f"scrypt n={commitment.SCRYPT_N}, r={commitment.SCRYPT_R}, p={commitment.SCRYPT_P} "
        f"({128 * commitment.SCRYPT_R * commitment.SCRYPT_N // 2**20} MiB), salt {commitment.SALT_BYTES} bytes, "
        f"code {commitment.CODE_BITS} bits; {args.runs} runs"
    )
    print(f"one guess: {guess * 1e3:.1f} ms (median)")
    print(
        f"recovering one objective: {objectives} objectives x 2^{commitment.CODE_BITS} codes / 2 = {expected:.2e} "
        f"guesses x {guess * 1e3:.1f} ms = {expected * guess / YEAR:.2e} CPU-years on one core"
    )
    old = median_seconds(
        lambda: hashlib.sha256(b"friday-t3|crab|emerald_empire|D51B-000C").hexdigest(), max(args.runs, 1000)
    )
    old_expected = objectives * 2**32 / 2
    print(
        f"the old scheme (SHA-256, 32-bit code): {old * 1e9:.0f} ns a guess, {old_expected:.2e} guesses = "
        f"{old_expected * old / 3600:.1f} CPU-hours"
    )
    print(f"RESULT objective_guess_ms={guess * 1e3:.1f}")  # read by bench/run.py
    print(f"RESULT objective_recovery_cpu_years={expected * guess / YEAR:.2e}")


if __name__ == "__main__":
    main()
