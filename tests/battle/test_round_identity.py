"""Round identity (R-27) through `referee round`: a sheet names or confirms its round (`round: N`,
`--round N`); the same sheet entered again records nothing and shows its seal (exit 0); a sheet for
another round than the next is refused naming the game's round (exit 1); a write refused because
another moderator wrote first shows what changed and is never repeated by itself."""

import json
import sys
from pathlib import Path

import pytest

from referee.cli.app import app
from tests.support.crab_lion import begun_db, begun_on_each_backend, round_seals, shown  # noqa: F401  (fixtures)
from tests.support.entry_point import referee as cli, runner

ROOT = Path(__file__).parents[2]
ROUND1 = "lion: army 3 lion_northwest > scorpion_north\ncrab: army 2 @ crab_central\n"
ROUND1_OTHER = "lion: army 2 lion_northwest > scorpion_north\ncrab: army 1 @ crab_central\n"
ROUND2 = "crab: army 3 crab_central > crab_northeast\nlion: army 1 @ lion_northwest\n"


def test_the_same_sheet_twice_by_file_is_recorded_once(both_db, tmp_path):
    """R-27: `referee round G sheet --yes` run twice records round 1 once; the second run shows its seal."""
    db = both_db  # SQLite and PostgreSQL
    sheet = tmp_path / "round1.txt"
    sheet.write_text(ROUND1)
    first = cli(db, "round", "g", str(sheet), "--yes")
    assert first.returncode == 0, first.stderr
    [seal] = round_seals(db)
    assert f"seal {seal}" in first.stdout
    again = cli(db, "round", "g", str(sheet), "--yes")
    assert again.returncode == 0, again.stderr
    assert f"round 1 is already recorded with this same sheet (seal {seal}); nothing recorded" in again.stdout
    assert round_seals(db) == [seal] and shown(db)["round"] == 2


def test_the_same_sheet_twice_by_stdin_in_another_order_is_recorded_once(db):
    """R-27: the same tokens are the same sheet whatever their order and spelling (canonical lines)."""
    assert cli(db, "round", "g", "-", "--yes", stdin=ROUND1).returncode == 0
    reordered = "Crab: army 2 @ crab_central\nlion: army 3 LION-northwest > scorpion north\n"
    again = cli(db, "round", "g", "-", "--yes", stdin=reordered)
    assert again.returncode == 0, again.stderr
    assert "already recorded with this same sheet" in again.stdout
    assert len(round_seals(db)) == 1


def test_the_round_header_names_the_round(db, tmp_path):
    """R-27: a sheet starting `round: N` is for round N: the next round is recorded, the same sheet
    again shows its seal, a sheet for a later round is refused naming the game's round."""
    sheet = tmp_path / "r1.txt"
    sheet.write_text("# table 3, Friday\nround: 1\n" + ROUND1)
    assert cli(db, "round", "g", str(sheet), "--yes").returncode == 0
    assert cli(db, "round", "g", str(sheet), "--yes").returncode == 0
    later = tmp_path / "r3.txt"
    later.write_text("round: 3\n" + ROUND2)
    refused = cli(db, "round", "g", str(later), "--yes")
    assert refused.returncode == 1
    assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
    assert "the sheet is for round 3, but game 'g' is at round 2" in refused.stderr and "R-27" in refused.stderr
    assert len(round_seals(db)) == 1


def test_another_sheet_for_a_recorded_round_is_refused(db, tmp_path):
    """R-27: a different sheet for round 1, already recorded, is refused with its seal; `correct` is the way."""
    assert cli(db, "round", "g", "-", "--yes", stdin=ROUND1).returncode == 0
    [seal] = round_seals(db)
    refused = cli(db, "round", "g", "-", "--yes", "--round", "1", stdin=ROUND1_OTHER)
    assert refused.returncode == 1
    assert f"round 1 is already recorded (seal {seal}) with another sheet" in refused.stderr
    assert "referee correct" in refused.stderr
    assert round_seals(db) == [seal]


def test_the_round_option_confirms_the_round(db):
    """R-27: `--round N` must name the game's next round; the header and the option must agree."""
    refused = cli(db, "round", "g", "-", "--yes", "--round", "2", stdin=ROUND1)
    assert refused.returncode == 1 and "the sheet is for round 2, but game 'g' is at round 1" in refused.stderr
    clash = cli(db, "round", "g", "-", "--yes", "--round", "1", stdin="round: 2\n" + ROUND1)
    assert clash.returncode == 1 and "--round 1, but the sheet says 'round: 2'" in clash.stderr
    usage = cli(db, "round", "g", "-", "--yes", "--round", "9", stdin=ROUND1)
    assert usage.returncode == 2  # a round the game cannot have: a usage error
    assert shown(db)["round"] == 1
    ok = cli(db, "round", "g", "-", "--yes", "--round", "1", stdin=ROUND1)
    assert ok.returncode == 0, ok.stderr
    assert cli(db, "round", "g", "-", "--yes", "--round", "2", stdin=ROUND2).returncode == 0
    assert len(round_seals(db)) == 2


