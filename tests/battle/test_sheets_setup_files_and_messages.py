"""Setup files, round sheets, the card step and the one-line messages, through the commands a moderator types:
the command under its real error boundary, with a temporary HOME and database (tests/support/entry_point.py).

- the setup file takes every setup-time line the manual lists (docs/notation/setup.md), applied in order;
- every unreadable line of a sheet reported in one run, one line each with its line number;
- the card step accepts a legal pass of a player holding no card (R-21c);
- the one-line inconsistencies (negative adjustments, seals without the dash, a player's name suggested,
  what was written where, a pipe that cannot confirm a round...).
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

from tests.support.entry_point import run_in_process

ROOT = Path(__file__).resolve().parents[2]


def run(tmp_path: Path, *args: str, stdin: str | None = None, db: bool = True) -> subprocess.CompletedProcess[str]:
    """``referee ARGS [--db tmp/g.db]`` from ``tmp_path``, HOME a folder of its own there; standard input a
    pipe (never a terminal)."""
    home = tmp_path / "home"
    home.mkdir(exist_ok=True)
    extra = ["--db", str(tmp_path / "g.db")] if db else []
    return run_in_process(
        [*args, *extra],
        stdin=stdin if stdin is not None else "",
        cwd=tmp_path,
        env={**os.environ, "HOME": str(home), "COLUMNS": "200"},
    )


def ok(tmp_path: Path, *args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    result = run(tmp_path, *args, stdin=stdin)
    assert result.returncode == 0, result.stderr
    return result


def shown(tmp_path: Path, game: str = "g") -> dict:
    return json.loads(ok(tmp_path, "show", game, "--json").stdout)


def three_clans_in_round_2(tmp_path: Path) -> None:
    """Crab, Crane, Lion (seat order), taken over mid-way; round 1 played, so round 2's card step is open."""
    ok(tmp_path, "new", "g", "--clans", "crab,crane,lion", "--partial-setup")
    ok(tmp_path, "setup", "g", "-", stdin="crab: control @ crab_central\nlion: control @ lion_northwest\n")
    ok(tmp_path, "round", "g", "-", "--yes", stdin="crab: army 1 @ crab_central\n")
    ok(tmp_path, "event", "g", "first_player: crab", "crab: holds promotion", "lion: holds bushido")


# --- item 6: the card step (R-21c) ----------------------------------------------------------------
def test_a_pass_of_a_player_without_a_card_is_recorded_after_the_others_passed(tmp_path):
    """R-21c: the Crab and the Lion hold cards and pass in a row; the Crane, holding none, then writes its
    pass. The batch is recorded whole (main refused it: "the card step is over"), the pass changes nothing,
    and the placement phase goes on."""
    three_clans_in_round_2(tmp_path)
    batch = ok(tmp_path, "event", "g", "crab: passes", "lion: passes", "crane: passes")
    assert (
        "crane passes: every player holding a card has already passed in a row; the pass changes nothing (R-21c)"
        in (batch.stdout.replace("\n", " ").replace("  ", " "))
    )
    ok(tmp_path, "event", "g", "crab: scout lion @ lion_northwest")
    out_of_turn = run(tmp_path, "event", "g", "lion: plays bushido @ lion_northwest")
    assert out_of_turn.returncode == 1  # a card after the step's end is still refused
    assert out_of_turn.stderr.splitlines()[0].startswith("error: round 2, lion: ")


def test_a_pass_of_a_player_without_a_card_may_come_first(tmp_path):
    """R-21c: the Crane's pass written before the first player's turn is accepted and changes nothing: the
    Crab, first player, still plays its card next."""
    three_clans_in_round_2(tmp_path)
    ok(tmp_path, "event", "g", "crane: passes", "crab: plays promotion army 1, pool army 2")


# --- item 4: the setup file takes every setup-time line -----------------------------------------------
SETUP_FILE = """# a three-player table, as the moderator wrote it down
setup: tokens
initiative: crane
crane: starts @ crane_south
lion: starts @ lion_coast
crab: starts @ crab_central
crane: objective way_of_the_sail
"""


def test_the_setup_file_takes_every_setup_time_line_in_order(tmp_path):
    """`setup: tokens`, `initiative: X` and `X: starts @ P` in the file given to `referee setup` (main refused
    them: "unknown clan 'setup'") are recorded in order, as `referee event` records them: the same board
    by either path."""
    ok(tmp_path, "new", "g", "--clans", "crab,crane,lion")
    sheet = tmp_path / "setup.txt"
    sheet.write_text(SETUP_FILE)
    done = ok(tmp_path, "setup", "g", str(sheet))
    assert "crane is the first player for round 1" in done.stdout
    assert "crab places a starting control token facedown in crab_central (1 of 7, p.5 step 10)" in done.stdout
    ok(tmp_path, "new", "h", "--clans", "crab,crane,lion")
    ok(tmp_path, "event", "h", *SETUP_FILE.splitlines()[1:])
    by_setup = json.loads(ok(tmp_path, "board", "g", "--json").stdout)
    by_event = json.loads(ok(tmp_path, "board", "h", "--json").stdout)
    assert by_setup == by_event
    assert {p: c[0] for p, c in by_setup["control"].items() if not p.endswith("capital")} == {
        "crane_south": "crane",
        "lion_coast": "lion",
        "crab_central": "crab",
    }


