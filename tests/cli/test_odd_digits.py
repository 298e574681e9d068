"""Numbers read from text, and odd input that could end in a traceback or a server error: a digit such as ``'²'``
(``'²'.isdigit()`` is true, ``int('²')`` fails) where a number is read, in a record's signature line, a correction's
digests, a Swiss result line and the phone forms (a seat's index, version and round, the moderator's version), and a
signature line nested too deeply for the JSON reader, in ``verify`` and ``tournament verify``. Each is refused in
one line (a page naming the form on the web), and a non-ASCII decimal digit (``'١'``, Arabic-Indic one) is refused
as well, not read as 1: every such number is read by one function, ``referee.core.numerals.whole``. The records are
forged from real exports and the forms posted over HTTP to a running ``referee serve --entry``."""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import pytest

from referee.core.numerals import whole
from referee.games.battle import entry as en
from referee.records.jsonl import export_jsonl, parse_jsonl
from referee.store import events as ev
from referee.store.storage import Store
from tests.support.entry_point import referee
from tests.support.serving import serve
from tests.web.test_phone_entry import five_player_game

ODD = ("²", "١", "１", "-1", "1.0", " 1", "")  # superscript two, Arabic-Indic one, full-width one, and not numbers


def one_line_refusal(r, says: str = "") -> str:
    """The command refused the input: exit 1, one `error:` line (a hint may follow), no traceback."""
    assert r.returncode == 1, (r.returncode, r.stdout[-500:], r.stderr[-2000:])
    assert "Traceback" not in r.stderr, r.stderr[-2000:]
    lines = r.stderr.splitlines()
    assert lines and lines[0].startswith("error: ") and all(x.startswith("hint: ") for x in lines[1:]), r.stderr
    assert says in lines[0], lines[0]
    return lines[0]


def test_a_number_is_ascii_digits_only():
    assert [whole(x) for x in ("0", "7", "0042", "123456789012345678")] == [0, 7, 42, 123456789012345678]
    assert all(whole(x) is None for x in ODD), [whole(x) for x in ODD]
    assert whole("9" * 19) is None and whole("9" * 5000) is None  # int() refuses 4,301 digits and more
    assert whole(7) is None and whole(None) is None


# --- records: a signature line's event number, a correction's digests, a deeply nested signature line ----------
@pytest.fixture
def signed(tmp_path, home):
    """The bundled two-player game, closed and signed, with a correction of round 5 recorded after its end."""
    db = str(tmp_path / "g.db")
    assert referee(db, "key", "new", "--name", "Cup").returncode == 0
    assert referee(db, "demo", "--name", "two-player").returncode == 0
    game = "demo-two-player-1"
    text = tmp_path / "g.txt"
    assert referee(db, "export", game, "-f", "text", "-o", str(text)).returncode == 0
    block = text.read_text().split("== round 5 ")[1].split("\n\n")[0].splitlines()[1:]
    sheet = tmp_path / "r5.txt"
    sheet.write_text("\n".join(x for x in block if not x.startswith("==")) + "\n")
    assert referee(db, "correct", game, "5", str(sheet), "--reason", "the judge's ruling").returncode == 0
    return db, game


def test_an_odd_digit_in_a_signature_lines_event_number_is_refused(signed, tmp_path):
    db, game = signed
    record = tmp_path / "signed.txt"
    assert referee(db, "export", game, "-f", "text", "-o", str(record)).returncode == 0
    text = record.read_text()
    assert f"game {game} event 9 head" in text
    for odd in ("²", "١"):
        forged = tmp_path / "forged.txt"
        forged.write_text(text.replace(f"game {game} event 9 head", f"game {game} event {odd}9 head"))
        line = one_line_refusal(referee(db, "verify", str(forged)), "a signature line reads: == signed by")
        n = text.splitlines().index(next(x for x in text.splitlines() if " event 9 head " in x)) + 1
        assert line.startswith(f"error: line {n}: "), line


