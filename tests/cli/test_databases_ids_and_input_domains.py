"""Where the data lives, foreign and damaged databases, game ids and bytes that are not UTF-8, sealed
objectives, the domains of options and dates, and the casebook from anywhere: all through the commands
a moderator types (under the command's real error boundary, tests/support/entry_point.py: true exit codes, stderr
and bytes)."""

import json
import os
import re
import sqlite3
from pathlib import Path

import pytest

from referee.cli.app import app
from tests.support.entry_point import run_in_process, runner

ROOT = Path(__file__).parents[2]
ROUND = "crab: army 1 @ crab_central\n"


def invoke(db, *args, input=None):
    return runner.invoke(app, [*args, "--db", str(db)], input=input)


def real(*args, cwd, stdin=None, env=None):
    """The command under its real error boundary (bytes in and out): true exit codes and stderr."""
    environ = {k: v for k, v in os.environ.items() if k != "REFEREE_DB"} | (env or {})
    return run_in_process(args, stdin=stdin, cwd=cwd, env=environ, text=False)


def played(db, game="t1", rounds=0):
    assert invoke(db, "new", game, "--clans", "crab,lion", "--partial-setup").exit_code == 0
    for n in range(1, rounds + 1):  # the same sheet each round: each names its round
        assert invoke(db, "round", game, "-", "--yes", "--round", str(n), input=ROUND).exit_code == 0


def tree(folder: Path) -> set[str]:
    return {str(p.relative_to(folder)) for p in folder.rglob("*")}


# --- 1. where the data lives ------------------------------------------------------------------------------
READS = [
    ["games"],
    ["show", "t1"],
    ["board", "t1"],
    ["score", "t1"],
    ["replay", "t1"],
    ["verify", "t1"],
    ["export", "t1"],
    ["what-if", "t1", "1", "sheet.txt"],
    ["doctor"],
]


@pytest.mark.parametrize("command", READS, ids=[c[0] for c in READS])
def test_a_read_command_never_creates_a_database(tmp_path, command):
    (tmp_path / "sheet.txt").write_text(ROUND)
    before = tree(tmp_path)
    for db in (tmp_path / "none.db", tmp_path / "missing" / "dir" / "x.db"):
        result = real(*command, "--db", str(db), cwd=tmp_path)
        err = result.stderr.decode()
        assert result.returncode == 1 and err.startswith("error: ") and str(db) in err, err
        assert "referee new" in err, err  # how to create one
    assert tree(tmp_path) == before  # no file, no folder


def test_only_the_default_saves_folder_is_made(tmp_path):
    empty = real("games", cwd=tmp_path)
    assert empty.returncode == 1 and "saves/referee.db" in empty.stderr.decode() and not (tmp_path / "saves").exists()
    made = real("new", "t1", "--clans", "crab,lion", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "saves" / "referee.db").is_file()
    listed = real("games", cwd=tmp_path)
    assert listed.returncode == 0 and "saves/referee.db" in listed.stdout.decode() and "t1" in listed.stdout.decode()
    named = real("new", "t2", "--clans", "crab,lion", "--db", str(tmp_path / "mine" / "x.db"), cwd=tmp_path)
    err = named.stderr.decode()
    assert named.returncode == 1 and "folder" in err and str(tmp_path / "mine") in err, err
    assert not (tmp_path / "mine").exists()


def test_no_game_and_games_name_the_database(tmp_path):
    db = tmp_path / "league.db"
    played(db)
    missing = real("show", "t2", "--db", str(db), cwd=tmp_path)
    assert missing.returncode == 1 and f"no game 't2' in {db}" in missing.stderr.decode()
    listed = invoke(db, "games")
    assert listed.exit_code == 0 and str(db) in listed.output
    for command in (["import", "nothing.jsonl"], ["demo", "--name", "two-player"]):  # these may create one
        assert invoke(tmp_path / "made-by-demo.db", *command).exit_code in (0, 1)
    assert (tmp_path / "made-by-demo.db").is_file()


