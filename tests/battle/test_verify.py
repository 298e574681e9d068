"""What `referee verify` does for each stored game, done once where it belongs, with the same answers.

- An event read from the database has its hash checked on the payload's stored text (the text hashed
  when it was written), not on the payload serialised again; a text spelled otherwise, or a payload
  changed after it was read, falls back to the payload itself, so every answer is the one it was.
- Every recorded state digest is checked first on orjson's encoding of the digest's parts, which must be
  the engine's canonical JSON byte for byte; when it is not, the engine's own digest decides.
- A setup's facts are parsed once per board data version and laid on the board with one copy of the
  state; a refused setup names the same line as fact-by-fact would (p.4, p.6).
"""

from __future__ import annotations

import importlib
import json
import sqlite3
import subprocess
from dataclasses import replace
from pathlib import Path

import orjson
import pytest

from referee.cli.app import app
from referee.engine import resolve
from referee.engine.model.digest import canonical_json, digest_parts
from referee.log import GOLDEN_GAMES, Problem, Store, game_score, golden, states, verify
from referee.log.events import SEALED, _hash_of, chain_all, hashed_text
from tests.support.entry_point import run_in_process, runner

ROOT = Path(__file__).parents[2]
replay_module = importlib.import_module("referee.log.replay")  # the module (``referee.log.replay`` is the function)
GAME = "four-player"
SETUP, ROUND1 = 2, 3  # seqs of the golden game's SetupRecorded and first RoundResolved


@pytest.fixture
def db(tmp_path):
    path = str(tmp_path / "verify.db")
    with Store(path) as store:
        store.import_logs([golden(name) for name in GOLDEN_GAMES])
    return path


def _verify(db: str, game: str = GAME):
    return runner.invoke(app, ["verify", game, "--db", db])


