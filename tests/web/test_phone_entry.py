"""The phone entry of a round: per-seat links, drafts in the store, the no-JavaScript forms, the
moderator's confirmation through the game service; and every refusal an open venue network calls for."""

from __future__ import annotations

import html
import os
import re
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar

import pytest
from fastapi.testclient import TestClient

from referee.engine.battle import state_digest
from referee.games.battle import entry as en
from referee.games.battle.events import EventType
from referee.games.battle.records import golden
from referee.games.battle.service import OpenGame, new_game, recorded_header
from referee.store.events import LogError
from referee.store.storage import Store
from referee.web import venue_app
from tests.support.entry_point import ROOT, referee

HOST = "http://localhost"
EVIL = "<script>alert(1)</script>"


def five_player_game(db: str, *games: str) -> list[str]:
    """Games set up as the bundled five-player game before its round 1; that round's sheet (seat order)."""
    events = golden("five-player")
    header = events[0].data
    setup = next(e.data["lines"] for e in events if e.type == EventType.SETUP_RECORDED)
    round1 = next(e.data["entries"] for e in events if e.type == EventType.ROUND_RESOLVED)
    with Store(db) as store:
        for game in games:
            new_game(store, game, header["clans"], **recorded_header(header), setup=setup)
    order = [c for c in header["clans"]]
    return sorted(round1, key=lambda line: order.index(line.split(":")[0]))


def tracked_four_player_game(db: str, *games: str) -> list[str]:
    """Games started as a moderator starts them (`referee new`, then `referee setup` with `setup: tokens`: the
    combat tokens tracked, so each clan places exactly five, blessings included, p.7) on the bundled four-player
    game's setup; that game's round 1 in seat order, the Lion's shinobi given up for a blessing 2 on its army 2,
    so that two clans (the Dragon with its blessing 3, the Lion) list four tokens and one blessing."""
    events = golden("four-player")
    clans = events[0].data["clans"]
    capitals = {f"{c}: control 1 facedown @ {c}_capital" for c in clans}
    setup = [x for x in events[1].data["lines"] if x not in capitals and " objective " not in x]
    for game in games:
        made = referee(db, "new", game, "--clans", ",".join(clans))
        assert made.returncode == 0, made.stderr
        done = referee(db, "setup", game, "-", stdin="\n".join(["setup: tokens", *setup]) + "\n")
        assert done.returncode == 0, done.stderr
    sheet = list(events[2].data["entries"])
    sheet.remove("lion: shinobi 1 @ neutral_mainland_northeast")
    sheet[sheet.index("lion: army 2 @ lion_northwest")] += " + blessing 2"
    return sorted(sheet, key=lambda line: clans.index(line.split(":")[0]))


def env_home(tmp_path) -> dict[str, str]:
    return {**os.environ, "HOME": str(tmp_path)}


def issue_links(db: str, game: str) -> dict[str, str]:
    """`referee links GAME`: clan -> secret."""
    out = referee(db, "links", game, "--base", HOST)
    assert out.returncode == 0, out.stderr
    found = dict(re.findall(r"^(\w+): " + re.escape(HOST) + r"/e/(\S+)$", out.stdout, re.M))
    assert found, out.stdout
    return found


class Phone:
    """One seat's phone: its session cookie, its page, its forms (no JavaScript)."""

    def __init__(self, client: TestClient, secret: str):
        self.client, self.base = TestClient(client.app, base_url=HOST), f"/e/{secret}"  # its own cookies
        self.page = self.get()

    def get(self):
        r = self.client.get(self.base)
        assert r.status_code == 200, r.text
        self.cookie = self.client.cookies.get("seat")
        self.page = r.text
        return r.text

    def field(self, name: str) -> str:
        m = re.search(rf'name="{name}" value="([^"]*)"', self.page)
        assert m, name
        return m.group(1)

    def post(self, action: str, **fields):
        data = {"csrf": self.field("csrf"), "version": self.field("version"), "round": self.field("round"), **fields}
        r = self.client.post(f"{self.base}/{action}", data=data, follow_redirects=True)
        self.page = r.text
        return r

    def add(self, line: str):
        """A notation line as the three choices of the form: the token, the province, the border (if any)."""
        _, rest = line.split(":", 1)
        token, _, place = rest.strip().partition(" @ ") if " @ " in rest else (None, None, None)
        if token is None:
            m = re.fullmatch(r"\s*(.+?) (\S+) > (\S+)", rest)
            assert m, line
            return self.post("add", token=m.group(1), to=m.group(3), **{"from": m.group(2)})
        blessing = ""
        if " + " in place:
            place, blessing = place.split(" + ", 1)
        return self.post("add", token=token, to=place, **{"from": ""}, blessing=blessing)


@pytest.fixture
def table(tmp_path):
    db = str(tmp_path / "games.db")
    sheet = five_player_game(db, "typed", "phones")
    return db, sheet


def client_of(db: str, rate: int = 1000) -> TestClient:
    return TestClient(venue_app(db, entry=True, rate=rate), base_url=HOST)


def drafts_written(db: str) -> int:
    with Store(db) as store:
        return sum(i.events for i in store.games(en.ENTRY) if i.kind == en.DRAFT_KIND)


