"""Benchmark the phone entry of a round (issue 23), server side.

    python bench/bench_entry.py [--rounds 8]

The bench round (round 1 of the bundled five-player game, 25 tokens) entered by its five seats through the
no-JavaScript forms of `referee serve --entry` (the ASGI test client, SQLite on local disk), --rounds times
on fresh games, as `referee serve --entry` serves them (a SQLite database in WAL mode, `Store.write_ahead`):
the server time of each token added (the POST: parse, CSRF, the engine's check, the draft event written),
timed inside the app from the request's arrival to its last byte sent, median and p95; the same POST timed
from the client (the test client's round trip, in-process); the seat page read after it (the GET the redirect
asks); the choices a player makes per token on the form (token, province, the border when the token
crosses one, a blessing, the Add button); and the taps per token on the board picture (the page's script:
the token, its province, then one of the places the server offers for it there, `GET /e/SECRET/places`,
which must include the token's own; a blessing one tap more). The load average is printed beside the
figures: the machine is shared, and its other jobs move the tail.

Not a timed test: it prints figures. Lines starting with RESULT carry the figures (RESULT key=value).
"""

from __future__ import annotations

import argparse
import re
import statistics
import sys
import tempfile
import time
from contextlib import ExitStack
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1]


class Timed:
    """The app, timed from a request's arrival to its response's last byte (the server's own time)."""

    def __init__(self, app):
        self.app, self.last = app, 0.0

    async def __call__(self, scope, receive, send):
        start = time.perf_counter()
        await self.app(scope, receive, send)
        self.last = (time.perf_counter() - start) * 1000


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=8)
    args = parser.parse_args()

    from fastapi.testclient import TestClient

    from referee.games.battle import entry as en
    from referee.games.battle.events import EventType
    from referee.games.battle.records import golden
    from referee.games.battle.service import new_game, recorded_header
    from referee.store.storage import Store
    from referee.web import venue_app

    events = golden("five-player")
    header = events[0].data
    setup = next(e.data["lines"] for e in events if e.type == EventType.SETUP_RECORDED)
    sheet = next(e.data["entries"] for e in events if e.type == EventType.ROUND_RESOLVED)
    posts: list[float] = []
    trips: list[float] = []
    gets: list[float] = []
    choices: list[int] = []
    taps: list[int] = []
    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "bench.db")
        store = Store(db)
        app = Timed(venue_app(store=store, names=["testserver"], entry=True, rate=10_000))
        for n in range(args.rounds):
            game = f"bench-{n}"
            new_game(store, game, header["clans"], **recorded_header(header), setup=setup)
            seats = {c: en.issue_link(store, game, c) for c in header["clans"]}
            stack = ExitStack()
            clients = {c: stack.enter_context(TestClient(app)) for c in seats}  # one event loop each, kept
            pages = {c: clients[c].get(f"/e/{s}").text for c, s in seats.items()}
            for line in sheet:
                clan, rest = line.split(":", 1)
                rest = rest.strip()
                blessing = ""
                if " + " in rest:
                    rest, blessing = rest.split(" + ", 1)
                if " @ " in rest:
                    token, to = rest.split(" @ ")
                    source = ""
                else:
                    m = re.fullmatch(r"(.+?) (\S+) > (\S+)", rest)
                    assert m, line
                    token, source, to = m.groups()
                page = pages[clan]
                form = {
                    name: re.search(rf'name="{name}" value="([^"]*)"', page).group(1)  # type: ignore[union-attr]
                    for name in ("csrf", "version", "round")
                }
                form |= {"token": token, "to": to, "from": source, "blessing": blessing}
                offered = clients[clan].get(f"/e/{seats[clan]}/places", params={"token": token, "to": to}).json()
                assert source in [p["from"] for p in offered["places"]], (line, offered)
                taps.append(3 + bool(blessing))  # the token, its province on the board, the place offered; a blessing
                start = time.perf_counter()
                r = clients[clan].post(f"/e/{seats[clan]}/add", data=form, follow_redirects=False)
                trips.append((time.perf_counter() - start) * 1000)
                posts.append(app.last)
                assert r.status_code == 303, r.text
                start = time.perf_counter()
                pages[clan] = clients[clan].get(f"/e/{seats[clan]}").text
                gets.append((time.perf_counter() - start) * 1000)
                choices.append(3 + bool(source) + bool(blessing))
            stack.close()
        store.close()
    print(f"tokens entered: {len(posts)} ({args.rounds} rounds of {len(sheet)}); load average {load()}")
    print(f"RESULT entry_post_median_ms={statistics.median(posts):.2f}")
    print(f"RESULT entry_post_p95_ms={p95(posts):.2f}")
    print(f"RESULT entry_post_trip_median_ms={statistics.median(trips):.2f}")
    print(f"RESULT entry_post_trip_p95_ms={p95(trips):.2f}")
    print(f"RESULT entry_page_median_ms={statistics.median(gets):.2f}")
    print(f"RESULT entry_choices_per_token={statistics.mean(choices):.2f}")
    print(f"RESULT entry_taps_per_token={statistics.mean(taps):.2f}")


def load() -> str:
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "unknown"


if __name__ == "__main__":
    main()
