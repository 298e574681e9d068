"""Benchmark the phone entry's per-link rate limit under a flood of links (unknown secrets among them).

    python bench/bench_rate_limit.py [--keys 50000] [--repeat 2000]

`referee serve --entry` counts each link's requests of the last minute (``referee/web/entry.py`` ``RateLimit``),
a key a link's hash, unknown ones too: a listener who sprays made-up links fills it with keys. Two figures:

- one request's rate-limit check (``RateLimit.allow``, a new key each time) with ``--keys`` keys already held,
  all asked within the minute: median and p95 of ``--repeat`` requests, in microseconds;
- a request for an unknown link (``GET /e/<secret>``, the 404 page) through the app (in-process test client),
  median of a quarter of ``--repeat`` after 20 to warm up, with no key held and with ``--keys`` keys held.

Not a timed test: it prints figures. Lines starting with RESULT are read by bench/run.py. ``--source DIR``
measures the ``referee`` package found under DIR instead (an older checkout: the figure before a change).
"""

from __future__ import annotations

import argparse
import secrets
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def timed(fn, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        out.append(time.perf_counter() - start)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keys", type=int, default=50_000)
    parser.add_argument("--repeat", type=int, default=2000)
    parser.add_argument("--source", type=Path, default=ROOT, help=argparse.SUPPRESS)
    args = parser.parse_args()
    sys.path.insert(0, str(args.source))

    from fastapi.testclient import TestClient

    from referee.store.storage import Store
    from referee.web import venue_app
    from referee.web.entry import RateLimit

    limit = RateLimit(120)
    start = time.perf_counter()
    for i in range(args.keys):
        limit.allow(f"held-{i}")
    filled = time.perf_counter() - start
    allow = timed(lambda: limit.allow(secrets.token_hex(16)), args.repeat)
    median_us, p95_us = statistics.median(allow) * 1e6, sorted(allow)[int(0.95 * len(allow))] * 1e6
    print(
        f"rate limit, one request with {args.keys:,} keys held: median {median_us:.1f} us, p95 {p95_us:.1f} us "
        f"(filling them took {filled:.1f} s)"
    )

    with tempfile.TemporaryDirectory() as tmp:
        db = str(Path(tmp) / "entry.db")
        Store(db).close()
        pages = {}
        for held in (0, args.keys):
            app = venue_app(db, entry=True)
            for i in range(held):
                app.state.entry_rate.allow(f"held-{i}")
            with TestClient(app, base_url="http://localhost") as client:
                assert client.get("/e/" + secrets.token_urlsafe(24)).status_code == 404
                timed(lambda c=client: c.get("/e/" + secrets.token_urlsafe(24)), 20)  # warm
                times = timed(lambda c=client: c.get("/e/" + secrets.token_urlsafe(24)), max(args.repeat // 4, 5))
            pages[held] = statistics.median(times) * 1000
            print(f"an unknown link's page (404), {held:,} keys held: median {pages[held]:.2f} ms")
    print(f"RESULT rate_limit_allow_us={median_us:.1f}")
    print(f"RESULT rate_limit_allow_p95_us={p95_us:.1f}")
    print(f"RESULT entry_unknown_link_ms={pages[0]:.2f}")
    print(f"RESULT entry_unknown_link_crowded_ms={pages[args.keys]:.2f}")


if __name__ == "__main__":
    main()
