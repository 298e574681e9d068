"""A signed tournament covers everything that feeds its standings: from its first seating on, every event (a
result, a called game, a judge's adjustment or correction, a round's close) is signed as a game's events are
from its closing on. A record with events after its last signature is refused by ``--key`` (and by a plain
``tournament verify``, as a game's is) and shown as unsigned; an honest late adjustment is signed when the key
is at hand, warned about when it is not, and ``referee key sign --tournament`` signs the head later.

The forgery: one ``PointsAdjusted`` (+100 for the last-placed player) appended to a real export
after its signed final close, the chain extended as anyone can extend it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from referee.log import events as ev, parse_jsonl
from referee.log.records import export_jsonl
from tests.support.entry_point import referee


def ok(db, *args: str) -> str:
    r = referee(str(db), *args)
    assert r.returncode == 0, (args, r.stderr)
    return " ".join(r.stdout.split())


def refused(db, *args: str) -> str:
    r = referee(str(db), *args)
    assert r.returncode == 1 and "Traceback" not in r.stderr, (args, r.stdout[-400:], r.stderr[-2000:])
    lines = r.stderr.splitlines()
    assert lines[0].startswith("error: ") and all(x.startswith(("hint: ", "warning: ")) for x in lines[1:]), r.stderr
    return lines[0]


@pytest.fixture
def closed(tmp_path, home, monkeypatch):
    """A one-round tournament of eight, its key in a file named by $REFEREE_KEY_FILE: seated, each table's game
    called, the round (the tournament) closed, every step signed. (db, fingerprint, key file)."""
    db = tmp_path / "cup.db"
    ok(db, "tournament", "new", "cup", "--name", "Cup", "--rounds", "1")
    for i in range(8):
        ok(db, "tournament", "players", "add", "cup", f"P{i}")
    key = tmp_path / "cup.key"
    out = referee(str(db), "key", "new", "--name", "Cup", "--key-file", str(key)).stdout
    fp = next(x.split()[1] for x in out.splitlines() if x.startswith("key "))
    monkeypatch.setenv("REFEREE_KEY_FILE", str(key))
    ok(db, "tournament", "seat", "cup", "1")
    for table in json.loads(referee(str(db), "tournament", "seating", "cup", "1", "--json").stdout):
        ok(db, "tournament", "call", "cup", table["game"], "--reason", "time ran out")
    ok(db, "tournament", "close", "cup", "1")
    return db, fp, key


def standings(db) -> tuple[list[str], str]:
    """The players' ids in rank order, and the standings' signature line."""
    rows = json.loads(referee(str(db), "tournament", "standings", "cup", "--json").stdout)["standings"]
    line = ok(db, "tournament", "standings", "cup").split("organiser's signature: ")[1]
    return [r["player"] for r in rows], line


def signed_types(jsonl: str) -> list[str]:
    lines = jsonl.splitlines()
    types = {json.loads(x)["seq"]: json.loads(x)["type"] for x in lines if x.startswith('{"game"')}
    return [types[json.loads(x)["signature"]["seq"]] for x in lines if x.startswith('{"signature"')]


def test_an_adjustment_appended_after_the_signed_close_is_refused(closed, tmp_path):
    db, fp, _ = closed
    export = tmp_path / "cup.jsonl"
    ok(db, "tournament", "export", "cup", "-o", str(export))
    text = export.read_text()
    assert signed_types(text)[0] == "RoundSeated" and signed_types(text)[-1] == "RoundClosed"
    assert f"signed by {fp}" in ok(db, "tournament", "verify", str(export), "--key", fp)
    last = standings(db)[0][-1]
    events = parse_jsonl("".join(x + "\n" for x in text.splitlines() if x.startswith('{"game"')))[0]
    payload = {"player": last, "points": "100", "reason": "x", "round": 0}
    extra = ev.chain("cup", events[-1], "PointsAdjusted", payload, version=1, recorded_at=events[-1].recorded_at)
    forged = tmp_path / "forged.jsonl"
    forged.write_text(text + export_jsonl([extra]))
    n = len(events) + 1
    says = f"event {n} (PointsAdjusted) carries no signature, and a signed record must: the last signature is on"
    for args in (["--key", fp], []):
        assert says in refused(db, "tournament", "verify", str(forged), *args)
    other = tmp_path / "other.db"
    assert says in refused(other, "tournament", "import", str(forged))
    assert not other.exists()  # refused before the database was opened: nothing stored


def test_an_honest_late_adjustment_is_signed_and_one_made_without_the_key_is_shown_unsigned(
    closed, tmp_path, monkeypatch
):
    db, fp, key = closed
    before, line = standings(db)
    assert line == f"signed by {fp}"
    ok(db, "tournament", "adjust", "cup", before[-1], "1", "--reason", "a penalty taken back")
    jsonl = referee(str(db), "tournament", "export", "cup").stdout
    assert signed_types(jsonl)[-1] == "PointsAdjusted"  # signed as it was recorded
    assert f"signed by {fp}" in ok(db, "tournament", "verify", "cup", "--key", fp)
    assert standings(db)[1] == f"signed by {fp}"
    # the key file away: the adjustment is recorded, the organiser told, the record shown unsigned from there
    monkeypatch.setenv("REFEREE_KEY_FILE", str(tmp_path / "away.key"))
    r = referee(str(db), "tournament", "adjust", "cup", before[-2], "1", "--reason", "the judge's ruling")
    assert r.returncode == 0, r.stderr
    warning = " ".join(r.stderr.split())
    assert f"this database's organiser key is {fp}; the record is left unsigned" in warning
    assert "`referee key sign --tournament cup` signs it" in warning
    shown = standings(db)[1]
    assert shown.startswith("unsigned: event ") and "(PointsAdjusted) carries no signature" in shown, shown
    assert "carries no signature" in refused(db, "tournament", "verify", "cup", "--key", fp)
    export = tmp_path / "late.jsonl"
    ok(db, "tournament", "export", "cup", "-o", str(export))
    assert "carries no signature" in refused(db, "tournament", "verify", str(export), "--key", fp)
    assert refused(db, "tournament", "verify", "cup") == f"error: cup: {shown.removeprefix('unsigned: ')}"
    # the key back: `key sign --tournament` signs the head; everything verifies, and a second sign is refused
    monkeypatch.setenv("REFEREE_KEY_FILE", str(key))
    assert "(PointsAdjusted) signed; signed by" in ok(db, "key", "sign", "--tournament", "cup")
    assert f"signed by {fp}" in ok(db, "tournament", "verify", "cup", "--key", fp)
    assert standings(db)[1] == f"signed by {fp}"
    assert "already signed at its last event" in refused(db, "key", "sign", "--tournament", "cup")
    ok(db, "tournament", "export", "cup", "-o", str(export))
    assert f"signed by {fp}" in ok(tmp_path / "elsewhere.db", "tournament", "verify", str(export), "--key", fp)


def test_a_judges_correction_after_the_close_is_signed(closed):
    db, fp, _ = closed
    table = json.loads(referee(str(db), "tournament", "seating", "cup", "1", "--json").stdout)[0]
    names = [s["name"] for s in table["seats"]]
    honors = [f"{n}={40 - 5 * i}" for i, n in enumerate(names)]
    jsonl = referee(str(db), "tournament", "export", "cup").stdout
    events = parse_jsonl("".join(x + "\n" for x in jsonl.splitlines() if x.startswith('{"game"')))[0]
    called = next(e.seq for e in events if e.type == "GameCalled" and e.payload["game"] == table["game"])
    out = ok(db, "tournament", "result", "cup", "1", "1", *honors, "--reason", "on paper", "--replaces", str(called))
    assert "a correction of a closed round" in out
    jsonl = referee(str(db), "tournament", "export", "cup").stdout
    assert signed_types(jsonl)[-1] == "ResultEntered"
    assert f"signed by {fp}" in ok(db, "tournament", "verify", "cup", "--key", fp)
    assert standings(db)[1] == f"signed by {fp}"


def test_key_sign_refuses_to_sign_over_a_forged_record(closed, tmp_path):
    """A record whose signature is refused for anything but an unsigned tail (here a tournament rebuilt inside the
    database file) is not signed again: `key sign` names the refusal and signs nothing."""
    import sqlite3

    db, fp, _ = closed
    conn = sqlite3.connect(db)
    triggers = conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'").fetchall()
    for name, _ in triggers:
        conn.execute(f'DROP TRIGGER "{name}"')
    rows = conn.execute(
        "SELECT seq, type, payload_version, payload FROM tournament_event WHERE tournament_id = 'cup' ORDER BY seq"
    ).fetchall()
    items = []
    for seq, type_, version, payload in rows:
        p = json.loads(payload)
        items.append((type_, {**p, "name": "Other Cup"} if seq == 1 else p, version))
    for e in ev.chain_all("cup", items):
        conn.execute(
            "UPDATE tournament_event SET payload = ?, prev_hash = ?, hash = ? WHERE tournament_id = 'cup' AND seq = ?",
            (json.dumps(e.payload, sort_keys=True, separators=(",", ":")), e.prev_hash, e.hash, e.seq),
        )
    for _, sql in triggers:
        conn.execute(sql)
    conn.commit()
    conn.close()
    line = refused(db, "key", "sign", "--tournament", "cup")
    assert "the chain was rebuilt" in line and "nothing was signed" in line
    assert "the chain was rebuilt" in refused(db, "tournament", "verify", "cup")


def test_an_unseated_tournament_needs_no_signature(tmp_path, home):
    db = tmp_path / "t.db"
    ok(db, "tournament", "new", "cup", "--name", "Cup", "--rounds", "1")
    ok(db, "tournament", "players", "add", "cup", "P0")
    assert "nothing to sign yet" in refused(db, "key", "sign", "--tournament", "cup")
    assert Path(db).exists()
