"""Taking back and correcting what was recorded, through the commands: `retract` (the last event of any
kind), `correct` (tokens, table events, setup facts), `setup` refusing a fact twice. Nothing recorded is
changed or deleted: every retraction and correction is a new event, and the log keeps both."""

import json

import pytest

from referee.log import Store
from tests.support.trust_games import GAME, cli, golden_setup, golden_sheet, ok


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "games.db")


def events(db, game=GAME):
    with Store(db) as store:
        return store.events(game)


def board(db, game=GAME):
    return json.loads(ok(db, "board", game, "--json"))


def start(db, rounds=0):
    ok(db, "new", GAME, "--clans", "crab,crane", "--players", "crab=Ann,crane=Bo")
    ok(db, "setup", GAME, "-", input="\n".join(golden_setup()) + "\n")
    for n in range(1, rounds + 1):
        ok(db, "round", GAME, "-", "--yes", input=golden_sheet(n))


def test_retract_a_round_not_yet_followed_by_another(db):
    start(db, rounds=2)
    after1 = json.loads(ok(db, "board", GAME, "--round", "1", "--json"))
    now = board(db)
    out = ok(db, "retract", GAME, "--reason", "round 2 was entered for the wrong table")
    assert "retracted" in out and "round 2" in out and "seal " in out
    assert board(db) == after1
    changed = [p for p in now["control"] if now["control"].get(p) != after1["control"].get(p)]
    assert changed and all(p in out for p in changed)  # what to change on the physical board now
    log = events(db)
    assert [e.type for e in log[-2:]] == ["RoundResolved", "EventRetracted"]  # the log keeps both
    assert log[-1].data["seq"] == log[-2].seq and log[-1].data["reason"] == "round 2 was entered for the wrong table"
    assert json.loads(ok(db, "show", GAME, "--json"))["round"] == 2
    ok(db, "round", GAME, "-", "--yes", input=golden_sheet(2))  # entered again as round 2
    assert board(db) == now
    assert cli(db, "verify", GAME).exit_code == 0


def test_retract_a_table_event(db):
    start(db, rounds=1)
    before = board(db)
    ok(db, "event", GAME, "board: peace @ lion_capital")
    assert board(db)["special"].get("lion_capital")
    out = ok(db, "retract", GAME, "--reason", "mistyped")
    assert "remove the peace token from lion_capital" in out
    assert board(db) == before
    assert events(db)[-1].type == "EventRetracted"


def test_retract_a_setup_fact_then_a_second_retraction_takes_the_one_before(db):
    ok(db, "new", GAME, "--clans", "crab,crane")
    ok(db, "setup", GAME, "-", input="crab: control @ crab_central\n")
    ok(db, "setup", GAME, "-", input="crane: control @ crane_south\n")
    out = ok(db, "retract", GAME, "--reason", "wrong province")
    assert "remove 1 crane control token(s) from crane_south" in out
    out = ok(db, "retract", GAME, "--reason", "also wrong")
    assert "remove 1 crab control token(s) from crab_central" in out
    assert set(board(db)["control"]) == {"crab_capital", "crane_capital"}
    assert [e.type for e in events(db)].count("EventRetracted") == 2


def test_retract_a_sealed_objective_then_seal_it_again(db):
    ok(db, "new", GAME, "--clans", "crab,crane")
    ok(db, "seal", GAME, "crab", input="emerald_empire\n")
    out = ok(db, "retract", GAME, "--reason", "the player typed the wrong objective")
    assert "crab's sealed objective" in out and "nothing to change" in out
    ok(db, "seal", GAME, "crab", input="reclaiming_lost_lands\n")  # sealed anew
    assert [e.type for e in events(db)][-3:] == ["ObjectiveSealed", "EventRetracted", "ObjectiveSealed"]


def test_retract_with_nothing_to_take_back_is_refused(db):
    ok(db, "new", GAME, "--clans", "crab,crane")
    ok(db, "retract", GAME, "--reason", "capitals")  # the capitals are a setup fact like any other
    refused = cli(db, "retract", GAME, "--reason", "again")
    assert refused.exit_code == 1 and "nothing to retract" in refused.stderr
    refused = cli(db, "retract", GAME, "--reason", " ")
    assert refused.exit_code == 1 and "reason" in refused.stderr


