"""Bad input never crashes (hypothesis): random and mutated inputs to every reader and command.

The only outcomes allowed: a result, or a clear error (a RefereeError with a message: one line on
stderr and exit 1 at the command line), or a usage error (exit 2). Never another exception, which
the real entry point would print as a traceback.

- notations: round entries, board facts, table events (random text, mutated valid lines, lines
  built from the notation's own words), with the round trip of what parses;
- readers: scenario (casebook TOML) files, game files, and the import readers (JSON Lines logs and
  plain-text game records), mutated line by line, character by character and field by field;
- commands: every command with random arguments and mutated files and input, on a stored game;
- databases: damaged copies of a referee database (bytes overwritten, pages zeroed, truncated) and
  foreign SQLite files (random schemas and rows), under every read and write command.

Example counts are printed at the end of the run ("reliability").
"""

from __future__ import annotations

import json
import os
import re
import shutil
import sqlite3
import tempfile
from pathlib import Path

import pytest
from hypothesis import example, given, strategies as st

from referee.boarddata import load_board
from referee.cli.app import app
from referee.engine import Clan
from referee.engine.model.errors import RefereeError
from referee.engine.notation.round import format_entry, parse_entry, parse_round
from referee.engine.notation.setup import apply_board_fact, format_board_fact, new_state, parse_board_line
from referee.log import Store, export_jsonl, export_text, golden, import_records, parse_records, verify
from tests.support.entry_point import run_in_process, runner
from tests.support.fuzzing import examples
from tests.support.tally import count, outcome

ROOT = Path(__file__).parents[2]
BOARD = load_board()


# --- the corpus: valid inputs to mutate -----------------------------------------------------------------
GOLDEN = {name: golden(name) for name in ("two-player", "four-player", "five-player")}
SHEETS = [(ROOT / "examples" / "round1.txt").read_text()] + [
    "\n".join(e.data["entries"]) + "\n" for log in GOLDEN.values() for e in log if e.type == "RoundResolved"
]
BOARDS = [(ROOT / "examples" / "board-round1.txt").read_text()] + [
    "\n".join(log[1].data["lines"]) + "\n" for log in GOLDEN.values()
]
GAME_FILE = (ROOT / "tests" / "battle" / "games" / "cards-game.txt").read_text()
TABLE_LINES = [
    line.split("#")[0].strip()
    for line in GAME_FILE.splitlines()
    if line.split("#")[0].strip() and not line.startswith(("==", "--", "game:", "clans:", "final"))
]
RECORDS_JSONL = [export_jsonl(log) for log in GOLDEN.values()]
RECORDS_TEXT = [export_text(log) for log in GOLDEN.values()]
TOML_FILES = sorted((ROOT / "referee" / "data" / "casebook").glob("*.toml"))
EXPECT_KEYS = [
    "control",
    "faceup",
    "facedown",
    "winner",
    "refused",
    "honor",
    "special",
    "ronin",
    "table",
    "round",
    "entries",
    "board",
    "clans",
    "options",
    "cites",
    "first_player",
    "deck",
    "hand",
    "supply",
]

WORDS = sorted(
    {
        *map(str, Clan),
        "army",
        "navy",
        "shinobi",
        "raid",
        "diplomacy",
        "bluff",
        "blessing",
        "control",
        "faceup",
        "facedown",
        "peace",
        "scorched",
        "shrine",
        "battlefield",
        "harbor",
        "honor",
        "bushido",
        "defense",
        "card",
        "played",
        "holds",
        "objective",
        "board",
        "sea",
        "plays",
        "passes",
        "starts",
        "setup",
        "initiative",
        "capitals",
        "tokens",
        "scout",
        "swap",
        "with",
        "returns",
        "round",
        *BOARD.provinces,
    }
)
ODD = [
    "",
    " ",
    ":",
    "::",
    ">",
    ">>",
    "@",
    "@@",
    "+",
    "#",
    "\n",
    "\r",
    "\r\n",
    "\t",
    "\x00",
    "\x0b",
    "\u2028",
    "\u0085",
    '"',
    "\\",
    "[",
    "]",
    "{",
    "}",
    "=",
    ",",
    ";",
    "-",
    "_",
    "0",
    "-1",
    "7",
    "99999999999999999999",
    "1e9",
    "NaN",
    "null",
    "true",
    "é",
    "Ｃrab",
    "🐉",
    "\ufeff",
    "\ufffd",
    "crab:",
    "army 3",
    "@ crab_capital",
]


def _fragment() -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(WORDS), st.sampled_from(ODD), st.text(max_size=6), st.integers(-3, 12).map(str))


def one_of_corpus(corpus: list) -> st.SearchStrategy:
    """An item of ``corpus`` (drawn by index: a failure report names the index, not the whole corpus)."""
    return st.integers(0, len(corpus) - 1).map(corpus.__getitem__)


@st.composite
def mutated(draw, corpus: list[str]) -> str:
    """A valid input from ``corpus`` with 1 to 6 edits: characters, fragments, whole lines."""
    text = draw(one_of_corpus(corpus))
    for _ in range(draw(st.integers(1, 6))):
        op = draw(
            st.sampled_from(
                ["delete", "insert", "replace", "drop_line", "dup_line", "swap_lines", "truncate", "line", "case"]
            )
        )
        i = draw(st.integers(0, max(len(text) - 1, 0)))
        lines = text.splitlines(keepends=True)
        if op == "delete":
            text = text[:i] + text[i + draw(st.integers(1, 8)) :]
        elif op == "insert":
            text = text[:i] + draw(_fragment()) + text[i:]
        elif op == "replace":
            text = text[:i] + draw(_fragment()) + text[i + draw(st.integers(1, 12)) :]
        elif op == "truncate":
            text = text[:i]
        elif op == "case":
            text = text[:i] + text[i : i + 20].swapcase() + text[i + 20 :]
        elif lines:
            j, k = draw(st.integers(0, len(lines) - 1)), draw(st.integers(0, len(lines) - 1))
            if op == "drop_line":
                del lines[j]
            elif op == "dup_line":
                lines.insert(k, lines[j])
            elif op == "swap_lines":
                lines[j], lines[k] = lines[k], lines[j]
            else:
                lines.insert(k, draw(notation_line()) + "\n")
            text = "".join(lines)
    return text