# --- 2. only a referee database is opened; doctor ---------------------------------------------------------
def _foreign(path: Path, extra_sql: str = "") -> None:
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT)")
        conn.execute("INSERT INTO users (name) VALUES ('ann')")
        if extra_sql:
            conn.execute(extra_sql)


def _tables(path: Path) -> list[str]:
    with sqlite3.connect(path) as conn:
        return sorted(r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'"))


@pytest.mark.parametrize(
    "command",
    [["new", "t1", "--clans", "crab,lion"], ["games"], ["show", "t1"], ["import", "record.jsonl"], ["demo"]],
    ids=lambda c: c[0],
)
def test_a_foreign_sqlite_file_is_refused_whole(tmp_path, command):
    foreign = tmp_path / "app.db"
    _foreign(foreign)
    before = foreign.read_bytes()
    (tmp_path / "record.jsonl").write_text("")
    result = real(*command, "--db", str(foreign), cwd=tmp_path)
    err = result.stderr.decode()
    assert result.returncode == 1 and "not a referee database" in err and "users" in err, err
    assert foreign.read_bytes() == before and _tables(foreign) == ["users"]


def test_a_referee_database_with_a_table_of_another_program_is_refused(tmp_path):
    db = tmp_path / "games.db"
    played(db)
    with sqlite3.connect(db) as conn:
        conn.execute("CREATE TABLE notes (text TEXT)")
    refused = invoke(db, "new", "t2", "--clans", "crab,lion")
    assert refused.exit_code == 1 and "notes" in refused.stderr
    assert "t2" not in invoke(tmp_path / "other.db", "games").output


def test_an_unknown_schema_version_is_refused(tmp_path):
    db = tmp_path / "games.db"
    played(db)
    with sqlite3.connect(db) as conn:
        conn.execute("PRAGMA user_version = 99")
    for command in (["games"], ["new", "t2", "--clans", "crab,lion"]):
        result = real(*command, "--db", str(db), cwd=tmp_path)
        assert result.returncode == 1 and "schema version 99" in result.stderr.decode(), result.stderr


def _damage(db: Path) -> None:
    """Garbage over one page in the middle of the file: the schema page stays whole."""
    raw = bytearray(db.read_bytes())
    page = 4096
    middle = (len(raw) // page // 2) * page
    raw[middle : middle + page] = bytes((i * 37 + 11) % 256 for i in range(page))
    db.write_bytes(bytes(raw))


def test_a_damaged_database_takes_no_more_writes_and_doctor_reports_it(tmp_path):
    db = tmp_path / "games.db"
    for game in ("t1", "t2", "t3"):
        played(db, game, rounds=5)
    healthy = invoke(db, "doctor")
    assert healthy.exit_code == 0 and healthy.output.count("verified") == 3, healthy.output
    _damage(db)
    before = db.read_bytes()
    for command in (
        ["new", "t4", "--clans", "crab,lion"],
        ["event", "t1", "board: peace @ lion_capital"],
        ["round", "t2", "-", "--yes"],
    ):
        result = real(*command, "--db", str(db), cwd=tmp_path, stdin=ROUND.encode())
        err = result.stderr.decode()
        assert result.returncode == 1 and "referee doctor" in err and "Traceback" not in err, (command, err)
    assert db.read_bytes() == before
    report = real("doctor", "--db", str(db), cwd=tmp_path)
    out = report.stdout.decode()
    assert report.returncode == 1 and "integrity" in out and "Traceback" not in report.stderr.decode(), out


def test_doctor_reads_an_archive_in_one_pass_and_damage_stops_a_game_not_the_others(tmp_path):
    """doctor reads every game's events in one pass over the event table; garbage over the page holding one
    game's rows breaks that pass there, and the games it did not reach are read one at a time: each is named,
    the damaged ones FAILED, the others verified."""
    db = tmp_path / "games.db"
    games = ("t1", "t2", "t3", "t4", "t5", "t6")
    for game in games:
        played(db, game, rounds=5)
    raw = bytearray(db.read_bytes())
    start = raw.find(b'"game":"t3"') // 4096 * 4096  # t3's GameCreated row, on a page of the event table
    raw[start + 100 : start + 4096] = bytes((i * 37 + 11) % 256 for i in range(4096 - 100))  # its header kept
    db.write_bytes(bytes(raw))
    report = real("doctor", "--db", str(db), cwd=tmp_path)
    out = report.stdout.decode()
    assert report.returncode == 1 and "Traceback" not in report.stderr.decode(), out
    lines = {line.split(":")[0].strip(): line for line in out.splitlines() if line.startswith("  t")}
    assert sorted(lines) == list(games), out
    assert "FAILED: cannot be read" in lines["t3"], out
    assert lines["t1"].endswith("ok, verified: 8 events") and lines["t6"].endswith("ok, verified: 8 events"), out


def test_doctor_on_both_backends(any_db):
    played(any_db, "t1", rounds=2)
    report = invoke(any_db, "doctor", "--json")
    assert report.exit_code == 0, report.output
    found = json.loads(report.output)
    assert found["problems"] == [] and [g["game"] for g in found["games"]] == ["t1"] and found["games"][0]["ok"]


# --- 3. game ids, and bytes that are not UTF-8 ------------------------------------------------------------
@pytest.mark.parametrize("game", ["Friday_T3", "t_3", "t3.", "x" * 65, "crab lion", "é"])
def test_a_new_game_id_outside_the_rule_is_refused_as_typed(tmp_path, game):
    result = invoke(tmp_path / "games.db", "new", game, "--clans", "crab,lion", "--partial-setup")
    assert result.exit_code == 1 and f"'{game}' is not a valid game id" in result.stderr
    assert not (tmp_path / "games.db").exists() or game not in invoke(tmp_path / "games.db", "games").output


BYTES_COMMANDS = [
    ["show", b"\xff\xfe"],
    ["board", b"\xff\xfe"],
    ["score", b"\xff"],
    ["export", b"t\xc3"],
    ["replay", b"\xed\xa0\x80"],
    ["verify", b"\xff\xfe"],
    ["new", b"\xff", "--clans", "crab,lion"],
    ["round", "t1", b"sheet-\xff.txt"],
    ["games", "--db", b"\xff.db"],
]


@pytest.mark.parametrize("command", BYTES_COMMANDS, ids=lambda c: c[0])
def test_an_argument_that_is_not_utf8_is_a_usage_error(tmp_path, command):
    db = tmp_path / "games.db"
    played(db)
    args = [*command, *(["--db", str(db)] if "--db" not in command else [])]
    result = real(*args, cwd=tmp_path)
    err = result.stderr.decode()
    assert result.returncode == 2 and "Traceback" not in err and "not valid UTF-8" in err, err
    assert "\\x" in err  # the bytes, shown escaped


def test_text_that_is_not_utf8_is_refused_by_name(tmp_path):
    db = tmp_path / "games.db"
    played(db)
    (tmp_path / "sheet.txt").write_bytes(b"crab: army 1 @ crab_central\ncrab: \xff\n")
    from_file = real("round", "t1", "sheet.txt", "--yes", "--db", str(db), cwd=tmp_path)
    assert (
        from_file.returncode == 1 and "sheet.txt" in from_file.stderr.decode() and "UTF-8" in from_file.stderr.decode()
    )
    from_stdin = real("round", "t1", "-", "--yes", "--db", str(db), cwd=tmp_path, stdin=b"crab: \xff\xfe\n")
    err = from_stdin.stderr.decode()
    assert from_stdin.returncode == 1 and "standard input: line 1: not valid UTF-8" in err, err
    assert json.loads(invoke(db, "show", "t1", "--json").output)["round"] == 1  # nothing recorded


# --- 4. sealed objectives ---------------------------------------------------------------------------------
def _events(db: Path, game: str) -> list[dict]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT type, payload FROM event WHERE game_id = ? ORDER BY seq", (game,)).fetchall()
        return [{"type": t, **json.loads(p)} for t, p in rows]


def test_a_new_commitment_uses_the_documented_scheme(tmp_path):
    """docs/battle-for-rokugan/moderator.md, "Secret objectives": a 50-bit code XXXXX-XXXXX (Crockford base 32),
    scrypt n=2^14, r=8, p=1 (16 MiB a guess), a 16-byte salt of its own, over game|clan|objective|code."""
    import hashlib

    from referee.log.commitment import ALPHABET

    db = tmp_path / "games.db"
    played(db)
    sealed = invoke(db, "seal", "t1", "crab", input="the_last_line_of_defense\n")
    assert sealed.exit_code == 0, sealed.output
    code = re.search(r"Reveal code: (\S+)", sealed.output).group(1)
    assert re.fullmatch(f"[{ALPHABET}]{{5}}-[{ALPHABET}]{{5}}", code) and len(ALPHABET) == 32  # 10 x 5 bits
    commitment = next(e for e in _events(db, "t1") if e["type"] == "ObjectiveSealed")["commitment"]
    scheme, params, salt, key = commitment.split("$")
    assert (scheme, params) == ("scrypt", "n=16384,r=8,p=1") and len(bytes.fromhex(salt)) == 16
    expected = hashlib.scrypt(
        f"t1|crab|the_last_line_of_defense|{code}".encode(),
        salt=bytes.fromhex(salt),
        n=16384,
        r=8,
        p=1,
        maxmem=64 * 2**20,
        dklen=32,
    )
    assert key == expected.hex()
    again = invoke(db, "new", "t2", "--clans", "crab,lion").exit_code == 0 and invoke(
        db, "seal", "t2", "crab", input="the_last_line_of_defense\n"
    )
    other = next(e for e in _events(db, "t2") if e["type"] == "ObjectiveSealed")["commitment"]
    assert again.exit_code == 0 and other.split("$")[2] != salt  # a salt of its own


def test_seal_is_refused_before_the_objective_is_asked(tmp_path):
    db = tmp_path / "games.db"
    played(db, rounds=1)
    late = invoke(db, "seal", "t1", "crab", input="the_last_line_of_defense\n")
    assert late.exit_code == 1 and "before round 1" in late.stderr
    assert "secret objective" not in late.output  # never asked


def test_a_mistyped_objective_is_neither_echoed_nor_guessed(tmp_path):
    db = tmp_path / "games.db"
    played(db)
    sealed = invoke(db, "seal", "t1", "crab", input="emerald_empyre\npeace_of_mind\nthe_last_line\n")
    assert sealed.exit_code == 0, sealed.output
    assert "emerald" not in sealed.output and "peace" not in sealed.output and "the_last_line" not in sealed.output
    assert sealed.output.count("not one of the objectives") == 2 and "did you mean" not in sealed.output
    refused = invoke(db, "seal", "t1", "lion", input="xyzzy\n" * 3)
    assert refused.exit_code == 1 and "xyzzy" not in refused.output + refused.stderr


def test_an_old_short_code_still_verifies_and_reveals(tmp_path):
    """Logs sealed before the scrypt scheme: SHA-256 and a 32-bit code XXXX-XXXX."""
    from referee.log import OpenGame, Store
    from referee.log.commitment import legacy_commit

    db = tmp_path / "games.db"
    played(db)
    with Store(str(db)) as store:
        log = OpenGame(store, "t1")
        log._append(
            "ObjectiveSealed",
            {"clan": "crab", "commitment": legacy_commit("t1", "crab", "emerald_empire", "D51B-000C")},
        )
    for n in range(1, 6):  # the same sheet each round: each names its round
        assert invoke(db, "round", "t1", "-", "--yes", "--round", str(n), input=ROUND).exit_code == 0
    assert invoke(db, "reveal", "t1", "crab", "emerald_empire", "D51B-000B").exit_code == 1
    assert invoke(db, "reveal", "t1", "crab", "emerald_empire", "d51b-000c").exit_code == 0
    assert invoke(db, "verify", "t1").exit_code == 0


def test_a_new_code_is_forgiving_to_type(tmp_path):
    db = tmp_path / "games.db"
    played(db)
    code = re.search(r"Reveal code: (\S+)", invoke(db, "seal", "t1", "crab", input="the_last_line\n").output).group(1)
    for n in range(1, 6):  # the same sheet each round: each names its round
        assert invoke(db, "round", "t1", "-", "--yes", "--round", str(n), input=ROUND).exit_code == 0
    typed = code.replace("-", "").lower().replace("0", "o").replace("1", "l")
    assert invoke(db, "reveal", "t1", "crab", "the_last_line", typed).exit_code == 0
    assert invoke(db, "verify", "t1").exit_code == 0


# --- 5. domains of options and dates ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "option, allowed",
    [
        ("crab_faceup_bonus=-5", "1, 2 or 3"),
        ("crab_faceup_bonus=4", "1, 2 or 3"),
        ("humility_ties=maybe", "true or false"),
        ("tiebreak=coin", "territories,provinces or shared"),
        ("harbor_navy=air", "sea_or_land_border or sea_only"),
    ],
)
def test_a_rules_option_outside_its_domain_names_the_allowed_values(tmp_path, option, allowed):
    result = real("new", "t1", "--clans", "crab,lion", "-o", option, "--db", str(tmp_path / "g.db"), cwd=tmp_path)
    err = result.stderr.decode()
    name, value = option.split("=")
    assert result.returncode == 1 and len(err.splitlines()) == 1, err
    assert name in err and repr(value) in err and allowed in err, err


def test_a_rules_option_inside_its_domain_is_recorded(tmp_path):
    db = tmp_path / "g.db"
    assert invoke(db, "new", "t1", "--clans", "crab,lion", "-o", "crab_faceup_bonus=3").exit_code == 0
    assert json.loads(invoke(db, "show", "t1", "--json").output)["options"]["crab_faceup_bonus"] == 3


@pytest.mark.parametrize("date", ["2026-13-45", "2026-02-30", "23/11/2026", "tomorrow", "2026-1-5"])
def test_a_date_that_is_not_on_the_calendar_is_refused(tmp_path, date):
    result = real("new", "t1", "--clans", "crab,lion", "--date", date, "--db", str(tmp_path / "g.db"), cwd=tmp_path)
    err = result.stderr.decode()
    assert result.returncode == 2 and "not a calendar date" in err and "YYYY-MM-DD" in err, err
    assert not (tmp_path / "g.db").exists()
    assert invoke(tmp_path / "g.db", "new", "t1", "--clans", "crab,lion", "--date", "2024-02-29").exit_code == 0


# --- 6. the casebook, from anywhere -----------------------------------------------------------------------
def test_the_casebook_runs_from_any_folder(tmp_path):
    result = real("casebook", cwd=tmp_path)
    out = result.stdout.decode()
    assert result.returncode == 0 and re.search(r"\b(\d{3,}) passed, 0 failed", out), out + result.stderr.decode()


def test_a_casebook_filter_that_selects_nothing_is_an_error(tmp_path):
    result = real("casebook", "-k", "no-such-case-anywhere", cwd=tmp_path)
    err = result.stderr.decode()
    assert result.returncode == 1 and "no case" in err and "no-such-case-anywhere" in err, err


def test_the_casebook_prints_one_json_object_per_case(tmp_path):
    result = runner.invoke(app, ["casebook", "-k", "raid", "--json"])
    assert result.exit_code == 0, result.output
    cases = [json.loads(line) for line in result.output.splitlines()]
    assert cases and all(
        "raid" in c["id"] and c["passed"] is True and c["problems"] == [] and c["cites"] for c in cases
    )
