"""Benchmark: median time to resolve one full five-player round of 25 tokens (rulebook p.9).

    python bench/bench_resolve.py [--repeat 300]

Three figures, entry checks on (R-08) as in every command: the bench round below; the median over
it and 20 seeded random five-player rounds of up to 25 tokens (``random_round`` of
tests/support/outcomes_build.py, the rounds whose outcomes tests/battle/outcomes.txt records), each resolved
--repeat times, the rounds interleaved; and the bench round with its whole report read. ``resolve``
decides; the report (every fate, battle, defense, claim and change) is built when first read, so
the first figure is what `verify` and a replay pay, the third what `referee round` pays.

A fourth figure is the engine's whole part of `verify` on the bundled golden games (2, 4 and 5 players,
the games bench_verify.py's archive is made of): every round played again (``play_round``: the entry checks,
resolve, the next upkeep), each game's final score and each round's digest parts, without the log's own
work (reading, hashes, signatures). Its best pass of --repeat is given: the figure to compare engine changes
by, steadier than a throughput over a shared machine's database.

Not a timed test: it prints figures (median, p90) for the manual's benchmarks (docs/benchmarks.md).
"""

from __future__ import annotations

import argparse
import platform
import statistics
import sys
import time
from pathlib import Path

from referee.boarddata import load_board
from referee.engine import begin_round, parse_entry, parse_round, resolve
from referee.engine.model.tokens import Clan
from referee.engine.notation.round import parse_lines
from referee.engine.notation.setup import apply_board_fact, new_state, parse_board_line

SETUP = """
crab: control @ crab_capital
crab: control @ crab_central
crab: control 2 faceup @ crab_northeast
crab: control @ neutral_mainland_south
crane: control @ crane_capital
crane: control @ crane_central
crane: control @ crane_south
crane: control @ neutral_mainland_northeast
lion: control @ lion_capital
lion: control @ lion_northwest
lion: control @ lion_coast
lion: control @ scorpion_north
scorpion: control @ scorpion_capital
scorpion: control @ scorpion_west
scorpion: control @ crab_northwest
scorpion: control @ unicorn_southwest
phoenix: control @ phoenix_capital
phoenix: control @ phoenix_central
phoenix: control @ phoenix_coast
phoenix: control @ dragon_south
board: defense 1 @ crane_capital
"""

ROUND = """
crab: army 3 crab_northeast > crane_south
crab: navy 3 sea > crane_central + blessing 2
crab: army 2 @ crab_central
crab: army 1 crab_central > shadowlands_north
crane: army 4 crane_south > neutral_mainland_inland
crane: diplomacy @ neutral_mainland_northeast
crane: army 2 @ crane_capital
crane: navy 2 sea > lion_coast
crane: bluff crane_central > scorpion_capital
lion: army 6 lion_capital > crane_capital
lion: army 3 lion_northwest > unicorn_southeast
lion: bluff @ lion_capital
lion: army 2 scorpion_north > scorpion_capital
lion: shinobi 2 @ dragon_capital
scorpion: shinobi 3 @ lion_capital
scorpion: raid @ lion_capital
scorpion: army 4 scorpion_capital > crab_northeast
scorpion: army 2 scorpion_west > unicorn_southeast
scorpion: army 1 @ crab_northwest
phoenix: army 3 phoenix_capital > dragon_capital
phoenix: army 2 dragon_south > lion_northwest
phoenix: navy 1 @ phoenix_coast
phoenix: army 2 @ dragon_south + blessing 3
"""


def build():
    board = load_board()
    state = new_state(board, (Clan.CRAB, Clan.CRANE, Clan.LION, Clan.SCORPION, Clan.PHOENIX))
    for n, line in parse_lines(SETUP):
        state = apply_board_fact(state, parse_board_line(line, board, n))
    return begin_round(state), parse_round(ROUND, board)


def random_rounds(n: int = 20) -> list:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from tests.support.outcomes_build import random_round

    return [random_round(seed) for seed in range(n)]


def golden_work() -> tuple[list, list, list]:
    """What `verify` asks of the engine for each golden game: each round's board and entries, each round's
    board after it, and the final board."""
    from referee.log import GOLDEN_GAMES, golden
    from referee.log.replay import Fold

    rounds, afters, finals = [], [], []
    for name in GOLDEN_GAMES:
        fold = Fold.of(golden(name))
        for played in fold.rounds:
            entries = [parse_entry(line, fold.board, n) for n, line in enumerate(played.lines, 1)]
            rounds.append((played.before, entries))
            afters.append(played.after)
        finals.append(fold.state)
    return rounds, afters, finals


def verify_engine(repeat: int) -> None:
    from referee.engine import final_score
    from referee.engine.model.digest import digest_parts
    from referee.log.replay import play_round

    rounds, afters, finals = golden_work()
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        for state, entries in rounds:
            play_round(state, entries)
        for state in finals:
            final_score(state)
        for state in afters:
            digest_parts(state)
        times.append(time.perf_counter() - start)
    per_game = min(times) / len(finals)
    print(
        f"the engine's part of verify, {len(finals)} golden games ({len(rounds)} rounds played, final scores, "
        f"digest parts), {repeat} passes: best {per_game * 1e3:.3f} ms a game, median "
        f"{statistics.median(times) / len(finals) * 1e3:.3f} ms"
    )
    print(f"RESULT verify_engine_ms={per_game * 1e3:.3f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=300)
    args = parser.parse_args()
    state, entries = build()
    rounds = [(state, entries), *random_rounds()]
    tokens = len(entries) + sum(len(e.blessings) for e in entries)
    resolve(state, entries)  # warm-up
    times = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        resolve(state, entries)
        times.append(time.perf_counter() - start)
    times.sort()
    print(f"machine: {platform.machine()} {platform.python_implementation()} {platform.python_version()}")
    print(f"resolve, five players, {tokens} tokens ({len(entries)} lines), {args.repeat} runs")
    print(
        f"  median {statistics.median(times) * 1e3:.3f} ms   p90 "
        f"{times[int(len(times) * 0.9)] * 1e3:.3f} ms   min {times[0] * 1e3:.3f} ms"
    )
    print(f"RESULT resolve_ms={statistics.median(times) * 1e3:.3f}")  # read by bench/run.py
    mixed = []
    for _ in range(max(args.repeat // 3, 10)):
        for s, e in rounds:
            start = time.perf_counter()
            resolve(s, e)
            mixed.append(time.perf_counter() - start)
    print(
        f"resolve, the bench round and 20 seeded random five-player rounds, {len(mixed)} runs: "
        f"median {statistics.median(mixed) * 1e3:.3f} ms"
    )
    print(f"RESULT resolve_mixed_ms={statistics.median(mixed) * 1e3:.3f}")
    told = []
    for _ in range(args.repeat):
        start = time.perf_counter()
        _, report = resolve(state, entries)
        for name in report.FIELDS:  # the whole report, as `referee round` prints it
            getattr(report, name)
        told.append(time.perf_counter() - start)
    print(
        f"resolve and read the whole report (every fate, battle, defense, claim and change), {args.repeat} runs: "
        f"median {statistics.median(told) * 1e3:.3f} ms"
    )
    print(f"RESULT resolve_report_ms={statistics.median(told) * 1e3:.3f}")
    verify_engine(args.repeat)


if __name__ == "__main__":
    main()