@st.composite
def notation_line(draw) -> str:
    """A line made of the notations' own words and marks, in a plausible order."""
    parts = draw(
        st.lists(
            st.one_of(
                st.sampled_from(WORDS),
                st.sampled_from([":", ">", "@", "+", "sea", "1", "2", "3", "5", "blessing 2", "0"]),
            ),
            min_size=1,
            max_size=8,
        )
    )
    head = draw(st.sampled_from([*map(str, Clan), "board", "setup", "initiative", "first_player", "crab", ""]))
    return f"{head}: " + " ".join(parts) if draw(st.booleans()) else " ".join(parts)


def _text(corpus: list[str]) -> st.SearchStrategy[str]:
    return st.one_of(mutated(corpus), st.text(max_size=200), st.lists(notation_line(), max_size=8).map("\n".join))


def _allowed(fn, *args, target: str | None = None):
    """Call ``fn``: a result, or a RefereeError with a message. Anything else fails the test."""
    try:
        result = fn(*args)
    except RefereeError as exc:
        assert str(exc).strip(), f"an empty error message from {fn.__name__}"
        if target:
            outcome(target, "clear error")
        return None
    if target:
        outcome(target, "result")
    return result


# --- the notations --------------------------------------------------------------------------------------
@examples(400)
@given(_text(SHEETS))
def test_round_notation_never_crashes(text):
    count("round notation")
    for line in text.splitlines():
        entry = _allowed(parse_entry, line.split("#")[0], BOARD)
        if entry is not None:  # what parses prints canonically and reads back the same
            assert parse_entry(format_entry(entry), BOARD) == entry
    _allowed(parse_round, text, BOARD, target="round notation")


@examples(300)
@given(_text(BOARDS), st.lists(st.sampled_from(list(Clan)), min_size=2, max_size=5, unique=True))
def test_board_notation_never_crashes(text, clans):
    count("setup notation")
    state = new_state(BOARD, tuple(clans))
    for n, line in enumerate(text.splitlines(), 1):
        fact = _allowed(parse_board_line, line.split("#")[0], BOARD, n, target="setup notation")
        if fact is not None:
            assert parse_board_line(format_board_fact(fact), BOARD) == fact
            state = _allowed(apply_board_fact, state, fact) or state


@examples(300)
@given(_text(["\n".join(TABLE_LINES)]))
def test_table_notation_never_crashes(text):
    from referee.engine.notation.table_events import format_table_event, parse_table_event

    count("table notation")
    for n, line in enumerate(text.splitlines(), 1):
        event = _allowed(parse_table_event, line.split("#")[0], BOARD, n, target="table notation")
        if event is not None:
            assert parse_table_event(format_table_event(event), BOARD) == event


