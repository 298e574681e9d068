"""Bad input to the tournament commands never crashes (hypothesis): the only outcomes are a result, a refusal
(a RefereeError: one line, exit 1) or a usage error (exit 2)."""

import shutil

import pytest
from hypothesis import given, strategies as st

from referee.cli.app import app
from tests.support.entry_point import runner
from tests.support.fuzzing import examples

WORDS = [
    "cup",
    "P1",
    "P2",
    "Nobody",
    "1",
    "2",
    "0",
    "-3",
    "99",
    "crab",
    "P1=3",
    "P1=x",
    "P2=4:1:1",
    "=",
    "a=b=c",
    "3/2",
    "1.5",
    "nan",
    "cup-r1-t1",
    "cup-r1-t2",
    "other",
    "--reason",
    "why",
    "",
    " ",
    "é",
    "P1,P2",
    "1,2,3",
]
COMMANDS = [
    ["players", "add", "cup", "{w}"],
    ["players", "add", "cup", "{w}", "--id", "{w}"],
    ["players", "add", "cup", "--csv", "{file}"],
    ["players", "drop", "cup", "{w}"],
    ["players", "reinstate", "cup", "{w}"],
    ["rollcall", "cup", "{w}", "--absent", "{w}"],
    ["seat", "cup", "{w}"],
    ["seat", "cup", "2", "--from", "{file}"],
    ["seat", "cup", "2", "--preferences", "{file}"],
    ["amend", "cup", "{w}", "--swap", "{w}", "{w}", "--reason", "{w}"],
    ["amend", "cup", "1", "--replace", "{w}", "{w}", "--reason", "x"],
    ["amend", "cup", "1", "--reseat", "{w}", "--reason", "{w}"],
    ["call", "cup", "{w}", "--reason", "{w}", "--objective", "{w}"],
    ["result", "cup", "{w}", "{w}", "{w}", "--reason", "{w}"],
    ["adjust", "cup", "{w}", "{w}", "--reason", "{w}"],
    ["status", "cup", "{w}"],
    ["standings", "cup", "--explain", "{w}"],
    ["close", "cup", "{w}"],
    ["final", "cup", "{w}", "--pick", "{w}"],
    ["import", "{file}"],
    ["verify", "{file}"],
    ["seating", "cup", "{w}", "--by", "{w}"],
    ["new", "{w}", "--name", "{w}", "--sizes", "{w}", "--points", "{w}"],
    ["new", "x{w}", "--name", "n", "--tiebreaks", "{w}", "--scoring", "{w}"],
    ["apart", "cup", "{w}", "{w}"],
    ["fix", "cup", "{w}", "{w}"],
]


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    folder = tmp_path_factory.mktemp("fuzz")
    db = str(folder / "base.db")
    for args in (
        ["new", "cup", "--name", "Cup", "--rounds", "2"],
        *[["players", "add", "cup", f"P{i}"] for i in range(9)],
        ["seat", "cup", "1"],
    ):
        assert runner.invoke(app, ["tournament", *args, "--db", db]).exit_code == 0
    return folder, db


@examples(150)
@given(
    st.sampled_from(COMMANDS),
    st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=8)), min_size=8, max_size=8),
    st.one_of(
        st.sampled_from(
            [
                "name,club\nA,\n",
                "table,seat,player,clan\n1,1,P1,crab\n",
                "player,clans\nP1,crab;x\n",
                "name\n\n\n",
                "\x00\xff",
                "{}\n",
                "a,b\n1\n",
            ]
        ),
        st.text(max_size=40),
    ),
)
def test_tournament_commands_never_crash(base, command, words, content):
    folder, db = base
    work = folder / "work.db"
    shutil.copyfile(db, work)
    data = folder / "data.csv"
    data.write_text(content, "utf-8", errors="surrogatepass")
    it = iter(words)
    args = [a.replace("{w}", next(it, "x")).replace("{file}", str(data)) for a in command]
    result = runner.invoke(app, ["tournament", *args, "--db", str(work)])
    assert result.exit_code in (0, 1, 2), (args, result.output)  # a traceback is raised into the test
    if result.exit_code == 1 and result.stderr:  # one error line (and its hint)
        assert [line for line in result.stderr.splitlines() if not line.startswith("hint: ")] == [
            result.stderr.splitlines()[0]
        ] and result.stderr.startswith("error: "), (args, result.stderr)
