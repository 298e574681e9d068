"""The command line, driven as a user would: in process through its error boundary (tests/support/entry_point.py),
and the installed entry point as its own process."""

import subprocess
import sys
from pathlib import Path

from referee.cli.app import app
from tests.support import manual
from tests.support.entry_point import run_in_process, runner

ROOT = Path(__file__).parents[2]
EXAMPLES = ROOT / "examples"
ROUND1 = [  # the example round: its sheet, the board before it, the clans playing
    "adjudicate",
    str(EXAMPLES / "round1.txt"),
    "--board",
    str(EXAMPLES / "board-round1.txt"),
    "--clans",
    "dragon,phoenix,scorpion",
]


def _run(*args, stdin=None):
    """The installed entry point, so that the error boundary and exit codes are the real ones."""
    return subprocess.run(
        [sys.executable, "-m", "referee", *args], input=stdin, capture_output=True, text=True, cwd=ROOT
    )


def test_adjudicate_prints_the_report_and_board_changes():
    result = runner.invoke(app, ROUND1)
    assert result.exit_code == 0, result.output
    assert "Battle for dragon_south" in result.output
    assert "place 1 phoenix control token(s) facedown in dragon_south" in result.output
    assert "place a scorched token in lion_capital" in result.output


def test_the_readme_worked_example_is_what_the_command_prints():
    """The README's sheet -> report example (which the manual's worked example includes,
    docs/battle-for-rokugan/moderator.md) is the real output, line for line (the docs cannot drift)."""
    import os

    [command] = manual.commands("README.md", "### Battle for Rokugan: one round")
    readme = manual.read("README.md")
    shown = readme.split("Round 1 ────", 1)[1].split("```", 1)[0]
    result = run_in_process([*command.split()[1:]], cwd=ROOT, env={**os.environ, "COLUMNS": "100"})
    assert result.returncode == 0, result.stderr
    printed = result.stdout.split("Round 1 ────", 1)[1]
    assert [line.rstrip() for line in printed.splitlines()[1:]] == [line.rstrip() for line in shown.splitlines()[1:]]


def test_the_report_shows_each_token_on_one_line_and_each_battle_with_its_arithmetic():
    """PRODUCT.md's round report: a token's fate and ruling on its line; a battle's sides with their parts
    and totals, then the outcome and its rulings (p.9 step 5, R-14/R-15)."""
    from referee.log import Fold, golden

    log = golden("five-player")
    lines = "\n".join(log[6].data["entries"])
    from referee.cli import render
    from referee.log.replay import round_outcome

    _, state, report = round_outcome(Fold.of(log[:6]), lines)
    with render.console.capture() as captured:
        render.round_report(report, state, seal="ABCD-1234")
    out = captured.get().splitlines()
    assert (
        "  unicorn: army 2 unicorn_southeast > unicorn_southwest + blessing 2  attacked  attacked "
        "unicorn_southwest  R-14" in out
    )
    assert any(
        line.startswith("  crab: bluff @ crab_capital") and line.endswith("bluff: returned to its owner's hand (p.9)")
        for line in out
    )
    battle = out.index("Battle for unicorn_southwest")
    assert out[battle + 1].split() == ["scorpion", "(defender)", "army", "1", "(centre)", "1", "=", "1"]
    assert out[battle + 2].split() == [
        "unicorn",
        "(attacker)",
        "army",
        "2",
        "(from",
        "unicorn_southeast)",
        "2",
        "+",
        "blessing",
        "2",
        "on",
        "army",
        "2",
        "2",
        "=",
        "4",
    ]
    assert out[battle + 3] == "  → captured: unicorn 4 beats scorpion defence 1  R-14, R-15"
    assert out.index("On the board:") > battle and out[-1] == "seal ABCD-1234"


def test_adjudicate_json():
    import json

    result = runner.invoke(app, [*ROUND1, "--json"])
    data = json.loads(result.output)
    assert data["state"]["control"]["dragon_south"][0] == "phoenix"
    assert data["report"]["battles"][0]["winner"] == "phoenix"


def test_refused_entry_is_one_line_with_round_clan_and_ruling_exit_1():
    result = _run(
        "adjudicate",
        "-",
        "--board",
        str(EXAMPLES / "board-round1.txt"),
        "--clans",
        "dragon,phoenix,scorpion",
        "--round",
        "3",
        stdin="dragon: army 5 @ dragon_capital\ndragon: army 5 @ dragon_south\n",
    )
    assert result.returncode == 1
    assert result.stderr.strip().splitlines() == [
        'error: round 3, dragon: "army 5 @ dragon_south": Dragon has only 1 army 5 in all, already '
        "placed: dragon: army 5 @ dragon_capital (R-08)"
    ]
    assert "Traceback" not in result.stderr