def test_setup_refuses_a_fact_already_recorded_and_a_contradicting_count(db):
    """Running setup twice used to double every control token."""
    ok(db, "new", GAME, "--clans", "crab,crane")
    ok(db, "setup", GAME, "-", input="crab: control @ crab_central\n")
    n = len(events(db))
    again = cli(db, "setup", GAME, "-", input="crab: control @ crab_central\n")
    assert again.exit_code == 1 and "already recorded" in again.stderr and "crab_central" in again.stderr
    other = cli(db, "setup", GAME, "-", input="crab: control 2 facedown @ crab_central\n")
    assert other.exit_code == 1 and "contradicts" in other.stderr
    capital = cli(db, "setup", GAME, "-", input="crane: control @ crane_capital\n")
    assert capital.exit_code == 1 and "already recorded" in capital.stderr
    assert len(events(db)) == n  # nothing recorded
    assert board(db)["control"]["crab_central"] == ["crab", 1, 0]


def _round_trips(db, tmp_path):
    """The record, in both formats, verifies and imports as the same chain (the corrections and retractions in it)."""
    hashes = [e.hash for e in events(db)]
    for fmt in ("jsonl", "text"):
        path = tmp_path / f"record.{fmt}"
        path.write_text(ok(db, "export", GAME, "-f", fmt))
        ok(db, "verify", str(path), "--allow-incomplete")
        other = str(tmp_path / f"other-{fmt}.db")
        ok(other, "import", str(path), "--allow-incomplete")
        assert [e.hash for e in events(other)] == hashes


def test_correct_a_table_event_reruns_the_rounds_after_it(db, tmp_path):
    start(db, rounds=1)
    ok(db, "event", GAME, "board: peace @ lion_capital")
    ok(db, "round", GAME, "-", "--yes", input=golden_sheet(2))
    fixed = db + ".table.txt"
    with open(fixed, "w") as f:
        f.write("board: peace @ lion_coast\n")
    out = ok(db, "correct", GAME, "2", fixed, "--table", "--reason", "the peace token lies on lion_coast")
    assert "seal " in out and "lion_capital" in out and "lion_coast" in out
    assert board(db)["special"].get("lion_coast") and not board(db)["special"].get("lion_capital")
    assert events(db)[-1].type == "TableEventsCorrected"
    assert cli(db, "verify", GAME).exit_code == 0
    _round_trips(db, tmp_path)


def test_correct_the_setup_reruns_every_round(db, tmp_path):
    start(db, rounds=1)
    lines = golden_setup()
    fixed = db + ".setup.txt"
    with open(fixed, "w") as f:
        f.write("crab: control @ crab_capital\ncrane: control @ crane_capital\n" + "\n".join(lines[:-1]) + "\n")
    gone = lines[-1].rsplit("@", 1)[1].strip()
    out = ok(db, "correct", GAME, "0", fixed, "--reason", "one token too many at setup")
    assert gone in out and "seal " in out
    assert cli(db, "verify", GAME).exit_code == 0
    ok(db, "retract", GAME, "--reason", "the correction was a mistake")
    _round_trips(db, tmp_path)


# --- setup completeness (p.4 step 7, p.5 step 10) --------------------------------------------------------
def test_round_1_waits_for_the_rulebooks_setup(db):
    """p.4 step 7: two players each set aside 11 control tokens (besides the capital's): round 1 is refused,
    naming what is missing, and nothing is recorded until they are all on the board."""
    ok(db, "new", GAME, "--clans", "crab,crane")
    ok(db, "setup", GAME, "-", input="\n".join(golden_setup()[:-3]) + "\n")  # three tokens short
    n = len(events(db))
    refused = cli(db, "round", GAME, "-", "--yes", input=golden_sheet(1))
    assert refused.exit_code == 1 and "round 1: the setup is incomplete" in refused.stderr
    assert "crab has 11 of its 12 starting control tokens on the board (1 to place)" in refused.stderr
    assert "crane has 10 of its 12 starting control tokens on the board (2 to place)" in refused.stderr
    assert len(events(db)) == n
    table = cli(db, "table", GAME, input=golden_sheet(1) + "\nquit\n")
    assert "the setup is incomplete" in table.output and len(events(db)) == n
    ok(db, "setup", GAME, "-", input="\n".join(golden_setup()[-3:]) + "\n")
    ok(db, "round", GAME, "-", "--yes", input=golden_sheet(1))


def test_a_game_taken_over_mid_way_says_so(db):
    ok(db, "new", GAME, "--clans", "crab,crane", "--partial-setup")
    ok(db, "setup", GAME, "-", input="crab: control @ crab_central\n")
    ok(db, "round", GAME, "-", "--yes", input="crab: army 2 @ crab_central\n")
    assert "setup: partial" in ok(db, "show", GAME) and "setup: partial" in ok(db, "score", GAME)
    assert json.loads(ok(db, "show", GAME, "--json"))["partial_setup"] is True
    assert '[Setup "partial"]' in ok(db, "export", GAME, "-f", "text")