def _cli(db: str, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return run_in_process([*args, "--db", db], stdin=stdin, cwd=ROOT)


def _set_payload(db: str, seq: int, text: str) -> None:
    """A forger's edit of one stored payload (the append-only triggers dropped first)."""
    with sqlite3.connect(db) as conn:
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute("UPDATE event SET payload = ? WHERE game_id = ? AND seq = ?", (text, GAME, seq))


def _stored(db: str, game: str = GAME):
    with Store(db) as store:
        return store.events(game)


# --- the hash chain on the stored text ------------------------------------------------------------------
def test_every_stored_event_is_checked_on_its_stored_text(db):
    """The fast check is the one taken for an untouched game: the text cut from the database hashes to the
    recorded hash for every event, sealed (RoundResolved: its seal left out) or not."""
    for name in GOLDEN_GAMES:
        assert _verify(db, name).exit_code == 0
        for e in _stored(db, name):
            assert e.stored is not None and e.stored.payload is e.payload
            text = hashed_text(e.type, e.stored.text, e.payload)
            assert text is not None, (name, e.seq)
            assert (e.type in SEALED) == (text != e.stored.text)
            assert _hash_of(e.prev_hash, e.game, e.seq, e.type, e.payload_version, text) == e.hash, (name, e.seq)


@pytest.mark.parametrize("seq", [SETUP, ROUND1], ids=["setup", "sealed round"])
def test_a_payload_spelled_otherwise_still_verifies(db, seq):
    """The hash covers the payload, not its spelling: the same payload written with spaces (and a sealed
    round's seal first) verifies as before, through the payload serialised again."""
    payload = next(e.payload for e in _stored(db) if e.seq == seq)
    if "seal" in payload:
        payload = {"seal": payload["seal"], **{k: v for k, v in payload.items() if k != "seal"}}
    _set_payload(db, seq, json.dumps(payload, indent=1))
    result = _verify(db)
    assert result.exit_code == 0, result.output
    assert "verified" in result.output


def test_an_edited_stored_text_is_named_by_the_command(db):
    """A changed token in round 1's stored text: the report names the event and the problem."""
    e = next(e for e in _stored(db) if e.seq == ROUND1)
    line = e.payload["entries"][0]
    assert line == "dragon: army 3 dragon_capital > lion_northwest + blessing 3"
    edited = line.replace("army 3", "army 2")
    _set_payload(db, ROUND1, e.stored.text.replace(json.dumps(line), json.dumps(edited), 1))
    result = _cli(db, "verify", GAME)
    assert result.returncode == 1
    said = " ".join(result.stdout.split())  # the report, wrapped at the terminal's width
    assert f"first divergence at event {ROUND1}: {Problem.EDITED}: its RoundResolved content no longer" in said
    assert "no longer matches its recorded hash" in said
    assert "Traceback" not in result.stderr


def test_a_payload_changed_after_reading_is_checked_on_the_payload(db):
    """An event whose payload was replaced after it was read keeps no claim on the stored text."""
    events = _stored(db)
    assert verify(events) is None
    e = events[ROUND1 - 1]
    events[ROUND1 - 1] = replace(e, payload={**e.payload, "entries": e.payload["entries"][1:]})
    found = verify(events)
    assert (found.seq, found.problem) == (ROUND1, Problem.EDITED)


# --- state digests on orjson's encoding ---------------------------------------------------------------
def _boards(tmp_path):
    """Boards of every kind the engine makes: each golden game's event by event, the cards game's (table
    events: initiative, inventory, cards), and seeded random five-player rounds."""
    from tests.battle.test_game_with_cards_log import _record
    from tests.support.outcomes_build import random_round

    for name in GOLDEN_GAMES:
        yield from (step.state for step in states(golden(name)))
    with Store(str(tmp_path / "cards.db")) as store:
        yield from (step.state for step in states(_record(store)))
    for seed in range(0, 200, 20):
        state, entries = random_round(seed)
        yield resolve(state, entries)[0]


def test_orjson_writes_the_canonical_json_of_every_board(tmp_path):
    boards = list(_boards(tmp_path))
    assert len(boards) > 40 and any(b.inventory for b in boards) and any(b.table and b.table.events for b in boards)
    for board in boards:
        parts = digest_parts(board)
        assert orjson.dumps(parts, option=replay_module._ORJSON) == canonical_json(parts).encode()


class _OtherEncoding:
    """An orjson that writes something else than the canonical JSON (a future change of its output)."""

    @staticmethod
    def dumps(value, option=0):
        return b"[" + orjson.dumps(value, option=option) + b"]"


def test_the_engine_digest_decides_when_the_fast_encoding_differs(db, monkeypatch):
    """Every recorded digest still verifies on the engine's own digest, and a forged one is still named."""
    monkeypatch.setattr(replay_module, "orjson", _OtherEncoding)
    for name in GOLDEN_GAMES:
        result = _verify(db, name)
        assert result.exit_code == 0, result.output
    events = _stored(db)
    items = [
        (e.type, {**e.payload, "digest": "0" * 64} if e.seq == ROUND1 else e.payload, e.payload_version) for e in events
    ]
    found = verify(chain_all(GAME, items))  # a digest forged, the chain made whole again
    assert (found.seq, found.problem) == (ROUND1, Problem.ENGINE)
    assert "round 1: recorded digest 000000000000..., the engine's re-run gives" in found.detail


def test_orjson_writes_the_canonical_json_of_every_final_score(tmp_path):
    """The closing event's score digest, checked first on orjson's encoding: the same bytes as canonical JSON."""
    from referee.log.ending import fast_score_digest, score_digest
    from referee.log.replay import Fold
    from tests.battle.test_game_with_cards_log import _record

    with Store(str(tmp_path / "cards.db")) as store:
        logs = [golden(name) for name in GOLDEN_GAMES] + [_record(store)]
    for log in logs:
        fold = Fold.of(log)
        scores = [game_score(fold)] + [game_score(fold, p.after) for p in fold.rounds]
        for score in scores:
            assert fast_score_digest(score) == score_digest(score)


def test_the_canonical_score_digest_decides_when_the_fast_one_differs(db, monkeypatch):
    """A closing event verifies on the engine's canonical digest alone, and a forged final score is named."""
    monkeypatch.setattr("referee.log.ending.fast_score_digest", lambda score: "0" * 64)
    for name in GOLDEN_GAMES:
        result = _verify(db, name)
        assert result.exit_code == 0, result.output
    events = _stored(db)
    end = events[-1]
    scores = {clan: total + 1 for clan, total in end.payload["scores"].items()}
    items = [(e.type, {**e.payload, "scores": scores} if e is end else e.payload, e.payload_version) for e in events]
    found = verify(chain_all(GAME, items))  # a total forged, the chain made whole again
    assert (found.seq, found.problem) == (end.seq, Problem.ENGINE)
    assert f"the recorded final score {scores}" in found.detail


# --- a setup laid at once, refused where fact by fact refuses it (p.4, p.6) ------------------------------
@pytest.fixture
def new_db(tmp_path):
    path = str(tmp_path / "setup.db")
    new = ["new", "t1", "--clans", "crab,lion", "--players", "crab=Ann,lion=Bo", "--partial-setup"]
    assert runner.invoke(app, [*new, "--db", path]).exit_code == 0
    return path


def test_a_contradiction_is_named_before_a_clan_not_playing(new_db):
    """p.6: one clan controls a province; the whole sheet is checked for contradictions before its clans."""
    sheet = "scorpion: control @ scorpion_capital\ncrab: control @ crab_central\nlion: control @ crab_central\n"
    result = _cli(new_db, "setup", "t1", "-", stdin=sheet)
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "error: game 't1', round 1: line 3: 'lion: control 1 facedown @ crab_central' contradicts the recorded "
        "'crab: control 1 facedown @ crab_central' (`referee correct GAME 0 FILE` replaces the setup)"
    )
    assert _cli(new_db, "verify", "t1").returncode == 0  # nothing was recorded


