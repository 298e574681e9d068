"""Signed records: organiser keys, signatures made when a game closes, exports that carry them, and `verify`
refusing, with one line each, a rebuilt chain, a signature by another key, a missing signature where one is
required and a record cut after its signature. Everything through the commands a user types (under its real
error boundary, tests/support/entry_point.py), each test with its own HOME and its key files in tmp_path; the
forgeries are made from real exports, as someone holding the files would make them."""

from __future__ import annotations

import html
import json
import re
import stat
from pathlib import Path

import pytest

from referee.log import events as ev, parse_jsonl
from referee.log.records import export_jsonl, export_text
from referee.log.signing import Signature, fingerprint, message, public_hex
from tests.support.entry_point import referee, referee_process

GAME = "demo-five-player-1"


def ok(db: Path | str, *args: str) -> str:
    """The command's output, its lines joined (a long path wraps at the terminal's width)."""
    r = referee(str(db), *args)
    assert r.returncode == 0, r.stderr
    return r.stdout if args[0] in ("key", "export") else " ".join(r.stdout.split())


def refused(db: Path | str, *args: str) -> str:
    """The command fails with exit 1 and one error line on standard error (`verify`: that line alone; others
    may add a hint): that line."""
    r = referee(str(db), *args)
    assert r.returncode == 1, (r.stdout, r.stderr)
    lines = r.stderr.splitlines()
    assert lines and lines[0].startswith("error: "), r.stderr
    assert len(lines) == 1 if args[0] == "verify" else all(x.startswith("hint: ") for x in lines[1:]), r.stderr
    return lines[0]


def new_key(db: Path | str, name: str = "Spring Open 2026", *extra: str) -> str:
    out = ok(db, "key", "new", "--name", name, *extra)
    return next(line.split()[1] for line in out.splitlines() if line.startswith("key "))  # "key FP (name), ..."


def signed_game(tmp_path: Path, home: Path) -> tuple[Path, str]:
    db = tmp_path / "organiser.db"
    fp = new_key(db)
    ok(db, "demo")
    return db, fp


def export(db: Path, fmt: str, path: Path) -> Path:
    ok(db, "export", GAME, "-f", fmt, "-o", str(path))
    return path


# --- keys -------------------------------------------------------------------------------------------------
def test_key_new_writes_a_private_file_and_declares_the_public_key(tmp_path, home):
    db = tmp_path / "k.db"
    fp = new_key(db)
    private = home / ".referee" / "organiser.key"
    assert stat.S_IMODE(private.stat().st_mode) == 0o600
    assert b"PRIVATE KEY" in private.read_bytes() and b"ENCRYPTED" not in private.read_bytes()
    assert b"PUBLIC KEY" in (home / ".referee" / "organiser.key.pub").read_bytes()
    assert b"PRIVATE KEY" not in db.read_bytes()  # the private key never enters the database
    shown = json.loads(ok(db, "key", "show", "--json"))
    assert [k["fingerprint"] for k in shown] == [fp] and shown[0]["current"]
    assert fingerprint(shown[0]["public_key"]) == fp
    # the words: the PGP word list, one word a byte, even list then odd (0xE5 0x82 is "topmost Istanbul")
    words = json.loads(Path("referee/data/pgp_words.json").read_text())
    assert (words["even"][0xE5], words["odd"][0x82]) == ("topmost", "Istanbul")
    raw = bytes.fromhex(fp.replace("-", ""))
    expected = [(words["odd"] if i % 2 else words["even"])[b] for i, b in enumerate(raw)]
    assert shown[0]["words"] == expected
    text = ok(db, "key", "show")
    assert fp in text and " ".join(expected[:5]) in text and " ".join(expected[5:]) in text
    assert "▀" in text or "█" in text  # the QR code, drawn in the terminal
    again = refused(tmp_path / "k2.db", "key", "new", "--name", "again", "--key-file", str(private))
    assert "a file is already there" in again


def test_a_second_key_new_is_refused_and_change_is_named(tmp_path, home):
    db = tmp_path / "k.db"
    new_key(db)
    line = refused(db, "key", "new", "--name", "another", "--key-file", str(tmp_path / "other.key"))
    assert "already has an organiser key" in line
    assert not (tmp_path / "other.key").exists()


def test_a_passphrase_protected_key_signs_only_with_its_passphrase(tmp_path, home, monkeypatch):
    db = tmp_path / "p.db"
    monkeypatch.setenv("REFEREE_KEY_PASSPHRASE", "kaiu wall")
    fp = new_key(db, "Spring Open 2026", "--passphrase")
    assert b"ENCRYPTED PRIVATE KEY" in (home / ".referee" / "organiser.key").read_bytes()
    monkeypatch.delenv("REFEREE_KEY_PASSPHRASE")
    r = referee(str(db), "demo")
    assert r.returncode == 0 and "protected by a passphrase" in r.stderr and "left unsigned" in r.stderr
    assert "; unsigned" in ok(db, "verify", GAME)
    assert "carries no signature" in refused(db, "verify", GAME, "--key", fp)
    monkeypatch.setenv("REFEREE_KEY_PASSPHRASE", "kaiu wall")
    ok(db, "demo", "--name", "two-player")
    assert f"signed by {fp}" in ok(db, "verify", "demo-two-player-1", "--key", fp)


def test_a_key_file_readable_by_others_is_not_used(tmp_path, home):
    db = tmp_path / "m.db"
    new_key(db)
    (home / ".referee" / "organiser.key").chmod(0o644)
    r = referee(str(db), "demo")
    assert r.returncode == 0 and "readable by others" in r.stderr
    assert "; unsigned" in ok(db, "verify", GAME)


