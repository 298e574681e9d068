"""A stored game through the commands, as a moderator plays it; every error path with its exit code."""

import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from referee.cli.app import app
from tests.support.entry_point import run_in_process, runner

ROOT = Path(__file__).parents[2]

SETUP = "crab: control @ crab_central\nlion: control @ lion_northwest\n"
ROUND1 = "lion: army 3 lion_northwest > scorpion_north\ncrab: army 2 @ crab_central\n"


@pytest.fixture
def db(tmp_path):
    return str(tmp_path / "games.db")


def invoke(db, *args, input=None):
    return runner.invoke(app, [*args, "--db", db], input=input)


def cli(db, *args, stdin=None):
    """The command under its real error boundary: true exit codes and stderr."""
    return run_in_process([*args, "--db", db], stdin=stdin, cwd=ROOT)


def new_game(db, game="t1"):
    assert (
        invoke(db, "new", game, "--clans", "crab,lion", "--players", "crab=Ann,lion=Bo", "--partial-setup").exit_code
        == 0
    )
    assert invoke(db, "setup", game, "-", input=SETUP).exit_code == 0


def test_a_round_is_entered_resolved_and_sealed(any_db):
    db = any_db  # SQLite and PostgreSQL
    new_game(db)
    result = invoke(db, "round", "t1", "-", "--yes", input=ROUND1)
    assert result.exit_code == 0, result.output
    assert "place 1 lion control token(s) facedown in scorpion_north" in result.output
    assert "seal " in result.output
    shown = json.loads(invoke(db, "show", "t1", "--json").output)
    assert shown["round"] == 2 and shown["seals"][0]["round"] == 1
    state = json.loads(invoke(db, "board", "t1", "--json").output)
    assert state["control"]["scorpion_north"][0] == "lion"


def test_interactive_entry_is_checked_line_by_line(any_db):
    db = any_db  # SQLite and PostgreSQL
    new_game(db)
    typed = (
        "lion: army 3 lion_nw > scorpion_north\nlion: army 3 lion_northwest > "
        "scorpion_north\nlion: army 9 @ lion_capital\ncrab: army 2 @ crab_central\n\ny\n"
    )
    result = invoke(db, "round", "t1", input=typed)
    assert result.exit_code == 0, result.output
    assert "unknown province 'lion_nw'" in result.output  # refused at the prompt, asked again
    assert "Lion has no army 9 token (R-08)" in result.output
    assert "✓ crab: army 2 @ crab_central" in result.output
    assert json.loads(invoke(db, "board", "t1", "--json").output)["control"]["scorpion_north"][0] == "lion"


def test_table_session_plays_rounds_without_reloading(any_db):
    db = any_db  # SQLite and PostgreSQL
    assert invoke(db, "new", "t2", "--clans", "crab,lion", "--partial-setup").exit_code == 0
    typed = SETUP + ROUND1 + "\ny\nscore\n" + "crab: army 3 crab_central > crab_northeast\n\ny\nshow\nquit\n"
    result = invoke(db, "table", "t2", input=typed)
    assert result.exit_code == 0, result.output
    assert result.output.count("seal ") >= 2
    assert "rounds played: 2 of 5" in result.output
    assert json.loads(invoke(db, "board", "t2", "--json").output)["control"]["crab_northeast"][0] == "crab"


def test_table_session_shows_and_clears_the_pending_tokens(db):
    """Typed tokens wait, checked together as typed (R-08), until the round resolves; `clear` drops them unrecorded."""
    assert invoke(db, "new", "t3", "--clans", "crab,lion", "--partial-setup").exit_code == 0
    typed = "crab: army 2 @ crab_capital\nlion: army 1 @ LION_cap\npending\nclear\npending\nquit\n"
    result = invoke(db, "table", "t3", input=typed)
    assert result.exit_code == 0, result.output
    echoed = result.output.split("Round 1 as entered:")
    assert len(echoed) == 2  # shown once, then none are pending
    assert "crab: army 2 @ crab_capital" in echoed[1] and "lion: army 1 @ lion_capital" in echoed[1]  # canonical
    assert "pending tokens cleared: 2" in echoed[1] and "pending tokens: none" in echoed[1]
    assert json.loads(invoke(db, "show", "t3", "--json").output)["round"] == 1  # nothing recorded