# --- the readers ---------------------------------------------------------------------------------------
def _toml(value) -> str:
    """A value in TOML (inline tables and arrays), enough to write any case back."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value).replace("inf", "inf").lower() if value == value else "nan"
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(str(k))} = {_toml(v)}" for k, v in value.items()) + "}"


TOML_VALUES = st.recursive(
    st.one_of(st.booleans(), st.integers(-5, 10**6), st.text(max_size=20), st.sampled_from(WORDS)),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from(WORDS), inner, max_size=3)),
    max_leaves=6,
)


@st.composite
def mutated_cases(draw) -> str:
    """A casebook file with one to three fields (of a case or of its expectations) given other values."""
    import tomllib

    cases = tomllib.loads(draw(one_of_corpus(TOML_FILES)).read_text())["case"]
    cases = cases[: draw(st.integers(1, 4))]
    for _ in range(draw(st.integers(1, 3))):
        case = draw(st.sampled_from(cases))
        where = case["expect"] if isinstance(case.get("expect"), dict) and draw(st.booleans()) else case
        key = draw(st.one_of(st.sampled_from(sorted(where) or ["id"]), st.sampled_from(sorted(EXPECT_KEYS))))
        where[key] = draw(TOML_VALUES)
    return "".join("[[case]]\n" + "".join(f"{json.dumps(k)} = {_toml(v)}\n" for k, v in c.items()) for c in cases)


@examples(200)
@given(st.sampled_from(TOML_FILES), st.data())
def test_scenario_reader_never_crashes_on_mutated_text(path, data):
    count("scenario reader (text)")
    text = data.draw(st.one_of(mutated([path.read_text()]), st.text(max_size=300)))
    _allowed(_load_toml, text, target="scenario reader (text)")


def _load_toml(text: str):
    from referee.scenario import load_file

    with tempfile.TemporaryDirectory() as tmp:
        target = Path(tmp) / "fuzzed.toml"
        target.write_text(text, "utf-8")
        return load_file(target)


@examples(150)
@given(st.one_of(mutated_cases(), mutated([p.read_text() for p in TOML_FILES])))
@example('[[case]]\nid = "x"\ncites = ["p.9"]\nclans = true\n')
@example('[[case]]\nid = "x"\ncites = ["p.9"]\nclans = ["crab"]\nround = "x"\n')
@example('[[case]]\nid = "x"\ncites = ["p.9"]\nclans = ["crab"]\n[case.expect]\ncontrol = true\n')
@example("case = 5\n")
@example('[[case]]\nid = "x"\ncites = ["p.9"]\nclans = ["crab", "lion"]\noptions = { rab_faceup_bonus = 2 }\n')
def test_scenario_reader_never_crashes_on_malformed_cases(text):
    from referee.scenario import run_case

    count("scenario reader (fields)")
    for case in _allowed(_load_toml, text, target="scenario reader (fields)") or []:
        _allowed(run_case, case, BOARD)


@examples(150)
@given(_text([GAME_FILE]))
@example("clans: crab, lion\nfinal honor: crab 51,\n")
@example("clans: crab, lion\noptions: x\n")
def test_game_file_reader_never_crashes(text):
    from referee.gamefile import play_game, read_game

    count("game file reader")
    record = _allowed(read_game, text, BOARD, target="game file reader")
    if record is not None:
        _allowed(play_game, record, BOARD)


@st.composite
def mutated_jsonl(draw) -> str:
    """A JSON Lines log with one to three fields given other values (types, keys, strings)."""
    events = [json.loads(line) for line in draw(one_of_corpus(RECORDS_JSONL)).splitlines()]
    for _ in range(draw(st.integers(1, 3))):
        e = draw(st.sampled_from(events))
        where = e["payload"] if isinstance(e.get("payload"), dict) and draw(st.booleans()) else e
        key = draw(st.one_of(st.sampled_from(sorted(where) or ["x"]), st.text(max_size=5)))
        where[key] = draw(
            st.one_of(
                st.none(),
                st.booleans(),
                st.integers(-2, 10**20),
                st.floats(allow_nan=True),
                st.text(max_size=20),
                st.lists(st.one_of(st.text(max_size=40), st.integers()), max_size=3),
                st.dictionaries(st.text(max_size=8), st.one_of(st.integers(), st.text(max_size=8)), max_size=3),
                st.sampled_from([*where.values(), 0]),
            )
        )
    return "".join(json.dumps(e) + "\n" for e in events)


@examples(250)
@given(st.one_of(mutated(RECORDS_JSONL), mutated(RECORDS_TEXT), mutated_jsonl(), st.text(max_size=300)))
def test_import_readers_never_crash(text):
    count("import readers")
    events = _allowed(lambda t: parse_records(t)[0], text)
    if events:
        _allowed(verify, events)
    with Store("sqlite://") as store:  # in memory
        imported = _allowed(import_records, store, text, target="import readers")
        if imported:
            assert verify(store.events(imported[0].game)) is None


# --- the commands --------------------------------------------------------------------------------------
def _invoke(
    args: list[str],
    input: str | None = None,
    env: dict | None = None,
    cwd: Path | None = None,
    target: str | None = None,
) -> int:
    """A command in process; its exit code as the real entry point would give it. Fails on a crash."""
    if target is not None:
        count(target)
    code = _exit_code(args, input, env, cwd)
    if target is not None:
        outcome(target, f"exit {code}")
    return code


def _exit_code(args: list[str], input: str | None, env: dict | None, cwd: Path | None) -> int:
    old = Path.cwd()
    if cwd is not None:
        os.chdir(cwd)
    try:
        result = runner.invoke(app, args, input=input, env=env)
    finally:
        os.chdir(old)
    # a traceback at the command line is raised into the test by the runner
    assert result.exit_code in (0, 1, 2), f"referee {args!r}: exit {result.exit_code}"
    if result.exit_code == 1 and result.stderr:  # a refusal's line (a failing casebook case says none)
        assert result.stderr.startswith("error: ") and result.stderr[7:].strip(), f"referee {args!r}: {result.stderr!r}"
    return result.exit_code


def _template(directory: Path) -> Path:
    """A referee database with games at every stage: set up, mid-game, over."""
    db = directory / "template.db"
    if db.exists():
        return db
    with Store(str(db)) as store:
        store.import_logs([GOLDEN["five-player"][:6]])  # rounds 1-4 played: round 5 next
        from referee.log import relabel

        store.import_logs([relabel(GOLDEN["two-player"], "over"), relabel(GOLDEN["four-player"][:2], "fresh")])
    return db


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("fuzz")


def _copy(workdir: Path) -> Path:
    fd, name = tempfile.mkstemp(suffix=".db", dir=workdir)
    os.close(fd)
    shutil.copyfile(_template(workdir), name)
    return Path(name)


GAMES = ["five-player", "over", "fresh", "nope", "", "five", "FIVE-PLAYER"]
NUMBERS_AND_FILES = [  # values for any option: numbers in and out of range, files there, missing or not files
    "0",
    "1",
    "3",
    "5",
    "6",
    "-1",
    "99999999999999999999",
    "sheet.txt",
    "board.txt",
    "record.jsonl",
    "record.txt",
    "bad.toml",
    "-",
    "nowhere.txt",
    ".",
    "/dev/null",
    "sub/x.svg",
    "missing/dir/x.svg",
    "out.jsonl",
    "/proc/version",
]
CLI_WORDS = [
    "new",
    "games",
    "show",
    "setup",
    "round",
    "table",
    "board",
    "score",
    "replay",
    "verify",
    "export",
    "import",
    "what-if",
    "correct",
    "adjudicate",
    "casebook",
    "demo",
    "event",
    "seal",
    "reveal",
    "retract",
    "--reason",
    "--not-met",
    "--seal",
    "--allow-incomplete",
    "--partial-setup",
    "--json",
    "--yes",
    "-y",
    "--round",
    "-r",
    "--to",
    "--svg",
    "-o",
    "--output",
    "-f",
    "--format",
    "jsonl",
    "text",
    "xml",
    "--clans",
    "-c",
    "crab,lion",
    "crab,crab",
    "crab",
    "dragon,phoenix,scorpion",
    ",",
    "--players",
    "crab=Ann",
    "crab",
    "--option",
    "-o",
    "tiebreak=coin",
    "crab_faceup_bonus=x",
    "humility_ties=maybe",
    "--reason",
    "--name",
    "two-player",
    "--board",
    "-b",
    "-k",
    "--case",
    "--event",
    "--table",
    "--date",
    "--help",
    "--db",
    *NUMBERS_AND_FILES,
    *GAMES,
]


@st.composite
def cli_files(draw) -> dict[str, str]:
    return {
        "sheet.txt": draw(_text(SHEETS)),
        "board.txt": draw(_text(BOARDS)),
        "record.jsonl": draw(st.one_of(mutated(RECORDS_JSONL), mutated_jsonl())),
        "record.txt": draw(mutated(RECORDS_TEXT)),
        "bad.toml": draw(st.one_of(mutated([TOML_FILES[0].read_text()]), mutated_cases())),
    }


def _setting_up(workdir: Path, files: dict[str, str]) -> tuple[Path, Path]:
    db = _copy(workdir)
    cwd = Path(tempfile.mkdtemp(dir=workdir))
    for name, text in files.items():
        (cwd / name).write_text(text, "utf-8", errors="surrogatepass")
    return db, cwd


COMMAND_NAMES = CLI_WORDS[: CLI_WORDS.index("--json")]
VALUES_ANY = [
    *NUMBERS_AND_FILES,
    "jsonl",
    "text",
    "xml",
    "crab,lion",
    "crab,crab",
    "dragon,phoenix,scorpion",
    "crab=Ann",
    "tiebreak=coin",
    "humility_ties=maybe",
    "two-player",
    *GAMES,
]
FLAGS = ["--json", "--yes", "-y", "--help"]
OPTIONS = [
    "--round",
    "-r",
    "--to",
    "--svg",
    "-o",
    "--output",
    "-f",
    "--format",
    "--clans",
    "-c",
    "--players",
    "--option",
    "--reason",
    "--name",
    "--board",
    "-b",
    "-k",
    "--case",
    "--event",
    "--table",
    "--date",
    "--db",
]
VALUE = st.one_of(st.sampled_from(VALUES_ANY), st.text(max_size=10))


def _signatures() -> dict[str, tuple[int, list[tuple[str, bool]]]]:
    """Each command's positional arguments and options (name, is a flag), as Click declares them."""
    import typer.main

    out = {}
    for name, command in typer.main.get_command(app).commands.items():
        if name == "serve":  # runs until stopped: started and stopped by tests/web/test_pages.py
            continue
        arguments = sum(p.param_type_name == "argument" for p in command.params)
        options = [(p.opts[0], bool(p.is_flag)) for p in command.params if p.param_type_name == "option"]
        out[name] = (arguments, options)
    return out