def test_no_key_file_closes_the_record_unsigned_and_says_so(tmp_path, home):
    db = tmp_path / "u.db"
    ok(db, "demo")
    assert "; unsigned" in ok(db, "verify", GAME)
    assert "organiser's signature: unsigned: no organiser's signature" in ok(db, "show", GAME)
    text = export(db, "text", tmp_path / "g.txt").read_text()
    headers = text.split("\n\n")[0].splitlines()
    assert headers[-1].startswith("# unsigned: no organiser's signature")  # under the headers, where one looks
    assert text.rstrip().splitlines()[-1].startswith("result: ")  # the record still ends with the result
    assert "; unsigned" in ok(db, "verify", str(tmp_path / "g.txt"))
    assert "Organiser's signature: unsigned" in export(db, "html", tmp_path / "g.html").read_text()


# --- signed records -----------------------------------------------------------------------------------------
def test_a_closed_game_is_signed_and_its_exports_verify_with_the_key(tmp_path, home):
    db, fp = signed_game(tmp_path, home)
    assert f"finished; signed by {fp}" in ok(db, "verify", GAME)
    assert f"organiser's signature: signed by {fp}" in ok(db, "show", GAME)
    text = export(db, "text", tmp_path / "g.txt")
    last = text.read_text().rstrip().splitlines()[-1]
    assert last.startswith(f"== signed by {fp}: game {GAME} event 9 head ")  # the text record ends with it
    jsonl = export(db, "jsonl", tmp_path / "g.jsonl")
    assert json.loads(jsonl.read_text().splitlines()[-1])["signature"]["seq"] == 9
    pub = home / ".referee" / "organiser.key.pub"
    for f in (text, jsonl):
        for key in (fp, fp.lower().replace("-", ""), str(pub)):
            assert f"signed by {fp}" in ok(db, "verify", str(f), "--key", key)
    html = export(db, "html", tmp_path / "g.html").read_text()
    assert f"Organiser's signature: signed by {fp}" in html


def test_a_correction_after_the_end_is_signed(tmp_path, home):
    db, fp = signed_game(tmp_path, home)
    sheet = _round5_changed(db, tmp_path)
    ok(db, "correct", GAME, "5", str(sheet), "--reason", "the judge's ruling: crab's token was a 2")
    jsonl = export(db, "jsonl", tmp_path / "g.jsonl").read_text()
    signed = [json.loads(line)["signature"]["seq"] for line in jsonl.splitlines() if line.startswith('{"signature"')]
    assert signed == [9, 11]  # the closing, and the correction's re-closing (10: the correction, 11: GameEnded)
    assert f"signed by {fp}" in ok(db, "verify", GAME, "--key", fp)


def test_a_correction_made_while_the_key_file_is_away_is_said_and_signed_later(tmp_path, home, monkeypatch):
    """The organiser's key is declared, but its file is not at hand when a correction closes the game again: the
    command warns that the record is left unsigned and names the key; doctor fails the game with the command
    that signs it; `referee key sign` signs it once the file is back, and doctor is content."""
    db, fp = signed_game(tmp_path, home)
    sheet = _round5_changed(db, tmp_path)
    monkeypatch.setenv("REFEREE_KEY_FILE", str(tmp_path / "away.key"))
    r = referee(str(db), "correct", GAME, "5", str(sheet), "--reason", "the judge's ruling", home=home)
    assert r.returncode == 0, r.stderr
    warning = " ".join(r.stderr.split())
    assert f"no key file here, and this database's organiser key is {fp}; the record is left unsigned" in warning
    report = referee(str(db), "doctor", home=home)
    said = " ".join(report.stdout.split())
    assert report.returncode == 1, said
    assert "event 11 (GameEnded) carries no signature" in said and f"`referee key sign {GAME}` signs it" in said
    monkeypatch.delenv("REFEREE_KEY_FILE")
    ok(db, "key", "sign", GAME)
    assert "the database is healthy" in ok(db, "doctor")


def _round5_changed(db: Path, tmp_path: Path) -> Path:
    text = export(db, "text", tmp_path / "before.txt").read_text()
    block = text.split("== round 5 ")[1].split("\n\n")[0].splitlines()[1:]
    entries = [line for line in block if not line.startswith("==")]
    changed = [e.replace("crab: army 1 @ shadowlands_north", "crab: army 2 @ shadowlands_north") for e in entries]
    assert changed != entries
    sheet = tmp_path / "r5.txt"
    sheet.write_text("\n".join(changed) + "\n")
    return sheet


# --- forgeries, each refused with one line ------------------------------------------------------------------
def _events_and_signatures(jsonl: str):
    events = parse_jsonl("".join(line + "\n" for line in jsonl.splitlines() if line.startswith('{"game"')))[0]
    sigs = [json.loads(line) for line in jsonl.splitlines() if line.startswith('{"signature"')]
    return events, sigs


def _rebuilt(events, change) -> list:
    """The game with one payload changed and every hash computed anew, as whoever holds the database can."""
    items = [(e.type, change(e), e.payload_version) for e in events]
    return ev.chain_all(events[0].game, items)


def _with_players(e, name="Mallory"):
    if e.type != "GameCreated":
        return e.payload
    return {**e.payload, "players": {**e.payload["players"], "crab": name}}