def test_an_odd_digit_in_a_corrections_digests_is_refused(signed, tmp_path):
    """A correction's digests name rounds: a key '²' (chain rebuilt around it) is named as not a round."""
    db, game = signed
    out = referee(db, "export", game, "-f", "jsonl")
    events = parse_jsonl("".join(x + "\n" for x in out.stdout.splitlines() if x.startswith('{"game"')))[0]
    corrected = next(e for e in events if e.type == "EntryCorrected")
    assert list(corrected.payload["digests"]) == ["5"]
    for odd in ("²", "١"):

        def change(e, odd=odd):
            p = {k: v for k, v in e.payload.items() if k != "seal"}  # the seal is the hash's: made anew
            return {**p, "digests": {odd: p["digests"]["5"]}} if e.type == "EntryCorrected" else p

        forged = tmp_path / "digests.jsonl"
        forged.write_text(export_jsonl(ev.chain_all(game, [(e.type, change(e), e.payload_version) for e in events])))
        r = referee(db, "verify", str(forged))
        assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr[-2000:]
        said = " ".join(r.stdout.split())  # as one line, whatever the width the path's length wraps it at
        assert f"event {corrected.seq}" in said and "its digests name something other than rounds" in said
        one_line_refusal(referee(str(tmp_path / "other.db"), "import", str(forged)), "digests name something other")


def test_a_signature_line_nested_too_deeply_is_refused_in_one_line(signed, tmp_path):
    db, game = signed
    deep = '{"signature": ' + "[" * 100_000 + "]" * 100_000 + "}"
    jsonl = referee(db, "export", game, "-f", "jsonl").stdout
    record = tmp_path / "deep.jsonl"
    record.write_text(jsonl + deep + "\n")
    n = len(jsonl.splitlines()) + 1
    line = one_line_refusal(referee(db, "verify", str(record)), "nested too deeply")
    assert line.startswith(f"error: line {n}: "), line
    assert referee(db, "tournament", "new", "cup", "--name", "Cup", "--rounds", "1").returncode == 0
    tournament = referee(db, "tournament", "export", "cup").stdout
    record.write_text(tournament + deep + "\n")
    line = one_line_refusal(referee(db, "tournament", "verify", str(record)), "nested too deeply")
    assert line.startswith(f"error: line {len(tournament.splitlines()) + 1}: "), line
    one_line_refusal(referee(str(tmp_path / "other.db"), "tournament", "import", str(record)), "nested too deeply")


def test_the_error_boundary_turns_any_recursion_error_into_one_line(monkeypatch, capsys, tmp_path):
    """Whatever input runs a reader out of stack, the entry point's one boundary says so in one line, exit 1."""
    import sys

    from referee.cli import app as cli_app, logcmds

    def deep(*args, **kwargs):
        raise RecursionError("maximum recursion depth exceeded")

    monkeypatch.setattr(logcmds, "read_input", deep)
    record = tmp_path / "r.jsonl"
    record.write_text("{}\n")
    monkeypatch.setattr(sys, "argv", ["referee", "verify", str(record), "--db", str(tmp_path / "x.db")])
    with pytest.raises(SystemExit) as done:
        cli_app.main()
    assert done.value.code == 1
    assert capsys.readouterr().err == "error: the input is nested too deeply to be read\n"


# --- a Swiss result line ------------------------------------------------------------------------------------------
def test_an_odd_digit_as_a_swiss_table_is_refused(tmp_path, home):
    db = str(tmp_path / "k.db")
    for args in (
        ["new", "k", "--name", "K", "--rounds", "3", "--cut", "0", "--no-time-draws"],
        ["players", "k", "Ann", "Bob", "Cat", "Dan"],
        ["pair", "k", "--seed", "7"],
    ):
        assert referee(db, "tournament", "swiss", *args).returncode == 0
    first = referee(db, "tournament", "swiss", "pairings", "k", "1", "--json").stdout
    winner = json.loads(first)["tables"][0]["players"][0]
    for odd in ("²", "١", "１"):
        r = referee(db, "tournament", "swiss", "result", "k", "1", f"{odd}: {winner} military")
        one_line_refusal(r, 'expected "<table>: <winner> <how>"')
    assert referee(db, "tournament", "swiss", "result", "k", "1", f"1: {winner} military").returncode == 0