SIGNATURES = _signatures()


@st.composite
def command_line(draw) -> list[str]:
    """Mostly a command with its own arguments and options, random values; now and then anything."""
    if draw(st.integers(0, 9)) == 0:  # the usage errors: any words at all
        return draw(
            st.lists(st.one_of(st.sampled_from(COMMAND_NAMES + FLAGS + OPTIONS), VALUE), min_size=1, max_size=6)
        )
    name = draw(st.sampled_from(sorted(SIGNATURES)))
    arguments, options = SIGNATURES[name]
    argv = [name] + [
        draw(VALUE) for _ in range(draw(st.sampled_from([arguments, arguments, arguments - 1, arguments + 1])))
    ]
    for option, flag in draw(st.lists(st.sampled_from(options), max_size=3, unique=True)) if options else []:
        argv += [option] if flag else [option, draw(VALUE)]
    return argv


@examples(250)
@given(command_line(), cli_files(), _text(SHEETS))
def test_any_command_line_never_crashes(workdir, argv, files, stdin):
    db, cwd = _setting_up(workdir, files)
    _invoke(argv, input=stdin, env={"REFEREE_DB": str(db)}, cwd=cwd, target="command lines")


COMMANDS = [
    ["round", "{game}", "sheet.txt", "--yes"],
    ["round", "{game}", "-", "--yes"],
    ["round", "{game}", "-"],
    ["round", "{game}", "--json"],
    ["setup", "{game}", "board.txt"],
    ["setup", "{game}", "-"],
    ["table", "{game}"],
    ["what-if", "{game}", "{n}", "sheet.txt"],
    ["correct", "{game}", "{n}", "sheet.txt", "--reason", "{text}"],
    ["import", "record.jsonl"],
    ["import", "record.txt"],
    ["verify", "record.jsonl"],
    ["verify", "record.txt"],
    ["verify", "{game}", "--json"],
    ["adjudicate", "sheet.txt", "--board", "board.txt", "--clans", "{clans}", "--round", "{n}"],
    ["adjudicate", "-", "--board", "board.txt", "--clans", "{clans}", "--json"],
    ["new", "{text}", "--clans", "{clans}", "--players", "{text}", "--event", "{text}", "-o", "{text}"],
    ["board", "{game}", "--round", "{n}", "--svg", "pic.svg"],
    ["score", "{game}", "--json"],
    ["replay", "{game}", "--to", "{n}"],
    ["export", "{game}", "-f", "text", "-o", "out.txt"],
    ["show", "{game}"],
    ["casebook", ".", "-k", "{text}"],
    ["event", "{game}"],
    ["event", "{game}", "{line}"],
    ["seal", "{game}", "{text}"],
    ["reveal", "{game}", "{text}", "{line}", "{text}"],
    ["rules", "{text}"],
    ["rules", "{text}", "--json"],
    ["rules", "R-{n}"],
    ["reveal", "{game}", "{text}", "--not-met"],
    ["retract", "{game}", "--reason", "{text}"],
    ["correct", "{game}", "{n}", "sheet.txt", "--table", "--reason", "{text}"],
    ["correct", "{game}", "0", "board.txt", "--reason", "{text}"],
    ["verify", "{game}", "--seal", "{text}"],
    ["verify", "record.txt", "--allow-incomplete"],
    ["import", "record.jsonl", "--allow-incomplete"],
    ["replay", "{game}", "--round", "{n}", "--json"],
]