def _rebuilt_in_place(db: Path, events, change) -> None:
    """``_rebuilt``, written over the game's rows in the SQLite file, its append-only triggers dropped first."""
    import sqlite3

    conn = sqlite3.connect(db)
    for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
        conn.execute(f'DROP TRIGGER "{name}"')
    for e in _rebuilt(events, change):
        payload = json.dumps(e.payload, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        conn.execute(
            "UPDATE event SET payload = ?, prev_hash = ?, hash = ? WHERE game_id = ? AND seq = ?",
            (payload, e.prev_hash, e.hash, e.game, e.seq),
        )
    conn.commit()
    conn.close()


def _signed_archive(db: str, games: int, key) -> list:
    """An archive of ``games`` golden games under new ids (``g-0000``...), each signed by ``key``, the database's
    declared organiser key: their logs."""
    from referee.log import GOLDEN_GAMES, Store, golden, relabel, signing

    sources = [golden(name) for name in GOLDEN_GAMES]
    logs = [relabel(sources[i % len(sources)], f"g-{i:04d}") for i in range(games)]
    with Store(db) as store:
        signing.ensure_schema(store)
        signing.declare(store, "Archive", key)
        store.import_logs(logs)
        signing.store_signatures(store, [signing.sign(key, "game", log[0].game, log[-1]) for log in logs])
    return logs


def test_a_rebuilt_chain_is_refused(tmp_path, home):
    db, fp = signed_game(tmp_path, home)
    jsonl = export(db, "jsonl", tmp_path / "g.jsonl").read_text()
    events, sigs = _events_and_signatures(jsonl)
    forged = export_jsonl(_rebuilt(events, _with_players)) + "".join(json.dumps(s) + "\n" for s in sigs)
    (tmp_path / "forged.jsonl").write_text(forged)
    assert f"signed by {fp}" in ok(db, "verify", str(tmp_path / "g.jsonl"))
    line = refused(db, "verify", str(tmp_path / "forged.jsonl"))
    assert "the chain was rebuilt" in line and "event 9" in line
    # the text record: a header changed by hand (its seals no longer match: refused as altered), then the
    # record rebuilt, every seal recomputed, the organiser's signature line kept
    text = export(db, "text", tmp_path / "g.txt").read_text()
    crab = events[0].payload["players"]["crab"]
    (tmp_path / "edited.txt").write_text(text.replace(f"crab: {crab}", "crab: Mallory", 1))
    assert "the record was altered" in referee(str(db), "verify", str(tmp_path / "edited.txt")).stderr
    signature = [x for x in text.splitlines() if x.startswith("== signed")]
    (tmp_path / "forged.txt").write_text(export_text(_rebuilt(events, _with_players)) + "\n".join(signature) + "\n")
    line = refused(db, "verify", str(tmp_path / "forged.txt"), "--key", fp)
    assert "the chain was rebuilt" in line and "event 9" in line
    # and the signature's head rewritten to the rebuilt chain's: the signature no longer verifies
    rebuilt = _rebuilt(events, _with_players)
    moved = [{"signature": {**s["signature"], "head": rebuilt[s["signature"]["seq"] - 1].hash}} for s in sigs]
    (tmp_path / "moved.jsonl").write_text(export_jsonl(rebuilt) + "".join(json.dumps(s) + "\n" for s in moved))
    line = refused(db, "verify", str(tmp_path / "moved.jsonl"))
    assert "does not verify with the key it names" in line
    # nothing of a refused record is imported
    assert "chain was rebuilt" in refused(tmp_path / "other.db", "import", str(tmp_path / "forged.jsonl"))


def test_a_chain_rebuilt_inside_the_database_is_refused_by_verify_and_doctor_alike(tmp_path, home):
    """Whoever holds the database file can drop its append-only triggers and write a different game with every
    hash recomputed; the organiser's signature, made when the game closed, still names the old chain head:
    `verify GAME` and `doctor` (every game of the database) refuse it with the same line."""
    db, fp = signed_game(tmp_path, home)
    assert f"ok, verified: 9 events; signed by {fp}" in ok(db, "doctor")
    events, _ = _events_and_signatures(export(db, "jsonl", tmp_path / "g.jsonl").read_text())
    _rebuilt_in_place(db, events, _with_players)
    line = refused(db, "verify", GAME)
    assert "the chain was rebuilt" in line and "event 9" in line
    r = referee(str(db), "doctor")
    assert r.returncode == 1 and "Traceback" not in r.stderr
    said = " ".join(r.stdout.split())
    assert f"{GAME}: FAILED: signature refused: {line.removeprefix(f'error: {GAME}: ')}" in said, said
    assert "1 game(s), 1 failed" in said


def test_a_signature_by_another_key_is_refused(tmp_path, home):
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    db, fp = signed_game(tmp_path, home)
    events, _ = _events_and_signatures(export(db, "jsonl", tmp_path / "g.jsonl").read_text())
    rebuilt = _rebuilt(events, _with_players)
    mallory = Ed25519PrivateKey.generate()
    head = rebuilt[-1]
    sig = Signature(
        "game",
        GAME,
        head.seq,
        head.hash,
        public_hex(mallory.public_key()),
        mallory.sign(message("game", GAME, head.seq, head.hash)).hex(),
    )
    forged = tmp_path / "forged.jsonl"
    forged.write_text(export_jsonl(rebuilt) + json.dumps({"signature": sig.to_dict()}) + "\n")
    assert f"signed by {sig.fingerprint}" in ok(db, "verify", str(forged))  # a valid signature, by someone
    line = refused(db, "verify", str(forged), "--key", fp)
    assert f"signed by key {sig.fingerprint}, not by {fp}" in line
    # the text record: the rebuilt game, signed by Mallory's key
    body = export_text(rebuilt).rstrip("\n")
    line_ = (
        f"== signed by {sig.fingerprint}: game {GAME} event {head.seq} head {head.hash} "
        f"key {sig.public_key} signature {sig.value}"
    )
    (tmp_path / "forged.txt").write_text(body + "\n" + line_ + "\n")
    assert f"not by {fp}" in refused(db, "verify", str(tmp_path / "forged.txt"), "--key", fp)
    # the organiser's key named on a line that holds another key: refused as it is read
    (tmp_path / "lying.txt").write_text(body + "\n" + line_.replace(sig.fingerprint, fp, 1) + "\n")
    assert "names key" in refused(db, "verify", str(tmp_path / "lying.txt"))


def test_a_missing_signature_is_refused_where_one_is_required(tmp_path, home):
    db, fp = signed_game(tmp_path, home)
    jsonl = export(db, "jsonl", tmp_path / "g.jsonl").read_text()
    stripped = tmp_path / "stripped.jsonl"
    stripped.write_text("".join(line + "\n" for line in jsonl.splitlines() if not line.startswith('{"signature"')))
    assert "; unsigned" in ok(db, "verify", str(stripped))  # without --key: an unsigned record, and says so
    line = refused(db, "verify", str(stripped), "--key", fp)
    assert "event 9 (GameEnded) carries no signature" in line
    text = export(db, "text", tmp_path / "g.txt").read_text()
    (tmp_path / "stripped.txt").write_text("\n".join(x for x in text.splitlines() if not x.startswith("== signed")))
    assert "carries no signature" in refused(db, "verify", str(tmp_path / "stripped.txt"), "--key", fp)
    # a correction recorded after the signed end without the key: the signed record now ends unsigned
    (home / ".referee" / "organiser.key").rename(tmp_path / "away.key")
    ok(db, "correct", GAME, "5", str(_round5_changed(db, tmp_path)), "--reason", "the judge's ruling")
    line = refused(db, "verify", GAME)
    assert "event 11 (GameEnded) carries no signature" in line and "the last signature is on event 9" in line
    for fmt in ("jsonl", "text"):
        f = export(db, fmt, tmp_path / f"late.{fmt}")
        assert "carries no signature" in refused(db, "verify", str(f))
    # the key back: the organiser signs the record's head now
    (tmp_path / "away.key").rename(home / ".referee" / "organiser.key")
    assert "event 11 (GameEnded) signed" in ok(db, "key", "sign", GAME)
    assert f"signed by {fp}" in ok(db, "verify", GAME, "--key", fp)
    assert "already signed" in refused(db, "key", "sign", GAME)


def test_a_record_cut_after_its_signature_is_refused(tmp_path, home):
    db, fp = signed_game(tmp_path, home)
    jsonl = export(db, "jsonl", tmp_path / "g.jsonl").read_text().splitlines()
    cut = [line for line in jsonl if not line.startswith('{"game"') or json.loads(line)["seq"] < 9]
    (tmp_path / "cut.jsonl").write_text("\n".join(cut) + "\n")
    line = refused(db, "verify", str(tmp_path / "cut.jsonl"), "--allow-incomplete")
    assert "cut after its signature" in line and "event 9" in line and "ends at event 8" in line
    text = export(db, "text", tmp_path / "g.txt").read_text().splitlines()
    cut_text = [x for x in text if not x.startswith(("== end", "result:"))]
    (tmp_path / "cut.txt").write_text("\n".join(cut_text) + "\n")
    assert "cut after its signature" in refused(db, "verify", str(tmp_path / "cut.txt"), "--allow-incomplete")


def test_a_clean_record_from_another_database_verifies_with_its_key_only(tmp_path, home, monkeypatch):
    db, fp = signed_game(tmp_path, home)
    other_home = tmp_path / "other-home"
    other_home.mkdir()
    monkeypatch.setenv("HOME", str(other_home))
    other = tmp_path / "other.db"
    other_fp = new_key(other, "Autumn Cup")
    assert other_fp != fp
    ok(other, "demo", "--name", "four-player")
    record = tmp_path / "autumn.txt"
    ok(other, "export", "demo-four-player-1", "-f", "text", "-o", str(record))
    monkeypatch.setenv("HOME", str(home))  # checked elsewhere, by someone holding only the record
    assert f"signed by {other_fp}" in ok(db, "verify", str(record), "--key", other_fp)
    assert f"not by {fp}" in refused(db, "verify", str(record), "--key", fp)
    # imported into the first database, it keeps its signature
    ok(db, "import", str(record))
    assert f"signed by {other_fp}" in ok(db, "verify", "demo-four-player-1", "--key", other_fp)
    assert f"not by {fp}" in refused(db, "verify", "demo-four-player-1", "--key", fp)


# --- keys change ----------------------------------------------------------------------------------------------
def test_a_changed_key_is_endorsed_by_the_old_one_and_old_records_stay_valid(tmp_path, home, monkeypatch):
    db, old_fp = signed_game(tmp_path, home)
    new_file = tmp_path / "keys" / "2027.key"
    out = ok(db, "key", "change", "--name", "Spring Open 2027", "--new-key-file", str(new_file))
    new_fp = out.split("\nkey ")[1].split()[0]
    assert stat.S_IMODE(new_file.stat().st_mode) == 0o600
    assert "endorsed by it" in out
    monkeypatch.setenv("REFEREE_KEY_FILE", str(new_file))
    ok(db, "demo", "--name", "two-player")
    assert f"signed by {new_fp}" in ok(db, "verify", "demo-two-player-1", "--key", new_fp)
    assert f"signed by {old_fp}" in ok(db, "verify", GAME, "--key", old_fp)  # signed before: still valid
    record = export_of(db, "demo-two-player-1", tmp_path / "2027.txt")
    assert "== key " in record.read_text()  # the endorsement travels with the record
    assert f"signed by {new_fp}" in ok(tmp_path / "elsewhere.db", "verify", str(record), "--key", old_fp)
    # the old key file no longer signs here
    monkeypatch.setenv("REFEREE_KEY_FILE", str(home / ".referee" / "organiser.key"))
    r = referee(str(db), "demo", "--name", "four-player")
    assert "not this database's current organiser key" in r.stderr
    assert "; unsigned" in ok(db, "verify", "demo-four-player-1")


def export_of(db: Path, game: str, path: Path) -> Path:
    ok(db, "export", game, "-f", "text", "-o", str(path))
    return path


def test_a_lost_key_is_declared_with_a_reason_and_its_records_stay_valid(tmp_path, home, monkeypatch):
    db, old_fp = signed_game(tmp_path, home)
    record = export(db, "jsonl", tmp_path / "before.jsonl")
    assert "with a reason" in refused(db, "key", "lost", "--reason", " ")
    out = ok(db, "key", "lost", "--reason", "laptop stolen at the venue")
    assert f"key {old_fp}" in out and "laptop stolen" in out
    r = referee(str(db), "demo", "--name", "two-player")  # the lost key's file is still there: not used
    assert "not this database's current organiser key" in r.stderr
    new_file = tmp_path / "new.key"
    new_fp = new_key(db, "Spring Open 2026 (second key)", "--key-file", str(new_file))
    shown = ok(db, "key", "show", "--no-qr")
    assert new_fp in shown and f"{old_fp} (Spring Open 2026), lost: laptop stolen at the venue" in shown
    assert f"signed by {old_fp}" in ok(db, "verify", str(record), "--key", old_fp)  # signed before: valid
    monkeypatch.setenv("REFEREE_KEY_FILE", str(new_file))
    ok(db, "demo", "--name", "four-player")
    assert f"signed by {new_fp}" in ok(db, "verify", "demo-four-player-1", "--key", new_fp)
    after = export_of(db, "demo-four-player-1", tmp_path / "after.txt")
    assert "not by" in refused(db, "verify", str(after), "--key", old_fp)  # not endorsed: the old key was lost


# --- tournaments: each round's seating and close, the standings ----------------------------------------------
def _tournament(tmp_path: Path, monkeypatch) -> tuple[Path, str]:
    db = tmp_path / "cup.db"
    ok(db, "tournament", "new", "cup", "--name", "Cup", "--rounds", "2")
    for i in range(8):
        ok(db, "tournament", "players", "add", "cup", f"P{i}")
    key = tmp_path / "cup.key"
    fp = new_key(db, "Cup", "--key-file", str(key))
    monkeypatch.setenv("REFEREE_KEY_FILE", str(key))  # found through the environment, not the default place
    ok(db, "tournament", "seat", "cup", "1")
    for table in json.loads(ok(db, "tournament", "seating", "cup", "1", "--json")):
        ok(db, "tournament", "call", "cup", table["game"], "--reason", "time ran out")
    ok(db, "tournament", "close", "cup", "1")
    return db, fp


def test_a_tournament_signs_its_seatings_and_closes(tmp_path, home, monkeypatch):
    db, fp = _tournament(tmp_path, monkeypatch)
    ok(db, "tournament", "export", "cup", "-o", str(tmp_path / "cup.jsonl"))
    lines = (tmp_path / "cup.jsonl").read_text().splitlines()
    types = {json.loads(x)["seq"]: json.loads(x)["type"] for x in lines if x.startswith('{"game"')}
    signed = [types[json.loads(x)["signature"]["seq"]] for x in lines if x.startswith('{"signature"')]
    assert signed == ["RoundSeated", "GameCalled", "GameCalled", "RoundClosed"]  # every write from the seating on
    for target in ("cup", str(tmp_path / "cup.jsonl")):
        assert f"signed by {fp}" in ok(db, "tournament", "verify", target, "--key", fp)
    assert f"organiser's signature: signed by {fp}" in ok(db, "tournament", "standings", "cup")
    # forged from the export: signature lines dropped, a chain rebuilt, the record cut after its signature
    bare = [x for x in lines if not x.startswith('{"signature"')]
    (tmp_path / "bare.jsonl").write_text("\n".join(bare) + "\n")
    assert "carries no signature" in refused(db, "tournament", "verify", str(tmp_path / "bare.jsonl"), "--key", fp)
    events = parse_jsonl("".join(x + "\n" for x in lines if x.startswith('{"game"')))[0]
    rebuilt = ev.chain_all(
        "cup", [(e.type, {**e.payload, "name": "Other Cup"} if e.seq == 1 else e.payload, 1) for e in events]
    )
    sigs = [x for x in lines if x.startswith('{"signature"')]
    (tmp_path / "rebuilt.jsonl").write_text(export_jsonl(rebuilt) + "\n".join(sigs) + "\n")
    assert "the chain was rebuilt" in refused(db, "tournament", "verify", str(tmp_path / "rebuilt.jsonl"))
    last = max(json.loads(x)["signature"]["seq"] for x in sigs)
    cut = [x for x in lines if not x.startswith('{"game"') or json.loads(x)["seq"] < last]
    (tmp_path / "cut.jsonl").write_text("\n".join(cut) + "\n")
    assert "cut after its signature" in refused(db, "tournament", "verify", str(tmp_path / "cut.jsonl"))
    other = tmp_path / "elsewhere.db"
    ok(other, "tournament", "import", str(tmp_path / "cup.jsonl"))
    assert f"signed by {fp}" in ok(other, "tournament", "verify", "cup", "--key", fp)


def test_the_venue_pages_and_the_printed_sheets_show_the_fingerprint(tmp_path, home, monkeypatch):
    db, fp = _tournament(tmp_path, monkeypatch)
    ok(db, "tournament", "post", "cup", "1")
    site = tmp_path / "site"
    ok(db, "tournament", "publish", "cup", str(site))
    pages = {p.relative_to(site).as_posix(): p.read_text() for p in site.rglob("*.html")}
    shown = [name for name, html in pages.items() if f"Organiser's signature: signed by {fp}" in html]
    assert {"index.html", "seating-1.html"} <= set(shown)
    assert any("sheet" in name for name in shown)  # the printed seating sheet


def test_the_keys_and_signatures_are_append_only(tmp_path, home):
    import sqlite3

    db, _ = signed_game(tmp_path, home)
    conn = sqlite3.connect(db)
    for sql in (
        "DELETE FROM record_signature",
        "UPDATE record_signature SET public_key = 'x'",
        "DELETE FROM key_stream_event",
        "UPDATE key_stream_event SET payload = '{}'",
    ):
        with pytest.raises(sqlite3.DatabaseError, match="append-only"):
            conn.execute(sql)
    conn.close()
    assert "the database is healthy" in ok(db, "doctor")  # a referee database, its new tables known


def test_doctor_names_the_missing_triggers_of_the_signatures_and_keys(tmp_path, home):
    """A signature deleted after its table's append-only trigger was dropped leaves the game merely unsigned;
    doctor names every append-only table's missing trigger (not only the game log's) and exits 1."""
    import sqlite3

    db, _ = signed_game(tmp_path, home)
    conn = sqlite3.connect(db)
    conn.execute("DROP TRIGGER record_signature_no_delete")
    conn.execute("DELETE FROM record_signature")
    conn.execute("DROP TRIGGER key_stream_event_no_update")
    conn.commit()
    conn.close()
    r = referee(str(db), "doctor", home=home)
    said = " ".join(r.stdout.split())
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stderr
    assert "append-only trigger(s) missing: key_stream_event_no_update, record_signature_no_delete" in said, said
    assert "the database is damaged" in said


# --- key changes carried by imported records --------------------------------------------------------------------
def _changed_key_record(tmp_path: Path, home: Path, monkeypatch) -> tuple[str, str, Path]:
    """A record signed by a second key that the first endorsed: (old fingerprint, new fingerprint, record)."""
    db, old_fp = signed_game(tmp_path, home)
    new_file = tmp_path / "keys" / "2027.key"
    out = ok(db, "key", "change", "--name", "Spring Open 2027", "--new-key-file", str(new_file))
    new_fp = out.split("\nkey ")[1].split()[0]
    monkeypatch.setenv("REFEREE_KEY_FILE", str(new_file))
    ok(db, "demo", "--name", "two-player")
    monkeypatch.delenv("REFEREE_KEY_FILE")
    record = tmp_path / "2027.jsonl"
    ok(db, "export", "demo-two-player-1", "-f", "jsonl", "-o", str(record))
    return old_fp, new_fp, record


def test_an_imported_records_key_change_is_stored_and_followed_by_verify(tmp_path, home, monkeypatch):
    old_fp, new_fp, record = _changed_key_record(tmp_path, home, monkeypatch)
    assert '{"key":' in record.read_text()
    elsewhere = tmp_path / "elsewhere.db"  # a database that never held either key
    ok(elsewhere, "import", str(record))
    # the endorsement came with the record: the old key's holder accepts what the new key signed, here too
    assert f"signed by {new_fp}" in ok(elsewhere, "verify", "demo-two-player-1", "--key", old_fp)
    assert f"signed by {new_fp}" in ok(elsewhere, "verify", "demo-two-player-1", "--key", new_fp)
    assert "not by" in refused(elsewhere, "verify", "demo-two-player-1", "--key", "0000-0000-0000-0000-0000")
    # and it travels on: exported from there, the record still carries it
    again = tmp_path / "again.txt"
    ok(elsewhere, "export", "demo-two-player-1", "-f", "text", "-o", str(again))
    assert f"== key {new_fp} replaces {old_fp}" in again.read_text()
    assert f"signed by {new_fp}" in ok(tmp_path / "third.db", "verify", str(again), "--key", old_fp)


def test_a_forged_key_change_is_refused_on_import_and_by_verify(tmp_path, home, monkeypatch):
    old_fp, new_fp, record = _changed_key_record(tmp_path, home, monkeypatch)
    lines = record.read_text().splitlines()
    forged = []
    for line in lines:
        if line.startswith('{"key"'):
            raw = json.loads(line)
            sig = raw["key"]["endorsement"]
            raw["key"]["endorsement"] = ("0" if sig[0] != "0" else "1") + sig[1:]  # one digit changed
            line = json.dumps(raw)
        forged.append(line)
    bad = tmp_path / "forged.jsonl"
    bad.write_text("\n".join(forged) + "\n")
    message = f"the key change to {new_fp} is not endorsed by the key it replaces ({old_fp})"
    assert message in refused(tmp_path / "x.db", "verify", str(bad))
    assert message in refused(tmp_path / "x.db", "verify", str(bad), "--key", old_fp)
    elsewhere = tmp_path / "elsewhere.db"
    assert message in refused(elsewhere, "import", str(bad))
    assert "no game" in referee(str(elsewhere), "verify", "demo-two-player-1").stderr  # nothing was stored


# --- the game page under `referee serve` ---------------------------------------------------------------------------
SIZES = {"phone": (375, 740), "laptop": (1280, 800), "projector": (1920, 1080)}


def test_the_game_page_says_who_signed_at_every_size(tmp_path, home, monkeypatch, chromium):
    """The game page carries the HTML record's signature line (the fingerprint, from `verify`'s one check), and an
    unsigned game's page says so; at a phone's, a laptop's and a projector's size the line is on the page and
    within its width."""
    from tests.support.serving import serve

    db, fp = signed_game(tmp_path, home)
    monkeypatch.setenv("REFEREE_KEY_FILE", str(tmp_path / "no-such.key"))  # closed without the key: unsigned
    ok(db, "demo", "--name", "two-player")
    lines = {}
    for game in (GAME, "demo-two-player-1"):
        record = tmp_path / f"{game}.html"
        ok(db, "export", game, "-f", "html", "-o", str(record))
        shown_line = next(x for x in record.read_text().splitlines() if 'class="signature"' in x)
        lines[game] = html.unescape(re.sub(r"<[^>]+>", "", shown_line)).strip()
    line = f"Organiser's signature: signed by {fp}."
    assert lines[GAME] == line
    assert lines["demo-two-player-1"] == "Organiser's signature: unsigned: no organiser's signature."
    with serve(str(db)) as served:
        for name, (width, height) in SIZES.items():
            page = chromium.new_page(viewport={"width": width, "height": height})
            page.goto(f"{served.url}/games/demo-two-player-1")  # the same line as its HTML record
            assert page.locator("p.signature").inner_text().strip() == lines["demo-two-player-1"], name
            page.goto(f"{served.url}/games/{GAME}")
            shown = page.locator("p.signature")
            assert shown.inner_text().strip() == line, name
            box = shown.bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, (name, box)
            assert page.evaluate("document.documentElement.scrollWidth") <= width, name
            page.close()


# --- both backends: SQLite and PostgreSQL -------------------------------------------------------------------------
def test_keys_signing_verify_and_key_work_on_every_backend(any_db, tmp_path, home, monkeypatch, request):
    """The whole organiser's path on each backend (tests/support/pg_server.py; REFEREE_TEST_PG): a key declared, a game
    closed and signed, verified with --key and refused with another; a game closed without the key signed later
    (`key sign`); the key changed, endorsed, and a record signed by the new key verified with the old one after
    import into another database of the same backend; a lost key declared; the tables append-only."""
    db = any_db
    fp = new_key(db)
    ok(db, "demo")
    assert f"signed by {fp}" in ok(db, "verify", GAME, "--key", fp)
    assert "not by 0000-0000" in refused(db, "verify", GAME, "--key", "0000-0000-0000-0000-0000")
    monkeypatch.setenv("REFEREE_KEY_FILE", str(tmp_path / "elsewhere.key"))  # not at hand: closed unsigned
    ok(db, "demo", "--name", "two-player")
    assert "; unsigned" in ok(db, "verify", "demo-two-player-1")
    assert "carries no signature" in refused(db, "verify", "demo-two-player-1", "--key", fp)
    monkeypatch.delenv("REFEREE_KEY_FILE")
    ok(db, "key", "sign", "demo-two-player-1")
    assert f"signed by {fp}" in ok(db, "verify", "demo-two-player-1", "--key", fp)
    new_file = tmp_path / "2027.key"
    out = ok(db, "key", "change", "--name", "Spring Open 2027", "--new-key-file", str(new_file))
    new_fp = out.split("\nkey ")[1].split()[0]
    monkeypatch.setenv("REFEREE_KEY_FILE", str(new_file))
    ok(db, "demo", "--name", "four-player")
    assert f"signed by {new_fp}" in ok(db, "verify", "demo-four-player-1", "--key", fp)  # endorsed by the old key
    record = tmp_path / "four.jsonl"
    ok(db, "export", "demo-four-player-1", "-f", "jsonl", "-o", str(record))
    # another database of the same backend: a second SQLite file, or a second database on the server
    other = str(tmp_path / "other.db") if "://" not in db else request.getfixturevalue("pg_server").new_database()
    ok(other, "import", str(record))
    assert f"signed by {new_fp}" in ok(other, "verify", "demo-four-player-1", "--key", fp)
    assert "laptop" in ok(db, "key", "lost", "--reason", "laptop stolen")
    assert f"signed by {new_fp}" in ok(db, "verify", "demo-four-player-1", "--key", new_fp)  # signed before: valid
    shown = ok(db, "key", "show", "--no-qr")
    assert f"{new_fp} (Spring Open 2027), lost: laptop stolen" in shown
    _append_only(db)


def _append_only(db: str) -> None:
    from sqlalchemy import create_engine, text
    from sqlalchemy.exc import DatabaseError

    engine = create_engine(db if "://" in db else f"sqlite:///{db}")
    try:
        for sql in ("DELETE FROM record_signature", "UPDATE key_stream_event SET payload = '{}'"):
            with pytest.raises(DatabaseError, match="append-only"), engine.begin() as conn:
                conn.execute(text(sql))
    finally:
        engine.dispose()


# --- an older database: its keys in the table of their own ----------------------------------------------------
LEGACY_TABLE = (
    "CREATE TABLE organiser_key_event (id INTEGER PRIMARY KEY, seq INTEGER NOT NULL UNIQUE, "
    "type VARCHAR(40) NOT NULL, payload TEXT NOT NULL, prev_hash VARCHAR(64) NOT NULL, hash VARCHAR(64) NOT NULL, "
    "recorded_at VARCHAR(40) NOT NULL)"
)


def test_an_older_databases_keys_are_read_on_open_and_moved_to_the_store_unchanged(tmp_path, home):
    """A database written when the keys had a table of their own (organiser_key_event): its key is read from
    there (shown, signing, verify --key), and the first key event written copies the old events, hashes and
    all, to the store's key stream; nothing of the old table is changed or lost."""
    import sqlite3

    from referee.engine import canonical_json
    from referee.log import Store, signing

    db = tmp_path / "older.db"
    ok(db, "demo")  # no key file at hand: closed unsigned
    key = signing.write_key(home / ".referee" / "organiser.key", None)
    public = public_hex(key.public_key())
    fp = fingerprint(public)
    payload = {"name": "Spring Open 2025", "public_key": public, "fingerprint": fp, "replaces": "", "endorsement": ""}
    digest = ev.event_hash(ev.GENESIS, "organiser", 1, "KeyDeclared", 1, payload)
    conn = sqlite3.connect(db)
    with conn:
        conn.execute(LEGACY_TABLE)
        conn.execute(
            "INSERT INTO organiser_key_event (seq, type, payload, prev_hash, hash, recorded_at) "
            "VALUES (?, ?, ?, ?, ?, ?)",
            (1, "KeyDeclared", canonical_json(payload), ev.GENESIS, digest, "2025-04-01T09:00:00+00:00"),
        )
    conn.close()
    assert f"{fp} (Spring Open 2025)" in ok(db, "key", "show", "--no-qr")
    ok(db, "key", "sign", GAME)  # the old table's key is the current key: it signs
    assert f"signed by {fp}" in ok(db, "verify", GAME, "--key", fp)
    with Store(str(db)) as store:
        assert not store.engine.dialect.has_table(store.engine.connect(), "key_stream_event")  # read, not written
    new_file = tmp_path / "2026.key"
    out = ok(db, "key", "change", "--name", "Spring Open 2026", "--new-key-file", str(new_file))
    new_fp = out.split("\nkey ")[1].split()[0]
    with Store(str(db)) as store:
        moved = store.events("organiser", signing.KEYS)
    assert [(e.seq, e.type, e.hash, e.recorded_at) for e in moved[:1]] == [
        (1, "KeyDeclared", digest, "2025-04-01T09:00:00+00:00")
    ]
    assert len(moved) == 2 and moved[1].prev_hash == digest and ev.check_chain(moved) is None
    conn = sqlite3.connect(db)
    assert conn.execute("SELECT seq, hash FROM organiser_key_event").fetchall() == [(1, digest)]  # as it was
    conn.close()
    shown = ok(db, "key", "show", "--no-qr")
    assert new_fp in shown and fp in shown
    assert f"signed by {fp}" in ok(db, "verify", GAME, "--key", fp)  # signed before the move: still valid
    assert "the database is healthy" in ok(db, "doctor")


def test_the_signed_message_is_the_canonical_json_of_its_fields():
    """``message`` writes the common case directly: the same bytes as the canonical JSON it stands for."""
    from referee.engine import canonical_json
    from referee.log.signing import MESSAGE_PREFIX

    for kind, stream, seq, head in [
        ("game", "demo-five-player-1", 9, "ab" * 32),
        ("tournament", 'cup "\\ é 東 \u2028 \x01', 123456789012, ""),
        ("game", "x", True, "h"),  # not a plain number: canonical_json decides (true)
    ]:
        want = MESSAGE_PREFIX + canonical_json({"head": head, "kind": kind, "seq": seq, "stream": stream}).encode()
        assert message(kind, stream, seq, head) == want


def test_doctor_in_two_processes_gives_the_one_process_report_over_a_signed_archive(tmp_path, home):
    """`doctor --jobs 2` checks an archive's games in two processes, a slice at a time; its report is the one
    `--jobs 1` gives, line for line and in the same order, a chain rebuilt inside the file among them."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    db, key = tmp_path / "archive.db", Ed25519PrivateKey.generate()
    logs = _signed_archive(str(db), 600, key)
    _rebuilt_in_place(db, logs[444], lambda e: {**e.payload, "table": "9"} if e.type == "GameCreated" else e.payload)
    reports = {}
    for jobs in ("1", "2"):
        r = referee_process(str(db), "doctor", "--jobs", jobs, "--json", home=home)
        assert r.returncode == 1 and r.stderr == "", r.stderr
        reports[jobs] = json.loads(r.stdout)
    assert (reports["1"]["processes"], reports["2"]["processes"]) == (1, 2)
    assert reports["1"]["games"] == reports["2"]["games"]
    games = reports["2"]["games"]
    assert [g["game"] for g in games] == [f"g-{i:04d}" for i in range(600)]
    assert [g["game"] for g in games if not g["ok"]] == ["g-0444"]
    assert "the chain was rebuilt" in games[444]["detail"]
    assert games[0]["detail"] == f"verified: 8 events; signed by {fingerprint(public_hex(key.public_key()))}"
    text = referee_process(str(db), "doctor", home=home).stdout  # one process a processor: two here, at least
    assert "600 game(s), 1 failed" in text
    usage = referee_process(str(db), "doctor", "--jobs", "0", home=home)
    assert usage.returncode == 2 and "--jobs" in usage.stderr and "Traceback" not in usage.stderr


def test_doctor_in_processes_on_every_backend(any_db, home):
    """Each process of `doctor --jobs 2` opens its own read-only connection to the database the command names:
    a SQLite file or a PostgreSQL URL give the one-process report, every signature checked."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = Ed25519PrivateKey.generate()
    _signed_archive(any_db, 510, key)
    reports = []
    for jobs in ("1", "2"):
        r = referee_process(any_db, "doctor", "--jobs", jobs, "--json", home=home)
        assert r.returncode == 0 and r.stderr == "", r.stderr
        reports.append(json.loads(r.stdout))
    assert [report["processes"] for report in reports] == [1, 2]
    assert reports[0]["games"] == reports[1]["games"] and len(reports[1]["games"]) == 510
    signer = fingerprint(public_hex(key.public_key()))
    assert all(g["ok"] and g["detail"].endswith(f"; signed by {signer}") for g in reports[1]["games"])


def test_verify_of_a_missing_file_says_so(tmp_path, home):
    """`verify` takes a game id or a file: a target named as a file that is not there is refused as a missing
    file (not as an unknown game), and a folder as a folder; exit 1, one line."""
    db = tmp_path / "g.db"
    ok(db, "demo")
    assert refused(db, "verify", str(tmp_path / "nosuch.txt")).endswith(
        f"no such file, and no game of that id (no game '{tmp_path / 'nosuch.txt'}' in {db})"
    )
    assert "a folder, not a record file" in refused(db, "verify", str(tmp_path))
