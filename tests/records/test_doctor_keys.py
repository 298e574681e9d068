"""`doctor` knows the organiser's keys: every stored game's signer is checked against the keys the database
declared (its key stream: current, replaced or lost) or received with an imported record, so a game rebuilt
inside the database file and re-signed by another key is refused by `doctor` and by `verify GAME` alike; `doctor
--key` requires every closed game signed by that organiser; a key declared lost is named wherever its signatures
are shown; a key's name and a loss's reason reach a terminal escaped. The forgery: triggers
dropped (and put back), the players' names swapped, every hash recomputed, the signature row replaced."""

from __future__ import annotations

import html
import json
import sqlite3
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from referee.log import Store, events as ev
from referee.log.signing import fingerprint, public_hex, sign
from referee.web import venue_app
from tests.support import manual
from tests.support.entry_point import referee

GAME = "demo-five-player-1"
HOSTILE = "laptop \x1b[31mstolen\x1b[0m \x1b]8;;https://evil.example\x1b\\here\x1b]8;;\x1b\\ \u202eevil"
ESCAPED = "laptop \\x1b[31mstolen\\x1b[0m \\x1b]8;;https://evil.example\\x1b\\here\\x1b]8;;\\x1b\\ \\u202eevil"


def ok(db, *args: str) -> str:
    r = referee(str(db), *args)
    assert r.returncode == 0, (args, r.stderr)
    return " ".join(r.stdout.split())


def failed(db, *args: str) -> str:
    """A check that fails: exit 1, no traceback; standard output and error, their lines joined."""
    r = referee(str(db), *args)
    assert r.returncode == 1 and "Traceback" not in r.stderr, (args, r.stdout[-500:], r.stderr[-2000:])
    return " ".join((r.stdout + r.stderr).split())


def new_key(db, name: str, *extra: str) -> str:
    out = referee(str(db), "key", "new", "--name", name, *extra)
    assert out.returncode == 0, out.stderr
    return next(x.split()[1] for x in out.stdout.splitlines() if x.startswith("key "))