@examples(300)
@given(
    st.sampled_from(COMMANDS),
    st.sampled_from(GAMES[:3]),
    st.integers(-1, 6),
    st.text(max_size=30),
    st.one_of(
        st.sampled_from(["crab,lion", "dragon,phoenix,scorpion", "crab,crane,lion,scorpion,unicorn"]),
        st.text(max_size=20),
    ),
    cli_files(),
    st.one_of(_text(SHEETS), st.lists(notation_line()).map("\n".join)),
    _text(["\n".join(TABLE_LINES)]),
)
def test_every_command_with_mutated_input_never_crashes(workdir, command, game, n, text, clans, files, stdin, table):
    db, cwd = _setting_up(workdir, files)
    if command[0] == "casebook":
        (cwd / "case.toml").write_text(files["bad.toml"], "utf-8", errors="surrogatepass")
    line = next(iter(table.splitlines()), "")
    args = [a.format(game=game, n=n, text=text, clans=clans, line=line) for a in command]
    stdin = table if command[0] == "event" else stdin
    _invoke(
        args,
        input=stdin + "\nboard\nscore\nshow\npending\nresolve\n\nquit\n",
        env={"REFEREE_DB": str(db)},
        cwd=cwd,
        target="commands with mutated input",
    )


@examples(150)
@given(
    st.lists(st.one_of(mutated_cases(), mutated([p.read_text() for p in TOML_FILES[:3]])), min_size=1, max_size=3),
    st.one_of(st.none(), st.text(max_size=5)),
)
def test_the_casebook_command_never_crashes_on_malformed_files(workdir, files, case_filter):
    cwd = Path(tempfile.mkdtemp(dir=workdir))
    for i, text in enumerate(files):
        (cwd / f"fuzzed-{i}.toml").write_text(text, "utf-8")
    _invoke(
        ["casebook", str(cwd), *(["-k", case_filter] if case_filter is not None else [])], target="casebook command"
    )


# --- damaged and foreign databases ---------------------------------------------------------------------
DB_COMMANDS = [
    ["games"],
    ["games", "--json"],
    ["show", "five-player"],
    ["verify", "five-player"],
    ["verify", "over"],
    ["board", "five-player"],
    ["score", "over"],
    ["replay", "over"],
    ["export", "over"],
    ["round", "five-player", "-", "--yes"],
    ["setup", "fresh", "-"],
    ["new", "another", "--clans", "crab,lion"],
    ["import", "record.jsonl"],
    ["table", "five-player"],
    ["retract", "five-player", "--reason", "typo"],
    ["replay", "five-player"],
]


@examples(200)
@given(st.data())
def test_a_damaged_database_is_a_clear_error(workdir, data):
    db = _copy(workdir)
    raw = bytearray(db.read_bytes())
    page = 4096
    for _ in range(data.draw(st.integers(1, 4))):
        if not raw:
            break
        how = data.draw(st.sampled_from(["bytes", "zero page", "truncate", "header", "garbage page"]))
        at = data.draw(st.integers(0, len(raw) - 1))
        if how == "bytes":
            for k in range(data.draw(st.integers(1, 16))):
                raw[(at + k) % len(raw)] = data.draw(st.integers(0, 255))
        elif how == "zero page":
            start = at // page * page
            raw[start : start + page] = bytes(len(raw[start : start + page]))
        elif how == "garbage page":
            start = at // page * page
            raw[start : start + page] = data.draw(st.binary(min_size=page, max_size=page))[
                : len(raw[start : start + page])
            ]
        elif how == "header":
            raw[data.draw(st.integers(0, min(99, len(raw) - 1)))] = data.draw(st.integers(0, 255))
        else:
            del raw[at:]
    db.write_bytes(bytes(raw))
    command = data.draw(st.sampled_from(DB_COMMANDS))
    cwd = Path(tempfile.mkdtemp(dir=workdir))
    (cwd / "record.jsonl").write_text(RECORDS_JSONL[0])
    code = _invoke([*command, "--db", str(db)], input=SHEETS[1] + "\n\nquit\n", cwd=cwd, target="damaged databases")
    assert code in (0, 1)


SQL_TYPES = ["INTEGER", "TEXT", "BLOB", "REAL", ""]
COLUMNS = [
    "id",
    "game_id",
    "seq",
    "type",
    "payload_version",
    "payload",
    "prev_hash",
    "hash",
    "recorded_at",
    "created_at",
    "what",
]
VALUES = st.one_of(
    st.none(),
    st.integers(-2, 2**63 - 1),
    st.floats(allow_nan=False),
    st.text(max_size=30),
    st.binary(max_size=20),
    st.sampled_from(["five-player", "GameCreated", "RoundResolved", "{}", '{"round": 1}', "[]", "1"]),
)


