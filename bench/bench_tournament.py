"""Benchmark: tournament seating and standings.

    python bench/bench_tournament.py [--runs 5] [--players 200] [--rounds 6]

- seat round 4 of 200 present players (40 tables of 5) with 3 rounds of history: the algorithm alone
  (``plan_round``) and the whole `referee tournament seat` command (SQLite, 40 games created);
- standings of 200 players x 6 rounds (240 games of five rounds each, legal random rounds played through
  the engine): every round closed (results accepted from the verified logs, each log's head checked), and
  nothing closed (every game log read and replayed);
- seating quality: repeated opponents reached by 16 players at tables of 4 over 5 rounds and 25 players
  at tables of 5 over 6 rounds (both have schedules without repeats), seated round by round.

Not a timed test: it prints medians (and RESULT lines for bench/run.py).
"""

from __future__ import annotations

import argparse
import random
import statistics
import subprocess
import sys
import tempfile
import time
from itertools import combinations
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from referee.log import OpenGame, Store  # noqa: E402
from referee.log.tournaments import OpenTournament, close_round, create, create_games, load  # noqa: E402
from referee.tournament.model import PlayersRegistered, Tournament, TournamentCreated  # noqa: E402
from referee.tournament.rounds import plan_round, seed_of  # noqa: E402
from referee.tournament.seating import History, seat_players, seat_table  # noqa: E402
from referee.tournament.standings import standings  # noqa: E402
from tests.support.tournament_play import random_sheet, setup_sheet  # noqa: E402


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def players(n: int) -> list[dict]:
    return [{"id": f"p{i:03d}", "name": f"Player {i:03d}", "club": ""} for i in range(n)]


def seat_in_memory(n: int, rounds: int, runs: int) -> float:
    t = Tournament()
    t.apply(TournamentCreated("bench", "Bench", rounds=rounds))
    t.apply(PlayersRegistered(players(n)))
    for r in (1, 2, 3):
        t.apply(plan_round(t, r, seed_of(f"{r:064x}")))
    ms = median_ms(lambda: plan_round(t, 4, seed_of("4" * 64)), runs)
    print(
        f"seat round 4: {n} players, {len(t.seatings[3].tables)} tables, 3 rounds of history, algorithm only: "
        f"median {ms:.0f} ms over {runs} runs"
    )
    return ms


def play_games(store: Store, t: Tournament, tables, rng: random.Random) -> None:
    """Each table's game created as `referee tournament seat` creates it, its setup completed (p.4 step 7,
    p.5 step 10), then five legal random rounds played."""
    create_games(store, t, tables)
    for tb in tables:
        game = OpenGame(store, tb.game)
        sheet = setup_sheet(store.url, tb.game, rng)
        if sheet:
            game.record_setup(sheet)
        for _ in range(5):
            game.record_round(random_sheet(game.state, rng))


def build(db: str, n: int, rounds: int, close: bool) -> None:
    rng = random.Random(13)
    with Store(db) as store:
        create(store, TournamentCreated("bench", "Bench", rounds=rounds))
        log = OpenTournament(store, "bench")
        log.record([PlayersRegistered(players(n))])
        for r in range(1, rounds + 1):
            log.record([plan_round(log.t, r, seed_of(log.head))])
            play_games(store, log.t, log.t.seatings[r].tables, rng)
            if close:
                close_round(store, log, r)


def standings_ms(db: str, runs: int) -> float:
    def once():
        with Store(db) as store:
            standings(load(store, "bench"))

    once()
    return median_ms(once, runs)


def seat_command_ms(n: int, runs: int) -> float:
    times = []
    for k in range(runs):
        with tempfile.TemporaryDirectory() as tmp:
            db = str(Path(tmp) / "t.db")
            with Store(db) as store:
                create(store, TournamentCreated("bench", "Bench", rounds=6))
                log = OpenTournament(store, "bench")
                log.record([PlayersRegistered(players(n))])
                for r in (1, 2, 3):
                    log.record([plan_round(log.t, r, seed_of(f"{k}{r}"))])
            start = time.perf_counter()
            proc = subprocess.run(
                [sys.executable, "-m", "referee", "tournament", "seat", "bench", "4", "--db", db, "--json"],
                capture_output=True,
                text=True,
            )
            times.append((time.perf_counter() - start) * 1000)
            if proc.returncode:
                raise SystemExit(proc.stderr)
    return statistics.median(times)


def quality(n: int, size: int, rounds: int, seed: int = 1000) -> int:
    names = [f"p{i:02d}" for i in range(n)]
    done: list = []
    repeats = 0
    for r in range(1, rounds + 1):
        h = History.of(done, size)
        tables = seat_players(names, [size] * (n // size), h, random.Random(seed + r), future=rounds - r)
        repeats += sum(h.met[frozenset(p)] > 0 for t in tables for p in combinations(t, 2))
        done += [seat_table(t, h, random.Random(r)) for t in tables]
    return repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--players", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=6)
    args = parser.parse_args()
    seat = seat_in_memory(args.players, args.rounds, args.runs)
    print(f"RESULT tournament_seat_ms={seat:.0f}")
    command = seat_command_ms(args.players, max(3, args.runs // 2))
    print(
        f"`referee tournament seat` round 4 ({args.players} players, {-(-args.players // 5)} games created, SQLite): "
        f"median {command:.0f} ms"
    )
    print(f"RESULT tournament_seat_cli_ms={command:.0f}")
    games = args.players // 5 * args.rounds
    with tempfile.TemporaryDirectory() as tmp:
        for close, key, what in (
            (True, "tournament_standings_ms", "every round closed (accepted results, heads checked)"),
            (False, "tournament_standings_replay_ms", "no round closed (every log replayed)"),
        ):
            db = str(Path(tmp) / f"{key}.db")
            start = time.perf_counter()
            build(db, args.players, args.rounds, close)
            print(f"built {games} games of five rounds in {time.perf_counter() - start:.1f} s")
            ms = standings_ms(db, args.runs)
            print(
                f"standings of {args.players} players x {args.rounds} rounds ({games} games), {what}: "
                f"median {ms:.0f} ms"
            )
            print(f"RESULT {key}={ms:.0f}")
    for n, size, rounds, key in ((16, 4, 5, "tournament_repeats_16"), (25, 5, 6, "tournament_repeats_25")):
        seeds = [quality(n, size, rounds, seed) for seed in (1000, 2000, 3000, 4000, 5000)]
        print(
            f"seating quality: {n} players at tables of {size} over {rounds} rounds: repeated opponent pairs "
            f"{seeds} over 5 seeds"
        )
        print(f"RESULT {key}={max(seeds)}")


if __name__ == "__main__":
    main()