def test_a_setup_file_line_that_belongs_to_a_round_names_the_command_that_takes_it(tmp_path):
    """Every line the setup cannot take is refused, one line each with its line number; a round's table event
    names `referee event`; nothing is recorded."""
    ok(tmp_path, "new", "g", "--clans", "crab,crane,lion")
    before = shown(tmp_path)
    refused = run(tmp_path, "setup", "g", "-", stdin="setup: tokns\ncrab: passes\ncrab: control @ crab_centrl\n")
    assert refused.returncode == 1
    errors = [line for line in refused.stderr.splitlines() if line.startswith("error: ")]
    assert errors == [
        "error: line 1: \"setup: tokns\": unknown setup step 'tokns' (did you mean 'tokens'?)",
        'error: line 2: "crab: passes": a pass of the card step belongs to a round, not to the setup: record it '
        "with `referee event GAME 'crab: passes'` in its round",
        "error: line 3: \"crab: control @ crab_centrl\": unknown province 'crab_centrl' (did you mean "
        "'crab_central', 'crane_central', 'crab_capital'?)",
    ]
    assert shown(tmp_path) == before


# --- item 5: every unreadable line of a sheet in one run ---------------------------------------------
TYPOS = "crab: army 3 @ crab_centrl\ncrab army 2\nlion: army 1 @ lion_norhwest\ncrab: army 1 @ crab_central\n"
TYPO_LINES = ['line 1: "crab: army 3 @ crab_centrl"', 'line 2: "crab army 2"', 'line 3: "lion: army 1 @ lion_norhwest"']


def _errors(result: subprocess.CompletedProcess[str]) -> list[str]:
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    return [line for line in result.stderr.splitlines() if line.startswith("error: ")]


def test_every_unreadable_line_of_a_sheet_is_reported_in_one_run(tmp_path):
    """Three typos, one run (main stopped at the first): `round`, `what-if`, `correct` and `adjudicate` each
    print one line per bad line, with its line number, and record nothing."""
    three_clans_in_round_2(tmp_path)
    sheet = tmp_path / "typos.txt"
    sheet.write_text(TYPOS)
    board = tmp_path / "board.txt"
    board.write_text("crab: control @ crab_central\n")
    before = shown(tmp_path)
    for args, db in (
        (("round", "g", str(sheet), "--yes"), True),
        (("what-if", "g", "1", str(sheet)), True),
        (("correct", "g", "1", str(sheet), "--reason", "judge"), True),
        (("adjudicate", str(sheet), "--board", str(board), "--clans", "crab,lion"), False),
    ):
        errors = _errors(run(tmp_path, *args, db=db))
        assert len(errors) == 3, (args, errors)
        for error, where in zip(errors, TYPO_LINES, strict=True):
            assert where in error, (args, error)
    assert _errors(run(tmp_path, "round", "g", str(sheet), "--yes"))[0].startswith("error: round 2: line 1: ")
    assert shown(tmp_path) == before


def test_a_sheet_with_many_bad_lines_shows_the_first_twenty_and_how_many_more(tmp_path):
    three_clans_in_round_2(tmp_path)
    sheet = tmp_path / "bad.txt"
    sheet.write_text("".join(f"crab: army 1 @ nowhere{i}\n" for i in range(1, 26)))
    errors = _errors(run(tmp_path, "round", "g", str(sheet), "--yes"))
    assert len(errors) == 21
    assert errors[19].startswith('error: round 2: line 20: "crab: army 1 @ nowhere20"')
    assert errors[20] == "error: round 2: ... and 5 more unreadable line(s) (25 in all)"


# --- item 7: the one-line inconsistencies ------------------------------------------------------------
def small_cup(tmp_path: Path) -> None:
    ok(tmp_path, "tournament", "new", "cup", "--name", "Cup", "--rounds", "2")
    for name in ("Jo Baker", "Ann Sato", "Ben Ito", "Cy Oda", "Di Mori", "Ed Abe"):
        ok(tmp_path, "tournament", "players", "add", "cup", name)


def test_a_negative_adjustment_is_a_number_not_an_option(tmp_path):
    """docs/battle-for-rokugan/organiser.md: "negative for a penalty". `tournament adjust T NAME -4` is a penalty
    of 4 (main: "No such option")."""
    small_cup(tmp_path)
    done = ok(tmp_path, "tournament", "adjust", "cup", "Jo Baker", "-4", "--reason", "late")
    assert done.stdout == "Jo Baker: -4 points (late)\n"
    exported = ok(tmp_path, "tournament", "export", "cup").stdout
    assert '"points":"-4"' in exported.replace(" ", "")
    assert run(tmp_path, "tournament", "adjust", "cup", "Jo Baker", "-4", "--reasn", "x").returncode == 2