@st.composite
def foreign_schema(draw) -> list[tuple[str, list[tuple[str, str]], list[list]]]:
    tables = []
    for name in draw(
        st.lists(st.sampled_from(["game", "event", "other", "Event"]), min_size=1, max_size=3, unique_by=str.lower)
    ):
        cols = draw(st.lists(st.sampled_from(COLUMNS), min_size=1, max_size=len(COLUMNS), unique=True))
        if draw(st.booleans()):  # often every column the referee expects, with foreign types and rows
            cols = list(dict.fromkeys([*(COLUMNS[:9] if name.lower() == "event" else ["id", "created_at"]), *cols]))
        typed = [(c, draw(st.sampled_from(SQL_TYPES))) for c in cols]
        rows = draw(st.lists(st.lists(VALUES, min_size=len(cols), max_size=len(cols)), max_size=4))
        tables.append((name, typed, rows))
    return tables


@examples(200)
@given(foreign_schema(), st.sampled_from(DB_COMMANDS))
@example(
    [
        (
            "game",
            [("id", "INTEGER"), ("created_at", "INTEGER"), ("game_id", "INTEGER"), ("seq", "INTEGER")],
            [["five-player", None, None, None]],
        )
    ],
    ["show", "five-player"],
)  # a game row with no events
def test_a_foreign_sqlite_file_is_a_clear_error(workdir, tables, command):
    fd, name = tempfile.mkstemp(suffix=".db", dir=workdir)
    os.close(fd)
    with sqlite3.connect(name) as conn:
        for table, cols, rows in tables:
            conn.execute(f'CREATE TABLE "{table}" ({", ".join(f"{c} {t}" for c, t in cols)})')
            conn.executemany(f'INSERT INTO "{table}" VALUES ({", ".join("?" * len(cols))})', rows)
    cwd = Path(tempfile.mkdtemp(dir=workdir))
    (cwd / "record.jsonl").write_text(RECORDS_JSONL[0])
    before = Path(name).read_bytes()
    code = _invoke([*command, "--db", name], input=SHEETS[1] + "\n\nquit\n", cwd=cwd, target="foreign databases")
    assert code in (0, 1)
    if any(table not in ("game", "event") for table, _, _ in tables):  # tables of another program: refused whole
        assert code == 1 and Path(name).read_bytes() == before, (tables, command)


WRITES = [
    ["new", "another", "--clans", "crab,lion"],
    ["round", "five-player", "-", "--yes"],
    ["setup", "fresh", "-"],
    ["event", "five-player", "board: peace @ lion_capital"],
    ["import", "record.jsonl"],
]