def test_svg_picture_is_valid_and_complete(db, tmp_path):
    import xml.etree.ElementTree as ET

    new_game(db)
    invoke(db, "round", "t1", "-", "--yes", input=ROUND1)
    target = tmp_path / "board.svg"
    assert invoke(db, "board", "t1", "--svg", str(target)).exit_code == 0
    root = ET.parse(target).getroot()
    ns = {"s": "http://www.w3.org/2000/svg"}
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert len(root.findall("s:g[@id='provinces']/s:g", ns)) == 30
    assert len(root.findall("s:g[@id='borders']/s:line", ns)) == 64
    lion = root.find("s:g[@id='provinces']/s:g[@id='scorpion_north']/s:circle[@fill='#e8c547']", ns)
    assert lion is not None  # captured province drawn in the Lion's colour
    assert "Round track: 2" in "".join(root.itertext())
    key = "".join(root.find("s:g[@id='key']", ns).itertext())
    assert all(mark in key for mark in ("▼", "▲", "☮", "✕", "capital", "coastal")), key  # every mark explained


def test_svg_names_and_circles_do_not_overlap(db, tmp_path):
    """Issue 4: a moderator matches ids to the board at a glance, so no name sits on another name or on a
    province, and no two provinces touch (the Phoenix trio's layout centres are 38 units apart)."""
    import xml.etree.ElementTree as ET

    from referee.views.board_svg import LABEL_HEIGHT, label_width

    new_game(db)
    target = tmp_path / "board.svg"
    assert invoke(db, "board", "t1", "--svg", str(target)).exit_code == 0
    ns = {"s": "http://www.w3.org/2000/svg"}
    circles, names = [], []
    for g in ET.parse(target).getroot().findall("s:g[@id='provinces']/s:g", ns):
        ring = max((c for c in g.findall("s:circle", ns)), key=lambda c: float(c.get("r")))
        circles.append((g.get("id"), float(ring.get("cx")), float(ring.get("cy")), float(ring.get("r"))))
        text = g.find("s:text[@class='label']", ns)
        x, y, w = float(text.get("x")), float(text.get("y")), label_width(text.text)
        x0 = {"middle": x - w / 2, "start": x, "end": x - w}[text.get("text-anchor")]
        names.append((text.text, (x0, y - LABEL_HEIGHT + 2, x0 + w, y + 2)))
    assert sorted(n for n, _ in names) == sorted(c[0] for c in circles)  # each province named once

    def hits(box, cx, cy, r):  # a name's box and a circle
        nx, ny = min(max(cx, box[0]), box[2]), min(max(cy, box[1]), box[3])
        return (nx - cx) ** 2 + (ny - cy) ** 2 < r * r

    for i, (a, ax, ay, ar) in enumerate(circles):
        for b, bx, by, br in circles[i + 1 :]:
            assert (ax - bx) ** 2 + (ay - by) ** 2 >= (ar + br - 1) ** 2, f"{a} and {b} overlap"
    for name, box in names:
        assert not any(hits(box, cx, cy, r) for _, cx, cy, r in circles), f"the name {name} covers a province"
        for other, o in names:
            assert other == name or not (box[0] < o[2] and o[0] < box[2] and box[1] < o[3] and o[1] < box[3]), (
                f"the names {name} and {other} overlap"
            )


def test_what_if_and_correction_keep_the_original(any_db, tmp_path):
    db = any_db  # SQLite and PostgreSQL
    new_game(db)
    invoke(db, "round", "t1", "-", "--yes", input=ROUND1)
    sheet = tmp_path / "fix.txt"
    sheet.write_text("lion: army 1 lion_northwest > scorpion_north\ncrab: army 2 @ crab_central\n")
    result = invoke(db, "what-if", "t1", "1", str(sheet))
    assert result.exit_code == 0 and "as recorded" in result.output and "what if" in result.output
    before = json.loads(invoke(db, "show", "t1", "--json").output)["events"]
    assert invoke(db, "correct", "t1", "1", str(sheet), "--reason", "misread token").exit_code == 0
    assert json.loads(invoke(db, "show", "t1", "--json").output)["events"] == before + 1
    assert invoke(db, "verify", "t1").exit_code == 0
    exported = invoke(db, "export", "t1", "-f", "text").output
    assert "lion: army 3 lion_northwest > scorpion_north" in exported  # the original stays in the record
    assert "misread token" in exported


def test_export_import_round_trip(any_db, tmp_path):
    db = any_db  # SQLite and PostgreSQL
    new_game(db)
    invoke(db, "round", "t1", "-", "--yes", input=ROUND1)
    out = tmp_path / "t1.jsonl"
    assert invoke(db, "export", "t1", "-o", str(out)).exit_code == 0
    other = str(tmp_path / "other.db")
    assert invoke(other, "import", str(out), "--allow-incomplete").exit_code == 0  # a game under way, on purpose
    again = tmp_path / "again.jsonl"
    invoke(other, "export", "t1", "-o", str(again))
    assert again.read_bytes() == out.read_bytes()