# --- the phone forms, over HTTP --------------------------------------------------------------------------------
class Browser:
    """A phone or the moderator's laptop: its own cookies, pages read and forms posted over HTTP."""

    def __init__(self, url: str):
        self.url, self.opener = url, urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))
        self.page = self.get(url)[1]

    def get(self, url: str) -> tuple[int, str]:
        return self._open(url, None)

    def post(self, url: str, fields: dict[str, str]) -> tuple[int, str]:
        return self._open(url, urllib.parse.urlencode(fields).encode())

    def _open(self, url: str, data: bytes | None) -> tuple[int, str]:
        try:
            with self.opener.open(url, data=data, timeout=30) as r:
                self.page = r.read().decode()
                return r.status, self.page
        except urllib.error.HTTPError as exc:
            return exc.code, exc.read().decode()

    def field(self, name: str) -> str:
        m = re.search(rf'name="{name}" value="([^"]*)"', self.page)
        assert m, (name, self.page[:500])
        return m.group(1)


def test_odd_digits_in_the_phone_forms_are_refused_with_a_page(tmp_path, home):
    """A seat's form naming its token's index, its list's version or its round, and the moderator's edit naming
    the version, with '²' (a server error before) or '١' (read as 1 before): a page saying the form cannot be
    read, nothing written."""
    db = str(tmp_path / "games.db")
    sheet = five_player_game(db, "phones")
    with serve(db, "127.0.0.1", "--entry") as served:
        out = referee(db, "links", "phones", "--base", served.url)
        assert out.returncode == 0, out.stderr
        links = dict(re.findall(r"^(\w+): (\S+)$", out.stdout, re.M))
        crab_line = next(x for x in sheet if x.startswith("crab:") and " @ " in x and " + " not in x)
        phone = Browser(links["crab"])
        token, place = crab_line.split(":", 1)[1].strip().split(" @ ")
        base = {"csrf": phone.field("csrf"), "version": phone.field("version"), "round": phone.field("round")}
        status, page = phone.post(links["crab"] + "/add", {**base, "token": token, "to": place, "from": ""})
        assert status == 200 and re.search(r"\b1 of (at most )?5 tokens\b", page), page[:500]
        good = {"csrf": phone.field("csrf"), "version": phone.field("version"), "round": phone.field("round")}
        assert good["version"] == "1" and good["round"] == "1"
        with Store(db) as store:
            before = en.history(store, "phones", 1, "crab")
        for odd in ("²", "١"):
            for action, fields in (
                ("remove", {**good, "index": odd}),
                ("remove", {**good, "version": odd, "index": "0"}),
                ("remove", {**good, "round": odd, "index": "0"}),
                ("submit", {**good, "version": odd}),
                ("submit", {**good, "round": odd}),
            ):
                status, page = phone.post(f"{links['crab']}/{action}", fields)
                assert status == 400, (action, fields, status, page[:300])
                assert "could not be read" in page or "no such token" in page, page[:500]
        moderator = Browser(links["moderator"] + "/edit/crab")
        form = {
            "csrf": moderator.field("csrf"),
            "version": moderator.field("version"),
            "round": moderator.field("round"),
            "clan": "crab",
            "lines": crab_line,
        }
        for odd in ("²", "١"):
            status, page = moderator.post(links["moderator"] + "/edit", {**form, "version": odd})
            assert status == 409 and "could not be read" in page, (odd, status, page[:300])
        with Store(db) as store:
            assert en.history(store, "phones", 1, "crab") == before  # nothing written
        assert Browser(links["crab"]).get(links["crab"])[0] == 200  # still serving
    assert "Traceback" not in served.err and " 500" not in served.err, served.err[-2000:]


def test_no_code_reads_a_number_with_isdigit():
    """``str.isdigit()`` admits what ``int()`` refuses: every number written as text is read by ``whole``."""
    root = Path(__file__).resolve().parents[2] / "referee"
    found = [
        f"{p.relative_to(root)}:{n}"
        for p in sorted(root.rglob("*.py"))
        if p.name != "numerals.py"
        for n, line in enumerate(p.read_text().splitlines(), 1)
        if ".isdigit()" in line
    ]
    assert found == []
