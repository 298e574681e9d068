"""Benchmark: the card game and its Swiss tournaments.

    python bench/bench_swiss.py [--runs 5] [--big-runs 3] [--scale 1]

- Swiss pairing ("swiss-blossom": a minimum-cost perfect matching on the complete graph of the players
  still in, Edmonds' blossom algorithm in rustworkx) of round 4 after three rounds of seeded results (wins,
  losses and time-called draws), for each field size (32, 64, 128, 256, 512): the median time of one round's
  pairing (the fields above 128 players are timed ``--big-runs`` times; ``--scale`` shrinks the fields, for a
  quick try: the figures keep their names); and round 1 drawn from a seed (the players ordered by the seed,
  then matched) for 64 and 256 players;
- `swiss verify` of a whole 5-round event of 32, 64 and 128 players (the chain, every event, every round's
  pairing found again by the version and seed that recorded it);
- the pages' data of a 5-round event of 256 players: the standings page, a round's page (with its pairing by
  name) and a player's page, each computed once from the fold;
- a card game match: the bundled demo match (49 events) and a long match (301 events), each replayed (every
  event re-applied, as `referee ccg replay` and the venue's match page do) and verified (the hash chain, then
  every event re-applied and its digest compared, as `referee ccg verify` does), read from SQLite.

Not a timed test: it prints medians (and RESULT lines for bench/run.py).
"""

from __future__ import annotations

import argparse
import random
import statistics
import tempfile
import time
from pathlib import Path

from referee.engine.tournament.events import payload_of
from referee.engine.tournament.swiss import Result, pair_round
from referee.engine.tournament.swiss_desk import (
    SwissCreated,
    SwissPlayersRegistered,
    SwissResultRecorded,
    pairing_event,
)
from referee.games.ccg.service import OpenMatch, new_match_log, steps, verify
from referee.store.storage import Store
from referee.tournaments.service import chain
from referee.tournaments.swiss import verify as verify_swiss

DEMO = Path(__file__).resolve().parent.parent / "referee" / "data" / "games" / "ccg-demo.txt"


def median_ms(fn, runs: int) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def field(n: int, rounds: int = 3, seed: int = 1) -> tuple[list[str], list[Result]]:
    """``n`` players and ``rounds`` rounds paired by the algorithm, each table's result drawn at random."""
    rng = random.Random(seed)
    players = [f"p{i:03d}" for i in range(n)]
    results: list[Result] = []
    for rnd in range(1, rounds + 1):
        p = pair_round(rnd, players, results)
        for a, b in p.pairs:
            winner = rng.choice([a, a, b, b, None])
            results.append(Result(rnd, a, b, winner, "military" if winner else "time"))
        if p.bye:
            results.append(Result(rnd, p.bye, None, p.bye, "bye"))
    return players, results


def pairing_ms(n: int, runs: int) -> float:
    players, results = field(n)
    return median_ms(lambda: pair_round(4, players, results), runs)


def first_round_ms(n: int, runs: int) -> float:
    players = [f"p{i:03d}" for i in range(n)]
    return median_ms(lambda: pair_round(1, players, [], seed=1205), runs)


def pages_ms(n: int, runs: int) -> float:
    """The standings page, round 5's page and one player's page of a 5-round event of ``n`` players, from its
    fold, as `referee serve` computes each once per state (the fold's standings worked out anew each run)."""
    from referee.tournaments.swiss import fold
    from referee.views.swiss import player_page, round_page, standings_page

    t = fold(swiss_event(n))

    def pages() -> None:
        t._memo.clear()  # a new state: nothing worked out yet
        standings_page(t)
        round_page(t, 5)
        player_page(t, "p007")

    return median_ms(pages, runs)