# --- errors: one line on stderr, exit 1 (refused) or 2 (usage), nothing recorded, never a traceback ---
def _events(db, game):
    return json.loads(invoke(db, "show", game, "--json").output)["events"]


def test_refused_entry_records_nothing(any_db):
    db = any_db  # SQLite and PostgreSQL
    new_game(db)
    before = _events(db, "t1")
    result = cli(db, "round", "t1", "-", "--yes", stdin="lion: army 5 @ lion_capital\nlion: army 5 @ lion_northwest\n")
    assert result.returncode == 1
    assert (
        result.stderr.strip()
        == 'error: round 1, lion: "army 5 @ lion_northwest": Lion has only 1 army 5 in all, already '
        "placed: lion: army 5 @ lion_capital (R-08)"
    )
    assert _events(db, "t1") == before


def test_setup_for_a_clan_not_at_the_table_is_refused(db):
    """p.4: setup places the seated clans' control tokens; a clan not playing is a typing mistake."""
    new_game(db)
    before = _events(db, "t1")
    result = cli(db, "setup", "t1", "-", stdin="scorpion: control 1 facedown @ scorpion_capital\n")
    assert result.returncode == 1
    assert result.stderr.strip() == (
        "error: game 't1', round 1: line 1: 'scorpion: control 1 facedown @ scorpion_capital': "
        "scorpion is not playing in this game (crab, lion)"
    )
    assert _events(db, "t1") == before


def test_unreadable_sheet_names_round_and_line(db):
    new_game(db)
    result = cli(db, "round", "t1", "-", "--yes", stdin="lion: army 3 @ lion_capital\nlion army 2\n")
    assert result.returncode == 1
    assert result.stderr.splitlines()[0] == 'error: round 1: line 2: "lion army 2": not understood'


def test_unknown_game(any_db):
    db = any_db  # SQLite and PostgreSQL
    new_game(db)
    result = cli(db, "show", "nope")
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert result.stderr.startswith("error: no game 'nope' in "), result.stderr  # naming the database looked in


def test_entry_after_the_fifth_round_is_the_wrong_phase(any_db):
    db = any_db  # SQLite and PostgreSQL
    new_game(db)
    for n in range(1, 6):  # the same sheet each round: each names its round
        entered = invoke(db, "round", "t1", "-", "--yes", "--round", str(n), input="crab: army 1 @ crab_central\n")
        assert entered.exit_code == 0
    result = cli(db, "round", "t1", "-", "--yes", stdin="crab: army 2 @ crab_central\n")
    assert result.returncode == 1 and "the game has ended (p.10)" in result.stderr  # closed with round 5
    late = cli(db, "setup", "t1", "-", stdin="crab: control @ crab_northeast\n")
    assert late.returncode == 1 and "the game has ended" in late.stderr


def test_damaged_database_file(tmp_path):
    bad = tmp_path / "bad.db"
    bad.write_bytes(b"this is not a database at all" * 100)
    result = cli(str(bad), "games")
    assert result.returncode == 1 and "cannot use this database" in result.stderr and "Traceback" not in result.stderr


def test_foreign_sqlite_file(tmp_path):
    foreign = tmp_path / "foreign.db"
    con = sqlite3.connect(foreign)
    con.execute("create table event (x integer)")
    con.commit()
    con.close()
    result = cli(str(foreign), "games")
    assert result.returncode == 1 and "not a referee database" in result.stderr


def test_locked_database(db):
    new_game(db)
    con = sqlite3.connect(db)
    con.execute("BEGIN EXCLUSIVE")
    try:
        result = subprocess.run(
            [sys.executable, "-m", "referee", "round", "t1", "-", "--yes", "--db", db],
            input="crab: army 1 @ crab_central\n",
            capture_output=True,
            text=True,
            cwd=ROOT,
            env={**__import__("os").environ, "REFEREE_DB_TIMEOUT": "0.5"},
        )
    finally:
        con.rollback()
        con.close()
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "locked" in result.stderr


def test_usage_errors_exit_2(db):
    assert cli(db, "new", "t9").returncode == 2  # --clans missing
    assert cli(db, "new", "t9", "--clans", "crab,lion", "--option", "nonsense").returncode == 2
    bad_round = cli(db, "board", "t9", "--round", "9")
    assert bad_round.returncode == 2


def test_bad_rules_option_value_is_refused(db):
    result = cli(db, "new", "t9", "--clans", "crab,lion", "--option", "tiebreak=coin")
    assert result.returncode == 1 and "tiebreak: 'coin' is not a valid value" in result.stderr