@examples(60)
@given(st.integers(1, 10**6), st.binary(min_size=64, max_size=64), st.sampled_from(WRITES))
def test_a_database_with_a_corrupt_page_takes_no_write(workdir, where, garbage, command):
    """A page of the game log overwritten: when SQLite's own check sees it, a command that would write
    refuses (exit 1, pointing at `referee doctor`) and the file is left exactly as it was."""
    db = _copy(workdir)
    raw = bytearray(db.read_bytes())
    page = 4096
    start = (1 + where % (len(raw) // page - 1)) * page  # any page but the first (the schema's header)
    raw[start : start + page] = (garbage * (page // len(garbage)))[:page]
    db.write_bytes(bytes(raw))
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        try:
            damaged = conn.execute("PRAGMA quick_check").fetchone()[0] != "ok"
        except sqlite3.DatabaseError:
            damaged = True
    cwd = Path(tempfile.mkdtemp(dir=workdir))
    (cwd / "record.jsonl").write_text(RECORDS_JSONL[0])
    code = _invoke([*command, "--db", str(db)], input=SHEETS[1], cwd=cwd, target="corrupt pages")
    if damaged:
        assert code == 1 and db.read_bytes() == bytes(raw), command


def _not_utf8() -> st.SearchStrategy[str]:
    """An argument as Python hands it over when its bytes are not UTF-8 (surrogate escapes), or a lone
    surrogate, alone or inside ordinary text."""
    escaped = (
        st.binary(min_size=1, max_size=8)
        .filter(lambda b: not _decodes(b))
        .map(lambda b: b.decode("utf-8", "surrogateescape"))
    )
    lone = st.integers(0xD800, 0xDFFF).map(chr)
    bad = st.one_of(escaped, lone)
    return st.one_of(bad, st.tuples(st.sampled_from(GAMES[:3] + ["sheet.txt", "crab"]), bad).map("".join))


def _decodes(raw: bytes) -> bool:
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


@examples(150)
@given(
    st.sampled_from(sorted(SIGNATURES)),
    st.lists(st.one_of(st.sampled_from(VALUES_ANY), _not_utf8()), max_size=3),
    _not_utf8(),
    st.integers(0, 3),
)
def test_arguments_that_are_not_utf8_are_a_usage_error(workdir, name, others, bad, at):
    """Every command, with a game id, file name or option value that is not UTF-8: a usage error (exit 2)
    naming the argument, never a traceback."""
    db, cwd = _setting_up(workdir, {"sheet.txt": SHEETS[0]})
    argv = [name, *others]
    argv.insert(1 + at % len(argv), bad)
    code = _invoke(argv, input="", env={"REFEREE_DB": str(db)}, cwd=cwd, target="non-UTF-8 arguments")
    assert code == 2, argv


# --- the real entry point: a sample of the nastiest inputs, with true exit codes and stderr ------------
def test_nasty_inputs_at_the_real_entry_point(tmp_path):
    damaged = tmp_path / "damaged.db"
    shutil.copyfile(_template(tmp_path), damaged)
    raw = bytearray(damaged.read_bytes())
    raw[4096:] = bytes(len(raw) - 4096)  # every page but the schema's
    damaged.write_bytes(bytes(raw))
    foreign = tmp_path / "foreign.db"
    with sqlite3.connect(foreign) as conn:
        conn.execute("CREATE TABLE game (id TEXT, created_at TEXT)")
        conn.execute("INSERT INTO game VALUES (NULL, 5)")
    cases = [
        (["games", "--db", str(damaged)], None),
        (["verify", "five-player", "--db", str(damaged)], None),
        (["games", "--db", str(foreign)], None),
        (["show", "x", "--db", str(foreign)], None),
        (["games", "--db", "nosuchdriver://x"], None),
        (["games", "--db", "postgresql+nosuchdriver://x@127.0.0.1/x"], None),
        (["games", "--db", "/proc/nonexistent/dir/x.db"], None),  # /proc: no folder can be made there
        (["games", "--db", str(tmp_path)], None),
        (["round", "five-player", "-", "--yes", "--db", str(_template(tmp_path))], "\x00\xff\ufffe" * 50),
        (["export", "over", "-o", str(tmp_path / "missing" / "x.jsonl"), "--db", str(_template(tmp_path))], None),
        (["board", "over", "--svg", str(tmp_path), "--db", str(_template(tmp_path))], None),
        (["import", "/dev/null", "--db", str(_template(tmp_path))], None),
        (["adjudicate", str(tmp_path), "--board", str(tmp_path), "--clans", "crab"], None),
    ]
    for args, stdin in cases:
        result = run_in_process([*args], stdin=stdin, cwd=tmp_path)
        assert "Traceback" not in result.stderr, (args, result.stderr)
        assert result.returncode in (1, 2), (args, result.returncode, result.stderr)
        assert result.stderr.startswith(("error: ", "Usage:")), (args, result.stderr)


# --- hostile strings in every place a user types one (issue 28) -------------------------------------------------
HOSTILE = [
    "[/]",
    "[/x]",
    "[bold red]x",
    "[link=https://evil.example]pay here[/link]",
    "\\[/]",
    "x\\",  # Rich markup
    "\x1b[2K\x1b[1A",
    "\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\",
    "\x9b31m",
    "\x07\x08\x7f",  # ANSI, OSC, C1
    "\u202eevil\u202c",
    "\u2066x\u2069",
    "\u200fy",  # bidirectional overrides and marks
    '=HYPERLINK("https://evil.example","x")',
    "+cmd|' /C calc'!A0",
    "-2+3",
    "@SUM(1+1)",
    "\tx",
    "\rx",  # formulas
    "9" * 5000,
    "1e999999",
    "-" + "9" * 400,  # huge numbers
    "[" * 3000,
    "{" * 3000,
    '{"a":' * 200,  # deep nesting
    "two\nlines",
    "a\r\nb",
    "\u2028",
    "\x00",
    "",
]
RAW = ("\x1b", "\x9b", "\u202e", "\u2066", "\x07")


def hostile_text() -> st.SearchStrategy[str]:
    """A hostile string from the corpus, alone, between ordinary words, or two joined."""
    one = st.sampled_from(HOSTILE)
    return st.one_of(
        one, st.builds(lambda a, w, b: f"{w}{a}{b}", one, st.sampled_from(["", "Aiko ", "typo "]), one), st.text()
    )


def _hostile_outcome(result) -> None:
    """A result, a RefereeError (one line at the real entry point) or a usage error; nothing raw printed."""
    assert result.exit_code in (0, 1, 2), result.output  # a traceback is raised into the test by the runner
    if result.exit_code == 1 and result.stderr:  # a refusal's line (a failing casebook case says none)
        assert result.stderr.startswith("error: "), result.stderr
    assert not any(c in result.output for c in RAW), repr(result.output)


def _events(db, game):
    with Store(db) as store:
        return len(store.events(game))


# Each property below runs on SQLite with its full count of examples and on PostgreSQL with fewer, beside the
# strings PostgreSQL alone treats apart (a NUL it refuses in text, escapes and marks): what a string does to a
# command is the same on both backends but for what the backend stores, and PostgreSQL's store is tested whole
# in tests/store/test_event_store.py. The deep profile (bench/fuzz.py) multiplies both counts.
PG_HOSTILE = "\x00", "a\x00b", "\x1b[2J\x1b[31mred", "\u202eevil", "\x9b31m", "\u2066x\x07"


@examples(40)
@given(name=hostile_text(), title=hostile_text(), reason=hostile_text(), note=hostile_text())
def test_hostile_strings_in_every_game_command_never_crash_nor_reach_the_terminal(tmp_path, name, title, reason, note):
    _hostile_game_commands(
        f"{tmp_path / 'games.db'}.{abs(hash((name, title, reason, note)))}", name, title, reason, note
    )


@examples(10)
@example(*PG_HOSTILE[:4]).via("the strings PostgreSQL treats apart")
@example(*PG_HOSTILE[2:]).via("the strings PostgreSQL treats apart")
@given(name=hostile_text(), title=hostile_text(), reason=hostile_text(), note=hostile_text())
def test_hostile_strings_in_every_game_command_on_postgresql(pg_url, name, title, reason, note):
    _hostile_game_commands(pg_url, name, title, reason, note)


def _hostile_game_commands(db: str, name: str, title: str, reason: str, note: str) -> None:
    game = f"h{abs(hash((name, title))) % 10**8}"
    made = runner.invoke(
        app,
        [
            "new",
            game,
            "--clans",
            "crab,crane",
            "--partial-setup",
            "--event",
            title,
            "--players",
            f"crab={name}",
            "--db",
            db,
        ],
    )
    _hostile_outcome(made)
    if made.exit_code != 0:
        return
    for args, stdin in (
        (["round", game, "-", "--yes"], "crab: army 1 @ crab_central\n"),
        (["event", game, f"crab: passes # {note}"], None),
        (["round", game, "-", "--yes"], f"crab: army 1 @ crab_central  # {note}\n"),
        (["correct", game, "1", "-", "--reason", reason], "crab: army 2 @ crab_central\n"),
        (["retract", game, "--reason", reason], None),
        (["event", game, note], None),
        (["round", game, "-", "--yes"], note),
    ):
        before = _events(db, game)
        result = runner.invoke(app, [*args, "--db", db], input=stdin)
        _hostile_outcome(result)
        if result.exit_code != 0:
            assert _events(db, game) == before, args  # nothing recorded on a refusal
    for args in (["games"], ["show", game], ["score", game], ["replay", game], ["verify", game], ["board", game]):
        _hostile_outcome(runner.invoke(app, [*args, "--db", db]))
    record = runner.invoke(app, ["export", game, "--format", "text", "--db", db])
    assert record.exit_code == 0 and not any(c in record.output for c in RAW), repr(record.output)
    for header in ("Event", "Players"):  # the record's headers, hostile, read back
        hostile = f'[{header} "{title.replace(chr(10), " ")}"]'
        text = re.sub(rf'\[{header} "[^\n]*"\]', lambda _: hostile, record.output)  # noqa: B023
        _allowed(parse_records, text)


@examples(25)
@given(names=st.lists(hostile_text(), min_size=3, max_size=5), reason=hostile_text(), words=hostile_text())
def test_hostile_strings_in_every_tournament_command_never_crash_nor_reach_a_terminal_or_csv(
    tmp_path, names, reason, words
):
    _hostile_tournament_commands(f"{tmp_path / 'games.db'}.{abs(hash((tuple(names), reason)))}", names, reason, words)


@examples(5)
@example(list(PG_HOSTILE[:3]), PG_HOSTILE[3], PG_HOSTILE[0]).via("the strings PostgreSQL treats apart")
@example(list(PG_HOSTILE[3:]), PG_HOSTILE[0], PG_HOSTILE[4]).via("the strings PostgreSQL treats apart")
@given(names=st.lists(hostile_text(), min_size=3, max_size=5), reason=hostile_text(), words=hostile_text())
def test_hostile_strings_in_every_tournament_command_on_postgresql(pg_url, names, reason, words):
    _hostile_tournament_commands(pg_url, names, reason, words)


def _hostile_tournament_commands(db: str, names: list[str], reason: str, words: str) -> None:
    import csv as csv_module
    import io

    tid = f"t{abs(hash(tuple(names))) % 10**8}"
    made = runner.invoke(app, ["tournament", "new", tid, "--name", words or "x", "--date", "2026-11-21", "--db", db])
    _hostile_outcome(made)
    if made.exit_code != 0:
        return
    roster = Path(tempfile.mkdtemp()) / "players.csv"
    with roster.open("w", newline="", encoding="utf-8", errors="surrogatepass") as f:
        w = csv_module.writer(f)
        w.writerow(["name", "club", "id"])
        for i, name in enumerate(names):
            w.writerow([name, reason, f"p{i}"])
    for args in (
        ["tournament", "players", "add", tid, "--csv", str(roster)],
        *(["tournament", "players", "add", tid, name] for name in names),
        ["tournament", "players", "drop", tid, "p0", "--reason", reason],
        ["tournament", "seat", tid, "1"],
        ["tournament", "announce", tid, words or "x"],
        ["tournament", "seating", tid, "1"],
        ["tournament", "seating", tid, "1", "--by", "player"],
        ["tournament", "status", tid, "1"],
        ["tournament", "standings", tid],
        ["tournament", "players", "list", tid],
    ):
        _hostile_outcome(runner.invoke(app, [*args, "--db", db]))
    out = Path(tempfile.mkdtemp())
    for what, args in (
        ("standings", ["standings", tid]),
        ("seating", ["seating", tid, "1"]),
        ("results", ["results", tid]),
    ):
        written = runner.invoke(app, ["tournament", *args, "--csv", str(out / f"{what}.csv"), "--db", db])
        _hostile_outcome(written)
        if written.exit_code == 0 and (out / f"{what}.csv").exists():
            rows = list(csv_module.reader(io.StringIO((out / f"{what}.csv").read_text("utf-8"))))
            for cell in (c for row in rows for c in row):
                assert not cell.startswith(("=", "+", "@", "\t", "\r")), cell
                assert not cell.startswith("-") or cell[1:].replace(".", "").isdigit(), cell
    sheet = runner.invoke(app, ["tournament", "seating", tid, "1", "--sheet", str(out / "sheet.txt"), "--db", db])
    _hostile_outcome(sheet)
    if (out / "sheet.txt").exists():
        assert not any(c in (out / "sheet.txt").read_text("utf-8") for c in RAW)
    shutil.rmtree(out, ignore_errors=True)
    shutil.rmtree(roster.parent, ignore_errors=True)