def swiss_event(n: int, rounds: int = 5, seed: int = 2) -> list:
    """A whole Swiss event's chained events: ``n`` players, ``rounds`` rounds paired by the desk's version, each
    table's result drawn at random."""
    rng = random.Random(seed)
    ids = [f"p{i:03d}" for i in range(n)]
    items: list = [SwissCreated("bench", "Bench", rounds=rounds, cut=0)]
    items.append(SwissPlayersRegistered([{"id": p, "name": p} for p in ids]))
    results: list[Result] = []
    for rnd in range(1, rounds + 1):
        paired = pair_round(rnd, ids, results, seed=1205 if rnd == 1 else None)  # round 1 from its seed
        items.append(pairing_event(paired))
        for table, (a, b) in enumerate(paired.pairs, 1):
            winner = rng.choice([a, a, b, b, None])
            results.append(Result(rnd, a, b, winner, "military" if winner else "time"))
            items.append(SwissResultRecorded(rnd, table, winner, "military" if winner else "time"))
        if paired.bye:
            results.append(Result(rnd, paired.bye, None, paired.bye, "bye"))
    events, after = [], None
    for item in items:
        after = chain("bench", after, *payload_of(item))
        events.append(after)
    return events


def long_match(turns: int) -> tuple[list[str], list[str]]:
    """Two players trading Honor turn by turn, well short of either victory, for ``turns`` turns."""
    setup = ["ann: honor 8, strength 6, gold 5", "bo: honor 6, strength 6, gold 5"]
    lines = []
    for t in range(turns):
        who = "ann" if t % 2 == 0 else "bo"
        lines += [f"action {who} Imperial Edict (limited): {who} {'+2' if t % 4 < 2 else '-2'}", "pass"]
    return setup, lines


def match_ms(store: Store, game: str, setup: list[str], lines: list[str], runs: int) -> tuple[int, float, float]:
    new_match_log(store, game, setup)
    log = OpenMatch(store, game)
    for line in lines:
        log.record([line])
    events = store.events(game)
    assert verify(events) is None
    replay = median_ms(lambda: steps(store.events(game)), runs)
    checked = median_ms(lambda: verify(store.events(game)), runs)
    return len(events), replay, checked


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--big-runs", type=int, default=3, help="runs for the field of 512 players")
    parser.add_argument("--scale", type=float, default=1.0, help="the fields' sizes times this (a quick try)")
    args = parser.parse_args()
    for size in (32, 64, 128, 256, 512):
        n = max(2, round(size * args.scale))
        runs = args.runs if size <= 128 else args.big_runs
        ms = pairing_ms(n, runs)
        print(f"Swiss pairing of round 4, {n} players (three rounds of history), median of {runs}: {ms:.1f} ms")
        print(f"RESULT swiss_pair_{size}_ms={ms:.1f}")
    for size in (64, 256):
        n = max(2, round(size * args.scale))
        ms = first_round_ms(n, args.runs)
        print(f"Swiss round 1 from a seed, {n} players, median of {args.runs}: {ms:.1f} ms")
        print(f"RESULT swiss_pair_first_{size}_ms={ms:.1f}")
    n = max(2, round(256 * args.scale))
    ms = pages_ms(n, args.runs)
    said = f"the standings, a round's and a player's page data, 5 rounds of {n} players, median of {args.runs}"
    print(f"{said}: {ms:.0f} ms")
    print(f"RESULT swiss_pages_256_ms={ms:.1f}")
    for size in (32, 64, 128):
        n = max(2, round(size * args.scale))
        events = swiss_event(n)
        assert verify_swiss(events) == []
        ms = median_ms(lambda events=events: verify_swiss(events), args.runs)
        print(
            f"`swiss verify` of a 5-round event of {n} players ({len(events)} events), "
            f"median of {args.runs}: {ms:.0f} ms"
        )
        print(f"RESULT swiss_verify_{size}_ms={ms:.1f}")
    text = DEMO.read_text("utf-8").splitlines()
    setup = [ln.removeprefix("player ").strip() for ln in text if ln.startswith("player ")]
    lines = [ln for ln in text if ln.strip() and not ln.startswith(("#", "player "))]
    with tempfile.TemporaryDirectory() as tmp, Store(str(Path(tmp) / "bench.db")) as store:
        for key, game, (s, ls) in (("demo", "demo", (setup, lines)), ("long", "long", long_match(150))):
            count, replay, checked = match_ms(store, game, s, ls, args.runs * 4)
            print(f"card game match ({key}, {count} events): replay {replay:.2f} ms, verify {checked:.2f} ms")
            print(f"RESULT ccg_{key}_replay_ms={replay:.2f}")
            print(f"RESULT ccg_{key}_verify_ms={checked:.2f}")


if __name__ == "__main__":
    main()