def resign_in_place(db: Path, game: str) -> str:
    """The audit's forgery inside the SQLite file: the first two players' names swapped, every hash recomputed,
    the organiser's signature row replaced by one of a new key's; the append-only triggers dropped for the
    writes and put back after. The new key's fingerprint."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    with Store(str(db)) as store:
        events = store.events(game)

    def swapped(e):
        if e.type != "GameCreated":
            return {k: v for k, v in e.payload.items() if k != "seal"}
        players = dict(e.payload["players"])
        a, b = list(players)[:2]
        players[a], players[b] = players[b], players[a]
        return {**e.payload, "players": players}

    rebuilt = ev.chain_all(game, [(e.type, swapped(e), e.payload_version) for e in events])
    mallory = Ed25519PrivateKey.generate()
    signature = sign(mallory, "game", game, rebuilt[-1])
    conn = sqlite3.connect(db)
    triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for name, _ in triggers:
        conn.execute(f'DROP TRIGGER "{name}"')
    for e in rebuilt:
        conn.execute(
            "UPDATE event SET payload = ?, prev_hash = ?, hash = ? WHERE game_id = ? AND seq = ?",
            (json.dumps(e.payload, sort_keys=True, separators=(",", ":")), e.prev_hash, e.hash, game, e.seq),
        )
    conn.execute("DELETE FROM record_signature WHERE stream = ?", (game,))
    row = signature.to_dict()
    conn.execute(
        "INSERT INTO record_signature (kind, stream, seq, head, public_key, signature, signed_at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?)",
        (row["kind"], row["stream"], row["seq"], row["head"], row["public_key"], row["signature"], "2026-11-26"),
    )
    for _, sql in triggers:
        conn.execute(sql)
    conn.commit()
    conn.close()
    return fingerprint(public_hex(mallory.public_key()))


def test_a_game_re_signed_inside_the_file_by_an_undeclared_key_is_refused_by_doctor_and_verify(tmp_path, home):
    db = tmp_path / "organiser.db"
    fp = new_key(db, "Spring Open")
    ok(db, "demo")
    assert f"{GAME}: ok, verified: 9 events; signed by {fp}" in ok(db, "doctor")
    mallory = resign_in_place(db, GAME)
    said = failed(db, "doctor")
    refusal = f"event 9 is signed by key {mallory}, which this database never declared (its organiser keys: {fp})"
    assert f"{GAME}: FAILED: signature refused: {refusal}" in said, said
    assert "the database is damaged" in said and "append-only trigger" not in said  # the triggers were put back
    assert refusal in failed(db, "verify", GAME)
    assert f"not by {fp} (--key)" in failed(db, "verify", GAME, "--key", fp)
    assert f"not by {fp} (--key)" in failed(db, "doctor", "--key", fp)
    assert f"key {fp} (Spring Open)" in ok(db, "key", "show", "--no-qr")
    r = referee(str(db), "doctor", "--json")
    report = json.loads(r.stdout)
    assert r.returncode == 1 and [g["ok"] for g in report["games"]] == [False]


def test_doctor_key_requires_every_closed_game_signed_by_that_organiser(tmp_path, home, monkeypatch):
    db = tmp_path / "organiser.db"
    fp = new_key(db, "Spring Open")
    ok(db, "demo")
    monkeypatch.setenv("REFEREE_KEY_FILE", str(tmp_path / "away.key"))  # closed without the key: unsigned
    ok(db, "demo", "--name", "two-player")
    monkeypatch.delenv("REFEREE_KEY_FILE")
    plain = ok(db, "doctor")
    assert "demo-two-player-1: ok, verified: 9 events; unsigned: no organiser's signature" in plain
    assert "the database is healthy" in plain
    said = failed(db, "doctor", "--key", fp)
    assert f"{GAME}: ok, verified: 9 events; signed by {fp}" in said
    assert "demo-two-player-1: FAILED: unsigned: event 9 (GameEnded) carries no signature" in said
    assert "--key requires the organiser's signature" in said and "1 failed" in said
    ok(db, "key", "sign", "demo-two-player-1")
    assert "the database is healthy" in ok(db, "doctor", "--key", fp)
    pub = home / ".referee" / "organiser.key.pub"
    assert "the database is healthy" in ok(db, "doctor", "--key", str(pub))
    other = "0000-0000-0000-0000-0000"
    assert f"is signed by key {fp}, not by {other} (--key)" in failed(db, "doctor", "--key", other)
    usage = referee(str(db), "doctor", "--key", "not-a-key")
    assert usage.returncode == 1 and "neither a fingerprint" in usage.stderr and "Traceback" not in usage.stderr


def test_an_imported_records_signer_is_known_and_named(tmp_path, home, monkeypatch):
    """A record another organiser signed, imported: its signer is recorded with it, so doctor passes it and says
    where the key came from; `doctor --key OURS` fails it, `--key OURS --key THEIRS` passes both."""
    ours = tmp_path / "ours.db"
    fp = new_key(ours, "Spring Open")
    ok(ours, "demo")
    other_home = tmp_path / "autumn"
    other_home.mkdir()
    monkeypatch.setenv("HOME", str(other_home))
    theirs = tmp_path / "theirs.db"
    their_fp = new_key(theirs, "Autumn Cup")
    ok(theirs, "demo", "--name", "two-player")
    record = tmp_path / "autumn.txt"
    ok(theirs, "export", "demo-two-player-1", "-f", "text", "-o", str(record))
    monkeypatch.setenv("HOME", str(home))
    ok(ours, "import", str(record))
    said = ok(ours, "doctor")
    assert f"demo-two-player-1: ok, verified: 9 events; signed by {their_fp} (a key that came with" in said, said
    assert said.count("(a key that came with an imported record)") == 1 and f"signed by {fp};" not in said
    assert f"not by {fp} (--key)" in failed(ours, "doctor", "--key", fp)
    assert "the database is healthy" in ok(ours, "doctor", "--key", fp, "--key", their_fp)
    assert f"signed by {their_fp} (a key that came with an imported record)" in ok(ours, "verify", "demo-two-player-1")


@pytest.fixture
def lost(tmp_path, home, monkeypatch):
    """A game and a tournament's round signed by the organiser's key, then the key declared lost with a hostile
    reason. (db, fingerprint)."""
    db = tmp_path / "lost.db"
    fp = new_key(db, "Spring \x1b[2J\u202eOpen")
    ok(db, "demo")
    ok(db, "tournament", "new", "cup", "--name", "Cup", "--rounds", "1")
    for i in range(4):
        ok(db, "tournament", "players", "add", "cup", f"P{i}")
    ok(db, "tournament", "seat", "cup", "1")
    r = referee(str(db), "key", "lost", "--reason", HOSTILE)
    assert r.returncode == 0 and ESCAPED in r.stdout and "\x1b" not in r.stdout and "\u202e" not in r.stdout
    return db, fp


def test_a_lost_key_is_named_wherever_its_signatures_are_shown(lost, tmp_path):
    db, fp = lost
    named = f"signed by {fp} (key declared lost: {ESCAPED})"
    for args in (["verify", GAME], ["verify", GAME, "--key", fp], ["show", GAME], ["doctor"]):
        r = referee(str(db), *args)
        assert r.returncode == 0 and named in " ".join(r.stdout.split()), (args, r.stdout)
        assert "\x1b" not in r.stdout and "\u202e" not in r.stdout, args
    assert ok(db, "tournament", "standings", "cup").endswith(f"organiser's signature: {named}")
    assert named in ok(db, "tournament", "verify", "cup", "--key", fp)
    page = tmp_path / "g.html"
    ok(db, "export", GAME, "-f", "html", "-o", str(page))
    shown = f"Organiser's signature: signed by {fp} (key declared lost: {HOSTILE})."
    assert html.escape(shown, quote=False) in page.read_text()
    with TestClient(venue_app(str(db)), base_url="http://localhost") as client:
        for path in (f"/games/{GAME}", "/tournaments/cup"):
            body = client.get(path).text
            assert f"signed by {fp} (key declared lost: {html.escape(HOSTILE, quote=False)})" in body, path


def test_a_keys_name_and_a_losss_reason_reach_the_terminal_escaped(lost):
    db, fp = lost
    r = referee(str(db), "key", "show", "--no-qr")
    assert r.returncode == 0 and "\x1b" not in r.stdout and "\u202e" not in r.stdout, r.stdout
    said = " ".join(r.stdout.split())
    assert f"{fp} (Spring \\x1b[2J\\u202eOpen), lost: {ESCAPED}" in said, said
    shown = json.loads(referee(str(db), "key", "show", "--json").stdout)
    assert shown[0]["lost"] == HOSTILE  # the JSON keeps the text exactly


def test_the_manual_says_whoever_writes_the_database_can_declare_a_key():
    signed = manual.read("docs/signed-records.md")
    assert "whoever can write the database can declare a new key" in " ".join(signed.split())
