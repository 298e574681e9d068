"""One answer whatever the path, through the commands a moderator types:

- the board after round N is one function's answer: `board --round N`, `replay --round N` and the game's
  page agree after a correction, say which event corrected it and why, and `--as-recorded` gives the original;
  `verify --seal` of a superseded round's seal says it was superseded;
- `what-if` and `correct` read the round sheet as `round` does, its `round: N` header included, and refuse
  a header naming another round, naming the round it names (R-27).
"""

from __future__ import annotations

import json

import pytest

from tests.support.entry_point import ROOT, referee

GAME = ROOT / "examples" / "game"
REASON = "judge: no blessing under the crab army"


def ok(db, *args, stdin=None):
    result = referee(db, *args, stdin=stdin)
    assert result.returncode == 0, (args, result.stdout, result.stderr)
    return result.stdout


@pytest.fixture(scope="module")
def corrected(tmp_path_factory):
    """The manual's walkthrough (docs/battle-for-rokugan/moderator.md) to its correction of round 2 (the crab
    army's blessing taken off)."""
    db = str(tmp_path_factory.mktemp("one-answer") / "games.db")
    ok(db, "new", "friday-t3", "--clans", "crab,crane")
    ok(db, "setup", "friday-t3", str(GAME / "setup.txt"))
    for r in (1, 2, 3):
        ok(db, "round", "friday-t3", str(GAME / f"round{r}.txt"), "--yes")
    seal = json.loads(ok(db, "verify", "friday-t3", "--json"))  # round 2's seal, before the correction
    events = json.loads(ok(db, "replay", "friday-t3", "--json"))["events"]
    round2 = next(e for e in events if e["type"] == "RoundResolved" and e["report"]["round"] == 2)
    original = json.loads(ok(db, "board", "friday-t3", "--round", "2", "--json"))
    ok(db, "correct", "friday-t3", "2", str(GAME / "round2-corrected.txt"), "--reason", REASON)
    assert seal["ok"]
    return db, round2["seal"], round2["seq"], original


def _event_of_correction(db) -> int:
    events = json.loads(ok(db, "replay", "friday-t3", "--json"))["events"]
    return next(e["seq"] for e in events if e["type"] == "EntryCorrected")


def test_board_and_replay_give_the_same_corrected_board_and_name_the_correction(corrected):
    db, _, _, original = corrected
    k = _event_of_correction(db)
    board = json.loads(ok(db, "board", "friday-t3", "--round", "2", "--json"))
    replayed = json.loads(ok(db, "replay", "friday-t3", "--round", "2", "--json"))
    assert replayed["board"] == {key: v for key, v in board.items() if key != "note"}
    assert board["note"] == replayed["board_note"] == f"corrected in event {k}, reason: {REASON}"
    assert board != original  # the correction changed the board after round 2
    text = ok(db, "board", "friday-t3", "--round", "2")
    assert "Board after round 2" in text and f"corrected in event {k}, reason: {REASON}" in text
    replay_text = ok(db, "replay", "friday-t3", "--round", "2")
    assert f"corrected in event {k}, reason: {REASON}" in replay_text


def test_as_recorded_gives_the_original_board_on_both_paths(corrected):
    db, _, _, original = corrected
    k = _event_of_correction(db)
    board = json.loads(ok(db, "board", "friday-t3", "--round", "2", "--as-recorded", "--json"))
    replayed = json.loads(ok(db, "replay", "friday-t3", "--round", "2", "--as-recorded", "--json"))
    assert {key: v for key, v in board.items() if key != "note"} == original == replayed["board"]
    assert board["note"] == f"as first recorded; later corrected in event {k}, reason: {REASON}"


def test_a_round_before_the_corrected_one_names_no_correction(corrected):
    db, *_ = corrected
    board = json.loads(ok(db, "board", "friday-t3", "--round", "1", "--json"))
    assert "note" not in board


def test_verify_seal_of_a_superseded_round_says_it_was_superseded(corrected):
    db, seal, seq, _ = corrected
    k = _event_of_correction(db)
    text = ok(db, "verify", "friday-t3", "--seal", seal)
    assert f"event {seq} of" in text and f"superseded: round 2 corrected in event {k}, reason: {REASON}" in text
    shown = json.loads(ok(db, "verify", "friday-t3", "--seal", seal, "--json"))
    assert shown["seal"]["superseded"]["seq"] == k
    current = json.loads(ok(db, "verify", "friday-t3", "--json"))
    events = json.loads(ok(db, "replay", "friday-t3", "--json"))["events"]
    in_effect = next(e["seal"] for e in events if e["seq"] == k)
    assert "superseded" not in json.loads(ok(db, "verify", "friday-t3", "--seal", in_effect, "--json"))["seal"]
    assert current["ok"]


def test_what_if_and_correct_read_the_round_header(corrected, tmp_path):
    db, *_ = corrected
    sheet = tmp_path / "r3.txt"
    sheet.write_text("round: 3\n" + (GAME / "round3.txt").read_text())
    shown = json.loads(ok(db, "what-if", "friday-t3", "3", str(sheet), "--json"))
    assert shown["round"] == 3
    wrong = referee(db, "what-if", "friday-t3", "2", str(sheet))
    assert wrong.returncode == 1 and "the sheet says 'round: 3', not round 2" in wrong.stderr, wrong.stderr
    assert "Traceback" not in wrong.stderr
    refused = referee(db, "correct", "friday-t3", "2", str(sheet), "--reason", "typo")
    assert refused.returncode == 1 and "the sheet says 'round: 3', not round 2" in refused.stderr, refused.stderr
    before = json.loads(ok(db, "replay", "friday-t3", "--json"))["events"]
    ok(db, "correct", "friday-t3", "3", str(sheet), "--reason", "the same sheet, with its header")
    after = json.loads(ok(db, "replay", "friday-t3", "--json"))["events"]
    assert len(after) == len(before) + 1 and after[-1]["type"] == "EntryCorrected"
