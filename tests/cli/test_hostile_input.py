"""Hostile input at every door, through the commands a moderator types: terminal markup and control characters
in every user string, seals that cannot be ground, the reveal code kept off the public screen, sealed objectives
that nothing else can set, spreadsheet formulas in CSV, empty sheets, huge inputs, and no traceback or raw storage
message for any of them."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import select
import signal
import sqlite3
import subprocess
import sys
import termios
import time
from pathlib import Path

import pytest

from referee.cli.app import app
from referee.log import Store, golden
from referee.log.events import chain_all, format_seal, legacy_seal
from tests.support.entry_point import ROOT, referee, runner

ROUND = "crab: army 1 @ crab_central\n"
ESC_ERASE = "\x1b[1A\x1b[2K"  # moves up a line and erases it
OSC_LINK = "\x1b]8;;https://evil.example\x1b\\pay here\x1b]8;;\x1b\\"
BIDI = "\u202eevil\u202c"
MARKUP_NAMES = ["[/]", "[/x]", "[link=https://evil.example]pay here[/link]", "[bold red]x"]


def ok(db, *args, input=None):
    result = runner.invoke(app, [*args, "--db", str(db)], input=input)
    assert result.exit_code == 0, (args, result.output)
    return result.output


def said(result) -> str:
    """What a refused command tells the user: its output, and the error and hint that the entry point's one
    error boundary (``referee.cli.app.run``) prints for a domain error."""
    return result.output


def clean(out: str) -> None:
    """Nothing a terminal acts on reached it: no ESC, no C1 control, no bidirectional override, no link."""
    assert "\x1b" not in out and "\x9b" not in out and "\u202e" not in out, repr(out)
    assert "https://evil.example\x1b" not in out


def events_of(db, game):
    with Store(str(db)) as store:
        return store.events(game)


# --- 1. markup and control characters in what a user types ---------------------------------------------------
@pytest.mark.parametrize("name", [*MARKUP_NAMES, ESC_ERASE + "crab", OSC_LINK, BIDI, "two\nlines"])
def test_a_hostile_name_or_event_title_prints_literally_in_every_game_command(tmp_path, name):
    db = str(tmp_path / "t.db")
    made = referee(
        db,
        "new",
        "g",
        "--clans",
        "crab,crane",
        "--event",
        name,
        "--players",
        f"crab={name.replace(',', ' ')}",
        "--partial-setup",
    )
    assert made.returncode == 0, made.stderr
    (tmp_path / "s.txt").write_text(ROUND)
    assert referee(db, "round", "g", str(tmp_path / "s.txt"), "--yes", "--round", "1").returncode == 0
    for args in (["games"], ["show", "g"], ["score", "g"], ["replay", "g"], ["verify", "g"]):
        result = referee(db, *args)
        assert result.returncode == 0 and "Traceback" not in result.stderr, (args, result.stderr)
        clean(result.stdout)
    shown = referee(db, "show", "g").stdout
    if name in MARKUP_NAMES:
        assert name in shown  # the text as typed, not read as markup
    if "\n" in name:
        assert "two\\x0alines" in shown and "\ntwo" not in shown


@pytest.mark.parametrize("reason", ["typo [/x]", "[/c]", "[link=https://evil.example]x[/link]", ESC_ERASE])
def test_a_hostile_reason_is_printed_literally_and_nothing_fails_after_the_write(tmp_path, reason):
    db = str(tmp_path / "t.db")
    assert referee(db, "new", "g", "--clans", "crab,crane", "--partial-setup").returncode == 0
    (tmp_path / "s.txt").write_text(ROUND)
    (tmp_path / "c.txt").write_text("crab: army 2 @ crab_central\n")
    for n in (1, 2):
        assert referee(db, "round", "g", str(tmp_path / "s.txt"), "--yes", "--round", str(n)).returncode == 0
    corrected = referee(db, "correct", "g", "1", str(tmp_path / "c.txt"), "--reason", reason)
    assert corrected.returncode == 0 and "Traceback" not in corrected.stderr, corrected.stderr
    clean(corrected.stdout)
    retracted = referee(db, "retract", "g", "--reason", reason)
    assert retracted.returncode == 0 and "Traceback" not in retracted.stderr, retracted.stderr
    clean(retracted.stdout)
    if "\x1b" not in reason:
        assert f"reason: {reason}" in retracted.stdout and f"reason: {reason}" in corrected.stdout
    kinds = [e.type for e in events_of(db, "g")]
    assert kinds.count("EventRetracted") == 1 and kinds.count("EntryCorrected") == 1  # one each, as asked
    clean(referee(db, "replay", "g").stdout)


def _tournament_with(tmp_path, names):
    db = str(tmp_path / "t.db")
    ok(db, "tournament", "new", "t", "--name", "Open [/]", "--date", "2026-11-21", "--rounds", "2")
    roster = tmp_path / "players.csv"
    with roster.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f)
        w.writerow(["name", "club", "id"])
        for i, name in enumerate(names):
            if "\n" not in name:  # a roster refuses a line break in a field (an unterminated quote swallows rows)
                w.writerow([name, "=cmd|' /C calc'!A0" if i == 0 else "", f"p{i}"])
    ok(db, "tournament", "players", "add", "t", "--csv", str(roster))
    for name in names:
        if "\n" in name:  # typed as an argument, a name may hold one: it is shown escaped everywhere
            ok(db, "tournament", "players", "add", "t", name)
    return db


HOSTILE_PLAYERS = [
    "[/p]",
    '=HYPERLINK("https://evil.example","x")',
    "+cmd|' /C calc'!A0",
    "@SUM(1+1)",
    "-2+3",
    "bad" + ESC_ERASE,
    "fake\nTable 9    game forged",
    BIDI + "x",
    "[link=https://e.x]y[/link]",
]


def test_hostile_player_names_through_every_tournament_command(tmp_path):
    db = _tournament_with(tmp_path, HOSTILE_PLAYERS)
    for args in (
        ["tournament", "seat", "t", "1"],
        ["tournament", "seating", "t", "1"],
        ["tournament", "seating", "t", "1", "--by", "player"],
        ["tournament", "status", "t", "1"],
        ["tournament", "standings", "t"],
        ["tournament", "players", "list", "t"],
        ["tournament", "list"],
    ):
        result = referee(db, *args)
        assert result.returncode == 0 and "Traceback" not in result.stderr, (args, result.stderr)
        clean(result.stdout)
        if args[1] in ("players", "seating"):
            assert "[/p]" in result.stdout
    sheet = tmp_path / "sheet.txt"
    assert referee(db, "tournament", "seating", "t", "1", "--sheet", str(sheet)).returncode == 0
    text = sheet.read_text("utf-8")
    clean(text)
    assert not any(line.startswith("Table 9") for line in text.splitlines())  # no fake line from a name
    assert "fake\\x0aTable 9" in text


# --- 5. CSV formula injection ----------------------------------------------------------------------------------
def test_every_csv_neutralises_cells_a_spreadsheet_would_run(tmp_path):
    db = _tournament_with(tmp_path, HOSTILE_PLAYERS)
    ok(db, "tournament", "seat", "t", "1")
    files = {}
    for what, args in (
        ("standings", ["tournament", "standings", "t"]),
        ("seating", ["tournament", "seating", "t", "1"]),
        ("results", ["tournament", "results", "t"]),
    ):
        path = tmp_path / f"{what}.csv"
        ok(db, *args, "--csv", str(path))
        files[what] = list(csv.reader(io.StringIO(path.read_text("utf-8"))))
    cells = [c for rows in files.values() for row in rows for c in row]
    assert not [c for c in cells if c[:1] in ("=", "+", "@", "\t", "\r")], cells
    assert not [c for c in cells if c.startswith("-") and not re.fullmatch(r"-[\d.]+", c)]
    names = {row[files["seating"][0].index("name")] for row in files["seating"][1:]}
    assert '\'=HYPERLINK("https://evil.example","x")' in names and "'@SUM(1+1)" in names and "'-2+3" in names


# --- 2. seals ------------------------------------------------------------------------------------------------------
def test_a_seal_carries_80_bits_in_four_readable_groups_and_verify_finds_it(tmp_path):
    db = str(tmp_path / "t.db")
    ok(db, "new", "g", "--clans", "crab,crane", "--partial-setup")
    out = ok(db, "round", "g", "-", "--yes", "--round", "1", input=ROUND)
    seal = re.search(r"seal (\S+)", out).group(1)
    assert re.fullmatch(r"[0-9A-HJKMNP-TV-Z]{4}(-[0-9A-HJKMNP-TV-Z]{4}){3}", seal), seal
    said = seal.lower().replace("-", " ").replace("0", "o")  # read aloud, typed back loosely
    found = ok(db, "verify", "g", "--seal", said)
    assert f"seal {seal}: round 1" in found and "no seal checked" not in found
    unsealed = ok(db, "verify", "g")
    assert "no seal checked" in unsealed
    short = runner.invoke(app, ["verify", "g", "--seal", seal[:9], "--db", db])
    assert short.exit_code == 2 and "not a seal" in short.output  # a prefix of the seal is not a seal


def test_verify_refuses_entries_out_of_the_canonical_order(tmp_path):
    db = str(tmp_path / "t.db")
    ok(db, "new", "g", "--clans", "crab,crane", "--partial-setup")
    ok(db, "round", "g", "-", "--yes", "--round", "1", input=ROUND + "crane: army 1 @ crane_central\n")
    events = events_of(db, "g")
    assert events[2].payload["entries"] == sorted(events[2].payload["entries"])
    items = [
        (e.type, {**e.payload, "entries": e.payload["entries"][::-1]} if e.seq == 3 else e.payload, e.payload_version)
        for e in events
    ]
    forged = chain_all("g", items)  # the same round, its tokens in another order, the chain made whole again
    path = tmp_path / "forged.jsonl"
    path.write_text("".join(json.dumps(e.to_dict()) + "\n" for e in forged))
    result = runner.invoke(app, ["verify", str(path), "--allow-incomplete"])
    assert result.exit_code == 1 and "entries out of order" in result.output, result.output


def test_a_record_without_seals_says_nothing_was_sealed_and_an_old_32_bit_seal_is_flagged(tmp_path):
    events = golden("two-player")
    path = tmp_path / "r.txt"
    db = str(tmp_path / "t.db")
    ok(db, "import", str(ROOT / "referee/data/games/two-player.jsonl"))
    text = ok(db, "export", "two-player", "--format", "text")
    path.write_text(re.sub(r" \(seal [^)]*\)", "", text))
    out = runner.invoke(app, ["verify", str(path)]).output
    assert "7 of 7 sections carry no seal" in out and "no seal checked" in out
    old = legacy_seal(events[2].hash)
    flagged = ok(db, "verify", "two-player", "--seal", old)
    assert "32-bit seal" in flagged and format_seal(events[2].hash) in flagged


# --- 3. the reveal code off the public screen ---------------------------------------------------------------
def test_the_reveal_code_is_shown_on_the_alternate_screen_until_noted_then_cleared(tmp_path):
    pty = pytest.importorskip("pty")
    db = str(tmp_path / "t.db")
    ok(db, "new", "g", "--clans", "crab,crane", "--partial-setup")
    pid, fd = pty.fork()
    if pid == 0:  # the child: the command at a terminal
        os.chdir(ROOT)
        env = {**os.environ, "HOME": str(tmp_path), "TERM": "xterm", "COLUMNS": "100"}
        os.execve(sys.executable, [sys.executable, "-m", "referee", "seal", "g", "crab", "--db", db], env)
    out = b""
    deadline = time.monotonic() + 120  # a child that waits for input it never gets fails the test, not the run

    def read_until(marker: bytes) -> None:
        nonlocal out
        while marker not in out:
            ready, _, _ = select.select([fd], [], [], max(0.0, deadline - time.monotonic()))
            if not ready:
                os.kill(pid, signal.SIGKILL)
                raise AssertionError(f"no {marker!r} within the time allowed: {out!r}")
            chunk = os.read(fd, 4096)
            if not chunk:
                raise AssertionError(out)
            out += chunk

    read_until(b"(not shown)")
    # The prompt is printed before the terminal's echo is turned off, and turning it off discards what was
    # typed ahead (TCSAFLUSH): type only once the hidden prompt is really listening.
    while termios.tcgetattr(fd)[3] & termios.ECHO:
        assert time.monotonic() < deadline, "the hidden prompt never turned the echo off"
        time.sleep(0.01)
    os.write(fd, b"the_last_line_of_defense\n")
    read_until(b"press Enter")
    shown = out
    os.write(fd, b"\n")
    try:
        while select.select([fd], [], [], max(0.0, deadline - time.monotonic()))[0] and (chunk := os.read(fd, 4096)):
            out += chunk
    except OSError:  # the terminal closed with the child
        pass
    os.waitpid(pid, 0)
    code = re.search(rb"Reveal code: (?:\x1b\[[0-9;]*m)*([0-9A-Z]{5}-[0-9A-Z]{5})", shown).group(1)
    enter, leave = out.index(b"\x1b[?1049h"), out.rindex(b"\x1b[?1049l")
    assert enter < out.index(code) < leave and code not in out[leave:] and code not in out[:enter]
    assert b"reveal code was shown to the player and cleared" in out[leave:]


def test_a_scripted_seal_prints_the_code_once_as_a_line(tmp_path):
    db = str(tmp_path / "t.db")
    ok(db, "new", "g", "--clans", "crab,crane", "--partial-setup")
    out = ok(db, "seal", "g", "crab", input="the_last_line_of_defense\n")
    assert re.search(r"Reveal code: [0-9A-Z]{5}-[0-9A-Z]{5}", out)


# --- 4. a sealed objective is set only by its reveal; not met is final -----------------------------------
def test_a_sealed_objective_cannot_be_replaced_by_a_table_event_and_not_met_scores_nothing(tmp_path):
    db = str(tmp_path / "t.db")
    ok(db, "new", "g", "--clans", "crab,crane", "--partial-setup")
    ok(db, "seal", "g", "crab", input="the_last_line_of_defense\n")
    ok(db, "seal", "g", "crane", input="way_of_the_sail\n")
    before = len(events_of(db, "g"))
    refused = runner.invoke(app, ["event", "g", "crane: objective way_of_the_sail", "--db", db])
    assert refused.exit_code == 1 and "objective is sealed" in said(refused), said(refused)
    assert len(events_of(db, "g")) == before  # nothing recorded
    for n in range(1, 6):
        ok(db, "round", "g", "-", "--yes", "--round", str(n), input=ROUND)
    again = runner.invoke(app, ["event", "g", "crane: objective way_of_the_sail", "--db", db])
    assert again.exit_code == 1 and len(events_of(db, "g")) == before + 5
    ok(db, "reveal", "g", "crane", "--not-met")
    crane = json.loads(ok(db, "score", "g", "--json"))
    lines = [line for s in crane["scores"] if s["clan"] == "crane" for line in s["lines"]]
    assert not [line for line in lines if "objective" in json.dumps(line)], lines


# --- 7. an empty sheet -------------------------------------------------------------------------------------------
def test_an_empty_sheet_is_refused_unless_the_round_had_no_tokens_on_purpose(tmp_path):
    db = str(tmp_path / "t.db")
    ok(db, "new", "g", "--clans", "crab,crane", "--partial-setup")
    for sheet in ("", "\n\n", "# only a comment\n"):
        refused = runner.invoke(app, ["round", "g", "-", "--yes", "--db", db], input=sheet)
        assert refused.exit_code == 1 and "--no-tokens" in said(refused), said(refused)
    assert [e.type for e in events_of(db, "g")].count("RoundResolved") == 0
    ok(db, "round", "g", "-", "--yes", "--no-tokens", input="")
    assert [e.type for e in events_of(db, "g")].count("RoundResolved") == 1
    both = runner.invoke(app, ["round", "g", "-", "--yes", "--no-tokens", "--db", db], input=ROUND)
    assert both.exit_code == 2


def test_an_empty_file_through_the_real_entry_point_is_refused(tmp_path):
    db = str(tmp_path / "t.db")
    assert referee(db, "new", "g", "--clans", "crab,crane", "--partial-setup").returncode == 0
    result = referee(db, "round", "g", os.devnull, "--yes")
    assert result.returncode == 1 and "no tokens" in result.stderr and "Traceback" not in result.stderr
    assert [e.type for e in events_of(db, "g")].count("RoundResolved") == 0


# --- 8. bounded memory, a size limit ------------------------------------------------------------------------
def _verify_with_rss(path: Path) -> tuple[int, str, int]:
    """`referee verify PATH` in a child process: its exit code, standard error and peak memory (MiB)."""
    script = (
        "import resource, subprocess, sys\n"
        "r = subprocess.run([sys.executable, '-m', 'referee', 'verify', sys.argv[1]], capture_output=True, text=True)\n"
        "print(r.returncode); print(repr(r.stderr))\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script, str(path)], capture_output=True, text=True, cwd=ROOT
    ).stdout.splitlines()
    return int(out[0]), eval(out[1]), int(out[2]) // 1024  # noqa: S307 (our own repr)


def test_a_file_over_the_size_limit_is_refused_clearly_in_bounded_memory(tmp_path):
    path = tmp_path / "big.txt"
    path.write_text('[Game "' + "a" * (20 * 2**20) + '"]\n')
    code, err, rss = _verify_with_rss(path)
    assert code == 1 and "larger than" in err and "16 MiB" in err and "Traceback" not in err, err
    assert rss < 200, f"peak memory {rss} MiB for a 20 MiB file"


def test_a_long_header_under_the_limit_is_read_in_linear_memory(tmp_path):
    path = tmp_path / "long.txt"
    path.write_text('[Event "' + 'x\\"' * (3 * 2**20) + '"]\n')  # 9 MiB: one header, escapes all along
    code, err, rss = _verify_with_rss(path)
    assert code == 1 and "missing header(s) [Game]" in err and "Traceback" not in err, err
    assert rss < 400, f"peak memory {rss} MiB for a 9 MiB header (it was about 170 bytes a byte)"


# --- 10. tracebacks: every one a clear line, exit 1 or 2 ----------------------------------------------------
def _one_line_refusal(result: subprocess.CompletedProcess, code: int = 1) -> None:
    assert result.returncode == code, (result.returncode, result.stderr)
    assert "Traceback" not in result.stderr and result.stderr.startswith(("error:", "Usage:")), result.stderr
    assert len(result.stderr) < 2000, result.stderr[:300]  # a line or two, not the input echoed back


def test_deep_nesting_lone_surrogates_and_huge_numbers_are_refused_in_one_line(tmp_path):
    db = str(tmp_path / "t.db")
    assert referee(db, "new", "g", "--clans", "crab,crane", "--partial-setup").returncode == 0
    deep = tmp_path / "deep.jsonl"
    deep.write_text('{"a":' * 100_000 + "1" + "}" * 100_000 + "\n")
    surrogate = tmp_path / "surrogate.jsonl"
    event = json.loads(ok(db, "export", "g").splitlines()[0])
    event["payload"]["event"] = "\ud800"
    surrogate.write_text(json.dumps(event) + "\n")
    for args in (["verify", str(deep)], ["import", str(deep)], ["import", str(surrogate)]):
        _one_line_refusal(referee(db, *args))
    _one_line_refusal(referee(db, "tournament", "import", str(deep)))
    huge = "9" * 5000
    for args, stdin in (
        (["round", "g", "-", "--yes"], f"crab: army {huge} @ crab_central\n"),
        (["round", "g", "-", "--yes"], f"crab: army 1 @ crab_central + blessing {huge}\n"),
        (["setup", "g", "-"], f"crab: control {huge} @ crab_central\n"),
        (["event", "g", f"crab: discarded army 1 in round {huge}"], None),
        (["event", "g", f"crab: returns army {huge}"], None),
    ):
        result = referee(db, *args, stdin=stdin)
        _one_line_refusal(result)
        assert "too large" in result.stderr, result.stderr
    record = tmp_path / "r.txt"
    record.write_text(
        ok(db, "export", "g", "--format", "text").replace("crab_faceup_bonus=2", f"crab_faceup_bonus={huge}")
    )
    _one_line_refusal(referee(db, "verify", str(record), "--allow-incomplete"))
    assert [e.type for e in events_of(db, "g")] == ["GameCreated", "SetupRecorded"]  # nothing recorded


def test_closed_standard_input_is_a_clear_refusal(tmp_path):
    db = str(tmp_path / "t.db")
    assert referee(db, "new", "g", "--clans", "crab,crane", "--partial-setup").returncode == 0
    for args in (["round", "g", "-"], ["round", "g"], ["setup", "g", "-"], ["event", "g"], ["table", "g"]):
        result = subprocess.run(
            [sys.executable, "-m", "referee", *args, "--db", db],
            stdin=subprocess.DEVNULL if args == ["table", "g"] else None,
            capture_output=True,
            text=True,
            cwd=ROOT,
            preexec_fn=(lambda: os.close(0)) if args != ["table", "g"] else None,
        )
        assert "Traceback" not in result.stderr, (args, result.stderr)
        assert result.returncode in (0, 1), (args, result.stderr)
    assert [e.type for e in events_of(db, "g")] == ["GameCreated", "SetupRecorded"]


def test_a_players_csv_with_a_huge_field_or_an_unterminated_quote_is_refused(tmp_path):
    db = str(tmp_path / "t.db")
    ok(db, "tournament", "new", "t", "--name", "Open", "--date", "2026-11-21", "--rounds", "2")
    huge = tmp_path / "huge.csv"
    huge.write_text("name\n" + "x" * (200 * 1024) + "\n")
    quote = tmp_path / "quote.csv"
    quote.write_text('name\nAiko\n"Kenji\nSora\nHaru\n')
    for path in (huge, quote):
        result = referee(db, "tournament", "players", "add", "t", "--csv", str(path))
        _one_line_refusal(result)
    assert json.loads(ok(db, "tournament", "players", "list", "t", "--json")) == []


def test_a_judges_result_with_an_absurd_honor_is_refused(tmp_path):
    db = _tournament_with(tmp_path, ["Aiko", "Kenji", "Sora"])
    ok(db, "tournament", "seat", "t", "1")
    table = json.loads(ok(db, "tournament", "seating", "t", "1", "--json"))[0]
    names = [s["name"] for s in table["seats"]]
    honors = [f"{names[0]}={10**30}", *(f"{n}=10" for n in names[1:])]
    result = runner.invoke(app, ["tournament", "result", "t", "1", "1", *honors, "--reason", "paper", "--db", db])
    assert result.exit_code == 1 and "honor -9999 to 9999" in result.stderr, result.output
    status = json.loads(ok(db, "tournament", "status", "t", "1", "--json"))
    assert all(s.get("source") != "judge" for s in status), status


# --- 12. storage messages ------------------------------------------------------------------------------------
def _pragma_on_connect(store, sql):
    from sqlalchemy import event

    store.engine.dispose()  # the next connection is a new one, made with the pragma
    event.listen(store.engine, "connect", lambda conn, _: conn.execute(sql))


def test_a_full_disk_and_a_read_only_database_say_so(tmp_path):
    from referee.log import StoreError, relabel

    db = str(tmp_path / "t.db")
    ok(db, "new", "g", "--clans", "crab,crane", "--partial-setup")
    pages = sqlite3.connect(db).execute("PRAGMA page_count").fetchone()[0]
    for sql, said in (
        (f"PRAGMA max_page_count = {pages}", "the disk is full"),  # SQLite's own "database or disk is full"
        ("PRAGMA query_only = ON", "the database is read-only"),
    ):
        store = Store(db)
        _pragma_on_connect(store, sql)
        with pytest.raises(StoreError) as refused:
            for n in range(40):  # until the pages run out: copies of a whole game
                store.import_logs([relabel(golden("two-player"), f"copy-{n}")])
        assert said in refused.value.hint and "referee database?" not in refused.value.hint, refused.value.hint
        store.close()


def test_one_payload_of_invalid_utf8_fails_its_own_game_not_the_whole_database(tmp_path):
    db = str(tmp_path / "t.db")
    ok(db, "new", "a", "--clans", "crab,crane", "--partial-setup")
    ok(db, "new", "b", "--clans", "crab,crane", "--partial-setup")
    with sqlite3.connect(db) as conn:
        triggers = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='trigger'")]
        for name in triggers:
            conn.execute(f"DROP TRIGGER {name}")
        conn.execute("UPDATE event SET payload = CAST(X'7B22ff7D' AS TEXT) WHERE game_id = 'b' AND seq = 2")
    listed = referee(db, "games")
    assert listed.returncode == 0 and " a " in listed.stdout and "Traceback" not in listed.stderr, listed.stderr
    assert referee(db, "verify", "a").returncode == 0
    broken = referee(db, "verify", "b")
    assert broken.returncode == 1 and "event 2" in broken.stdout + broken.stderr


@pytest.mark.parametrize("where", [":memory:", "sqlite://", "sqlite:///:memory:"])
def test_an_in_memory_database_is_refused_clearly(tmp_path, where):
    result = referee(where, "new", "g", "--clans", "crab,crane")
    _one_line_refusal(result)
    assert "keeps nothing" in result.stderr


def test_the_time_an_event_was_recorded_is_shown_as_unsealed(tmp_path):
    """The time is not covered by the seal, and `replay` and `verify --seal` say so in those words (issue 33: they
    said "(unsealed)", which read as if the round itself were unsealed)."""
    db = str(tmp_path / "t.db")
    ok(db, "new", "g", "--clans", "crab,crane", "--partial-setup")
    ok(db, "round", "g", "-", "--yes", input=ROUND)
    replayed = referee(db, "replay", "g").stdout
    assert replayed.startswith("each event with the time it was recorded (time not covered by the seal: the ")
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d"
    assert re.search(stamp + "  event 3", replayed), replayed
    stamp += r" \(time not covered by the seal\)"
    seal = re.search(r"seal ([0-9A-Z]{4}(?:-[0-9A-Z]{4})+)", ok(db, "show", "g"))[1]
    verified = referee(db, "verify", "g", "--seal", seal).stdout
    assert re.search(rf"seal {seal}: round 1, event 3 of 3, recorded {stamp}; every event up to it", verified), verified
    assert "unsealed" not in replayed + verified


def test_the_venue_commands_show_a_hostile_path_and_address_escaped(tmp_path):
    """Item 1: `tournament publish` prints the folder and the address the organiser typed: with their control
    characters made visible, as every other command prints user text."""
    db = str(tmp_path / "t.db")
    ok(db, "tournament", "new", "t", "--name", "Open", "--date", "2026-11-21", "--rounds", "2")
    folder = tmp_path / "site\x1b[2Khere"
    out = ok(db, "tournament", "publish", "t", str(folder), "--url", "http://x.example/\x1b]8;;evil\x07")
    clean(out)
    assert "\\x1b" in out and folder.is_dir()


def test_a_csv_cell_that_reads_as_a_number_with_a_plus_stays_text():
    """A name such as ``+0.0`` is quoted like any text starting with ``+`` (a spreadsheet would show a 0, or
    run ``+1+cmd``); a negative number written as text stays as written (not a formula)."""
    from referee.shown import csv_cell

    assert csv_cell("+0.0") == "'+0.0" and csv_cell("+1+2") == "'+1+2"
    assert csv_cell("-3") == "-3" and csv_cell("-3+cmd") == "'-3+cmd" and csv_cell(3) == 3


def test_an_announcement_holding_a_nul_is_a_usage_error(tmp_path):
    """A NUL character cannot be stored by a database text field (PostgreSQL refuses it): the announcement is
    refused as a usage error (exit 2), never a traceback."""
    from referee.cli.app import app
    from tests.support.entry_point import runner

    db = str(tmp_path / "t.db")
    made = runner.invoke(app, ["tournament", "new", "t1", "--name", "Spring", "--date", "2026-11-21", "--db", db])
    assert made.exit_code == 0, made.output
    said = runner.invoke(app, ["tournament", "announce", "t1", "round\x00 two", "--db", db])
    assert said.exit_code == 2 and "NUL" in said.output, said.output


@pytest.mark.parametrize("players", ["crab=,=", "=Ann", " =Ann,crab=Bo"])
def test_a_player_list_with_an_empty_clan_is_a_usage_error_and_the_log_refuses_one(tmp_path, players):
    """A name holding a comma splits the --players list: the piece without a clan (`=`) is refused as a usage
    error (exit 2), nothing created; the log's own check refuses a player for no clan with one line."""
    r = referee(
        str(tmp_path / "g.db"),
        "new",
        "h1",
        "--clans",
        "crab,crane",
        "--partial-setup",
        "--players",
        players,
        home=tmp_path,
    )
    assert r.returncode == 2 and "expected CLAN=NAME" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert not (tmp_path / "g.db").exists() or "h1" not in referee(str(tmp_path / "g.db"), "games").stdout
    from referee.log import LogError
    from referee.log.game import new_game

    with Store(str(tmp_path / "lib.db")) as store, pytest.raises(LogError, match="'' is not a valid Clan"):
        new_game(store, "h2", ["crab", "crane"], players={"": "Ann"})
