"""Benchmark the pictures and the venue pages, server side.

    python bench/bench_web.py [--repeat 100]

- one board SVG: round 1 of the bundled five-player game (25 revealed tokens) drawn on its board
  (``board_svg``), median of --repeat;
- the game page of that finished game (5 rounds, 5 players) through the ASGI test client, median of
  --repeat requests: warm (the app's cache holds the game's fold and page data, as between two
  readers) and cold (the cache emptied before each request: the log read, folded and drawn again);
- the HTML game record (`export --format html`: five rounds drawn), median of a tenth of --repeat;
- the standings page and the seating page of a 200-player tournament (3 rounds of 40 tables played
  through the engine and closed, round 3 posted), through the ASGI test client, median of --repeat
  (warm: the page data cached per state of the tournament; cold: computed again, median of a fifth).

Not a timed test: it prints figures. Lines starting with RESULT are read by bench/run.py.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def median_ms(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=100)
    args = parser.parse_args()

    from fastapi.testclient import TestClient

    from referee.games.battle.fold import Fold
    from referee.games.battle.records import golden, import_records
    from referee.store.storage import Store
    from referee.views.board_svg import board_svg
    from referee.views.html import game_record
    from referee.web import venue_app

    events = golden("five-player")
    fold = Fold.of(events)
    first = fold.played(1)
    assert len(first.lines) == 25
    board_svg(first.before, first.report)
    svg = median_ms(lambda: board_svg(first.before, first.report), args.repeat)
    print(f"board SVG, 25 tokens: {svg:.2f} ms (median of {args.repeat})")
    print(f"RESULT svg_ms={svg:.2f}")

    with tempfile.TemporaryDirectory() as tmp:
        with Store(str(Path(tmp) / "games.db")) as store:
            from referee.records.jsonl import export_jsonl

            import_records(store, export_jsonl(events))
            game = events[0].game
            app = venue_app(store=store)
            with TestClient(app, base_url="http://localhost") as client:
                assert client.get(f"/games/{game}").status_code == 200
                warm = median_ms(lambda: client.get(f"/games/{game}"), args.repeat)

                def cold():
                    app.state.cache.items.clear()
                    client.get(f"/games/{game}")

                cold_ms = median_ms(cold, args.repeat)
            print(
                f"game page (5 rounds, 5 players): warm {warm:.2f} ms, cold {cold_ms:.2f} ms (median of {args.repeat})"
            )
            print(f"RESULT game_page_ms={warm:.2f}")
            print(f"RESULT game_page_cold_ms={cold_ms:.2f}")
            stored = store.events(game)
            record = median_ms(lambda: game_record(stored), max(5, args.repeat // 10))
            print(f"HTML game record: {record:.2f} ms")
            print(f"RESULT record_ms={record:.2f}")

    sys.path.insert(0, str(ROOT / "bench"))
    from bench_tournament import build  # a tournament played through the engine (issue 13's benchmark)

    from referee.tournaments import venue

    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "t.db")
        build(db, 200, 3, close=True)
        with Store(db) as store:
            venue.record(store, "bench", "post", "3")
            app = venue_app(store=store)
            with TestClient(app, base_url="http://localhost") as client:
                assert (
                    client.get("/tournaments/bench").text.count('<th scope="row"><a href="/tournaments/bench/players/')
                    == 200
                )
                page = median_ms(lambda: client.get("/tournaments/bench"), args.repeat)

                def cold():
                    app.state.cache.items.clear()
                    client.get("/tournaments/bench")

                cold_page = median_ms(cold, max(5, args.repeat // 5))
                seating = median_ms(lambda: client.get("/tournaments/bench/seating/3"), args.repeat)
        print(
            f"standings page, 200 players x 3 rounds: {page:.2f} ms; seating page: {seating:.2f} ms "
            f"(median of {args.repeat})"
        )
        print(f"standings page cold (cache emptied: fold and standings computed again): {cold_page:.2f} ms")
        print(f"RESULT standings_page_ms={page:.2f}")
        print(f"RESULT standings_page_cold_ms={cold_page:.2f}")
        print(f"RESULT seating_page_ms={seating:.2f}")


if __name__ == "__main__":
    main()