def test_five_seats_enter_a_round_that_equals_the_typed_sheet(table, tmp_path):
    db, sheet = table
    secrets_ = issue_links(db, "phones")
    assert len(secrets_) == 5 and all(len(s) >= 22 for s in secrets_.values())  # >= 128 bits
    with client_of(db) as client:
        phones = {clan: Phone(client, s) for clan, s in secrets_.items()}
        for line in sheet:
            clan = line.split(":")[0]
            p = phones[clan]
            r = p.add(line)
            assert r.status_code == 200 and 'class="refused"' not in r.text, r.text
            assert line in html.unescape(p.page)
        waiting = referee(db, "confirm", "phones", "--yes")
        assert waiting.returncode == 1 and "not every clan has submitted" in waiting.stderr
        assert "entering" in waiting.stdout
        for p in phones.values():
            assert p.post("submit").status_code == 200
            assert 'id="submitted"' in p.page
        confirmed = referee(db, "confirm", "phones", "--yes")
        assert confirmed.returncode == 0, confirmed.stderr
        typed = referee(db, "round", "typed", "-", "--yes", stdin="\n".join(sheet) + "\n")
        assert typed.returncode == 0, typed.stderr
        # the same report, printed the same way (the seal is the game's own)
        seal = re.compile(r"\b[0-9A-Z]{4}(-[0-9A-Z]{4})+\b")
        assert seal.sub("S", typed.stdout) in seal.sub("S", confirmed.stdout)
        with Store(db) as store:
            a, b = OpenGame(store, "typed"), OpenGame(store, "phones")
            ra = [e for e in a.events if e.type == EventType.ROUND_RESOLVED][-1].data
            rb = [e for e in b.events if e.type == EventType.ROUND_RESOLVED][-1].data
            assert ra["entries"] == rb["entries"] and ra["digest"] == rb["digest"] == state_digest(b.state)
            seal_b = en.seal_of(store, "phones", 1)
        # the phones show the seal, and the next round
        p = next(iter(phones.values()))
        stale = p.page
        page = p.get()
        assert seal_b in page and "round 2" in page
        # a form of round 1 posted after round 1 was recorded: refused, nothing written
        before = drafts_written(db)
        p.page = stale
        r = p.post("add", token="army 1", to="crab_capital", **{"from": ""})
        assert r.status_code == 409 and "Round 1 is closed" in r.text and seal_b in r.text
        assert f'href="{p.base}"' in r.text and "Ask the moderator" not in r.text  # the link still works
        assert drafts_written(db) == before


def test_referee_table_takes_the_phones_round_and_resolves_it_as_typed(table):
    """`referee table GAME`, `phones`: each clan's state while they enter; once all submitted, their tokens
    become the session's typed lines, resolved on Enter and recorded as the same sheet typed (issue 23)."""
    db, sheet = table
    clans = list(dict.fromkeys(line.split(":")[0] for line in sheet))
    with Store(db) as store:
        for clan in clans[:-1]:
            draft = en.draft_of(store, "phones", 1, clan)
            en.write_draft(store, draft, [x for x in sheet if x.startswith(clan + ":")], True, 0, "phone")
    waiting = referee(db, "table", "phones", stdin="phones\nquit\n")
    assert waiting.returncode == 0, waiting.stderr
    assert f"waiting for: {clans[-1]}" in waiting.stdout and "submitted (" in waiting.stdout
    with Store(db) as store:
        draft = en.draft_of(store, "phones", 1, clans[-1])
        en.write_draft(store, draft, [x for x in sheet if x.startswith(clans[-1] + ":")], True, 0, "phone")
    done = referee(db, "table", "phones", stdin="phones\n\ny\nquit\n")
    assert done.returncode == 0, done.stderr
    typed = referee(db, "round", "typed", "-", "--yes", stdin="\n".join(sheet) + "\n")
    assert typed.returncode == 0, typed.stderr
    seal = re.compile(r"\b[0-9A-Z]{4}(-[0-9A-Z]{4})+\b")
    report = seal.sub("S", typed.stdout).split("Round 1")[1]
    assert report in seal.sub("S", done.stdout)
    with Store(db) as store:
        a, b = OpenGame(store, "typed"), OpenGame(store, "phones")
        ra = [e for e in a.events if e.type == EventType.ROUND_RESOLVED][-1].data
        rb = [e for e in b.events if e.type == EventType.ROUND_RESOLVED][-1].data
        assert ra["entries"] == rb["entries"] and ra["digest"] == rb["digest"]
        assert en.seal_of(store, "phones", 1) in done.stdout


def test_user_strings_are_escaped(table):
    db, sheet = table
    secrets_ = issue_links(db, "phones")
    clan = sheet[0].split(":")[0]
    with client_of(db) as client:
        p = Phone(client, secrets_[clan])
        r = p.post("add", token="army 1", to=EVIL, **{"from": ""})
        assert r.status_code == 422 and EVIL not in r.text and html.escape(EVIL) in r.text
        assert drafts_written(db) == 0


def test_a_token_is_checked_at_once_with_the_clis_reason(table):
    db, sheet = table
    secrets_ = issue_links(db, "phones")
    clan = sheet[0].split(":")[0]
    with client_of(db) as client:
        p = Phone(client, secrets_[clan])
        r = p.post("add", token="army 9", to="nowhere", **{"from": ""})
        assert r.status_code == 422 and "nowhere" in html.unescape(r.text) and 'class="refused"' in r.text
        assert drafts_written(db) == 0
        # a token the seat has, across a border that is not one: refused with the choices kept on the form
        r = p.post("add", token="army 2", to="shadowlands_south", **{"from": "crane_south"})
        assert r.status_code == 422 and "R-08" in r.text, r.text
        for name, value in (("token", "army 2"), ("to", "shadowlands_south"), ("from", "crane_south")):
            select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', r.text, re.S)
            assert select and re.findall(r'<option value="([^"]*)" selected>', select.group(1)) == [value], name
        assert drafts_written(db) == 0