def test_unreadable_line_names_line_and_input_exit_1():
    result = _run(
        "adjudicate",
        "-",
        "--board",
        str(EXAMPLES / "board-round1.txt"),
        "--clans",
        "dragon,phoenix",
        stdin="# sheet\ncrab army 3\n",
    )
    assert result.returncode == 1
    assert 'error: line 2: "crab army 3": not understood' in result.stderr
    assert "hint: expected:" in result.stderr


def test_missing_file_is_a_clear_error():
    result = _run("adjudicate", "nowhere.txt", "--board", str(EXAMPLES / "board-round1.txt"), "--clans", "dragon")
    assert result.returncode == 1
    assert result.stderr.strip() == "error: nowhere.txt: no such file"


def test_usage_error_exits_2():
    result = _run("adjudicate")
    assert result.returncode == 2
    assert "Missing argument" in result.stderr
    assert "Traceback" not in result.stderr


def test_casebook_command_runs_the_casebook():
    result = runner.invoke(app, ["casebook", str(ROOT / "referee" / "data" / "casebook"), "-k", "p9-battle-example"])
    assert result.exit_code == 0, result.output
    assert "1 passed, 0 failed" in result.output


def test_casebook_command_fails_on_a_wrong_case(tmp_path):
    (tmp_path / "wrong.toml").write_text(
        '[[case]]\nid = "wrong"\ncites = ["p.9"]\nclans = ["crab", "lion"]\n'
        'board = "crab: control @ crab_capital\\nlion: control @ lion_capital"\n'
        'entries = "lion: shinobi 1 @ crab_capital"\n[case.expect]\ncontrol = { crab_capital = "lion" }\n'
    )
    result = runner.invoke(app, ["casebook", str(tmp_path)])
    assert result.exit_code == 1
    assert "FAIL wrong" in result.output and "expected 'lion', got 'crab'" in result.output


def test_the_tournament_commands_are_built_only_when_named():
    """`referee --help` and the other commands do not build `referee tournament ...` (33 commands whose
    signatures Typer would read at every start), yet list it with the group's own help, in its place, and
    a mistyped name is still offered it."""
    listing = _run("--help")
    assert listing.returncode == 0
    names = [line.split()[0] for line in listing.stdout.split("Commands:")[1].splitlines() if line.strip()]
    assert names.index("table") + 1 == names.index("tournament") == names.index("rules") - 1
    own = runner.invoke(app, ["tournament", "--help"])
    assert own.exit_code == 0
    summary = own.output.split("\n\n")[1].strip()  # the group's help paragraph, after its usage line
    shown_line = next(line for line in listing.stdout.splitlines() if line.strip().startswith("tournament "))
    assert summary.startswith(shown_line.split("tournament", 1)[1].strip().removesuffix("..."))
    assert "seat" in own.output and "post" in own.output  # the venue's commands join the group
    check = (
        "import sys, contextlib, io; sys.argv = ['referee', '--help']\n"
        "from referee.cli.app import main\n"
        "with contextlib.redirect_stdout(io.StringIO()), contextlib.suppress(SystemExit): main()\n"
        "print(sorted(m for m in sys.modules if m in ('referee.cli.tournament', 'referee.cli.venue')))"
    )
    loaded = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, cwd=ROOT)
    assert loaded.stdout.strip() == "[]", loaded.stderr
    typo = _run("tournamnt")
    assert typo.returncode == 2 and "Did you mean 'tournament'?" in typo.stderr


def test_the_tool_says_it_serves_three_games():
    """Issue 33: `referee --help`, the package's description (pyproject.toml), the README's opening and the
    manual's front page name the three games the tool serves, each with the command group that serves it."""
    import tomllib

    listing = run_in_process(["--help"])
    assert listing.returncode == 0
    intro = " ".join(listing.stdout.split("Options:")[0].split())
    described = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["description"]
    opening = manual.read("README.md").split("## Two commands")[0]
    front = manual.read("docs/index.md").split("## Two commands")[0]
    for text in (intro, described, opening, front):
        for game in ("Battle for Rokugan", "Legend of the Five Rings card game", "Champions of Rokugan"):
            assert game in " ".join(text.split()), (game, text)
    commands = [line.split()[0] for line in listing.stdout.split("Commands:")[1].splitlines() if line.strip()]
    assert {"ccg", "champions", "tournament"} <= set(commands)
    assert all(f"`referee {g}`" in intro for g in ("ccg", "tournament swiss", "champions"))