def test_sealed_objective_is_revealed_with_its_code_and_scored(db, tmp_path):
    new_game(db)
    sealed = invoke(db, "seal", "t1", "crab", input="the_last_line\n")
    assert sealed.exit_code == 0, sealed.output
    assert "the_last_line" not in sealed.output.split("(not shown)")[-1]  # never echoed back
    code = sealed.output.split("Reveal code: ")[1].split()[0]
    early = cli(db, "reveal", "t1", "crab", "the_last_line_of_defense", code)
    assert early.returncode == 1 and "after round 5" in early.stderr
    for n in range(1, 6):
        invoke(db, "round", "t1", "-", "--yes", "--round", str(n), input="crab: army 1 @ crab_central\n")
    wrong = cli(db, "reveal", "t1", "crab", "emerald_empire", code)
    assert wrong.returncode == 1 and "does not match the objective sealed at setup" in wrong.stderr
    assert invoke(db, "reveal", "t1", "crab", "the_last_line", code).exit_code == 0
    lines = json.loads(invoke(db, "score", "t1", "--json").output)["scores"]
    crab = next(s for s in lines if s["clan"] == "crab")
    assert {"label": "objective The Last Line of Defense: met: controls crab_capital", "honor": 5} in crab["lines"]
    text = invoke(db, "export", "t1", "-f", "text").output
    assert "== sealed objective" in text and "crab: objective the_last_line_of_defense code" in text
    record = tmp_path / "t1.txt"
    record.write_text(text)
    assert invoke(str(tmp_path / "copy.db"), "import", str(record)).exit_code == 0
    assert invoke(db, "verify", "t1").exit_code == 0


def test_board_and_games_cut_no_id_at_80_columns(tmp_path):
    """The terminal views are read against the physical board: at a plain 80-column terminal every
    province id and clan name is printed whole (Rich would otherwise cut a cell with "…")."""
    db = str(tmp_path / "five.db")
    clans = "crab,crane,lion,scorpion,unicorn"
    assert invoke(db, "new", "a-rather-long-game-id-7", "--clans", clans, "--event", "Winter Court open").exit_code == 0
    assert invoke(db, "demo").exit_code == 0  # a finished game: its state ("finished: ... wins") under its id
    listed = cli(db, "games")
    board = cli(db, "board", "a-rather-long-game-id-7")
    assert listed.returncode == 0 and board.returncode == 0, listed.stderr + board.stderr
    for shown in (listed.stdout, board.stdout):
        table = [line for line in shown.splitlines() if not line.startswith("database: ")]  # a path, left whole
        assert "…" not in shown and max(map(len, table)) <= 80, shown
        boxed = [line for line in table if line[:1] in "┏┃┡│└"]
        assert boxed and all(line.rstrip()[-1] in "┓┃┩│┘" for line in boxed), shown  # no column cut off at the edge
    assert "a-rather-long-game-id-7" in listed.stdout and all(c in listed.stdout for c in clans.split(","))
    from referee.boarddata import load_board

    assert all(p in board.stdout for p in load_board().provinces), board.stdout


def test_new_names_the_games_next_command_and_setup_capitals_says_it_is_done(tmp_path):
    """Issue 33: `referee new` names the game's own next command (not `GAME`); a setup file's `setup: capitals`
    (p.4 step 6) in a game whose capitals `new` placed says it is already done and places nothing; the hint of
    an incomplete setup names the game too."""
    from tests.support.entry_point import referee

    db = str(tmp_path / "games.db")
    made = referee(db, "new", "friday-t3", "--clans", "crab,lion")
    assert made.returncode == 0, made.stderr
    assert "next: referee setup friday-t3 FILE (starting control tokens), then referee round friday-t3 SHEET" in (
        " ".join(made.stdout.split())
    )
    early = referee(db, "round", "friday-t3", "-", "--yes", stdin="crab: army 1 @ crab_capital\n")
    assert early.returncode == 1 and "hint: `referee setup friday-t3 FILE` places them" in early.stderr
    setup = "setup: tokens\nsetup: capitals\ncrab: control @ crab_central\n"
    done = referee(db, "setup", "friday-t3", "-", stdin=setup)
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.split())
    assert "setup: capitals — already done: every capital holds its clan's control token (p.4 step 6" in said
    assert "nothing placed" in said and "each clan places a facedown control token" not in said
    board = json.loads(referee(db, "board", "friday-t3", "--json").stdout)
    assert board["control"]["crab_capital"] == ["crab", 1, 0] and board["control"]["lion_capital"] == ["lion", 1, 0]