def test_a_bad_round_header_is_one_line(db):
    bad = cli(db, "round", "g", "-", "--yes", stdin="round: seven\n" + ROUND1)
    assert bad.returncode == 1 and bad.stderr.startswith("error: line 1: ") and "round: N" in bad.stderr
    assert "Traceback" not in bad.stderr and shown(db)["round"] == 1


def test_the_prompt_shows_the_round_and_asks_to_confirm_it(db):
    typed = runner.invoke(app, ["round", "g", "--db", db], input=ROUND1 + "\nn\n")
    assert "Round 1: one revealed token a line" in typed.output and "Resolve round 1?" in typed.output
    assert typed.exit_code == 1 and shown(db)["round"] == 1  # not confirmed: nothing recorded
    typed = runner.invoke(app, ["round", "g", "--db", db], input=ROUND1 + "\ny\n")
    assert typed.exit_code == 0, typed.output
    assert shown(db)["round"] == 2


def _another_moderator_first(monkeypatch, db, sheet):
    """Another moderator records ``sheet`` after this command read the game and before it writes."""
    from referee.log.game import OpenGame

    real = OpenGame.read_round
    done = []

    def read_then_race(self, text, round=None):
        read = real(self, text, round)
        if not done:
            done.append(None)  # once: the other moderator's own command reads its sheet unhindered
            done[0] = runner.invoke(app, ["round", "g", "-", "--yes", "--db", db], input=sheet)
        return read

    monkeypatch.setattr(OpenGame, "read_round", read_then_race)
    return done


def test_a_write_refused_by_another_moderator_shows_what_changed_and_never_re_records(both_db, monkeypatch):
    db = both_db  # SQLite and PostgreSQL
    done = _another_moderator_first(monkeypatch, db, ROUND1_OTHER)
    result = runner.invoke(app, ["round", "g", "-", "--yes", "--db", db], input=ROUND1, env={"COLUMNS": "200"})
    assert done[0].exit_code == 0
    [seal] = round_seals(db)
    assert result.exit_code == 1
    assert "another moderator wrote to game 'g' first" in result.output
    assert f"round 1 resolved with 2 tokens (seal {seal})" in result.output
    refusal = result.stderr
    assert "another moderator wrote to the game first; nothing of yours was recorded" in refusal
    assert "the game is now at round 2" in refusal and "re-run" not in refusal
    assert shown(db)["round"] == 2  # the sheet was not recorded as round 2 behind the moderator's back


def test_the_same_sheet_recorded_by_another_moderator_meanwhile_is_the_same_round(db, monkeypatch):
    _another_moderator_first(monkeypatch, db, ROUND1)
    result = runner.invoke(app, ["round", "g", "-", "--yes", "--db", db], input=ROUND1, env={"COLUMNS": "200"})
    [seal] = round_seals(db)
    assert result.exit_code == 0, result.output
    assert f"round 1 is already recorded with this same sheet (seal {seal}); nothing recorded" in result.output
    assert shown(db)["round"] == 2


def test_any_write_refused_because_another_moderator_wrote_first_shows_what_they_recorded(db, monkeypatch, capsys):
    """`referee event` (like every command that writes) reads the game again when another moderator wrote
    first, prints what they recorded and records nothing of its own; exit 1 (the real entry point)."""
    from referee.cli.app import main
    from referee.log import OpenGame, Store

    real = Store.append
    raced = []

    def append_after_another(self, game, items, after):
        if not raced and after is not None:
            raced.append(True)  # the other moderator, on its own connection, writes first
            with Store(db) as other:
                OpenGame(other, "g").record_table_events(["lion: control @ lion_coast"])
        return real(self, game, items, after)

    monkeypatch.setattr(Store, "append", append_after_another)
    monkeypatch.setattr(sys, "argv", ["referee", "event", "g", "crab: control @ crab_northwest", "--db", db])
    with pytest.raises(SystemExit) as exited:
        main()
    out, err = capsys.readouterr()
    assert exited.value.code == 1
    assert "another moderator wrote to game 'g' first:" in out
    assert "round 1: table events: lion: control 1 facedown @ lion_coast" in out
    assert err.startswith("error: game 'g': another moderator wrote to the game first (event 4); nothing of yours")
    events = json.loads(runner.invoke(app, ["show", "g", "--json", "--db", db]).output)["events"]
    assert events == 4  # created, setup, the other moderator's event: nothing of this command's


def test_adjudicate_reads_the_round_header(tmp_path):
    """The header is part of the round notation: `adjudicate` takes the round from it (R-27)."""
    examples = ROOT / "examples"
    sheet = tmp_path / "round2.txt"
    sheet.write_text("round: 2\n" + (examples / "round1.txt").read_text())
    board = ["--board", str(examples / "board-round1.txt"), "--clans", "dragon,phoenix,scorpion", "--json"]
    headed = runner.invoke(app, ["adjudicate", str(sheet), *board])
    assert headed.exit_code == 0, headed.output
    assert json.loads(headed.output)["report"]["round"] == 2
    clash = runner.invoke(app, ["adjudicate", str(sheet), *board, "--round", "3"])
    assert clash.exit_code == 1 and "--round 3, but the sheet says 'round: 2'" in clash.stderr
