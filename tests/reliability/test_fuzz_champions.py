"""Champions of Rokugan's inputs are hostile too: random and mutated reports, setup sheets, casebook files and
command lines end in a result or a clear refusal (exit 1 with a message, exit 2 for usage), never a crash."""

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from referee.champions import ChampionsError, apply, parse_line, parse_setup, set_up
from referee.champions_cases import CaseError, load_cases
from referee.cli.app import app
from tests.support.entry_point import runner
from tests.support.fuzzing import examples

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "examples" / "champions"
REPORTS = [line for p in sorted(EXAMPLES.glob("*-*.txt")) for line in p.read_text().splitlines() if ":" in line]
SETUP = (EXAMPLES / "fallen-lion.txt").read_text()
FUZZ = examples(150)


@st.composite
def mutated(draw, corpus: list[str]) -> str:
    text = draw(st.sampled_from(corpus))
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(text)))
        kind = draw(st.sampled_from(["insert", "delete", "digit"]))
        if kind == "insert":
            text = text[:at] + draw(st.text(max_size=4)) + text[at:]
        elif kind == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 5)) :]
        else:
            text = text[:at] + draw(st.sampled_from(["-", "+", "9", "99", "0", "/", ","])) + text[at:]
    return text


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("champions-fuzz")


@FUZZ
@given(st.one_of(mutated(REPORTS), st.text(max_size=40)))
def test_a_report_is_read_or_refused_clearly(line):
    scenario = set_up(parse_setup(SETUP))
    names = tuple(c.name for c in scenario.champions)
    try:
        apply(scenario, parse_line(line, names))
    except ChampionsError as exc:
        assert str(exc).strip()


@FUZZ
@given(st.one_of(mutated([SETUP]), st.text(max_size=80)))
def test_a_setup_sheet_is_read_or_refused_clearly(text):
    try:
        set_up(parse_setup(text))
    except ChampionsError as exc:
        assert str(exc).strip()


CASE_FILES = sorted((ROOT / "referee" / "data" / "casebook" / "champions").glob("*.toml"))


@FUZZ
@given(mutated([p.read_text()[:3000] for p in CASE_FILES]))
def test_a_malformed_casebook_file_is_a_clear_error(workdir, text):
    folder = Path(tempfile.mkdtemp(dir=workdir))
    (folder / "fuzzed.toml").write_text(text, "utf-8")
    try:
        load_cases(folder)
    except CaseError as exc:
        assert "fuzzed.toml" in str(exc)


VALUES = ["g", "c", "2", "3", "-", "met", "missed", "x", "--sheet", "Matsu Tsuko: honor +1", "turn end", "Ann,Ben"]
SUBCOMMANDS = [
    ["new"], ["event"], ["turn"], ["end"], ["show"], ["replay"], ["verify"], ["export"], ["import"], ["correct"],
    ["retract"], ["demo"], ["campaign", "new"], ["campaign", "log"], ["campaign", "end"], ["campaign", "show"],
]  # fmt: skip
OPTIONS = ["--objectives", "--group-honor", "--reason", "--players", "--json", "--sheet", "-o"]


@FUZZ
@given(
    st.sampled_from(SUBCOMMANDS),
    st.lists(st.one_of(st.sampled_from(VALUES + OPTIONS), mutated(REPORTS), st.text(max_size=6)), max_size=5),
    st.one_of(st.none(), mutated(REPORTS + [SETUP])),
)
def test_any_champions_command_line_ends_cleanly(workdir, sub, args, stdin):
    cwd = Path(tempfile.mkdtemp(dir=workdir))
    (cwd / "setup.txt").write_text(SETUP)
    db = str(cwd / "r.db")
    _exit(["champions", "new", "g", "setup.txt"], None, db, cwd)
    _exit(["champions", "campaign", "new", "c", "--players", "Ann,Ben,Cho"], None, db, cwd)
    _exit(["champions", *sub, *args], stdin, db, cwd)


def _exit(args: list[str], stdin: str | None, db: str, cwd: Path) -> int:
    old = Path.cwd()
    os.chdir(cwd)
    try:
        result = runner.invoke(app, args, input=stdin, env={"REFEREE_DB": db})
    finally:
        os.chdir(old)
    assert result.exit_code in (0, 1, 2), (args, result.exit_code)  # a traceback is raised into the test
    if result.exit_code == 1 and result.stderr:  # a refusal's line (a failing casebook case says none)
        assert result.stderr.startswith("error: ") and result.stderr[7:].strip(), (args, result.stderr)
    return result.exit_code
