"""Tamper evidence: every way of altering a stored game or an exported file is named by verify.

The stored game's triggers are dropped first (as an attacker with the file would), then raw SQL
edits rows; files are edited line by line. verify names the first divergence: the event and why.
"""

from __future__ import annotations

import json
import sqlite3

import pytest

from referee.engine.model.digest import canonical_json
from referee.log import Problem, RecordError, Store, events as ev, export_jsonl, golden, import_records, verify

GAME = "four-player"
ROUND2 = 4  # seq of the RoundResolved of round 2


@pytest.fixture
def store(tmp_path):
    with Store(str(tmp_path / "tamper.db")) as s:
        s.import_logs([golden(GAME)])
        yield s


def _raw(store: Store, *statements: str) -> None:
    with sqlite3.connect(store.where) as conn:
        for (name,) in conn.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'").fetchall():
            conn.execute(f"DROP TRIGGER {name}")
        for sql in statements:
            conn.execute(sql)


def _rewrite(store: Store, events: list[ev.Event]) -> None:
    """Replace the stored game with ``events`` (a forger's rewrite, bypassing the store)."""
    _raw(store, f"DELETE FROM event WHERE game_id = '{GAME}'")
    with sqlite3.connect(store.where) as conn:
        conn.executemany(
            "INSERT INTO event (game_id, seq, type, payload_version, payload, prev_hash, hash, recorded_at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (
                    e.game,
                    e.seq,
                    e.type,
                    e.payload_version,
                    canonical_json(e.payload),
                    e.prev_hash,
                    e.hash,
                    e.recorded_at,
                )
                for e in events
            ],
        )


def _with_entries(events, seq, change):
    items = [
        (
            e.type,
            {**e.payload, "entries": change(e.payload["entries"])} if e.seq == seq else e.payload,
            e.payload_version,
        )
        for e in events
    ]
    return ev.chain_all(GAME, items)


def _relinked(events, seq):
    """Event ``seq`` linked to a made-up predecessor, its own hash made consistent again."""
    out = list(events)
    e = out[seq - 1]
    forged = ev.Event(e.game, e.seq, e.type, e.payload_version, e.payload, "f" * 64, "", e.recorded_at)
    out[seq - 1] = ev.Event(**{**forged.to_dict(), "hash": forged.computed_hash()})
    return out


def _stronger(entries):
    """Round 2 with the dragon's attack on its capital weakened: the phoenix now holds it."""
    return [
        line.replace("army 4 dragon_south > dragon_capital", "army 2 dragon_south > dragon_capital") for line in entries
    ]


def test_an_untouched_game_verifies(store):
    assert verify(store.events(GAME)) is None


# --- a stored game ----------------------------------------------------------------------------------
def test_edited_payload_in_the_database(store):
    _raw(store, "UPDATE event SET payload = replace(payload, 'army 6', 'army 5') WHERE seq = 3")
    found = verify(store.events(GAME))
    assert (found.seq, found.problem) == (3, Problem.EDITED)
    assert "no longer matches its recorded hash" in str(found)


def test_removed_event_in_the_database(store):
    _raw(store, f"DELETE FROM event WHERE seq = {ROUND2}")
    found = verify(store.events(GAME))
    assert (found.seq, found.problem) == (ROUND2 + 1, Problem.REMOVED)
    assert f"event {ROUND2} is missing" in found.detail


def test_reordered_events_in_the_database(store):
    _raw(
        store,
        "UPDATE event SET seq = 100 WHERE seq = 4",
        "UPDATE event SET seq = 4 WHERE seq = 5",
        "UPDATE event SET seq = 5 WHERE seq = 100",
    )
    found = verify(store.events(GAME))
    assert (found.seq, found.problem) == (4, Problem.REORDERED)
    assert "points at event 5, which comes after it" in found.detail


def test_engine_disagreement_in_the_database(store):
    """A forger rewrote round 2's entries and recomputed the whole chain: only the engine notices."""
    forged = _with_entries(store.events(GAME), ROUND2, _stronger)
    assert ev.check_chain(forged) is None
    _rewrite(store, forged)
    found = verify(store.events(GAME))
    assert (found.seq, found.problem) == (ROUND2, Problem.ENGINE)
    assert "round 2: recorded digest" in found.detail and "re-run gives" in found.detail


def test_broken_chain_in_the_database(store):
    _rewrite(store, _relinked(store.events(GAME), 5))
    found = verify(store.events(GAME))
    assert (found.seq, found.problem) == (5, Problem.BROKEN_CHAIN)
    assert "is not the hash of event 4" in found.detail


def test_edited_seal_in_the_database(store):
    seal = store.events(GAME)[ROUND2 - 1].payload["seal"]
    _raw(store, f"UPDATE event SET payload = replace(payload, '{seal}', '0000-0000') WHERE seq = {ROUND2}")
    found = verify(store.events(GAME))
    assert (found.seq, found.problem) == (ROUND2, Problem.SEAL)


def test_unreadable_payload_in_the_database(store):
    _raw(store, "UPDATE event SET payload = 'not json' WHERE seq = 6")
    found = verify(store.events(GAME))
    assert (found.seq, found.problem) == (6, Problem.EDITED)


def test_the_database_file_edited_with_a_hex_editor(store):
    path = store.where
    store.close()
    data = open(path, "rb").read()
    old = b"lion: army 6 lion_capital > scorpion_capital"
    assert data.count(old) == 1
    open(path, "wb").write(data.replace(old, old.replace(b"army 6", b"army 2")))
    with Store(path) as reopened:
        found = verify(reopened.events(GAME))
    assert (found.seq, found.problem) == (3, Problem.EDITED)


def test_the_first_divergence_is_named(store):
    _raw(
        store,
        "UPDATE event SET payload = replace(payload, 'army 6', 'army 5') WHERE seq = 3",
        "DELETE FROM event WHERE seq = 6",
    )
    assert verify(store.events(GAME)).seq == 3


# --- an exported file -------------------------------------------------------------------------------
def _lines() -> list[str]:
    return export_jsonl(golden(GAME)).splitlines()


def _dump(events) -> list[str]:
    return export_jsonl(events).splitlines()


def _edited(lines: list[str]) -> list[str]:
    raw = json.loads(lines[2])
    raw["payload"]["entries"][0] = raw["payload"]["entries"][0].replace("+ blessing 3", "+ blessing 2")
    return lines[:2] + [canonical_json(raw)] + lines[3:]


FILE_CASES = {
    "edited payload": (_edited, 3, "edited payload"),
    "removed event": (lambda ls: ls[:3] + ls[4:], 4, "removed event: event 4 is missing"),
    "reordered event": (lambda ls: ls[:3] + [ls[4], ls[3]] + ls[5:], 4, "reordered event"),
    "engine disagreement": (
        lambda ls: _dump(_with_entries(golden(GAME), ROUND2, _stronger)),
        4,
        "engine disagreement: round 2",
    ),
    "broken chain": (lambda ls: _dump(_relinked(golden(GAME), 5)), 5, "broken chain"),
}


@pytest.mark.parametrize("case", FILE_CASES)
def test_a_tampered_file_is_refused_with_its_line_and_nothing_is_stored(tmp_path, case):
    tamper, line, says = FILE_CASES[case]
    text = "\n".join(tamper(_lines())) + "\n"
    with Store(str(tmp_path / "import.db")) as s:
        with pytest.raises(RecordError) as info:
            import_records(s, text)
        assert info.value.lineno == line and says in str(info.value)
        assert str(info.value).startswith(f"line {line}: event ")
        assert s.games() == []