def test_refusals_write_nothing(table):
    db, sheet = table
    secrets_ = issue_links(db, "phones")
    crab, other = list(secrets_)[:2]
    line = next(x for x in sheet if x.startswith(crab))
    with client_of(db) as client:
        mine = Phone(client, secrets_[crab])
        token = mine.field("csrf")
        version = mine.field("version")
        form = {"token": "army 1", "to": "x", "from": ""}
        # another seat's form posted to this link: its CSRF token is bound to the other link
        theirs = Phone(client, secrets_[other])
        r = client.post(
            f"/e/{secrets_[crab]}/add",
            data={**form, "csrf": theirs.field("csrf"), "version": "0", "round": "1"},
            cookies={"seat": theirs.cookie},
        )
        assert r.status_code == 403
        # no CSRF token, a wrong one
        for csrf in ("", "0" * 64):
            r = client.post(
                f"/e/{secrets_[crab]}/add",
                data={**form, "csrf": csrf, "version": version, "round": "1"},
                cookies={"seat": mine.cookie},
            )
            assert r.status_code == 403 and "expired" in r.text
        # the right token with another session cookie (a replayed form)
        r = client.post(
            f"/e/{secrets_[crab]}/add",
            data={**form, "csrf": token, "version": version, "round": "1"},
            cookies={"seat": "someone-else"},
        )
        assert r.status_code == 403
        # an oversized body
        r = client.post(
            f"/e/{secrets_[crab]}/add",
            content=b"csrf=" + b"a" * 10000,
            headers={"content-type": "application/x-www-form-urlencoded"},
            cookies={"seat": mine.cookie},
        )
        assert r.status_code == 413
        # an unknown link, a revoked link
        assert client.get("/e/" + "A" * 32).status_code == 404
        out = referee(db, "links", "phones", "--base", HOST, "--revoke", crab)
        assert out.returncode == 0
        new = re.search(rf"^{crab}: {re.escape(HOST)}/e/(\S+)$", out.stdout, re.M).group(1)
        assert new != secrets_[crab]
        page = client.get(f"/e/{secrets_[crab]}")
        assert page.status_code == 404 and "revoked" in page.text
        r = client.post(
            f"/e/{secrets_[crab]}/add",
            data={**form, "csrf": token, "version": version, "round": "1"},
            cookies={"seat": mine.cookie},
        )
        assert r.status_code == 404
        assert drafts_written(db) == 0
        # the new link works
        fresh = Phone(client, new)
        assert fresh.add(line).status_code == 200 and line in html.unescape(fresh.page)
        assert drafts_written(db) == 1


def test_a_stale_version_is_refused_with_what_the_first_wrote(table):
    db, sheet = table
    secrets_ = issue_links(db, "phones")
    clan = sheet[0].split(":")[0]
    mine = [x for x in sheet if x.startswith(clan + ":")]
    with client_of(db) as client:
        a = Phone(client, secrets_[clan])
        b = Phone(client, secrets_[clan])  # a second phone of the seat, read at the same version
        b_page = b.page
        assert a.add(mine[0]).status_code == 200
        b.page = b_page
        r = b.post("submit")
        assert r.status_code == 409 and mine[0] in html.unescape(r.text) and "Not written" in r.text
    with Store(db) as store:
        drafts = en.history(store, "phones", 1, clan)
        assert [d.lines for d in drafts] == [(mine[0],)] and drafts[0].by == "phone"


def test_a_closed_round_and_a_finished_game_refuse(table, tmp_path):
    db, _ = table
    out = referee(db, "demo")
    assert out.returncode == 0
    with Store(db) as store:
        finished = next(g.game for g in store.games() if g.game.startswith("demo-"))
        with pytest.raises(LogError, match="ended"):
            en.issue_link(store, finished, "crab")
    refused = referee(db, "links", finished, "--base", HOST)
    assert refused.returncode == 1 and "has ended" in refused.stderr
    # a link issued before the game ended stops working
    secrets_ = issue_links(db, "phones")
    with Store(db) as store:
        log = OpenGame(store, "phones")
        for e in golden("five-player")[1:]:
            if e.type == EventType.ROUND_RESOLVED:
                log.record_round(e.data["entries"])
    with client_of(db) as client:
        p = client.get(f"/e/{next(iter(secrets_.values()))}")
        assert p.status_code == 410 and 'id="closed"' in p.text and 'action="' not in p.text.split('id="closed"')[1]
        cookie = p.cookies.get("seat")
        csrf = en.csrf_token(next(iter(secrets_.values())), cookie)
        r = client.post(
            f"/e/{next(iter(secrets_.values()))}/submit",
            data={"csrf": csrf, "version": "0", "round": "1"},
            cookies={"seat": cookie},
        )
        assert r.status_code == 409 and "has ended" in r.text
    assert drafts_written(db) == 0


def test_rate_limit_per_link(table):
    db, _ = table
    secrets_ = issue_links(db, "phones")
    a, b = list(secrets_.values())[:2]
    with client_of(db, rate=5) as client:
        codes = [client.get(f"/e/{a}").status_code for _ in range(7)]
        assert codes[:5] == [200] * 5 and codes[5:] == [429, 429]
        assert client.get(f"/e/{b}").status_code == 200  # another link is not slowed


