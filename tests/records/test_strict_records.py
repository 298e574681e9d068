"""A record reads as it is signed: what a reader of the file sees must be what the seals and the organiser's
signature cover. A text record with a second ``[Event]``, ``[Players]`` or an unknown ``[Result]`` header
before the real ones, and a JSON Lines line naming a key twice (``json`` keeps the last, another reader shows
the first), could verify with ``--key`` while showing the forged values; each is refused in one line naming
the file's line, by ``verify``, ``import`` and ``tournament verify``/``import``, and nothing is stored. A
signature's event number must be a plain number (not ``true``, ``9.0`` or ``"9"``), and a signature line holds
one object. Every forgery is made from a real export."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.support.entry_point import referee

GAME = "demo-two-player-1"


def run(db, *args: str):
    return referee(str(db), *args)


def refused(db, *args: str) -> str:
    """Exit 1, one `error:` line (``import`` may add its hint), no traceback: that line."""
    r = run(db, *args)
    assert r.returncode == 1 and "Traceback" not in r.stderr, (r.stdout[-400:], r.stderr[-2000:])
    lines = r.stderr.splitlines()
    assert lines[0].startswith("error: ") and all(x.startswith("hint: ") for x in lines[1:]), r.stderr
    return lines[0]


@pytest.fixture
def signed(tmp_path, home):
    """A database with the organiser's key, the two-player game closed and signed; (db, fingerprint)."""
    db = tmp_path / "g.db"
    out = run(db, "key", "new", "--name", "Spring Open")
    assert out.returncode == 0, out.stderr
    fp = next(x.split()[1] for x in out.stdout.splitlines() if x.startswith("key "))
    assert run(db, "demo", "--name", "two-player").returncode == 0
    return db, fp


def exported(db: Path, fmt: str, path: Path) -> str:
    assert run(db, "export", GAME, "-f", fmt, "-o", str(path)).returncode == 0
    return path.read_text()


@pytest.mark.parametrize(
    "forged, n, says",
    [
        ('[Event "Forged Cup"]', 3, "a second [Event] header: the first is on line 2"),
        ('[Players "crab: Mallory; crane: Eve"]', 7, "a second [Players] header: the first is on line 2"),
        ('[Result "crab 99, crane 0; winner crab"]', 2, "unknown header [Result]: a game record's are [Game], "),
    ],
)
def test_a_second_or_unknown_header_before_the_real_ones_is_refused(signed, tmp_path, forged, n, says):
    db, fp = signed
    text = exported(db, "text", tmp_path / "g.txt")
    assert f"signed by {fp}" in run(db, "verify", str(tmp_path / "g.txt"), "--key", fp).stdout
    first = f'[Game "{GAME}"]\n'
    assert text.startswith(first)
    record = tmp_path / "forged.txt"
    record.write_text(first + forged + "\n" + text[len(first) :])  # read first by a person, above the real one
    line = refused(db, "verify", str(record), "--key", fp)
    assert line.startswith(f"error: line {n}: {says}"), line
    other = tmp_path / "other.db"
    assert says in refused(other, "import", str(record))
    assert "no game" in run(other, "verify", GAME).stderr  # nothing was stored


def test_a_key_named_twice_in_a_json_line_is_refused(signed, tmp_path):
    """The event's payload twice: the forged one first (what a first-wins reader shows), the signed one last
    (what ``json`` kept); the players' names twice inside a payload; a signature's field twice."""
    db, fp = signed
    lines = exported(db, "jsonl", tmp_path / "g.jsonl").splitlines()
    first = json.loads(lines[0])
    forged_payload = {**first["payload"], "players": {"crab": "Mallory", "crane": "Eve"}}
    body = json.dumps({k: v for k, v in first.items() if k != "payload"})[:-1]
    twice = body + ', "payload": ' + json.dumps(forged_payload) + ', "payload": ' + json.dumps(first["payload"]) + "}"
    assert json.loads(twice) == first  # what json keeps: the signed event, unchanged
    record = tmp_path / "twice.jsonl"
    record.write_text("\n".join([twice, *lines[1:]]) + "\n")
    line = refused(db, "verify", str(record), "--key", fp)
    assert line == "error: line 1: the key 'payload' appears twice in one object", line
    assert "appears twice" in refused(tmp_path / "other.db", "import", str(record))
    players = lines[0].replace('"players":{', '"players":{"crab":"Mallory",', 1)
    assert players != lines[0]
    record.write_text("\n".join([players, *lines[1:]]) + "\n")
    assert "the key 'crab' appears twice" in refused(db, "verify", str(record))
    signature = lines[-1].replace('"seq":9', '"seq":1,"seq":9', 1)
    assert signature != lines[-1] and signature.startswith('{"signature"')
    record.write_text("\n".join([*lines[:-1], signature]) + "\n")
    line = refused(db, "verify", str(record), "--key", fp)
    assert line.startswith(f"error: line {len(lines)}: ") and "the key 'seq' appears twice" in line, line


def test_a_tournament_line_naming_a_key_twice_is_refused(tmp_path, home):
    db = tmp_path / "t.db"
    assert run(db, "tournament", "new", "cup", "--name", "Cup", "--rounds", "1").returncode == 0
    lines = run(db, "tournament", "export", "cup").stdout.splitlines()
    twice = lines[0].replace('"payload":{', '"payload":{"name":"Forged Cup",', 1)
    assert twice != lines[0]
    record = tmp_path / "cup.jsonl"
    record.write_text("\n".join([twice, *lines[1:]]) + "\n")
    assert "line 1: the key 'name' appears twice" in refused(db, "tournament", "verify", str(record))
    assert "appears twice" in refused(tmp_path / "other.db", "tournament", "import", str(record))


@pytest.mark.parametrize("seq", ["true", "9.0", '"9"', "-9", "1e400"])
def test_a_signatures_event_number_is_a_plain_number(signed, tmp_path, seq):
    db, fp = signed
    lines = exported(db, "jsonl", tmp_path / "g.jsonl").splitlines()
    assert '"seq":9' in lines[-1]
    record = tmp_path / "seq.jsonl"
    record.write_text("\n".join([*lines[:-1], lines[-1].replace('"seq":9', f'"seq":{seq}', 1)]) + "\n")
    line = refused(db, "verify", str(record), "--key", fp)
    assert line.startswith(f"error: line {len(lines)}: "), line
    assert "its seq an event's number (1, 2, ...)" in line, line


def test_a_signature_line_holds_one_object(signed, tmp_path):
    db, fp = signed
    lines = exported(db, "jsonl", tmp_path / "g.jsonl").splitlines()
    both = lines[-1][:-1] + ', "note": "signed at the venue"}'
    record = tmp_path / "both.jsonl"
    record.write_text("\n".join([*lines[:-1], both]) + "\n")
    line = refused(db, "verify", str(record), "--key", fp)
    assert line.startswith(f"error: line {len(lines)}: ") and "holds one object" in line, line
