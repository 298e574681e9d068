"""The phone links' files and the per-link rate limit: `links --qr` writes each QR code (a capability, as the
printed sheet's links) mode 600 whatever the umask, a file already there included, as the sheet with the same
links is; the rate limit forgets the links idle for a minute as it goes, its clean-up not scanning every link on
every request past 10,000 links (bench/bench_rate_limit.py measures it)."""

from __future__ import annotations

import os
import re
import stat

import pytest
from fastapi.testclient import TestClient

from referee.web import entry as web_entry, venue_app
from tests.support.entry_point import referee
from tests.web.test_phone_entry import five_player_game


def test_links_qr_files_are_the_owners_alone(tmp_path, home):
    db = str(tmp_path / "games.db")
    five_player_game(db, "phones")
    qr = tmp_path / "qr"
    qr.mkdir()
    (qr / "crab.svg").write_text("an old code")
    (qr / "crab.svg").chmod(0o644)
    old = os.umask(0o022)
    try:
        r = referee(db, "links", "phones", "--base", "https://10.0.0.2:8443", "--qr", str(qr))
    finally:
        os.umask(old)
    assert r.returncode == 0, r.stderr
    files = sorted(qr.glob("*.svg"))
    assert len(files) == 6  # five seats and the moderator
    assert {stat.S_IMODE(f.stat().st_mode) for f in files} == {0o600}
    crab = re.search(r"^crab: (\S+)$", r.stdout, re.M).group(1)
    svg = (qr / "crab.svg").read_text()
    assert svg.startswith("<?xml") and "<title>phones: crab</title>" in svg and "an old code" not in svg
    assert crab.startswith("https://10.0.0.2:8443/e/")


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock(monkeypatch):
    c = Clock()
    monkeypatch.setattr(web_entry.time, "monotonic", c)
    return c


def test_the_rate_limit_counts_each_link_and_forgets_the_idle_ones_as_it_goes(clock):
    limit = web_entry.RateLimit(3)
    assert [limit.allow("a") for _ in range(4)] == [True, True, True, False]
    assert limit.allow("b")
    clock.now += 30
    assert not limit.allow("a") and limit.allow("b")
    clock.now += 31  # a's requests are a minute old; b was asked 31 s ago
    assert limit.allow("a")
    clock.now += 61
    assert limit.allow("c")
    assert list(limit.seen) == ["c"]  # a and b, idle for a minute, forgotten by the next request


def test_the_limit_holds_with_a_flood_of_links_and_the_flood_is_forgotten(clock):
    """50,000 made-up links within the minute: each is held (its count is the limit's), a real link is still
    limited, and a minute later the first request forgets them all."""
    limit = web_entry.RateLimit(2)
    for i in range(50_000):
        assert limit.allow(f"made-up-{i}")
        clock.now += 0.0005
    assert len(limit.seen) == 50_000
    assert [limit.allow("seat") for _ in range(3)] == [True, True, False]
    assert [limit.allow("made-up-0") for _ in range(2)] == [True, False]  # counted as any link
    clock.now += 61
    assert limit.allow("seat") and list(limit.seen) == ["seat"]


def test_an_unknown_link_is_refused_and_rate_limited_through_the_app(tmp_path, home):
    db = str(tmp_path / "games.db")
    five_player_game(db, "phones")
    with TestClient(venue_app(db, entry=True, rate=2), base_url="http://localhost") as client:
        codes = [client.get("/e/" + "A" * 32).status_code for _ in range(3)]
        assert codes == [404, 404, 429]
        for i in range(300):  # other unknown links: each its own count
            assert client.get(f"/e/{i:032d}").status_code == 404