def test_plain_serve_has_no_entry_pages(table):
    db, _ = table
    secrets_ = issue_links(db, "phones")
    with TestClient(venue_app(db), base_url=HOST) as client:
        assert client.get(f"/e/{next(iter(secrets_.values()))}").status_code == 404


def test_links_show_once_and_qr_files(table, tmp_path):
    db, _ = table
    qr = tmp_path / "qr"  # made by the command
    out = referee(db, "links", "phones", "--base", HOST, "--qr", str(qr))
    assert out.returncode == 0 and len(list(qr.glob("*.svg"))) == 6  # five seats and the moderator
    assert (qr / "moderator.svg").is_file() and re.search(rf"^moderator: {re.escape(HOST)}/m/\S+$", out.stdout, re.M)
    again = referee(db, "links", "phones", "--base", HOST)
    assert "/e/" not in again.stdout and "/m/" not in again.stdout and again.stdout.count("a link is live") == 6
    with Store(db) as store:  # only hashes are stored
        secrets_ = re.findall(r"/[em]/(\S+)", out.stdout)
        assert len(secrets_) == 6
        for s in secrets_:
            assert store.exists(en.link_hash(s), en.ENTRY)
    raw = open(db, "rb").read()
    assert not any(s.encode() in raw for s in secrets_)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_server_killed_mid_entry_loses_nothing(table, tmp_path):
    db, sheet = table
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    out = referee(db, "links", "phones", "--base", base)
    secrets_ = dict(re.findall(r"^(\w+): " + re.escape(base) + r"/e/(\S+)$", out.stdout, re.M))

    def start():
        proc = subprocess.Popen(
            [sys.executable, "-m", "referee", "serve", "--entry", "--port", str(port), "--db", db],
            cwd=ROOT,
            env=env_home(tmp_path),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/favicon.ico", timeout=1)
                return proc
            except OSError:
                time.sleep(0.1)
        proc.kill()
        raise AssertionError(proc.stderr.read() if proc.stderr else "no server")

    def post_line(clan: str, line: str) -> None:
        jar = CookieJar()
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
        page = opener.open(f"{base}/e/{secrets_[clan]}").read().decode()
        csrf = re.search(r'name="csrf" value="([^"]*)"', page).group(1)
        version = re.search(r'name="version" value="([^"]*)"', page).group(1)
        _, rest = line.split(":", 1)
        token, place = rest.strip().split(" @ ") if " @ " in rest else (None, None)
        if token is None:
            m = re.fullmatch(r"\s*(.+?) (\S+) > (\S+)", rest)
            fields = {"token": m.group(1), "to": m.group(3), "from": m.group(2)}
        else:
            place, _, blessing = place.partition(" + ")
            fields = {"token": token, "to": place, "from": "", "blessing": blessing}
        data = urllib.parse.urlencode({"csrf": csrf, "version": version, "round": "1", **fields}).encode()
        opener.open(f"{base}/e/{secrets_[clan]}/add", data=data).read()

    half = sheet[: len(sheet) // 2]
    server = start()
    try:
        for line in half:
            post_line(line.split(":")[0], line)
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()
    server = start()
    try:
        with Store(db) as store:
            found = [x for c in secrets_ for x in en.draft_of(store, "phones", 1, c).lines]
        assert sorted(found) == sorted(half)
        page = urllib.request.urlopen(f"{base}/e/{secrets_[half[0].split(':')[0]]}").read().decode()
        assert half[0] in html.unescape(page)
    finally:
        server.send_signal(signal.SIGKILL)
        server.wait()


def test_confirm_refuses_a_round_the_placement_check_refuses(table):
    """R-08: at most five tokens a clan at reveal (p.7); lists written past the phone's check (as the moderator's
    side may) with six tokens for one clan: the clan is named, and nothing is recorded."""
    db, sheet = table
    with Store(db) as store:
        clans = [str(c) for c in OpenGame(store, "phones").state.clans]
        for clan in clans:
            mine = [x for x in sheet if x.startswith(clan + ":")]
            if clan == clans[0]:
                mine = [*mine, f"{clan}: bluff @ {clan}_capital"]
            en.write_draft(store, en.draft_of(store, "phones", 1, clan), mine, True, 0, "phone")
        before = len(store.events("phones"))
    out = referee(db, "confirm", "phones", "--yes")
    assert out.returncode == 1 and f"{clans[0]}: " in out.stderr and "R-08" in out.stderr
    assert "submitted" in out.stdout
    with Store(db) as store:
        assert len(store.events("phones")) == before


def test_two_writers_on_one_version(table):
    """The store's (stream, seq) key is the version check: the second writer on version N is refused and told
    what the first wrote; every version is kept."""
    db, sheet = table
    clan = sheet[0].split(":")[0]
    with Store(db) as store:
        read = en.draft_of(store, "phones", 1, clan)
        en.write_draft(store, read, [sheet[0]], False, 0, "phone")
        with pytest.raises(en.DraftStale) as refused:
            en.write_draft(store, read, [], True, 0, "moderator")
        assert refused.value.draft is not None and refused.value.draft.lines == (sheet[0],)
        assert [d.by for d in en.history(store, "phones", 1, clan)] == ["phone"]


def test_an_edit_made_on_an_older_read_is_refused(table):
    """A list edited from a draft read before another write, sent with the version the writer saw last, is
    refused: the first write's token is neither lost nor listed twice."""
    db, sheet = table
    clan = sheet[0].split(":")[0]
    mine = [x for x in sheet if x.startswith(clan + ":")]
    with Store(db) as store:
        before = en.draft_of(store, "phones", 1, clan)
        first = en.write_draft(store, before, [mine[0]], False, 0, "phone")
        with pytest.raises(en.DraftStale):
            en.write_draft(store, before, [mine[1]], False, first.version, "phone")
        with pytest.raises(en.DraftStale):
            en.write_draft(store, first, [mine[0], mine[0]], False, 0, "phone")
        assert [d.lines for d in en.history(store, "phones", 1, clan)] == [(mine[0],)]


def moderator_link(db: str, game: str) -> str:
    """The moderator's secret, from `referee links GAME` (issued with the seats' links)."""
    out = referee(db, "links", game, "--base", HOST, "--revoke", "moderator")
    assert out.returncode == 0, out.stderr
    m = re.search(rf"^moderator: {re.escape(HOST)}/m/(\S+)$", out.stdout, re.M)
    assert m, out.stdout
    return m.group(1)


class Moderator(Phone):
    """The moderator's table page: the same session cookie and CSRF token as a seat's page."""

    def __init__(self, client: TestClient, secret: str):
        self.client, self.base = TestClient(client.app, base_url=HOST), f"/m/{secret}"
        self.page = self.get()

    def edit(self, clan: str, text: str, submitted: bool = True, version: str | None = None):
        page = self.client.get(f"{self.base}/edit/{clan}")
        assert page.status_code == 200, page.text
        self.page = page.text
        data = {"csrf": self.field("csrf"), "version": version or self.field("version"), "clan": clan}
        data["round"] = self.field("round")
        data |= {"lines": text, **({"submitted": "1"} if submitted else {})}
        r = self.client.post(f"{self.base}/edit", data=data, follow_redirects=True)
        self.page = r.text
        return r


def test_the_moderators_page_edits_a_seat_and_resolves_the_round(table):
    """The moderator's link: each clan's state, an edit of a seat's list version-checked against its phone
    (the second write refused with what the first wrote), `Resolve round 1?` recording what `referee round`
    records for the same sheet; seats' links and the moderator's do not open each other's pages."""
    db, sheet = table
    seats = issue_links(db, "phones")
    boss = moderator_link(db, "phones")
    clans = list(seats)
    with client_of(db) as client:
        assert client.get(f"/e/{boss}").status_code == 404  # the moderator's link is no seat's
        assert client.get(f"/m/{seats[clans[0]]}").status_code == 404  # nor a seat's link the table's
        m = Moderator(client, boss)
        assert m.page.count("not started") == 5 and 'id="resolve"' not in m.page
        phones = {c: Phone(client, s) for c, s in seats.items()}
        first = [x for x in sheet if x.startswith(clans[0] + ":")]
        for line in first[:2]:
            phones[clans[0]].add(line)
        m.get()
        assert "entering" in m.page and html.escape(first[0]) in m.page
        # the moderator reads crab's list, the phone writes meanwhile: the moderator's write is refused
        stale = re.search(r'name="version" value="(\d+)"', client.get(f"/m/{boss}/edit/{clans[0]}").text).group(1)
        phones[clans[0]].add(first[2])
        r = m.edit(clans[0], "\n".join(first), version=stale)
        assert r.status_code == 409 and "Not written" in r.text and html.escape(first[2]) in r.text
        # a bad line: every refusal named, nothing written
        before = drafts_written(db)
        r = m.edit(clans[0], "army 9 @ nowhere\nbluff @ atlantis")
        assert r.status_code == 422 and "nowhere" in r.text and "atlantis" in r.text
        assert drafts_written(db) == before
        # the moderator enters the first clan's whole list (the clan's name may be left out) and submits it
        r = m.edit(clans[0], "\n".join(x.split(": ", 1)[1] for x in first))
        assert r.status_code == 200 and 'id="states"' in r.text
        with Store(db) as store:
            d = en.draft_of(store, "phones", 1, clans[0])
            assert d.lines == tuple(first) and d.submitted and d.by == "moderator"
        # the phone now refuses its own stale write, showing what the moderator wrote
        p = phones[clans[0]]
        r = p.post("reopen")
        assert r.status_code == 409 and html.escape(first[-1]) in r.text
        for clan in clans[1:]:
            for line in (x for x in sheet if x.startswith(clan + ":")):
                phones[clan].add(line)
            phones[clan].post("submit")
        m.get()
        assert m.page.count(">submitted<") == 5 and 'id="resolve"' in m.page
        assert "passes the placement check" in m.page
        # a form read before the last change is refused (the table's version), nothing recorded
        with Store(db) as store:
            events = len(store.events("phones"))
        r = client.post(
            f"/m/{boss}/resolve",
            data={"csrf": m.field("csrf"), "version": "1", "round": "1"},
            cookies={"seat": m.cookie},
        )
        assert r.status_code == 409 and "changed" in r.text
        r = m.post("resolve")
        assert r.status_code == 200 and 'id="seal"' in r.text and "round 2" in r.text
        with Store(db) as store:
            assert len(store.events("phones")) == events + 1
    typed = referee(db, "round", "typed", "-", "--yes", stdin="\n".join(sheet) + "\n")
    assert typed.returncode == 0, typed.stderr
    with Store(db) as store:
        a, b = OpenGame(store, "typed"), OpenGame(store, "phones")
        ra = [e for e in a.events if e.type == EventType.ROUND_RESOLVED][-1].data
        rb = [e for e in b.events if e.type == EventType.ROUND_RESOLVED][-1].data
        assert ra["entries"] == rb["entries"] and ra["digest"] == rb["digest"] == state_digest(b.state)


def test_places_offered_are_those_the_check_accepts_and_a_blessing_goes_on_a_listed_token(table):
    """The taps' places for a token in a province: `@` and each existing border (the sea for a coastal one, each
    neighbour) that the one check of a token entered accepts (R-08: one token a border, p.7); nothing written.
    A physically possible but illegal place (R-09: a shinobi on a border) is offered, as the table may hold it.
    A blessing is put on a listed token as one more form (`bless`), checked as the typed line `... + blessing`."""
    db, sheet = table
    seats = issue_links(db, "phones")
    with client_of(db) as client:
        p = Phone(client, seats["crab"])
        places = client.get(f"/e/{seats['crab']}/places", params={"token": "army 2", "to": "shadowlands_south"})
        got = [x["from"] for x in places.json()["places"]]
        assert got[0] == "" and "crab_capital" in got and "crane_capital" not in got  # not a border of it
        assert all(x["line"].startswith("crab: army 2 ") for x in places.json()["places"])
        assert p.add("crab: army 2 crab_capital > shadowlands_south").status_code == 200
        again = client.get(f"/e/{seats['crab']}/places", params={"token": "army 3", "to": "shadowlands_south"})
        assert "crab_capital" not in [x["from"] for x in again.json()["places"]]  # R-08: that border is taken
        unknown = client.get(f"/e/{seats['crab']}/places", params={"token": "army 2", "to": EVIL}).json()
        assert unknown["places"] == [] and EVIL not in str(unknown["refused"])
        assert drafts_written(db) == 1
        assert "+ blessing 2" in p.page
        r = p.post("bless", index="0", blessing="blessing 2")
        blessed = "crab: army 2 crab_capital > shadowlands_south + blessing 2"
        assert r.status_code == 200 and blessed in html.unescape(p.page)
        with Store(db) as store:  # one blessing 2 fewer in the crab's hand this round
            state = OpenGame(store, "phones").state
            left = dict(en.left_of(state, "crab", en.read_list(state, [])))
            now = dict(en.left_of(state, "crab", en.read_list(state, [blessed])))
            assert now.get("blessing 2", 0) == left["blessing 2"] - 1
        r = p.post("bless", index="5", blessing="blessing 2")
        assert r.status_code == 400 and "no such token" in r.text
        p.get()
        r = p.post("bless", index="0", blessing="blessing 9")
        assert r.status_code == 422 and 'class="refused"' in r.text
        assert drafts_written(db) == 2
        script = client.get("/static/entry.js")
        assert script.status_code == 200 and script.headers["content-type"].startswith("text/javascript")
        lion = client.get(f"/e/{seats['lion']}")
        nonce = re.search(r"script-src 'nonce-([^']+)'", lion.headers["content-security-policy"])
        assert nonce and f'src="/static/entry.js" nonce="{nonce.group(1)}"' in lion.text


def test_refused_pages_say_what_to_do_on_the_entry_pages_own_template(table):
    db, _ = table
    with client_of(db) as client:
        for path in ("/e/" + "A" * 32, "/m/" + "A" * 32):
            page = client.get(path)
            assert page.status_code == 404 and "Link not valid" in page.text and "Read-only pages" not in page.text
            assert "Nothing was written" in page.text


def test_the_moderators_forms_refuse_what_a_seats_refuse(table):
    """The table's page is as guarded as a seat's: a seat's CSRF token and cookie do not write there, nor a form
    without its token, nor an oversized body; a revoked moderator's link stops at once; nothing is written."""
    db, sheet = table
    seats = issue_links(db, "phones")
    boss = moderator_link(db, "phones")
    with client_of(db) as client:
        crab = Phone(client, seats["crab"])
        m = Moderator(client, boss)
        m.client.get(f"/m/{boss}/edit/crab")
        form = {"clan": "crab", "lines": sheet[0], "version": "0", "round": "1", "submitted": "1"}
        for csrf, cookie in ((crab.field("csrf"), crab.cookie), ("", m.cookie), ("0" * 64, m.cookie)):
            r = client.post(f"/m/{boss}/edit", data={**form, "csrf": csrf}, cookies={"seat": cookie})
            assert r.status_code == 403 and "expired" in r.text
        r = client.post(
            f"/m/{boss}/resolve",
            content=b"csrf=" + b"a" * 10000,
            headers={"content-type": "application/x-www-form-urlencoded"},
            cookies={"seat": m.cookie},
        )
        assert r.status_code == 413
        r = client.get(f"/m/{boss}/edit/<b>crab")
        assert r.status_code == 404 and "No such seat" in r.text and "<b>crab" not in r.text
        assert drafts_written(db) == 0
        moderator_link(db, "phones")  # --revoke moderator: the old link stops
        page = client.get(f"/m/{boss}")
        assert page.status_code == 404 and "revoked" in page.text and "Read-only pages" not in page.text
    with Store(db) as store:
        assert len([e for e in store.events("phones") if e.type == EventType.ROUND_RESOLVED]) == 0


# --- issue 33: a blessing lands on the token it is pressed beside; counts count tokens; lists shown when all are in
def listed(page: str) -> list[str]:
    """A seat's list as its page shows it, one token a line."""
    mine = re.search(r'<ol id="mine">(.*?)</ol>', page, re.S)
    return [html.unescape(x) for x in re.findall(r'<span class="line">(.*?)</span>', mine.group(1))] if mine else []


def forms_beside(page: str, i: int, action: str) -> dict[str, dict[str, str]]:
    """The forms of ``action`` shown beside the i-th listed token, by their button's text: each form's fields as
    the page holds them (what a press sends)."""
    listed_items = re.search(r'<ol id="mine">(.*?)</ol>', page, re.S)[1]
    items = re.findall(r'<li><span class="line">.*?</li>', listed_items, re.S)
    out = {}
    for form in re.findall(rf'<form class="inline" method="post" action="[^"]*/{action}">(.*?)</form>', items[i], re.S):
        fields = dict(re.findall(r'name="(\w+)" value="([^"]*)"', form))
        out[html.unescape(re.search(r">([^<]*)</button>", form)[1])] = fields
    return out


def press(phone: Phone, action: str, fields: dict[str, str]):
    r = phone.client.post(f"{phone.base}/{action}", data=fields, follow_redirects=True)
    phone.page = r.text
    refused = re.search(r'<p class="refused" role="alert" id="message">(.*?)</p>', r.text)
    assert r.status_code == 200 and not refused, (r.status_code, refused and refused[1])
    return r


@pytest.fixture
def tracked(tmp_path):
    db = str(tmp_path / "games.db")
    return db, tracked_four_player_game(db, "phones", "typed")


def test_each_blessing_pressed_beside_a_token_lands_on_that_token(tracked):
    """Issue 33: `+ blessing N` beside the k-th of four listed tokens puts the blessing on that token and no other
    (the form's index is the token's, not the blessing's place among the buttons); `− blessing N` takes it off
    again. Every button beside every token, pressed as the page holds it (no JavaScript)."""
    db, sheet = tracked
    seats = issue_links(db, "phones")
    with client_of(db) as client:
        dragon = Phone(client, seats["dragon"])
        bare = [x.split(" + ")[0] for x in sheet if x.startswith("dragon:")]
        assert len(bare) == 4
        for line in bare:
            dragon.add(line)
        assert listed(dragon.page) == bare
        pressed = 0
        for i in range(4):
            buttons = sorted(forms_beside(dragon.page, i, "bless"))
            assert buttons == ["+ blessing 2", "+ blessing 3"]  # the Dragon's blessing 3 (p.3) and the 2s
            for label in buttons:
                press(dragon, "bless", forms_beside(dragon.page, i, "bless")[label])
                blessing = label[2:]
                want = [f"{x} + {blessing}" if k == i else x for k, x in enumerate(bare)]
                assert listed(dragon.page) == want, (i, label)
                pressed += 1
                (off_label, off), *more = forms_beside(dragon.page, i, "unbless").items()
                assert off_label == f"− {blessing}" and not more
                assert all(not forms_beside(dragon.page, k, "unbless") for k in range(4) if k != i)
                press(dragon, "unbless", off)
                assert listed(dragon.page) == bare
        assert pressed == 8
        with Store(db) as store:  # the drafts kept every version: 4 tokens, then 8 blessings put on and taken off
            assert len(en.history(store, "phones", 1, "dragon")) == 4 + 2 * 8
        # a blessing the token does not carry, a token not listed: refused, nothing written
        before = drafts_written(db)
        r = dragon.post("unbless", index="1", blessing="blessing 2")
        assert r.status_code == 422 and "carries no blessing 2" in html.unescape(r.text)
        r = dragon.post("unbless", index="7", blessing="blessing 2")
        assert r.status_code == 400 and "no such token" in r.text
        assert drafts_written(db) == before


def test_counts_count_tokens_and_blessings_the_same_everywhere(tracked):
    """Issue 33: a clan's count is its tokens, blessings included, against the five it places (p.7), shown as
    "4 of 5" by the phone (with what is missing, before Submit), the moderator's page, `referee confirm` and
    `referee table`'s `phones`, all from one count."""
    db, sheet = tracked
    seats = issue_links(db, "phones")
    boss = moderator_link(db, "phones")
    bare = [x.split(" + ")[0] for x in sheet if x.startswith("dragon:")]
    with client_of(db) as client:
        dragon = Phone(client, seats["dragon"])
        for line in bare:
            dragon.add(line)
        count = re.search(r'<p id="count"[^>]*>(.*?)</p>', dragon.page, re.S)[1]
        assert "<strong>4 of 5 tokens</strong>" in count and "1 missing: exactly 5 placed, blessings included" in count
        assert dragon.page.index('id="count"') < dragon.page.index('id="submit"')
        assert ">Submit my 4 of 5 tokens</button>" in dragon.page
        m = Moderator(client, boss)
        row = re.search(r'<tr data-clan="dragon">(.*?)</tr>', m.page, re.S)[1]
        assert '<td class="count">4 of 5 <span class="muted">(1 missing)</span>' in row
        said = "dragon     entering (4 of 5 tokens; 1 missing: exactly 5 placed, blessings included (p.7))"
        confirm = referee(db, "confirm", "phones")
        assert confirm.returncode == 1 and said in confirm.stdout, confirm.stdout
        table = referee(db, "table", "phones", stdin="phones\nquit\n")
        assert table.returncode == 0 and said in table.stdout, table.stdout
        # the blessing: five tokens on four lines, every screen says 5 of 5; nothing more can be added
        press(dragon, "bless", forms_beside(dragon.page, 0, "bless")["+ blessing 3"])
        assert ">Submit my 5 of 5 tokens</button>" in dragon.page and "every token is placed" in dragon.page
        assert not forms_beside(dragon.page, 0, "bless") and 'id="add"' not in dragon.page
        m.get()
        assert '<td class="count">5 of 5</td>' in re.search(r'<tr data-clan="dragon">(.*?)</tr>', m.page, re.S)[1]
        assert "dragon     entering (5 of 5 tokens)" in referee(db, "confirm", "phones").stdout
        assert "dragon     entering (5 of 5 tokens)" in referee(db, "table", "phones", stdin="phones\nquit\n").stdout


def test_a_seat_reads_the_others_lists_only_once_every_clan_has_submitted(tracked):
    """Issue 33: a seat that submits sees each clan's state, not its tokens, until every clan has submitted; a
    seat that reopens its list hides them again; the moderator's page shows every list at any time."""
    db, sheet = tracked
    seats = issue_links(db, "phones")
    boss = moderator_link(db, "phones")
    clans = list(seats)
    with client_of(db) as client:
        phones = {c: Phone(client, s) for c, s in seats.items()}
        first = clans[0]
        phones[first].post("submit")  # submits nothing, to read the others
        for clan in clans[1:]:
            for line in (x for x in sheet if x.startswith(clan + ":")):
                phones[clan].add(line)
            assert 'id="others"' not in phones[clan].get()  # not submitted: no table at all
        page = phones[first].get()
        assert 'id="hidden-lists"' in page and "entering" in page
        assert not any(html.escape(x.split(": ", 1)[1]) in page for x in sheet if not x.startswith(first + ":"))
        m = Moderator(client, boss)
        assert all(html.escape(x) in m.page for x in sheet if not x.startswith(first + ":"))  # the moderator: all
        for clan in clans[1:-1]:
            phones[clan].post("submit")
        assert 'id="hidden-lists"' in phones[first].get()  # one clan still entering
        phones[clans[-1]].post("submit")
        page = phones[first].get()
        assert 'id="hidden-lists"' not in page
        assert all(html.escape(x.split(": ", 1)[1]) in page for x in sheet if not x.startswith(first + ":"))
        phones[clans[-1]].post("reopen")
        page = phones[first].get()
        assert 'id="hidden-lists"' in page and html.escape(sheet[-1].split(": ", 1)[1]) not in page


def test_a_seats_link_after_the_game_is_over_says_so_with_the_result(table):
    """Issue 33: once the fifth round is recorded, a seat's link no longer shows "round 6" with every clan "not
    started": it says the game is over and gives its result, the winner and each clan's honor as `referee score`
    gives them, with a link to the game's page; no form is left on it."""
    db, _ = table
    seats = issue_links(db, "phones")
    with Store(db) as store:
        log = OpenGame(store, "phones")
        for e in golden("five-player")[1:]:
            if e.type == EventType.ROUND_RESOLVED:
                log.record_round(e.data["entries"])
    score = referee(db, "score", "phones", "--json")
    assert score.returncode == 0, score.stderr
    import json

    final = json.loads(score.stdout)
    assert not final["provisional"] and final["winners"]
    with client_of(db) as client:
        page = client.get(f"/e/{seats['crab']}")
        assert page.status_code == 410
        text = html.unescape(page.text)
        assert "<h1>Crab · the game is over</h1>" in text and "round 6" not in text and "not started" not in text
        said = re.sub(r"<[^>]+>", "", text.split('id="result"', 1)[1])
        assert f"Winner: {' and '.join(final['winners'])} ({final['tiebreak']})" in said
        totals = re.findall(r"</span> (\w+)(?: \([^)]*\))?: <strong class=\"nowrap\">(-?\d+) honor</strong>", text)
        assert totals == [(s["clan"], str(s["total"])) for s in final["scores"]]
        assert 'href="/games/phones"' in text and "<form" not in text.split("</h1>", 1)[1]


def test_the_moderators_edit_shows_a_refused_form_as_it_was_sent(table):
    """Issue 33: a refused edit of a seat's list comes back with the lines and the `Submitted` box as the moderator
    sent them (the box was shown unticked whenever the stored list was not submitted), nothing written."""
    db, sheet = table
    boss = moderator_link(db, "phones")
    clan = sheet[0].split(":")[0]
    box = re.compile(r'<input type="checkbox" name="submitted" value="1"( checked)?>')
    with client_of(db) as client:
        m = Moderator(client, boss)
        for ticked in (True, False):
            r = m.edit(clan, f"{sheet[0]}\narmy 9 @ nowhere", submitted=ticked)
            assert r.status_code == 422 and "nowhere" in r.text
            assert bool(box.search(r.text)[1]) is ticked
            assert html.escape(sheet[0]) in r.text  # the lines as typed
        assert drafts_written(db) == 0
        assert m.edit(clan, sheet[0], submitted=True).status_code == 200  # written, submitted
        r = m.edit(clan, f"{sheet[0]}\narmy 9 @ nowhere", submitted=False)
        assert r.status_code == 422 and box.search(r.text)[1] is None  # as sent, not as stored
        assert drafts_written(db) == 1