def test_a_clan_not_playing_is_named_by_its_line(new_db):
    """p.4: the setup is the seated clans'; the first line about another clan is named, nothing is laid."""
    sheet = "crab: control @ crab_central\nscorpion: control @ scorpion_capital\nunicorn: control @ unicorn_capital\n"
    result = _cli(new_db, "setup", "t1", "-", stdin=sheet)
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "error: game 't1', round 1: line 2: 'scorpion: control 1 facedown @ scorpion_capital': "
        "scorpion is not playing in this game (crab, lion)"
    )
    board = json.loads(_cli(new_db, "board", "t1", "--json").stdout)
    assert "crab_central" not in board["control"]


def test_a_setup_laid_at_once_is_the_board_fact_by_fact(new_db):
    """The same sheet entered in one setup and line by line gives the same board (and both games verify)."""
    sheet = [
        "crab: control 2 @ crab_central",
        "lion: control @ crab_northeast",
        "board: scorched @ crab_northeast",
        "lion: control faceup @ lion_northwest",
        "board: honor 2 @ lion_northwest",
        "lion: holds unknown @ lion",
        "board: card played @ crab",
        "crab: objective emerald_empire",
    ]
    new = ["new", "t2", "--clans", "crab,lion", "--players", "crab=Ann,lion=Bo", "--partial-setup", "--db", new_db]
    assert runner.invoke(app, new).exit_code == 0
    assert _cli(new_db, "setup", "t1", "-", stdin="\n".join(sheet) + "\n").returncode == 0
    for line in sheet:
        result = _cli(new_db, "setup", "t2", "-", stdin=line + "\n")
        assert result.returncode == 0, (line, result.stderr)
    one, other = (json.loads(_cli(new_db, "board", game, "--json").stdout) for game in ("t1", "t2"))
    assert one == other
    assert one["control"]["crab_central"] == ["crab", 2, 0] and "crab_northeast" not in one["control"]
    assert one["special"]["crab_northeast"] == ["scorched", 0] and one["objectives"] == {"crab": "emerald_empire"}
    assert _cli(new_db, "verify", "t1").returncode == 0 and _cli(new_db, "verify", "t2").returncode == 0