def test_an_unknown_player_name_suggests_the_nearest(tmp_path):
    """As an unknown province suggests the nearest names, so does an unknown player."""
    small_cup(tmp_path)
    ok(tmp_path, "tournament", "seat", "cup", "1")
    result = run(tmp_path, "tournament", "result", "cup", "1", "1", "Jo Bakr=28", "--reason", "paper")
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == "error: no player 'Jo Bakr' in tournament 'cup' (did you mean 'Jo Baker'?)"


def test_a_seal_is_found_without_its_dash(tmp_path):
    """A player notes `5b187e61`; the reveal codes take no dash either: `verify --seal` finds it, any case."""
    three_clans_in_round_2(tmp_path)
    [seal] = [s["seal"] for s in shown(tmp_path)["seals"] if s.get("round")]
    for typed in (seal, seal.replace("-", "").lower(), seal.replace("-", " ")):
        found = ok(tmp_path, "verify", "g", "--seal", typed)
        assert seal in found.stdout, typed
    assert run(tmp_path, "verify", "g", "--seal", "00000000").returncode == 1


def test_the_reveal_that_completes_the_game_prints_its_result(tmp_path):
    ok(tmp_path, "new", "g", "--clans", "crab,lion", "--partial-setup")
    sealed = ok(tmp_path, "seal", "g", "crab", stdin="reclaiming_lost_lands\n").stdout
    code = sealed.split("Reveal code: ")[1].split()[0]
    for n in range(1, 6):
        ok(tmp_path, "round", "g", "-", "--yes", stdin=f"crab: army {n} @ crab_capital\n")
    revealed = ok(tmp_path, "reveal", "g", "crab", "reclaiming_lost_lands", code)
    record = ok(tmp_path, "export", "g", "-f", "text").stdout
    result = [line for line in record.splitlines() if line.startswith("result: ")]
    assert result and f"game 'g' is finished: {result[0]}" in revealed.stdout


def test_a_file_written_says_what_and_where(tmp_path):
    """`export -o`, `standings --csv` and `seating --csv` (main: silent) say what they wrote where."""
    three_clans_in_round_2(tmp_path)
    out = tmp_path / "g.txt"
    said = ok(tmp_path, "export", "g", "-f", "text", "-o", str(out)).stdout
    assert said == f"game 'g' (text) written to {out} ({out.read_text().count(chr(10))} lines)\n"
    small_cup(tmp_path)
    ok(tmp_path, "tournament", "seat", "cup", "1")
    seating = tmp_path / "seating.csv"
    said = ok(tmp_path, "tournament", "seating", "cup", "1", "--csv", str(seating)).stdout
    assert said.startswith(f"round 1 seating (CSV) written to {seating} (7 lines)\n")
    standings = tmp_path / "standings.csv"
    said = ok(tmp_path, "tournament", "standings", "cup", "--csv", str(standings)).stdout
    assert f"standings of 'cup' (CSV) written to {standings}" in said and standings.is_file()
    as_json = run(tmp_path, "tournament", "standings", "cup", "--csv", str(standings), "--json")
    json.loads(as_json.stdout)  # standard output keeps the JSON whole; the line goes to standard error
    assert f"written to {standings}" in as_json.stderr


def test_a_verify_error_names_its_line_once(tmp_path):
    """A setup fact repeated in a game record: the error names the file's line once (main: `line 17: line 2:`)."""
    three_clans_in_round_2(tmp_path)
    record = ok(tmp_path, "export", "g", "-f", "text").stdout.splitlines()
    at = record.index("crab: control 1 facedown @ crab_central")
    bad = tmp_path / "bad.txt"
    bad.write_text("\n".join(record[: at + 1] + [record[at]] + record[at + 1 :]) + "\n")
    errors = _errors(run(tmp_path, "verify", str(bad), "--allow-incomplete"))
    assert errors == [
        f"error: line {at + 2}: 'crab: control 1 facedown @ crab_central' is already recorded (setup facts are "
        "recorded once; `referee retract` or `referee correct GAME 0 FILE` changes them)"
    ]


def test_a_round_from_a_pipe_needs_yes(tmp_path):
    """Standard input that is not a terminal cannot confirm: `round FILE` without --yes is refused, naming
    --yes, and nothing is recorded (main recorded it without asking)."""
    three_clans_in_round_2(tmp_path)
    sheet = tmp_path / "round2.txt"
    sheet.write_text("lion: army 1 @ lion_northwest\n")
    for args, stdin in (((str(sheet),), ""), (("-",), sheet.read_text())):
        refused = run(tmp_path, "round", "g", *args, stdin=stdin)
        assert refused.returncode == 1
        assert refused.stderr.splitlines() == [
            "error: game 'g', round 2: standard input is not a terminal, so nobody can confirm the round; "
            "nothing recorded",
            "hint: pass --yes to record the sheet without asking",
        ]
        assert shown(tmp_path)["round"] == 2
    ok(tmp_path, "round", "g", str(sheet), "--yes")
    assert shown(tmp_path)["round"] == 3
